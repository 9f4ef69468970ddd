package pagetest

// The workbench basics a VS Code user reaches for first (issue 23): the
// command palette, Ctrl+B, word wrap, breadcrumbs, file icons and long
// paths cut in the middle.

import (
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp/kb"
)

// Ctrl+Shift+P (and F1) list every action with its shortcut; typing
// narrows the list; Enter runs the command.
func TestCommandPalette(t *testing.T) {
	e := newEnv(t, shotFiles, opts{})
	e.click("treeitem", "README.md")
	e.waitEditor("greeter", "README.md")
	e.key("p", input.ModifierCtrl, input.ModifierShift)
	e.node("dialog", "Commands")
	var rows []string
	e.js(`[...document.querySelectorAll("#palette-list [role=option]")].map((o) => o.textContent)`, &rows)
	for _, want := range []string{"Go to fileCtrl+P", "View: Toggle side barCtrl+B", "View: Toggle word wrapAlt+Z", "View: Split editorCtrl+\\", "View: Search across files", "File: SaveCtrl+S", "Show all commandsCtrl+Shift+P"} {
		found := false
		for _, r := range rows {
			found = found || strings.HasPrefix(r, want) || (strings.HasPrefix(want, "View: Search") && strings.HasPrefix(r, "View: SearchCtrl+Shift+F"))
		}
		if !found {
			t.Errorf("the palette lacks %q: %q", want, rows)
		}
	}
	e.typeText("toggle side")
	e.waitJS(`document.querySelector("#palette-list [role=option][aria-selected=true]")?.textContent.startsWith("View: Toggle side bar")`, "the side bar command first")
	e.key(kb.Enter)
	e.gone("dialog", "Commands")
	e.waitJS(`!document.querySelector(".side").checkVisibility()`, "the side bar hidden by the command")
	// F1 opens the same list; Escape closes it.
	e.key(kb.F1)
	e.node("dialog", "Commands")
	e.key(kb.Escape)
	e.gone("dialog", "Commands")
	// In Ctrl+P, ">" switches to commands.
	e.key("p", input.ModifierCtrl)
	e.node("dialog", "Go to file")
	e.typeText(">wrap")
	e.node("dialog", "Commands")
	e.node("option", "View: Toggle word wrap Alt+Z")
}

// Ctrl+B hides the side bar and gives the editor its room; again shows it.
func TestCtrlBTogglesSideBar(t *testing.T) {
	e := newEnv(t, map[string]string{"a.txt": "a\n"}, opts{})
	e.click("treeitem", "a.txt")
	e.waitEditor("a", "a.txt")
	var before, after float64
	e.js(`document.querySelector("#editor-pane").getBoundingClientRect().width`, &before)
	e.focusEditor()
	e.key("b", input.ModifierCtrl)
	e.waitJS(`!document.querySelector(".side").checkVisibility()`, "the side bar hidden")
	e.js(`document.querySelector("#editor-pane").getBoundingClientRect().width`, &after)
	if after < before+200 {
		t.Fatalf("the editor is %.0f px wide with the side bar hidden, %.0f px with it", after, before)
	}
	if e.editorText() != "a\n" && !strings.HasPrefix(e.editorText(), "a") {
		t.Fatalf("Ctrl+B typed into the editor: %q", e.editorText())
	}
	e.key("b", input.ModifierCtrl)
	e.waitJS(`document.querySelector(".side").checkVisibility() && document.querySelector("[role=tree]").checkVisibility()`, "the side bar back")
	// The activity bar: a click on the shown view's icon hides it too.
	e.click("tab", "Files")
	e.waitJS(`!document.querySelector(".side").checkVisibility()`, "the side bar hidden by its icon")
	e.click("tab", "Git")
	e.waitJS(`document.querySelector("#panel-git").checkVisibility()`, "the Git view shown by its icon")
}

// Alt+Z wraps long lines in every tab, and again unwraps them.
func TestWordWrapAltZ(t *testing.T) {
	long := strings.Repeat("word ", 200) + "\n"
	e := newEnv(t, map[string]string{"long.txt": long, "other.txt": "other " + long}, opts{})
	a := e.agent("agent")
	a.call("editor_open", map[string]any{"path": "other.txt"})
	e.click("treeitem", "long.txt")
	e.waitEditor("word word", "long.txt")
	lineHeight := `document.querySelector("#editor-pane .cm-line").getBoundingClientRect().height`
	var h1 float64
	e.js(lineHeight, &h1)
	e.focusEditor()
	e.key("z", input.ModifierAlt)
	e.waitJS(lineHeight+` > 60`, "the long line wrapped")
	if strings.Contains(e.editorText(), "Ω") || strings.Contains(e.editorText(), "z") {
		t.Fatalf("Alt+Z typed into the editor: %q", e.editorText()[:20])
	}
	e.click("tab", "other.txt")
	e.waitEditor("other word", "other.txt")
	e.waitJS(lineHeight+` > 60`, "other.txt's long line wrapped too")
	e.key("z", input.ModifierAlt)
	e.waitJS(lineHeight+` < 30`, "unwrapped again")
	_ = h1
}

