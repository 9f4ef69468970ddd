package pagetest

import (
	"os/exec"
	"strings"
	"testing"
)

// git runs git in dir with a fixed identity and returns its output.
func git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(cmd.Environ(), "GIT_AUTHOR_NAME=Page Test", "GIT_AUTHOR_EMAIL=page@test.invalid",
		"GIT_COMMITTER_NAME=Page Test", "GIT_COMMITTER_EMAIL=page@test.invalid", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// initRepo makes the workspace a repository with everything committed and
// an identity of its own (editor::git::commit needs one).
func (e *env) initRepo() {
	e.t.Helper()
	git(e.t, e.root, "init", "-q", "-b", "main")
	git(e.t, e.root, "config", "user.name", "Page Test")
	git(e.t, e.root, "config", "user.email", "page@test.invalid")
	git(e.t, e.root, "add", "-A")
	git(e.t, e.root, "commit", "-q", "-m", "initial")
}
