package gitops

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/editord/editord/shell"
)

// TestNotARepositorySaysWhereTheRepositoryIs: a jail root inside a
// repository whose top is outside the jail is told so (git functions are
// off), never advised to start a repository there, which would nest a
// second one in the first; a folder in no repository is told plainly.
func TestNotARepositorySaysWhereTheRepositoryIs(t *testing.T) {
	f := newFixture(t)
	f.write("sub/a.txt", "a\n")
	f.commitAll("base")
	sub := filepath.Join(f.dir, "sub")
	j, err := shell.Open(shell.Config{Roots: []string{sub}})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	_, err = Open(j, sub)
	if shell.CodeOf(err) != shell.CodeNotARepository {
		t.Fatalf("want not_a_repository, got %v", err)
	}
	msg := shell.AsError(err, "").Message
	if !strings.Contains(msg, "inside the git repository at "+f.dir) || strings.Contains(msg, "git init") {
		t.Fatalf("message: %s", msg)
	}
	// Outside any repository: a plain statement, no command to run.
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	if shell.RepoTop(dir) != "" {
		t.Skip("the temp folder is inside a repository")
	}
	os.MkdirAll(filepath.Join(dir, "x"), 0o755)
	j2, err := shell.Open(shell.Config{Roots: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	defer j2.Close()
	_, err = Open(j2, dir)
	if msg := shell.AsError(err, "").Message; shell.CodeOf(err) != shell.CodeNotARepository || strings.Contains(msg, "git init") || !strings.Contains(msg, "not inside a git repository") {
		t.Fatalf("outside any repository: %v", err)
	}
}
