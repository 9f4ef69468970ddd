package pagetest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// Code intelligence on the page, with the project's pinned gopls (make
// lsp; .ci/run installs it): F12 and Ctrl-click to the definition, a hover,
// Shift+F12's references, F2's preview and apply, Ctrl+Shift+O's outline,
// squiggles and the Problems panel.

func goplsPath(t *testing.T) string {
	t.Helper()
	wd, _ := os.Getwd()
	p := filepath.Clean(filepath.Join(wd, "..", "..", "testdata", "lsp", "bin", "gopls"))
	if _, err := os.Stat(p); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is not installed; .ci/run installs it (make lsp)", p)
		}
		t.Skipf("%s is not installed; run make lsp", p)
	}
	return p
}

// wordPoint is the middle of the nth (0-based) occurrence of word in the
// editor's rendered text.
func (e *env) wordPoint(word string, nth int) (x, y float64) {
	e.t.Helper()
	return e.wordPointIn("#editor-pane", word, nth)
}

// wordPointIn is wordPoint in the editor of a pane (#split-pane: the right
// group's).
func (e *env) wordPointIn(pane, word string, nth int) (x, y float64) {
	e.t.Helper()
	var at []float64
	e.js(fmt.Sprintf(`(() => {
		const w = document.createTreeWalker(document.querySelector(%q + " .cm-content"), NodeFilter.SHOW_TEXT);
		let n = %d;
		for (let t = w.nextNode(); t; t = w.nextNode()) {
			let i = -1;
			while ((i = t.data.indexOf(%q, i + 1)) >= 0) {
				if (n-- > 0) continue;
				const r = document.createRange();
				r.setStart(t, i); r.setEnd(t, i + %d);
				const b = r.getBoundingClientRect();
				return [b.left + b.width / 2, b.top + b.height / 2];
			}
		}
		return [];
	})()`, pane, nth, word, len(word)), &at)
	if len(at) != 2 {
		e.t.Fatalf("%q (%d) is not on screen", word, nth)
	}
	return at[0], at[1]
}

func (e *env) mouse(x, y float64, mods input.Modifier, types ...input.MouseType) {
	e.t.Helper()
	e.run(chromedp.ActionFunc(func(ctx context.Context) error {
		for _, typ := range types {
			ev := input.DispatchMouseEvent(typ, x, y).WithModifiers(mods)
			if typ != input.MouseMoved {
				ev = ev.WithButton(input.Left).WithClickCount(1)
			}
			if err := ev.Do(ctx); err != nil {
				return err
			}
		}
		return nil
	}))
}

func (e *env) activeTabIs(path string) {
	e.t.Helper()
	e.waitJS(`document.querySelector('.tabs [role=tab][aria-selected="true"]')?.dataset.path === `+jsString(path), "the active tab "+path)
}

// newGreetEnv serves a module of two packages, main.go calling lib.Greet,
// with the pinned gopls as its Go server.
func newGreetEnv(t *testing.T) *env {
	gopls := goplsPath(t)
	e := newEnv(t, map[string]string{
		"go.mod":     "module example.com/m\n\ngo 1.22\n",
		"lib/lib.go": "package lib\n\n// Greet says hello.\nfunc Greet() string { return \"hi\" }\n",
		"main.go":    "package main\n\nimport \"example.com/m/lib\"\n\nfunc main() { println(lib.Greet()) }\n",
	}, opts{config: "[lsp.go]\ncommand = [" + jsString(gopls) + "]\n"})
	return e
}

