package gitops

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/editord/editord/shell"
)

func TestStatusBasics(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "one\n")
	f.write("dir/b.txt", "two\n")
	f.write("dir/sub/c.txt", "three\n")
	f.write(".gitignore", "*.log\nbuild/\n")
	f.commitAll("first")
	st := f.checkStatus("clean")
	if !st.Clean() || st.Branch != "main" {
		t.Fatalf("clean repo: %+v", st)
	}
	f.write("a.txt", "one changed\n")
	f.write("new file ü.txt", "x\n")
	f.write("x.log", "ignored\n")
	f.write("build/out.txt", "ignored\n")
	os.Remove(f.path("dir/b.txt"))
	f.checkStatus("edits")
	f.git("add", "a.txt")
	f.git("mv", "dir/sub/c.txt", "dir/c-moved.txt")
	f.checkStatus("staged")
	os.Chmod(f.path("a.txt"), 0o755)
	f.checkStatus("chmod")
	os.Remove(f.path("a.txt"))
	os.Symlink("dir/b.txt", f.path("a.txt"))
	f.checkStatus("typechange")
}

func TestStatusNotARepository(t *testing.T) {
	needGit(t)
	dir := t.TempDir()
	j, err := shell.Open(shell.Config{Roots: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	_, err = Open(j, j.Roots()[0])
	if shell.CodeOf(err) != shell.CodeNotARepository {
		t.Fatalf("want not_a_repository, got %v", err)
	}
}

func TestStatusUnbornAndDetached(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "1\n")
	st := f.checkStatus("unborn")
	if st.Branch != "main" || !st.Head.IsZero() {
		t.Fatalf("unborn: %+v", st)
	}
	f.git("add", "a.txt")
	f.checkStatus("unborn staged")
	f.commitAll("c1")
	f.write("a.txt", "2\n")
	f.commitAll("c2")
	f.git("checkout", "-q", "HEAD~1")
	st = f.checkStatus("detached")
	if st.Branch != "" {
		t.Fatalf("detached: branch %q", st.Branch)
	}
}

func TestStatusUpstream(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "1\n")
	f.commitAll("c1")
	bare := t.TempDir()
	f.gitIn(bare, "init", "-q", "--bare")
	f.git("remote", "add", "origin", bare)
	f.git("push", "-q", "-u", "origin", "main")
	f.write("a.txt", "2\n")
	f.commitAll("c2")
	f.write("a.txt", "3\n")
	f.commitAll("c3")
	st := f.status()
	if st.Upstream != "origin/main" || st.Ahead != 2 || st.Behind != 0 {
		t.Fatalf("upstream: %+v", st)
	}
	f.git("push", "-q", "origin", "main")
	f.git("reset", "-q", "--hard", "HEAD~2")
	f.write("b.txt", "b\n")
	f.commitAll("side")
	st = f.status()
	if st.Ahead != 1 || st.Behind != 2 {
		t.Fatalf("diverged: %+v", st)
	}
}

// Indexes editord cannot read are refused with a message naming the
// setting, never misread (README: Git, not supported).
func TestUnreadableIndexesRefused(t *testing.T) {
	for _, c := range []struct {
		name  string
		setup [][]string
		want  []string
	}{
		{"split index", [][]string{{"update-index", "--split-index"}}, []string{"split index", "core.splitIndex", "setting is off"}},
		{"sparse index", [][]string{{"sparse-checkout", "init", "--cone", "--sparse-index"}, {"sparse-checkout", "set", "dir"}}, []string{"sparse index"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			f.write("a.txt", "a\n")
			f.write("dir/b.txt", "b\n")
			f.write("other/c.txt", "c\n")
			f.commitAll("base")
			for _, args := range c.setup {
				f.git(args...)
			}
			_, err := f.open().Status(context.Background())
			if err == nil {
				t.Fatalf("status over a %s: no error", c.name)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Fatalf("status over a %s: %v (want %q in it)", c.name, err, w)
				}
			}
		})
	}
}
