package pagetest

import (
	"slices"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp/kb"
)

// An agent's editor_open makes a tab appear without a reload; the person
// types and saves with Ctrl-S; the agent's next save with the version it
// had is a conflict, and the person's text stays on disk.
func TestAgentOpensPersonSavesAgentConflicts(t *testing.T) {
	e := newEnv(t, map[string]string{"notes.txt": "alpha\nbeta\n"}, opts{})
	a := e.agent("agent")
	opened := a.call("editor_open", map[string]any{"path": "notes.txt"})
	old := opened["version"].(string)

	e.click("tab", "notes.txt")
	if got := e.attr("tab", "notes.txt", "aria-selected"); got != "true" {
		t.Fatalf("clicked tab aria-selected=%q", got)
	}
	e.waitEditor("beta", "the file's text in the editor")
	e.focusEditor()
	e.typeText("person: ")
	e.key("s", input.ModifierCtrl)
	e.waitFile("notes.txt", "person: alpha\nbeta\n")

	res := a.call("editor_save", map[string]any{"path": "notes.txt", "content": "agent\n", "expected_version": old})
	if res["conflict"] != true || res["saved"] == true {
		t.Fatalf("the agent's save over the person's: %v", res)
	}
	if got := e.read("notes.txt"); got != "person: alpha\nbeta\n" {
		t.Fatalf("disk after the refused save: %q", got)
	}
}

// Closing a tab in the page closes the buffer for every surface; expanding
// a folder in the page is in the record; the agent's close removes the tab.
func TestCloseAndExpandAreShared(t *testing.T) {
	e := newEnv(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n", "src/deep/c.go": "package deep\n"}, opts{})
	a := e.agent("agent")
	a.call("editor_open", map[string]any{"path": "a.txt"})
	a.call("editor_open", map[string]any{"path": "b.txt"})
	e.node("tab", "a.txt")
	e.node("tab", "b.txt")

	e.click("button", "Close a.txt")
	e.gone("tab", "a.txt")
	if got := a.bufferPaths(); !slices.Equal(got, []string{"b.txt"}) {
		t.Fatalf("buffers after closing a.txt in the page: %v", got)
	}

	e.click("treeitem", "src")
	e.node("treeitem", "deep")
	waitFor(t, "src expanded in the record", func() bool {
		ex := a.call("editor_workspace_get", map[string]any{})["expanded"].([]any)
		return slices.Contains(ex, any("src"))
	})
	// And the other way: an agent's expand shows in the page.
	a.call("editor_tree", map[string]any{"path": "src/deep", "expand": []any{"src/deep"}, "max_depth": 1})
	e.node("treeitem", "c.go")
	if got := e.attr("treeitem", "deep", "aria-expanded"); got != "true" {
		t.Fatalf("deep aria-expanded=%q after the agent expanded it", got)
	}

	a.call("editor_buffers_close", map[string]any{"path": "b.txt"})
	e.gone("tab", "b.txt")
}

// Find and replace, undo and redo are the editor's own (CodeMirror), and the
// result saves like any edit.
func TestFindReplaceUndoRedo(t *testing.T) {
	e := newEnv(t, map[string]string{"r.txt": "alpha one\nalpha two\n"}, opts{})
	e.click("treeitem", "r.txt")
	e.waitEditor("alpha two", "r.txt")
	e.focusEditor()
	e.key("f", input.ModifierCtrl)
	e.node("textbox", "Find")
	e.typeText("alpha")
	e.click("textbox", "Replace")
	e.typeText("omega")
	e.click("button", "replace all")
	e.waitEditor("omega two", "the replacement")
	if got := e.editorText(); got != "omega one\nomega two\n" {
		t.Fatalf("after replace all: %q", got)
	}
	e.key(kb.Escape)
	e.focusEditor()
	e.key("z", input.ModifierCtrl)
	e.waitEditor("alpha two", "undo")
	e.key("z", input.ModifierCtrl|input.ModifierShift)
	e.waitEditor("omega two", "redo")
	e.key("s", input.ModifierCtrl)
	e.waitFile("r.txt", "omega one\nomega two\n")
}
