package editor

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/editord/editord/shell"
)

// TestGitWriteBeyondALinkOutOfTheJail: a stash pop whose file lies beyond
// a local symbolic link leading out of the jail (git would replace the
// link) is refused with outside_jail and a message that names the path and
// the link as the cause and says what to do, not "use a path inside the
// workspace" (no caller named that path); nothing changes: the stash is
// kept, the index and the place outside are untouched.
func TestGitWriteBeyondALinkOutOfTheJail(t *testing.T) {
	e := gtNew(t, "")
	e.write("gl/x", "a\n")
	e.commitAll("base")
	e.write("gl/x", "b\n")
	e.git("stash", "push", "-q")
	outside := filepath.Join(filepath.Dir(e.repo), filepath.Base(e.repo)+"-outside")
	os.MkdirAll(outside, 0o755)
	os.RemoveAll(filepath.Join(e.repo, "gl"))
	if err := os.Symlink(outside, filepath.Join(e.repo, "gl")); err != nil {
		t.Fatal(err)
	}
	index, _ := os.ReadFile(filepath.Join(e.repo, ".git", "index"))
	_, err := gtCall[GitStashResponse](e, "editor::git::stash", `{"action": "pop"}`)
	if shell.CodeOf(err) != shell.CodeOutsideJail {
		t.Fatalf("pop: %v", err)
	}
	msg := err.Error()
	if !strings.Contains(msg, "gl/x") || !strings.Contains(msg, "symbolic link") || !strings.Contains(msg, "editor::move") || strings.Contains(msg, "use a path inside") {
		t.Errorf("message: %s", msg)
	}
	if list := e.git("stash", "list"); !strings.Contains(list, "stash@{0}") {
		t.Errorf("the stash was dropped: %q", list)
	}
	if after, _ := os.ReadFile(filepath.Join(e.repo, ".git", "index")); string(after) != string(index) {
		t.Errorf("the index changed")
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 0 {
		t.Errorf("written outside the jail: %v", ents)
	}
	// A path the caller names is still told to stay inside.
	_, err = gtCall[GitCommitResponse](e, "editor::git::commit", `{"message": "m", "paths": ["../elsewhere"]}`)
	if shell.CodeOf(err) != shell.CodeOutsideJail || !strings.Contains(err.Error(), "use a path inside the workspace") {
		t.Errorf("commit of a path outside: %v", err)
	}
}

// TestGitRestoreRefusesDotGitSpellings: restoring a hostile revision's
// .GIT/hooks/pre-commit (a case-insensitive file system reads it as
// .git/hooks/pre-commit) is refused like every other write there.
func TestGitRestoreRefusesDotGitSpellings(t *testing.T) {
	e := gtNew(t, "")
	e.write("a.txt", "a\n")
	e.commitAll("base")
	blob := strings.TrimSpace(gtGitIn(t, e.repo, "#!/bin/sh\necho pwned\n", "hash-object", "-w", "--stdin"))
	hooks := strings.TrimSpace(gtGitIn(t, e.repo, "100755 blob "+blob+"\tpre-commit\n", "mktree"))
	dotgit := strings.TrimSpace(gtGitIn(t, e.repo, "040000 tree "+hooks+"\thooks\n", "mktree"))
	a := strings.TrimSpace(e.git("rev-parse", "HEAD:a.txt"))
	top := strings.TrimSpace(gtGitIn(t, e.repo, "100644 blob "+a+"\ta.txt\n040000 tree "+dotgit+"\t.GIT\n", "mktree"))
	c := strings.TrimSpace(e.git("-c", "user.name=a", "-c", "user.email=a@b", "commit-tree", top, "-p", "HEAD", "-m", "hostile"))
	e.git("update-ref", "refs/heads/evil", c)
	_, err := gtCall[GitRestoreResponse](e, "editor::git::restore", `{"path": ".GIT/hooks/pre-commit", "rev": "evil"}`)
	if shell.CodeOf(err) != shell.CodeDenied {
		t.Fatalf("restore .GIT/hooks/pre-commit: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(e.repo, ".GIT")); err == nil {
		t.Fatal(".GIT was created")
	}
}

// gtGitIn runs git in dir with stdin.
func gtGitIn(t *testing.T, dir, stdin string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %v: %v", args, err)
	}
	return string(out)
}
