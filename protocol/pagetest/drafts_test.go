package pagetest

import (
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp/kb"
)

// Unsaved edits are a draft in the record: agents see the buffer dirty and
// can read the text; a reload restores them, dirty, over their base; so
// does a server restart (the page reconnects by itself).
func TestDraftsSurviveReloadAndRestart(t *testing.T) {
	e := newEnv(t, map[string]string{"d.txt": "first\nsecond\n"}, opts{})
	a := e.agent("agent")
	a.call("editor_open", map[string]any{"path": "d.txt"})
	e.click("tab", "d.txt")
	e.waitEditor("second", "d.txt's text")
	e.focusEditor()
	e.typeText("unsaved ")
	waitFor(t, "the draft in the record", func() bool { return a.dirty("d.txt") })
	d := a.call("editor_buffers_draft", map[string]any{"path": "d.txt", "read": true})
	if d["content"] != "unsaved first\nsecond\n" || !strings.HasPrefix(d["by"].(string), "editord-page#") {
		t.Fatalf("the draft as an agent reads it: %v", d)
	}

	e.reload()
	e.waitEditor("unsaved first", "the draft restored after a reload")
	if got := e.attr("tab", "d.txt", "title"); !strings.Contains(got, "unsaved") {
		t.Fatalf("restored tab not marked dirty: title %q", got)
	}
	if got := e.read("d.txt"); got != "first\nsecond\n" {
		t.Fatalf("a draft reached the disk: %q", got)
	}

	e.stopServer()
	e.startServer()
	e.waitJS(`document.querySelector(".status .link").textContent === "connected"`, "the page to reconnect after the restart")
	e.reload()
	e.waitEditor("unsaved first", "the draft restored after a server restart")
	// Saving it clears the draft for everyone.
	e.focusEditor()
	e.key("s", input.ModifierCtrl)
	e.waitFile("d.txt", "unsaved first\nsecond\n")
	waitFor(t, "the draft cleared by the save", func() bool { return !a.dirty("d.txt") })
}

// A draft made over a version the disk has since left comes back with the
// banner: nothing silently wins.
func TestRestoredDraftOverOldVersionAsksToMerge(t *testing.T) {
	e := newEnv(t, map[string]string{"o.txt": "v1\n"}, opts{})
	a := e.agent("agent")
	v1 := a.call("editor_open", map[string]any{"path": "o.txt"})["version"].(string)
	e.click("tab", "o.txt")
	e.waitEditor("v1", "o.txt")
	e.focusEditor()
	e.key(kb.End)
	e.typeText(" mine")
	waitFor(t, "the draft", func() bool { return a.dirty("o.txt") })
	// The page goes away (closed browser); the agent saves meanwhile.
	e.navigate("about:blank")
	a.call("editor_save", map[string]any{"path": "o.txt", "content": "v2\n", "expected_version": v1})
	e.navigate(e.base + "/")
	e.waitJS(`document.body.dataset.ready === "true"`, "the page to load again")
	e.click("tab", "o.txt")
	e.waitEditor("v1 mine", "the restored draft")
	if got := e.text("alert", ""); !strings.Contains(got, "restored") || !strings.Contains(got, "changed on disk") {
		t.Fatalf("banner for a stale draft: %q", got)
	}
	e.focusEditor()
	e.key("s", input.ModifierCtrl)
	e.node("dialog", "Merge o.txt")
	if got := e.read("o.txt"); got != "v2\n" {
		t.Fatalf("the stale draft was written: %q", got)
	}
}

// CRLF stays CRLF byte for byte, a BOM stays, and no final newline is added.
func TestBytesKeptExactly(t *testing.T) {
	files := map[string]string{
		"win.txt":  "one\r\ntwo\r\nthree\r\n",
		"bom.txt":  "\uFEFFbom line\nnext\n",
		"tail.txt": "no newline at end\r\nlast",
		"mix.txt":  "lf\ncrlf\r\nend\n",
	}
	e := newEnv(t, files, opts{})
	a := e.agent("agent")
	for _, name := range []string{"win.txt", "bom.txt", "tail.txt", "mix.txt"} {
		a.call("editor_open", map[string]any{"path": name})
	}
	edit := func(name, first string, keys func()) {
		t.Helper()
		e.click("tab", name)
		e.waitEditor(first, name)
		e.focusEditor()
		keys()
		e.key("s", input.ModifierCtrl)
	}
	edit("win.txt", "three", func() {
		e.key(kb.ArrowDown)
		e.key(kb.End)
		e.key(kb.Enter)
		e.typeText("inserted")
	})
	e.waitFile("win.txt", "one\r\ntwo\r\ninserted\r\nthree\r\n")
	edit("bom.txt", "bom line", func() { e.typeText("X") })
	e.waitFile("bom.txt", "\uFEFFXbom line\nnext\n")
	edit("tail.txt", "last", func() {
		e.key(kb.End, input.ModifierCtrl)
		e.typeText("!")
	})
	e.waitFile("tail.txt", "no newline at end\r\nlast!")
	edit("mix.txt", "crlf", func() {
		e.key(kb.End, input.ModifierCtrl)
		e.typeText("#")
	})
	e.waitFile("mix.txt", "lf\ncrlf\r\nend\n#")
}
