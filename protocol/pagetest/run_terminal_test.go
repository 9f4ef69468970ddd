package pagetest

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp/kb"
)

// termText is what the Run panel's terminal shows, its rows joined.
const termText = `[...document.querySelectorAll(".run-term .xterm-rows > div")].map((r) => r.textContent).join("\n")`

// The shared terminal: an agent's shell on a terminal shows live in the
// Run panel as a terminal the person types on, and each sees what the
// other typed; the person starts a command on a terminal of their own.
func TestRunPanelTerminal(t *testing.T) {
	needSandbox(t)
	e := newEnv(t, map[string]string{"a.txt": "a\n"}, opts{config: runConfig})
	a := e.agent("agent")
	job := a.call("editor_run", map[string]any{"background": true, "terminal": true, "env": map[string]string{"PS1": "sh> "}, "argv": []string{"sh"}})
	id := job["job"].(string)
	// A query for the cursor's position in its output: a terminal answers it
	// as it parses it, but the page's must not type that answer on the job.
	a.call("editor_run_input", map[string]any{"job": id, "text": "printf 'query\\033[6n\\n'\r"})

	e.key("b", ctrlShift...)
	e.waitJS(`[...document.querySelectorAll(".run-job")].some((b) => b.textContent.includes("agent"))`, "the agent's job in the list")
	e.clickAt(`.run-job`)
	e.waitJS(termText+`.includes("sh> ")`, "the agent's shell's prompt in the terminal")
	e.waitJS(`document.querySelectorAll(".run-term .xterm-rows > div").length === 24`, "the terminal at the job's size (24 rows)")
	e.waitJS(`document.querySelector(".run-log").hidden`, "the text log hidden while the terminal shows")
	// xterm's own styles (its sheet, the cell size, the theme) arrive as adopted sheets, which the CSP allows.
	e.waitJS(`document.adoptedStyleSheets.some((s) => [...s.cssRules].some((r) => r.cssText.includes(".xterm-dom-renderer-owner")))`+
		` && document.querySelector(".run-term .xterm-rows > div").getBoundingClientRect().height > 5`, "xterm's styles applied")

	// The person types on it: the shell echoes and answers, and the agent reads both.
	e.clickAt(".run-term")
	e.waitJS(`document.activeElement?.classList.contains("xterm-helper-textarea")`, "the focus in the terminal")
	e.typeText("echo page-$((6*7))")
	e.key(kb.Enter)
	e.waitJS(termText+`.includes("page-42")`, "the answer to what the person typed")
	// Ctrl+B is the shell's (the tty echoes ^B), not the page's side bar toggle.
	e.key("b", input.ModifierCtrl)
	e.waitJS(termText+`.includes("^B")`, "Ctrl+B typed on the terminal")
	e.waitJS(`document.querySelector(".run-term")?.checkVisibility()`, "the Run panel still shown")
	e.key(kb.Enter)
	deadline := time.Now().Add(patience)
	for {
		out := a.call("editor_run_output", map[string]any{"job": id, "offset": 0})
		if c := out["content"].(string); strings.Contains(c, "echo page-$((6*7))\r\n") && strings.Contains(c, "page-42\r\n") {
			if !strings.Contains(c, "query\x1b[6n") || strings.Contains(c, "^[[") {
				t.Fatalf("the query, or an answer typed on the job:\n%q", c)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the agent does not see what the person typed: %v", out)
		}
		time.Sleep(50 * time.Millisecond)
	}
	// The agent types on it: the person sees it live.
	a.call("editor_run_input", map[string]any{"job": id, "text": "echo agent-$((2*3))\r"})
	e.waitJS(termText+`.includes("agent-6")`, "what the agent typed, in the person's terminal")
	a.call("editor_run_input", map[string]any{"job": id, "text": "exit\r"})
	e.waitJS(`(document.querySelector(".run-state")?.textContent ?? "").includes("exit 0")`, "the shell's end")

	// The person's own command on a terminal: sized to the panel, typed on.
	e.clickAt(`input[aria-label="Command"]`)
	e.typeText(`sh -c 'stty size; read x; echo "got $x"; exit 4'`)
	e.clickAt(".run-term-check input")
	e.clickAt(`input[aria-label="Command"]`)
	e.key(kb.Enter)
	e.waitJS(termText+`.includes("20 ")`, "the terminal's size, from stty")
	e.clickAt(".run-term")
	e.typeText("typed")
	e.key(kb.Enter)
	e.waitJS(termText+`.includes("got typed")`, "the answer to what the person typed")
	e.waitJS(`(document.querySelector(".run-state")?.textContent ?? "").includes("exit 4")`, "the command's end")
}
