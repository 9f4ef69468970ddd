package pagetest

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp/kb"
)

// Another caller switches the workspace root (editor::workspace::open):
// the page follows (root, tree, tabs), its relative writes land in the new
// root rather than failing with root_changed, and a tab with unsaved edits
// of the old root stays, marked, under its absolute path: its edits never
// attach to the new root's file of the same name, Save writes them where
// they were made, and when the old root comes back the tab is its own again.
func TestRootSwitchFollowedKeepingDrafts(t *testing.T) {
	e := newEnv(t, map[string]string{"a.txt": "root a\n", "sub/a.txt": "sub a\n", "sub/b.txt": "sub b\n"}, opts{})
	a := e.agent("agent")
	a.call("editor_open", map[string]any{"path": "a.txt"})
	e.click("tab", "a.txt")
	e.waitEditor("root a", "a.txt")
	e.focusEditor()
	e.typeText("mine ")
	waitFor(t, "the draft", func() bool { return a.dirty("a.txt") })
	sub := e.abs("sub")
	oldTab := fmt.Sprintf(`.tabs [role=tab][data-path=%q]`, e.abs("a.txt"))
	oldTabJS := fmt.Sprintf(`document.querySelector(%q)`, oldTab)

	a.call("editor_workspace_open", map[string]any{"root": "sub"})
	e.waitJS(fmt.Sprintf(`document.querySelector(".status .root").textContent === %q`, sub), "the status bar to show the new root")
	e.node("treeitem", "b.txt")
	e.waitJS(oldTabJS+`?.title.includes("no longer the workspace root")`, "the old root's dirty tab kept, marked")
	if got := e.text("alert", ""); !strings.Contains(got, e.root) || !strings.Contains(got, "kept") {
		t.Fatalf("banner on the old root's tab: %q", got)
	}
	if got := e.editorText(); got != "mine root a\n" {
		t.Fatalf("the kept tab's text: %q", got)
	}

	// The new root's a.txt is another tab, with its own text; the person's
	// relative save of it is written there.
	a.call("editor_open", map[string]any{"path": "a.txt"})
	e.waitJS(`document.querySelector('.tabs [role=tab][data-path="a.txt"]')`, "the new root's a.txt as its own tab")
	e.clickAt(`.tabs [role=tab][data-path="a.txt"]`)
	e.waitEditor("sub a", "the new root's a.txt")
	e.focusEditor()
	e.typeText("new ")
	e.key("s", input.ModifierCtrl)
	e.waitFile("sub/a.txt", "new sub a\n")
	if got := e.read("a.txt"); got != "root a\n" {
		t.Fatalf("the old root's a.txt changed: %q", got)
	}

	// The old root comes back: the kept tab is its buffer's again, edits
	// and all, and saves as usual.
	a.call("editor_workspace_open", map[string]any{"root": e.root})
	e.waitJS(fmt.Sprintf(`document.querySelector(".status .root").textContent === %q`, e.root), "the status bar back on the first root")
	e.waitJS(`document.querySelector('.tabs [role=tab][data-path="a.txt"]')?.title.includes("unsaved")`, "a.txt back as the root's own dirty tab")
	e.clickAt(`.tabs [role=tab][data-path="a.txt"]`)
	e.waitEditor("mine root a", "the edits back on the first root's a.txt")
	e.gone("alert", "")
	e.focusEditor()
	e.key("s", input.ModifierCtrl)
	e.waitFile("a.txt", "mine root a\n")
	waitFor(t, "the draft cleared by the save", func() bool { return !a.dirty("a.txt") })

	// Switched away again with new edits: Save in the banner writes them
	// to the old root's file, through its absolute path.
	e.focusEditor()
	e.key(kb.End)
	e.typeText("!")
	waitFor(t, "the new draft", func() bool { return a.dirty("a.txt") })
	a.call("editor_workspace_open", map[string]any{"root": "sub"})
	e.waitJS(oldTabJS+`?.title.includes("no longer the workspace root")`, "the tab kept again")
	e.clickAt(oldTab)
	e.click("button", "Save")
	e.waitFile("a.txt", "mine root a!\n")
	// Saved, the file is a buffer of the active root by its absolute path
	// (as any save makes it): the tab stays, a shared, clean one.
	e.waitJS(oldTabJS+`?.title === `+fmt.Sprintf("%q", e.abs("a.txt")), "the saved tab to be a clean shared tab")
	e.gone("alert", "")
	if !slices.Contains(a.bufferPaths(), e.abs("a.txt")) {
		t.Fatalf("the saved file is not a buffer of the active root: %v", a.bufferPaths())
	}
	if got := e.read("sub/a.txt"); got != "new sub a\n" {
		t.Fatalf("the new root's a.txt changed: %q", got)
	}
}