// Breadcrumbs name the active file's folders; a click on one shows it in
// the tree.
func TestBreadcrumbs(t *testing.T) {
	e := newEnv(t, shotFiles, opts{})
	a := e.agent("agent")
	a.call("editor_open", map[string]any{"path": "src/util/greeting.go"})
	e.click("tab", "greeting.go")
	var crumbs []string
	e.waitJS(`document.querySelectorAll("nav[aria-label=Breadcrumbs] button").length === 3`, "three crumbs")
	e.js(`[...document.querySelectorAll("nav[aria-label=Breadcrumbs] button")].map((b) => b.textContent)`, &crumbs)
	if strings.Join(crumbs, " › ") != "src › util › greeting.go" {
		t.Fatalf("breadcrumbs: %q", crumbs)
	}
	e.clickAt(`nav[aria-label=Breadcrumbs] button[data-path="src/util"]`)
	e.waitJS(`document.querySelector('[role=treeitem][data-path="src/util"]')?.getAttribute("aria-selected") === "true"`, "src/util selected in the tree")
	e.waitJS(`document.querySelector('[role=treeitem][data-path="src/util/greeting.go"]')`, "src/util expanded")
}

// Files have icons in the tree and the tabs; a long path in the side bar
// is cut in the middle (the file name stays whole) and says all of itself
// on hover.
func TestIconsAndLongPaths(t *testing.T) {
	deep := "src/components/forms/validation/rules/internationalization/messages/validator.go"
	e := newEnv(t, map[string]string{"main.go": "package main\n", deep: "package messages\n"}, opts{})
	e.initRepo()
	e.write(deep, "package messages // changed\n")
	e.click("treeitem", "main.go")
	e.waitJS(`document.querySelector('[role=treeitem][data-path="main.go"] .fi-go') && document.querySelector('.tabs [role=tab][data-path="main.go"] .fi-go')`, "Go icons in the tree and the tab")
	e.key("g", ctrlShift...)
	// The deep file's row, found by its name, not the panel's first row:
	// under load that was once a path without a folder (no head to cut).
	row := `[...document.querySelectorAll(".git-file .midpath")].find((p) => p.querySelector(".tail")?.textContent === "validator.go")`
	e.waitJS(row, "the changed file in the Git panel")
	var got struct {
		Title     string
		OneLine   bool
		NameWhole bool
		Cut       bool
	}
	e.js(`(() => {
	  const p = `+row+`;
	  const head = p.querySelector(".head"), tail = p.querySelector(".tail");
	  return { Title: p.title, OneLine: p.getBoundingClientRect().height < 24,
	    NameWhole: tail.scrollWidth <= tail.clientWidth && tail.textContent === "validator.go",
	    Cut: head.scrollWidth > head.clientWidth };
	})()`, &got)
	if got.Title != deep || !got.OneLine || !got.NameWhole || !got.Cut {
		t.Fatalf("the long path in the Git panel: %+v", got)
	}
}

// Ctrl+\ shows the file beside itself: typing on the right shows on the
// left at once (one text: one draft, one save), each side keeps its own
// cursor, and the left can show another file meanwhile.
func TestSplitEditor(t *testing.T) {
	e := newEnv(t, map[string]string{"a.txt": "alpha\nbeta\n", "b.txt": "bravo\n"}, opts{})
	a := e.agent("agent")
	a.call("editor_open", map[string]any{"path": "b.txt"})
	e.click("treeitem", "a.txt")
	e.waitEditor("alpha", "a.txt")
	e.focusEditor()
	e.key("\\", input.ModifierCtrl)
	e.waitJS(`document.querySelector("#split-pane .cm-editor")?.checkVisibility() && document.querySelector("#split-pane").textContent.includes("alpha")`, "a.txt on the right")
	var widths []float64
	e.js(`[document.querySelector("#editor-pane").getBoundingClientRect().width, document.querySelector("#split-pane").getBoundingClientRect().width]`, &widths)
	if widths[0] < 300 || widths[1] < 300 {
		t.Fatalf("the two editors are %v px wide", widths)
	}
	e.activeIs("#split-pane .cm-content", "the focus on the right")
	e.key(kb.End, input.ModifierCtrl)
	e.typeText("gamma")
	e.waitEditor("gamma", "the right's typing on the left")
	waitFor(t, "a draft of what was typed on the right", func() bool { return a.dirty("a.txt") })
	e.key("s", input.ModifierCtrl)
	e.waitFile("a.txt", "alpha\nbeta\ngamma")
	// The left shows b.txt; the right still a.txt; typing on the left in
	// a.txt later reaches the right.
	e.click("tab", "b.txt")
	e.waitEditor("bravo", "b.txt on the left")
	var right string
	e.js(`document.querySelector("#split-pane .cm-content").textContent`, &right)
	if !strings.Contains(right, "gamma") {
		t.Fatalf("the right lost a.txt: %q", right)
	}
	e.click("tab", "a.txt")
	e.waitEditor("gamma", "a.txt on the left again")
	e.focusEditor()
	e.typeText("left ")
	e.waitJS(`document.querySelector("#split-pane .cm-content").textContent.startsWith("left alpha")`, "the left's typing on the right")
	// Closing the right's only tab closes the group, not the file.
	e.click("button", "Close a.txt on the right")
	e.waitJS(`!document.querySelector("#split-pane").checkVisibility()`, "the right group closed")
	e.node("tab", "a.txt")
}
