package gitops

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// copyRepo copies the fixture's whole folder (worktree and .git), for git
// to do the same steps on.
func (f *fixture) copyRepo() string {
	f.t.Helper()
	dst := f.dir + "-git"
	os.MkdirAll(dst, 0o755)
	if out, err := runCmd("cp", "-a", f.dir+"/.", dst); err != nil {
		f.t.Fatalf("%v %s", err, out)
	}
	f.t.Cleanup(func() { os.RemoveAll(dst) })
	return dst
}

// TestStashListShowDropInterop: git's stashes listed, shown and dropped by
// editord, and editord's seen by git.
func TestStashListShowDropInterop(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "a\nb\nc\n")
	f.commitAll("base")
	f.write("a.txt", "a\nB\nc\n")
	f.git("stash", "push", "-q", "-m", "first")
	f.write("a.txt", "A\nb\nc\n")
	f.write("n.txt", "new\n")
	f.git("stash", "push", "-q", "-u")
	f.write("a.txt", "a\nb\nC\n")
	f.stash(StashOptions{Action: "push", Message: "third"})
	res, _ := f.stash(StashOptions{Action: "list"})
	var got []string
	for _, e := range res.Entries {
		got = append(got, e.Name+": "+e.Message)
		if e.Branch != "main" || e.Date == 0 {
			t.Errorf("entry %+v", e)
		}
	}
	want := strings.TrimSpace(f.git("stash", "list", "--format=%gd: %gs"))
	if strings.Join(got, "\n") != want {
		t.Fatalf("list:\n%s\ngit:\n%s", strings.Join(got, "\n"), want)
	}
	show, _ := f.stash(StashOptions{Action: "show", Stash: "stash@{2}"})
	if !strings.Contains(show.Patch, "-b\n+B\n") || len(show.Files) != 1 {
		t.Fatalf("show stash@{2}: %+v", show)
	}
	// The patch is one git applies in reverse to the stashed tree.
	show1, _ := f.stash(StashOptions{Action: "show", Stash: "1"})
	if len(show1.Files) != 2 || show1.Files[1] != "n.txt (untracked)" {
		t.Fatalf("show stash@{1} files: %v", show1.Files)
	}
	if res, _ := f.stash(StashOptions{Action: "drop", Stash: "stash@{1}"}); !res.OK {
		t.Fatalf("drop: %+v", res)
	}
	if got := strings.TrimSpace(f.git("stash", "list", "--format=%gs")); got != "On main: third\nOn main: first" {
		t.Fatalf("after drop, git lists:\n%s", got)
	}
	if res, _ := f.stash(StashOptions{Action: "drop", Stash: "stash@{5}"}); res.OK {
		t.Fatalf("drop of a missing stash: %+v", res)
	}
	// git pops what is left, in order.
	f.git("stash", "pop", "-q")
	if f.read("a.txt") != "a\nb\nC\n" {
		t.Fatalf("git stash pop of editord's stash: %q", f.read("a.txt"))
	}
	f.git("checkout", "-q", "--", "a.txt")
	f.git("stash", "pop", "-q")
	if f.read("a.txt") != "a\nB\nc\n" || f.git("stash", "list") != "" {
		t.Fatalf("second pop: %q", f.read("a.txt"))
	}
}

// TestStashPopMerges is the agent's case: stash, the branch moves on
// another line, pop merges, exactly as git stash pop does; and a pop that
// conflicts keeps the stash and leaves git's markers.
func TestStashPopMerges(t *testing.T) {
	for _, tc := range []struct {
		name, upstream string
		conflict       bool
	}{
		{"other line", "1\n2\n3\n4\n5\n6\n7 upstream\n8\n", false},
		{"same line", "1\n2 upstream\n3\n4\n5\n6\n7\n8\n", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.write("a.txt", "1\n2\n3\n4\n5\n6\n7\n8\n")
			f.write("b.txt", "b\n")
			f.commitAll("base")
			f.write("a.txt", "1\n2 mine\n3\n4\n5\n6\n7\n8\n")
			f.write("c.txt", "mine, new\n")
			f.git("add", "c.txt")
			f.write("u.txt", "untracked\n")
			if res, _ := f.stash(StashOptions{Action: "push", IncludeUntracked: true}); !res.OK {
				t.Fatalf("push: %+v", res)
			}
			f.write("a.txt", tc.upstream)
			f.commitAll("upstream")
			f.write("b.txt", "b local, unrelated\n") // a local change the pop leaves alone
			twin := f.copyRepo()
			res, _ := f.stash(StashOptions{Action: "pop"})
			_, gerr := gitCmd(twin, "stash", "pop")
			if res.OK == tc.conflict || (gerr != nil) != tc.conflict {
				t.Fatalf("pop: %+v (git: %v)", res, gerr)
			}
			for _, p := range []string{"a.txt", "b.txt", "c.txt", "u.txt"} {
				if got, want := f.read(p), readFile(t, filepath.Join(twin, p)); got != want {
					t.Errorf("%s:\n%s\ngit:\n%s", p, got, want)
				}
			}
			if got, want := f.git("status", "--porcelain"), f.gitIn(twin, "status", "--porcelain"); got != want {
				t.Errorf("status:\n%s\ngit:\n%s", got, want)
			}
			if got, want := f.git("stash", "list", "--format=%gs"), f.gitIn(twin, "stash", "list", "--format=%gs"); got != want {
				t.Errorf("stash list:\n%s\ngit:\n%s", got, want)
			}
			if tc.conflict && (len(res.Conflicts) != 1 || res.Conflicts[0] != "a.txt") {
				t.Errorf("conflicts: %v", res.Conflicts)
			}
		})
	}
}

// TestStashPushPaths stashes only the paths named, as git stash push --.
func TestStashPushPaths(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "a\n")
	f.write("d/b.txt", "b\n")
	f.commitAll("base")
	f.write("a.txt", "a changed\n")
	f.write("d/b.txt", "b changed\n")
	twin := f.copyRepo()
	if res, _ := f.stash(StashOptions{Action: "push", Paths: []string{"d"}}); !res.OK {
		t.Fatalf("push: %+v", res)
	}
	f.gitIn(twin, "stash", "push", "-q", "--", "d")
	if got, want := f.git("status", "--porcelain"), f.gitIn(twin, "status", "--porcelain"); got != want {
		t.Fatalf("status:\n%s\ngit:\n%s", got, want)
	}
	if got, want := f.git("stash", "show", "--numstat"), f.gitIn(twin, "stash", "show", "--numstat"); got != want {
		t.Fatalf("stash show:\n%s\ngit:\n%s", got, want)
	}
	f.git("stash", "pop", "-q")
	if f.read("d/b.txt") != "b changed\n" || f.read("a.txt") != "a changed\n" {
		t.Fatal("git stash pop of a paths stash")
	}
}
