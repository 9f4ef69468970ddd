package pagetest

import (
	"strings"
	"testing"
)

// `serve --http --open` hands the browser a launch page (a file of the
// state dir) instead of the tokened link: the page it leads to trades its
// one-time code for the token and loads the workspace; the token is in no
// command line, and the code is spent.
func TestOpenLaunchPage(t *testing.T) {
	e := newEnv(t, map[string]string{"a.txt": "hello\n"}, opts{open: true})
	launch := e.opened()
	if !strings.HasPrefix(launch, e.state) || strings.Contains(launch, e.token) {
		t.Fatalf("the opener got %q", launch)
	}
	var href string
	e.js(`location.href`, &href)
	if strings.Contains(href, "code=") || strings.Contains(href, e.token) {
		t.Fatalf("the address bar keeps %q", href)
	}
	e.node("treeitem", "a.txt")
}
