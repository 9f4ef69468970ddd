package pagetest

import (
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp/kb"
)

// Split editors, co-editing and code intelligence together (issues 22, 23,
// 24 on one page): main.go open on both sides, the person typing on the
// right (a draft) while an agent edits the same file elsewhere: the
// agent's change lands in both sides under the person's text, with no
// dialog; then F12 and a hover work from the right group, on the text as
// it now is, and the problems the language server finds in the file are
// underlined there too, a call broken by an agent renaming in the file
// on the left included.
func TestSplitCoeditAndCodeIntelligence(t *testing.T) {
	e := newGreetEnv(t)
	e.watchDialogs()
	a := e.agent("agent")
	e.click("treeitem", "main.go")
	e.waitEditor("lib.Greet()", "main.go")
	e.focusEditor()
	e.key("\\", input.ModifierCtrl)
	e.waitJS(`document.querySelector("#split-pane .cm-content")?.textContent.includes("lib.Greet()")`, "main.go on the right")
	e.activeIs("#split-pane .cm-content", "the focus on the right")

	// The person types on the right, at the end; an agent adds a line at
	// the top of the same file meanwhile.
	e.key(kb.End, input.ModifierCtrl)
	e.typeText("// the person's note")
	waitFor(t, "the person's draft", func() bool { return a.dirty("main.go") })
	v := a.call("editor_open", map[string]any{"path": "main.go", "tab": false})["version"].(string)
	a.call("editor_edit", map[string]any{"path": "main.go", "expected_version": v, "edits": []map[string]any{{"old_text": "package main\n", "new_text": "// Package main greets.\npackage main\n"}}})
	both := `(sel) => document.querySelector(sel + " .cm-content")?.textContent ?? ""`
	for _, side := range []string{"#editor-pane", "#split-pane"} {
		e.waitJS(`((t) => t.startsWith("// Package main greets.package main") && t.endsWith("// the person's note"))((`+both+`)(`+jsString(side)+`))`, "the agent's line and the person's note in "+side)
	}
	e.noDialogs()
	if got := e.read("main.go"); strings.Contains(got, "the person's note") || !strings.HasPrefix(got, "// Package main greets.\n") {
		t.Fatalf("main.go on disk: %q", got)
	}

	// A hover over Greet on the right, then F12 from there.
	x, y := e.wordPointIn("#split-pane", "Greet", 0)
	e.mouse(x, y, 0, input.MouseMoved)
	e.waitJS(`document.querySelector("#split-pane .cm-tooltip-hover")?.textContent.includes("Greet says hello")`, "the hover of Greet on the right")
	e.mouse(x, y, 0, input.MousePressed, input.MouseReleased)
	e.activeIs("#split-pane .cm-content", "the focus on the right")
	e.key(kb.F12)
	e.activeTabIs("lib/lib.go")
	e.waitJS(`document.querySelector(".status .cursor")?.textContent.startsWith("Ln 4, Col 6")`, "the cursor on Greet's declaration")

	// The agent renames Greet in lib.go, open on the left: main.go's text
	// is unchanged, yet its call is now broken, and the language server's
	// word on it is underlined on the right.
	v = a.call("editor_open", map[string]any{"path": "lib/lib.go", "tab": false})["version"].(string)
	a.call("editor_edit", map[string]any{"path": "lib/lib.go", "expected_version": v, "edits": []map[string]any{{"old_text": "func Greet()", "new_text": "func Hello()"}}})
	e.waitJS(`[...document.querySelectorAll("#split-pane .cm-problem-error")].map((el) => el.textContent).join("").includes("Greet")`, "main.go's broken call underlined on the right")
	e.activeTabIs("lib/lib.go")
	e.noDialogs()
}
