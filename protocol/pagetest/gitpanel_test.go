package pagetest

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp/kb"
)

// Stash and Pop stash from the Git panel: the work goes into git's stash
// (git stash list shows it), the open clean tab and the panel follow the
// file back to HEAD, and Pop brings the work back.
func TestStashAndPopFromPanel(t *testing.T) {
	e := newEnv(t, map[string]string{"s.txt": "base\n"}, opts{})
	e.initRepo()
	e.click("treeitem", "s.txt")
	e.waitEditor("base", "s.txt")
	e.write("s.txt", "work in progress\n")
	e.write("new.txt", "untracked\n")
	e.waitEditor("work in progress", "the tab following the change")
	e.key("g", ctrlShift...)
	e.waitJS(`document.querySelectorAll(".git-file").length === 2`, "two changed files in the Git panel")
	e.click("button", "Stash")
	e.waitEditor("base", "the tab back at HEAD after the stash")
	e.waitJS(`document.querySelector(".git-files")?.textContent.includes("No changes")`, "a clean status after the stash")
	if got := git(t, e.root, "stash", "list"); strings.Count(got, "\n") != 1 {
		t.Fatalf("git stash list after Stash: %q", got)
	}
	if got := e.read("s.txt"); got != "base\n" {
		t.Fatalf("s.txt after Stash: %q", got)
	}
	e.click("button", "Pop stash")
	e.waitEditor("work in progress", "the tab following the pop")
	e.waitJS(`document.querySelectorAll(".git-file").length === 2`, "the changes back in the panel")
	if got := git(t, e.root, "stash", "list"); got != "" {
		t.Fatalf("git stash list after Pop: %q", got)
	}
	if got := e.read("new.txt"); got != "untracked\n" {
		t.Fatalf("the untracked file after Pop: %q", got)
	}
}

// A git action that fails shows the tool's own message (its summary, or
// its refusal's message), as an alert, and the panel is usable again.
func TestGitErrorShownAsToolMessage(t *testing.T) {
	e := newEnv(t, map[string]string{"s.txt": "base\n"}, opts{})
	e.initRepo()
	a := e.agent("agent")
	// What the tool answers to popping an empty stash: ok false and git's
	// reason in summary.
	res := a.call("editor_git_stash", map[string]any{"action": "pop"})
	msg, _ := res["summary"].(string)
	if res["ok"] != false || msg == "" {
		t.Fatalf("popping an empty stash: %v", res)
	}
	e.key("g", ctrlShift...)
	e.click("button", "Pop stash")
	e.waitJS(`!document.querySelector(".git-outcome .busy") && document.querySelector(".git-outcome [role=alert]")`, "the failure shown")
	if got := e.text("alert", ""); got != msg {
		t.Fatalf("the panel says %q; the tool said %q", got, msg)
	}
	// Push without an upstream: git's reason, not a silent nothing.
	e.click("button", "Push")
	e.waitJS(`!document.querySelector(".git-outcome .busy") && document.querySelector(".git-outcome [role=alert]")?.textContent !== `+jsString(msg), "the push's failure shown")
	if got := e.text("alert", ""); got == "" || got == "done" || !strings.Contains(strings.ToLower(got), "remote") {
		t.Fatalf("push without a remote says: %q", got)
	}
	if got := e.attr("button", "Push", "disabled"); got != "" {
		t.Fatalf("the panel's buttons stay disabled after a failure: %q", got)
	}
}

// jsString is s as a JavaScript string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// The changed files come as VS Code shows them: staged changes (a click
// shows HEAD against the index, what a commit records) and changes not
// staged (a click opens the file with its changes against the index
// inline); a file with both is in both, an untracked one only in the
// second.
func TestGitDiffStagedAndUnstaged(t *testing.T) {
	e := newEnv(t, map[string]string{"d.txt": "head\n"}, opts{})
	e.initRepo()
	e.write("d.txt", "staged\n")
	git(t, e.root, "add", "d.txt")
	e.write("d.txt", "worktree\n")
	e.write("u.txt", "untracked\n")
	e.key("g", ctrlShift...)
	e.waitJS(`document.querySelectorAll('.git-file[data-side="staged"]').length === 1 && document.querySelectorAll('.git-file[data-side="worktree"]').length === 2`,
		"d.txt staged, d.txt and u.txt not staged")
	side := func(label string) string {
		var s string
		e.js(`document.querySelector('[role=dialog] .cm-content[aria-label=`+jsString(label)+`]')?.textContent ?? "(none)"`, &s)
		return s
	}
	e.clickAt(`.git-file[data-side="staged"]`)
	e.node("dialog", "Staged changes in d.txt")
	if a, b := side("HEAD"), side("Index"); a != "head" || b != "staged" {
		t.Fatalf("staged diff: HEAD %q, index %q", a, b)
	}
	e.key(kb.Escape)
	e.gone("dialog", "Staged changes in d.txt")
	// Not staged: the file's own tab, the index's line shown inline above
	// the file's.
	e.clickAt(`.git-file[data-side="worktree"][title^="d.txt"]`)
	e.waitJS(`document.querySelector(".tabs [role=tab][aria-selected=true]")?.dataset.path === "d.txt"`, "d.txt's tab")
	e.waitJS(`document.querySelector("#editor-pane .cm-deletedChunk")?.textContent.includes("staged")`, "the index's line inline")
	e.waitEditor("worktree", "the file's line")
	if got := e.text("toolbar", "Changes"); !strings.Contains(got, "the index") || !strings.Contains(got, "1 change") {
		t.Fatalf("the changes bar says %q", got)
	}
	e.clickAt(`.git-file[data-side="worktree"][title^="u.txt"]`)
	e.waitJS(`document.querySelector(".tabs [role=tab][aria-selected=true]")?.dataset.path === "u.txt"`, "u.txt's tab")
	e.waitJS(`document.querySelector("#editor-pane .cm-changedLine")?.textContent === "untracked" && !document.querySelector("#editor-pane .cm-deletedLine")`, "the untracked file all added")
	// Deleted on disk: side by side, the index against nothing.
	e.click("button", "Hide changes")
	os.Remove(e.abs("d.txt"))
	e.waitJS(`document.querySelector('.git-file[data-side="worktree"][title^="d.txt: deleted"]')`, "d.txt deleted")
	e.clickAt(`.git-file[data-side="worktree"][title^="d.txt"]`)
	e.node("dialog", "Changes in d.txt")
	if a, b := side("Index"), side("Working file"); a != "staged" || b != "" {
		t.Fatalf("deleted file's diff: index %q, file %q", a, b)
	}
}