func TestCodeIntelligence(t *testing.T) {
	e := newGreetEnv(t)
	a := e.agent("agent")
	a.call("editor_open", map[string]any{"path": "main.go"})
	e.node("tab", "main.go")
	e.waitEditor("lib.Greet()", "main.go")

	// Hover over Greet.
	x, y := e.wordPoint("Greet", 0)
	e.mouse(x, y, 0, input.MouseMoved)
	e.waitJS(`document.querySelector(".cm-tooltip-hover")?.textContent.includes("Greet says hello")`, "the hover of Greet")

	// Ctrl-click goes to the definition.
	e.mouse(x, y, input.ModifierCtrl, input.MousePressed, input.MouseReleased)
	e.activeTabIs("lib/lib.go")
	e.waitJS(`document.querySelector(".status .cursor")?.textContent.startsWith("Ln 4, Col 6")`, "the cursor on Greet's declaration")

	// Shift+F12 from there lists both references.
	e.key(kb.F12, input.ModifierShift)
	e.node("dialog", "References")
	e.waitJS(`document.querySelector("[role=dialog]").textContent.includes("2 in 2 files")`, "two references")
	e.key(kb.Escape)
	e.gone("dialog", "References")

	// F12 on the call in main.go.
	e.click("tab", "main.go")
	e.focusEditor()
	e.key(kb.ArrowDown)
	e.key(kb.ArrowDown)
	e.key(kb.ArrowDown)
	e.key(kb.ArrowDown)
	e.key(kb.End)
	for range 5 {
		e.key(kb.ArrowLeft)
	}
	e.key(kb.F12)
	e.activeTabIs("lib/lib.go")

	// Ctrl+Shift+O lists the file's symbols.
	e.key("o", ctrlShift...)
	e.node("dialog", "Symbols in lib/lib.go")
	e.waitJS(`document.querySelector("[role=dialog] [role=option]")?.textContent.includes("Greet")`, "Greet in the outline")
	e.key(kb.Enter)
	e.gone("dialog", "Symbols in lib/lib.go")

	// F2: the preview, then the apply.
	e.key(kb.F2)
	e.node("dialog", "Rename symbol")
	e.key("a", input.ModifierCtrl)
	e.typeText("Hello")
	e.key(kb.Enter)
	e.node("dialog", "Rename to Hello")
	e.waitJS(`document.querySelector("[role=dialog]").textContent.includes("+func Hello() string")`, "the preview's patch")
	if got := e.read("main.go"); strings.Contains(got, "Hello") {
		t.Fatal("the preview wrote main.go")
	}
	e.click("button", "Rename in 2 files")
	e.waitFile("main.go", "package main\n\nimport \"example.com/m/lib\"\n\nfunc main() { println(lib.Hello()) }\n")
	e.waitEditor("func Hello()", "lib.go following the rename")

	// An agent breaks main.go: its squiggle, and the Problems panel.
	a.call("editor_save", map[string]any{"path": "main.go", "content": "package main\n\nimport \"example.com/m/lib\"\n\nfunc main() { println(lib.Gone()) }\n", "force": true})
	e.click("tab", "main.go")
	e.waitEditor("lib.Gone()", "main.go following the save")
	e.waitJS(`[...document.querySelectorAll(".cm-problem-error")].map((el) => el.textContent).join("").includes("Gone")`, "the error underlined")
	e.key("m", ctrlShift...)
	e.waitJS(`document.querySelector(".problems-list .problem.error")?.textContent.includes("main.go:5:")`, "the error in the Problems panel")
	e.clickAt(".problems-list .problem.error")
	e.waitJS(`document.querySelector(".status .cursor")?.textContent.startsWith("Ln 5, Col 27")`, "the cursor on the problem")
}

// Go to a symbol of the workspace: "#" in Go to file (VS Code's quick open
// has it so), or the command. The names come as typed, each with its kind,
// package and place; Enter opens the file at the name. A name an agent
// adds is there at the next query.
func TestGoToWorkspaceSymbol(t *testing.T) {
	e := newGreetEnv(t)
	e.key("p", input.ModifierCtrl)
	e.node("dialog", "Go to file")
	e.typeText("#greet")
	e.node("dialog", "Go to symbol in workspace")
	e.waitJS(`[...document.querySelectorAll("[role=option]")].some((o) => o.textContent === "function Greet example.com/m/lib · lib/lib.go:4")`, "Greet listed with its kind, package and place")
	e.key(kb.Enter)
	e.gone("dialog", "Go to symbol in workspace")
	e.activeTabIs("lib/lib.go")
	e.waitJS(`document.querySelector(".status .cursor")?.textContent.startsWith("Ln 4, Col 6")`, "the cursor on Greet's name")

	a := e.agent("agent")
	a.call("editor_save", map[string]any{"path": "lib/more.go", "content": "package lib\n\n// GreetAll says hello to all.\nfunc GreetAll() {}\n"})
	e.key("p", ctrlShift...)
	e.node("dialog", "Commands")
	e.typeText("symbol in workspace")
	e.click("option", "Code: Go to symbol in workspace…")
	e.node("dialog", "Go to symbol in workspace")
	e.typeText("GreetAll")
	e.waitJS(`document.querySelector("[role=option]")?.textContent === "function GreetAll example.com/m/lib · lib/more.go:4"`, "the agent's new GreetAll first")
	shot(e, "page-workspace-symbol.png")
	e.key(kb.Enter)
	e.activeTabIs("lib/more.go")
	e.waitJS(`document.querySelector(".status .cursor")?.textContent.startsWith("Ln 4, Col 6")`, "the cursor on GreetAll's name")
}
