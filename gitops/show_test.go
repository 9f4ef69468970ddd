package gitops

import (
	"os"
	"strings"
	"testing"

	"github.com/editord/editord/shell"
)

func TestShowMatchesGit(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "v1\n")
	f.write("dir/ü file.txt", "unicode v1\n")
	c1 := f.commitAll("c1")
	f.git("tag", "v1")
	f.git("tag", "-a", "-m", "annotated", "v1a")
	f.write("a.txt", "v2\n")
	f.write("b.txt", "new in c2\n")
	f.commitAll("c2")
	f.git("checkout", "-q", "-b", "topic")
	f.write("a.txt", "v3 on topic\n")
	os.Remove(f.path("dir/ü file.txt"))
	f.commitAll("c3")
	f.write("a.txt", "staged\n")
	f.git("add", "a.txt")
	f.write("a.txt", "worktree\n")
	r := f.open()
	for _, rev := range []string{"HEAD", "HEAD~1", "HEAD~2", "HEAD^", "main", "topic", "v1", "v1a", c1, c1[:8], ":"} {
		for _, p := range []string{"a.txt", "b.txt", "dir/ü file.txt"} {
			got, exists, err := r.Show(rev, p, 0)
			if err != nil {
				t.Fatalf("show %s %s: %v", rev, p, err)
			}
			spec := rev + ":" + p
			if rev == ":" {
				spec = ":" + p
			}
			want, gerr := gitCmd(f.dir, "show", spec)
			if gerr != nil {
				if exists {
					t.Errorf("show %s: we say it exists, git says %s", spec, want)
				}
				continue
			}
			if !exists || string(got) != want {
				t.Errorf("show %s: got %q (exists %v), git %q", spec, got, exists, want)
			}
		}
	}
	if _, _, err := r.Show("no-such-branch", "a.txt", 0); shell.CodeOf(err) != shell.CodeInvalidArgument {
		t.Errorf("unknown revision: %v", err)
	}
	if _, _, err := r.Show("HEAD~1", "dir", 0); shell.CodeOf(err) != shell.CodeIsADirectory {
		t.Errorf("folder: %v", err)
	}
	if _, _, err := r.Show("HEAD:a.txt", "a.txt", 0); shell.CodeOf(err) != shell.CodeInvalidArgument {
		t.Errorf("rev with a colon: %v", err)
	}
}

func TestShowUnborn(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "x\n")
	r := f.open()
	_, exists, err := r.Show("HEAD", "a.txt", 0)
	if err != nil || exists {
		t.Fatalf("unborn HEAD: exists %v err %v", exists, err)
	}
	if _, _, err := r.Show("HEAD~1", "a.txt", 0); shell.CodeOf(err) != shell.CodeInvalidArgument {
		t.Fatalf("HEAD~1 of nothing: %v", err)
	}
}

func TestShowSymlinkAndLimits(t *testing.T) {
	f := newFixture(t)
	f.write("big.txt", strings.Repeat("x", 100)+"\n")
	f.write("bin.dat", "a\x00b")
	os.Symlink("big.txt", f.path("link"))
	f.commitAll("c")
	r := f.open()
	got, _, err := r.Show("HEAD", "link", 0)
	if err != nil || string(got) != "big.txt" {
		t.Fatalf("symlink: %q %v", got, err)
	}
	if _, _, err := r.Show("HEAD", "big.txt", 50); shell.CodeOf(err) != shell.CodeTooLarge {
		t.Fatalf("limit: %v", err)
	}
	if _, _, err := r.Show("HEAD", "bin.dat", 0); shell.CodeOf(err) != shell.CodeBinary {
		t.Fatalf("binary: %v", err)
	}
}
