package gitops

import (
	"context"
	"os"
	"sort"
	"strings"
	"testing"
)

func (f *fixture) stash(opt StashOptions) (*StashResult, []Touched) {
	f.t.Helper()
	var touched []Touched
	opt.OnTouch = func(t Touched) { touched = append(touched, t) }
	res, err := f.open().Stash(context.Background(), opt)
	if err != nil {
		f.t.Fatalf("stash %s: %v", opt.Action, err)
	}
	return res, touched
}

// snapshot is the worktree's files and git's status, to compare states.
func (f *fixture) snapshot() string {
	f.t.Helper()
	var b strings.Builder
	files := f.existing()
	sort.Strings(files)
	for _, p := range files {
		b.WriteString(p + "=" + f.readMaybeLink(p) + "\n")
	}
	b.WriteString(rowsString(f.gitStatus()))
	return b.String()
}

func (f *fixture) readMaybeLink(p string) string {
	if t, err := os.Readlink(f.path(p)); err == nil {
		return "->" + t
	}
	return f.read(p)
}

// stashScene makes a repository with every kind of local change.
func stashScene(t *testing.T) *fixture {
	f := newFixture(t)
	f.write("a.txt", "a\n")
	f.write("b.txt", "b\n")
	f.write("c.txt", "c\n")
	f.write("dir/d.txt", "d\n")
	f.write(".gitignore", "*.log\n")
	f.commitAll("base")
	f.write("new.txt", "new staged\n")
	f.git("add", "new.txt")
	f.write("a.txt", "a staged\n")
	f.git("add", "a.txt")
	f.write("a.txt", "a staged then edited\n")
	os.Remove(f.path("b.txt"))
	f.write("c.txt", "c edited\n")
	f.write("dir/d.txt", "d staged\n")
	f.git("add", "dir/d.txt")
	f.write("untracked file ü.txt", "untracked\n")
	f.write("x.log", "ignored\n")
	return f
}

func TestStashOursPoppedByGit(t *testing.T) {
	for _, withUntracked := range []bool{false, true} {
		f := stashScene(t)
		want := stashScene(t)
		if withUntracked {
			want.git("stash", "push", "-q", "-u")
		} else {
			want.git("stash", "push", "-q")
		}
		res, touched := f.stash(StashOptions{Action: "push", IncludeUntracked: withUntracked})
		if !res.OK || len(touched) == 0 {
			t.Fatalf("push: %+v %v", res, touched)
		}
		if got, exp := f.snapshot(), want.snapshot(); got != exp {
			t.Fatalf("after our push (untracked %v):\n%s\ngit's push:\n%s", withUntracked, got, exp)
		}
		if list := f.git("stash", "list"); !strings.HasPrefix(list, "stash@{0}: WIP on main: ") {
			t.Fatalf("git stash list: %q", list)
		}
		if out := f.git("stash", "show", "--name-only", "--include-untracked"); out != want.git("stash", "show", "--name-only", "--include-untracked") {
			t.Errorf("git stash show: %q vs %q", out, want.git("stash", "show", "--name-only", "--include-untracked"))
		}
		f.git("fsck", "--strict", "--no-dangling")
		f.git("stash", "pop", "-q")
		want.git("stash", "pop", "-q")
		if got, exp := f.snapshot(), want.snapshot(); got != exp {
			t.Fatalf("git pop of our stash:\n%s\nwant:\n%s", got, exp)
		}
	}
}

func TestStashGitsPoppedByUs(t *testing.T) {
	for _, withUntracked := range []bool{false, true} {
		f := stashScene(t)
		want := stashScene(t)
		args := []string{"stash", "push", "-q", "-m", "my message"}
		if withUntracked {
			args = append(args, "-u")
		}
		f.git(args...)
		want.git(args...)
		want.git("stash", "pop", "-q")
		res, touched := f.stash(StashOptions{Action: "pop"})
		if !res.OK || !strings.Contains(res.Summary, "my message") {
			t.Fatalf("pop: %+v", res)
		}
		if len(touched) == 0 {
			t.Fatal("pop touched nothing")
		}
		if got, exp := f.snapshot(), want.snapshot(); got != exp {
			t.Fatalf("our pop of git's stash (untracked %v):\n%s\ngit's pop:\n%s", withUntracked, got, exp)
		}
		if list := f.git("stash", "list"); list != "" {
			t.Errorf("stash not dropped: %q", list)
		}
		if f.exists(".git/refs/stash") || f.exists(".git/logs/refs/stash") {
			t.Error("refs/stash or its reflog left behind")
		}
		f.checkStatus("after pop")
	}
}

func TestStashRoundTripAndStack(t *testing.T) {
	f := stashScene(t)
	before := f.snapshot()
	res, _ := f.stash(StashOptions{Action: "push", Message: "first"})
	if !res.OK {
		t.Fatal(res.Summary)
	}
	f.checkStatus("after push")
	f.write("a.txt", "second stash\n")
	if res, _ = f.stash(StashOptions{Action: "push"}); !res.OK {
		t.Fatal(res.Summary)
	}
	list := f.git("stash", "list")
	if !strings.HasPrefix(list, "stash@{0}: WIP on main") || !strings.Contains(list, "stash@{1}: On main: first") {
		t.Fatalf("list: %q", list)
	}
	if res, _ = f.stash(StashOptions{Action: "pop"}); !res.OK {
		t.Fatal(res.Summary)
	}
	if f.read("a.txt") != "second stash\n" {
		t.Fatalf("a.txt %q", f.read("a.txt"))
	}
	if list := f.git("stash", "list"); !strings.HasPrefix(list, "stash@{0}: On main: first") || strings.Count(list, "\n") != 1 {
		t.Fatalf("after one pop: %q", list)
	}
	// Popping the first onto the local edit of a.txt would overwrite it.
	res, _ = f.stash(StashOptions{Action: "pop"})
	if res.OK || !strings.Contains(res.Summary, "a.txt") {
		t.Fatalf("conflicting pop: %+v", res)
	}
	if list := f.git("stash", "list"); !strings.HasPrefix(list, "stash@{0}: On main: first") {
		t.Fatalf("stash lost after refused pop: %q", list)
	}
	f.git("checkout", "--", "a.txt")
	if res, _ = f.stash(StashOptions{Action: "pop"}); !res.OK {
		t.Fatal(res.Summary)
	}
	if got := f.snapshot(); got != stashSceneAfterPop(before) {
		t.Fatalf("round trip:\n%s\nwant:\n%s", got, stashSceneAfterPop(before))
	}
	f.git("fsck", "--strict", "--no-dangling")
	if res, _ = f.stash(StashOptions{Action: "pop"}); res.OK || !strings.Contains(res.Summary, "No stash") {
		t.Fatalf("empty pop: %+v", res)
	}
}

// stashSceneAfterPop is the scene's snapshot after a round trip: a pop
// (git's too) restores staged modifications as unstaged ones.
func stashSceneAfterPop(before string) string {
	r := strings.NewReplacer("MM a.txt", ".M a.txt", "M. dir/d.txt", ".M dir/d.txt")
	return r.Replace(before)
}

func TestStashNothing(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "a\n")
	res, _ := f.stash(StashOptions{Action: "push"})
	if res.OK || !strings.Contains(res.Summary, "initial commit") {
		t.Fatalf("unborn: %+v", res)
	}
	f.commitAll("base")
	f.write("u.txt", "untracked only\n")
	res, _ = f.stash(StashOptions{Action: "push"})
	if res.OK || !strings.Contains(res.Summary, "No local changes") {
		t.Fatalf("nothing: %+v", res)
	}
}
