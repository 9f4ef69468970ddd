package pagetest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp/kb"
)

const runConfig = "[run]\nenabled = true\nprograms = [\"sh\"]\npath = \"/usr/bin:/bin\"\n"

// The Run panel runs a command in the sandbox and streams its output in;
// the file it writes opens like any other; an agent's command shows in
// the panel's jobs, live, and the person can stop it.
func TestRunPanel(t *testing.T) {
	needSandbox(t)
	e := newEnv(t, map[string]string{"a.txt": "a\n"}, opts{config: runConfig})
	e.key("b", ctrlShift...)
	e.waitJS(`document.activeElement?.getAttribute("aria-label") === "Command"`, "the focus in the Command field")
	e.typeText(`sh -c 'for i in 1 2 3; do echo line $i; done; echo oops >&2; echo made > made.txt'`)
	e.key(kb.Enter)
	e.waitJS(`(document.querySelector(".run-log")?.textContent ?? "").includes("line 3")`, "the output in the log")
	e.waitJS(`document.querySelector(".run-log .stderr")?.textContent.includes("oops")`, "stderr, marked")
	e.waitJS(`(document.querySelector(".run-state")?.textContent ?? "").includes("exit 0")`, "the exit status")
	if got := e.read("made.txt"); got != "made\n" {
		t.Fatalf("made.txt: %q", got)
	}
	if got := e.text("status", ""); !strings.Contains(got, "changed 1 file") {
		t.Fatalf("the panel says %q", got)
	}

	// An agent's background job appears in the jobs list; the person
	// watches it and stops it.
	a := e.agent("agent")
	job := a.call("editor_run", map[string]any{"background": true, "argv": []string{"sh", "-c", "echo agent-says-hi; exec sleep 600"}})
	id := job["job"].(string)
	e.waitJS(`[...document.querySelectorAll(".run-job")].some((b) => b.textContent.includes("agent-says-hi"))`, "the agent's job in the list")
	e.clickAt(`.run-job:not([aria-current])`)
	e.waitJS(`(document.querySelector(".run-log")?.textContent ?? "") === "agent-says-hi\n"`, "the agent's output in the log")
	e.click("button", "Stop")
	e.waitJS(`(document.querySelector(".run-state")?.textContent ?? "").startsWith("killed")`, "the job stopped")
	st := a.call("editor_run_status", map[string]any{"job": id})
	if j := st["jobs"].([]any)[0].(map[string]any); j["state"] != "killed" {
		t.Fatalf("the agent sees %v", j)
	}
}

// needSandbox skips when the binary cannot confine commands here, unless
// the environment says the sandbox tests must run (EDITORD_SANDBOX_TESTS=1).
func needSandbox(t *testing.T) {
	t.Helper()
	dir := t.TempDir()
	out, _ := exec.Command(binary, "call", "editor::run", `{"argv": ["true"]}`, "--allow-run", "--root", dir, "--state-dir", filepath.Join(dir, ".state")).Output()
	if !strings.Contains(string(out), `"sandbox_unavailable"`) {
		return
	}
	if os.Getenv("EDITORD_SANDBOX_TESTS") == "1" {
		t.Fatalf("EDITORD_SANDBOX_TESTS=1 but the sandbox is unavailable: %s", out)
	}
	t.Skipf("the sandbox is unavailable: %s", out)
}

// With commands off, the panel says how to turn them on.
func TestRunPanelOff(t *testing.T) {
	e := newEnv(t, map[string]string{"a.txt": "a\n"}, opts{})
	e.key("b", ctrlShift...)
	e.waitJS(`document.activeElement?.getAttribute("aria-label") === "Command"`, "the focus in the Command field")
	e.typeText("echo hi")
	e.key(kb.Enter)
	e.waitJS(`(document.querySelector(".run-state[role=alert]")?.textContent ?? "").includes("--allow-run")`, "the panel saying commands are off")
}
