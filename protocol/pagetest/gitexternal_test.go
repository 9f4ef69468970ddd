package pagetest

import (
	"testing"
)

// git's own commands (an agent's shell) change the index and HEAD, not a
// file editord journals: the Git panel on screen still follows them.
func TestGitPanelFollowsGitsOwnCommands(t *testing.T) {
	e := newEnv(t, map[string]string{"a.txt": "one\n"}, opts{})
	e.initRepo()
	e.key("g", ctrlShift...)
	e.write("a.txt", "one\ntwo\n")
	e.waitJS(`document.querySelectorAll('.git-file[data-side="worktree"]').length === 1`, "a.txt changed in the Git panel")
	git(t, e.root, "add", "a.txt")
	e.waitJS(`document.querySelectorAll('.git-file[data-side="staged"]').length === 1 && !document.querySelector('.git-file[data-side="worktree"]')`, "a.txt staged by git add")
	git(t, e.root, "commit", "-q", "-m", "two")
	e.waitJS(`document.querySelector(".git-files")?.textContent.includes("No changes")`, "a clean tree after git commit")
}
