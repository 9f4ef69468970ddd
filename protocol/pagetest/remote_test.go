package pagetest

import (
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
)

// With --allow-remote the page works when opened at the machine's name
// (not a loopback origin): its own origin passes /mcp's origin check, an
// agent's open shows up, and the person's save reaches the disk.
func TestPageOnRemoteOrigin(t *testing.T) {
	e := newEnv(t, map[string]string{"r.txt": "remote\n"}, opts{host: "editord-box.test"})
	var origin string
	e.js(`location.origin`, &origin)
	if !strings.HasPrefix(origin, "http://editord-box.test:") {
		t.Fatalf("the page's origin: %s", origin)
	}
	a := e.agent("agent")
	a.call("editor_open", map[string]any{"path": "r.txt"})
	e.click("tab", "r.txt")
	e.waitEditor("remote", "r.txt over the remote origin")
	e.focusEditor()
	e.typeText("saved ")
	e.key("s", input.ModifierCtrl)
	e.waitFile("r.txt", "saved remote\n")
}
