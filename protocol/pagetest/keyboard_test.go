package pagetest

import (
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp/kb"
)

// activeIs waits until the focused element matches a CSS selector.
func (e *env) activeIs(selector, what string) {
	e.t.Helper()
	e.waitJS(`document.activeElement?.matches(`+jsString(selector)+`)`, what)
}

// The page with the keyboard only: the tree (arrows, Home, End, Right to
// expand, Enter to open), switching tabs (Alt+PageDown/PageUp, arrows in
// the tab list), leaving the editor (Esc, Tab), and modal dialogs that
// keep the focus inside (Tab wraps), close on Escape and give the focus
// back to where it was.
func TestKeyboardOnly(t *testing.T) {
	e := newEnv(t, map[string]string{"a.txt": "alpha\n", "b.txt": "beta\n", "dir/c.txt": "gamma\n"}, opts{})
	a := e.agent("agent")
	a.call("editor_open", map[string]any{"path": "a.txt"})
	e.node("tab", "a.txt")

	// Files: the tree's current item takes the focus.
	e.key("e", ctrlShift...)
	e.activeIs("[role=treeitem]", "the focus in the tree")
	e.key(kb.Home)
	e.activeIs(`[role=treeitem][data-path="dir"]`, "Home on the first item (folders first)")
	e.key(kb.ArrowRight)
	waitFor(t, "dir expanded in the record", func() bool {
		ex, _ := a.call("editor_workspace_get", map[string]any{})["expanded"].([]any)
		return slices.Contains(ex, any("dir"))
	})
	e.waitJS(`document.querySelector('[role=treeitem][data-path="dir"]').getAttribute("aria-expanded") === "true"`, "dir marked expanded")
	e.node("treeitem", "c.txt")
	e.key(kb.ArrowRight)
	e.activeIs(`[role=treeitem][data-path="dir/c.txt"]`, "Right on an open folder moves into it")
	e.key(kb.End)
	e.activeIs(`[role=treeitem][data-path="b.txt"]`, "End on the last item")
	e.key(kb.Enter)
	e.waitJS(`document.querySelector('.tabs [role=tab][aria-selected="true"]')?.dataset.path === "b.txt"`, "Enter opening b.txt as the active tab")
	e.waitEditor("beta", "b.txt")

	// Switching tabs from the editor, and in the tab list.
	e.focusEditor()
	e.key(kb.PageUp, input.ModifierAlt)
	e.waitJS(`document.querySelector('.tabs [role=tab][aria-selected="true"]')?.dataset.path === "a.txt"`, "Alt+PageUp to a.txt")
	e.waitEditor("alpha", "a.txt's text")
	e.activeIs(".cm-content", "the focus still in the editor")
	e.key(kb.PageDown, input.ModifierAlt)
	e.waitJS(`document.querySelector('.tabs [role=tab][aria-selected="true"]')?.dataset.path === "b.txt"`, "Alt+PageDown to b.txt")
	// Esc, then Shift+Tab leaves the editor (Tab alone indents).
	e.key(kb.Escape)
	e.key(kb.Tab, input.ModifierShift)
	e.activeIs(`[role=tab][aria-selected="true"]`, "Esc, Shift+Tab from the editor to the active tab")
	e.key(kb.ArrowLeft)
	e.waitJS(`document.querySelector('.tabs [role=tab][aria-selected="true"]')?.dataset.path === "a.txt"`, "Left in the tab list")
	e.activeIs(`[role=tab][data-path="a.txt"]`, "the focus following the selection")

	// A dialog traps the focus, Escape closes it and the focus comes back.
	e.typeText("?")
	e.node("dialog", "Keyboard shortcuts")
	e.activeIs("[role=dialog] button", "the dialog's button focused")
	for range 3 {
		e.key(kb.Tab)
		e.activeIs("[role=dialog] *", "Tab staying in the dialog")
	}
	var inert bool
	e.js(`document.querySelector(".layout").inert`, &inert)
	if !inert {
		t.Fatal("the page behind a modal dialog is not inert")
	}
	e.key(kb.Escape)
	e.gone("dialog", "Keyboard shortcuts")
	e.activeIs(`[role=tab][data-path="a.txt"]`, "the focus back on the tab after Escape")

	// A prompt: Shift+Tab from its field wraps to its last button.
	e.key("e", ctrlShift...)
	e.activeIs("[role=treeitem]", "the tree again")
	e.key(kb.F2)
	e.node("dialog", "Rename")
	e.activeIs("[role=dialog] input", "the name field focused")
	e.key(kb.Tab, input.ModifierShift)
	e.activeIs("[role=dialog] button:last-child", "Shift+Tab wrapping to the last button")
	e.key(kb.Tab)
	e.activeIs("[role=dialog] input", "Tab wrapping to the field")
	// The tree redraws behind the dialog (an agent adds a file): the focus
	// still comes back to the item it left, not to the page's body.
	var focused string
	e.js(`document.querySelector("[role=treeitem][tabindex='0']")?.dataset.path ?? ""`, &focused)
	if focused == "" {
		t.Fatal("no tree item holds the tree's tab stop")
	}
	a.call("editor_create", map[string]any{"path": "new.txt", "kind": "file"})
	e.waitJS(`!!document.querySelector('[role=treeitem][data-path="new.txt"]')`, "new.txt in the tree behind the dialog")
	e.key(kb.Escape)
	e.gone("dialog", "Rename")
	e.activeIs(`[role=treeitem][data-path=`+jsString(focused)+`]`, "the focus back on the tree item after the tree redrew")

	// The palette: Escape closes it, nothing opened.
	e.key("p", input.ModifierCtrl)
	e.node("dialog", "Go to file")
	e.typeText("c.t")
	e.node("option", "dir/c.txt")
	e.key(kb.Escape)
	e.gone("dialog", "Go to file")
	if slices.Contains(a.bufferPaths(), "dir/c.txt") {
		t.Fatal("Escape in the palette opened the file")
	}
	var help string
	e.typeText("?")
	help = e.text("dialog", "Keyboard shortcuts")
	if !strings.Contains(help, "PageDown") {
		t.Fatalf("the shortcuts do not list tab switching: %q", help)
	}
	e.key(kb.Escape)
	e.gone("dialog", "Keyboard shortcuts")

	// Ctrl+Shift+F in the editor is the page's (search across files), not
	// also the editor's find panel.
	e.focusEditor()
	e.key("f", ctrlShift...)
	e.activeIs(`input[aria-label="Search"]`, "the search field focused")
	var panels int
	e.js(`document.querySelectorAll("#editor-pane .cm-search").length`, &panels)
	if panels != 0 {
		t.Fatal("Ctrl+Shift+F also opened the editor's find panel")
	}
}
