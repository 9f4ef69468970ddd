package pagetest

import (
	"fmt"
	"strings"
	"testing"
)

// The Git panel's commit summary says what git recorded: six changed
// files (tracked ones, some staged with git itself, some by the panel's
// Stage button, some not staged at all) committed with Commit all, then
// with Commit staged, each read beside git show --shortstat of the commit
// the panel made. The summary once said "0 files changed" for a 6-file
// commit (the index's stale cache-tree, left by git's own commit).
func TestCommitSummaryIsGitShortstat(t *testing.T) {
	files := map[string]string{}
	for i := 1; i <= 6; i++ {
		files[fmt.Sprintf("f%d.txt", i)] = strings.Join(numbered(10+i), "\n") + "\n"
	}
	e := newEnv(t, files, opts{})
	e.initRepo()

	// Each file differently: lines added, removed and changed, so that
	// every count of the summary is tested.
	change := func(round int) {
		for i := 1; i <= 6; i++ {
			p := fmt.Sprintf("f%d.txt", i)
			lines := strings.Split(strings.TrimSuffix(e.read(p), "\n"), "\n")
			switch i % 3 {
			case 0: // two more lines
				lines = append(lines, fmt.Sprintf("round %d a", round), fmt.Sprintf("round %d b", round))
			case 1: // one line fewer, one changed
				lines = append(lines[1:2], lines[3:]...)
				lines[0] = fmt.Sprintf("round %d changed", round)
			default: // i lines fewer
				lines = lines[:len(lines)-i]
			}
			e.write(p, strings.Join(lines, "\n")+"\n")
		}
	}
	summary := func() string {
		var s string
		e.js(`document.querySelector(".git-outcome [role=status]")?.textContent ?? ""`, &s)
		return s
	}
	commit := func(button, message string) {
		t.Helper()
		before := git(t, e.root, "rev-parse", "HEAD")
		e.click("textbox", "Commit message")
		e.typeText(message)
		e.click("button", button)
		e.waitJS(`document.querySelector(".git-outcome [role=status]")?.textContent.includes(`+jsString(message)+`)`, "the summary of "+message)
		if git(t, e.root, "rev-parse", "HEAD") == before {
			t.Fatalf("%s: no commit was made; the panel says %q", button, summary())
		}
		// git's own words for the commit the panel made: "[main 1a2b3c4]
		// subject" and the --shortstat line.
		short := strings.TrimSpace(git(t, e.root, "rev-parse", "--short=7", "HEAD"))
		stat := strings.TrimRight(git(t, e.root, "show", "--shortstat", "--format=", "HEAD"), "\n")
		want := fmt.Sprintf("[main %s] %s\n%s", short, message, stat)
		if got := summary(); got != want {
			t.Fatalf("%s: the Git panel says\n%q\ngit show --shortstat says\n%q", button, got, want)
		}
		t.Logf("%s: %q", button, stat)
	}

	e.key("g", ctrlShift...)
	e.waitJS(`document.querySelector(".git-files")?.textContent.includes("No changes")`, "a clean tree in the Git panel")

	// Commit all, six files changed and none staged, after git's own
	// commit (which leaves the index with a cache-tree): the commit that
	// once read "0 files changed".
	change(1)
	e.waitJS(`document.querySelectorAll('.git-file[data-side="worktree"]').length === 6`, "six changed files")
	commit("Commit all", "Six files at once")
	if got := git(t, e.root, "show", "--name-only", "--format=", "HEAD"); strings.Count(got, "\n") != 6 {
		t.Fatalf("Commit all recorded %q", got)
	}

	// Commit all again, one file staged with git, one with the panel's
	// Stage button, four not.
	change(2)
	git(t, e.root, "add", "f1.txt")
	e.waitJS(`document.querySelectorAll('.git-file[data-side="staged"]').length === 1 && document.querySelectorAll('.git-file[data-side="worktree"]').length === 5`, "f1.txt staged")
	e.click("button", "Stage f2.txt")
	e.waitJS(`document.querySelectorAll('.git-file[data-side="staged"]').length === 2 && document.querySelectorAll('.git-file[data-side="worktree"]').length === 4`, "two staged and four unstaged files")
	commit("Commit all", "Two staged, four not")
	if got := git(t, e.root, "show", "--name-only", "--format=", "HEAD"); strings.Count(got, "\n") != 6 {
		t.Fatalf("Commit all recorded %q", got)
	}

	// Commit staged: six files changed again, two staged with git, two
	// with the panel's Stage button, two left as they are.
	git(t, e.root, "commit", "-q", "--allow-empty", "-m", "git's own commit (a fresh cache-tree)")
	change(3)
	git(t, e.root, "add", "f1.txt", "f4.txt")
	e.waitJS(`document.querySelectorAll('.git-file[data-side="worktree"]').length === 4`, "four unstaged files")
	e.click("button", "Stage f2.txt")
	e.waitJS(`document.querySelectorAll('.git-file[data-side="staged"]').length === 3`, "f2.txt staged")
	e.click("button", "Stage f6.txt")
	e.waitJS(`document.querySelectorAll('.git-file[data-side="staged"]').length === 4`, "f6.txt staged")
	commit("Commit staged", "Four of six")
	if got := git(t, e.root, "show", "--name-only", "--format=", "HEAD"); got != "f1.txt\nf2.txt\nf4.txt\nf6.txt\n" {
		t.Fatalf("Commit staged recorded %q", got)
	}
	if got := git(t, e.root, "status", "--porcelain"); got != " M f3.txt\n M f5.txt\n" {
		t.Fatalf("after Commit staged git status says %q", got)
	}
}
