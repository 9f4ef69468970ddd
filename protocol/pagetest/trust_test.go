package pagetest

// The edge cases that break a person's trust in the page (issue 23): each
// test here failed on the page before its fix.

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp/kb"
)

// A binary file opened after a text file gets a tab of its own that says
// what it is (its size and kind) and takes no typing: the text file's
// text is not shown under the binary file's name, and nothing typed goes
// anywhere.
func TestBinaryFileTab(t *testing.T) {
	bin := "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + strings.Repeat("\x00\x01\x02", 400)
	e := newEnv(t, map[string]string{"main.go": "package main\n\nfunc main() {}\n", "logo.png": bin}, opts{})
	a := e.agent("agent")
	e.click("treeitem", "main.go")
	e.waitEditor("package main", "main.go")
	e.click("treeitem", "logo.png")
	e.waitJS(`document.querySelector(".tabs [role=tab][aria-selected=true]")?.dataset.path === "logo.png"`, "logo.png's tab to be the active one")
	note := e.text("region", "logo.png")
	for _, want := range []string{"binary", "1,216 bytes"} {
		if !strings.Contains(note, want) {
			t.Fatalf("the binary file's tab says %q, want it to mention %q", note, want)
		}
	}
	var shown bool
	e.js(`[...document.querySelectorAll("#editor-pane .cm-editor")].some((ed) => ed.checkVisibility() && ed.textContent.includes("package main"))`, &shown)
	if shown {
		t.Fatal("the binary file's tab shows main.go's text")
	}
	// A click in its pane and typing: nothing anywhere takes the keys.
	e.clickAt("#editor-pane .binary")
	e.typeText("typed into a binary tab")
	e.key(kb.Enter)
	var editable int
	e.js(`[...document.querySelectorAll("#editor-pane [contenteditable=true]")].filter((x) => x.checkVisibility()).length`, &editable)
	if editable != 0 {
		t.Fatalf("%d editable areas on the binary file's tab", editable)
	}
	if got := e.read("main.go"); got != "package main\n\nfunc main() {}\n" {
		t.Fatalf("main.go after typing on the binary tab: %q", got)
	}
	if a.dirty("main.go") {
		t.Fatal("typing on the binary tab made a draft of main.go")
	}
	// Back to main.go: its own text, unchanged.
	e.click("tab", "main.go")
	e.waitEditor("func main() {}", "main.go again")
	if strings.Contains(e.editorText(), "typed") {
		t.Fatalf("main.go's tab took the typing: %q", e.editorText())
	}
}
