package gitops

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// switchScene: main and other differ in a.txt and in new.txt (only on
// other); both have same.txt.
func switchScene(t *testing.T) *fixture {
	f := newFixture(t)
	f.write("a.txt", "a main\n")
	f.write("same.txt", "same\n")
	f.commitAll("base")
	f.git("branch", "other")
	f.git("switch", "-q", "other")
	f.write("a.txt", "a other\n")
	f.write("new.txt", "new on other\n")
	f.commitAll("other")
	f.git("switch", "-q", "main")
	return f
}

// TestSwitchRefusesExactlyWhenGitDoes runs each local state through git
// switch (in a copy) and editord's switch, and wants the same outcome: the
// same refusal, or the same files and status afterwards.
func TestSwitchRefusesExactlyWhenGitDoes(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(f *fixture)
	}{
		{"clean", func(f *fixture) {}},
		{"modified file that differs", func(f *fixture) { f.write("a.txt", "local\n") }},
		{"modified file that is the same", func(f *fixture) { f.write("same.txt", "local\n") }},
		{"staged file that differs", func(f *fixture) { f.write("a.txt", "staged\n"); f.git("add", "a.txt") }},
		{"staged as the target has it", func(f *fixture) { f.write("a.txt", "a other\n"); f.git("add", "a.txt") }},
		{"worktree as the target has it", func(f *fixture) { f.write("a.txt", "a other\n") }},
		{"untracked where the target has a file", func(f *fixture) { f.write("new.txt", "mine\n") }},
		{"untracked equal to the target's", func(f *fixture) { f.write("new.txt", "new on other\n") }},
		{"untracked elsewhere", func(f *fixture) { f.write("u.txt", "u\n") }},
		{"new staged file", func(f *fixture) { f.write("n2.txt", "n2\n"); f.git("add", "n2.txt") }},
		{"deleted file that differs", func(f *fixture) { f.git("rm", "-q", "--cached", "a.txt") }},
		{"deleted same file", func(f *fixture) { f.git("rm", "-q", "same.txt") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := switchScene(t)
			tc.setup(f)
			twin := f.copyRepo()
			_, gerr := gitCmd(twin, "switch", "other")
			res, err := f.open().SwitchBranch(context.Background(), "other", nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.OK != (gerr == nil) {
				t.Fatalf("editord ok %v (%s), git switch ok %v", res.OK, res.Summary, gerr == nil)
			}
			for _, p := range []string{"a.txt", "same.txt", "new.txt", "u.txt", "n2.txt"} {
				if f.exists(p) != fileExists(filepath.Join(twin, p)) || f.exists(p) && f.read(p) != readFile(t, filepath.Join(twin, p)) {
					t.Errorf("%s differs from git's", p)
				}
			}
			if got, want := f.git("status", "--porcelain", "-b"), f.gitIn(twin, "status", "--porcelain", "-b"); got != want {
				t.Errorf("status:\n%s\ngit:\n%s", got, want)
			}
		})
	}
}

func TestBranchListCreateDelete(t *testing.T) {
	s := newRemoteSetup(t, func(bare string) string { return "file://" + bare })
	f := s.f
	s.colleague("a.txt", "remote\n", "remote 1")
	f.git("fetch", "-q")
	f.write("l.txt", "l\n")
	f.commitAll("local 1")
	r := f.open()
	if res, err := r.CreateBranch(context.Background(), "topic", "HEAD~1"); err != nil || !res.OK {
		t.Fatalf("create: %+v %v", res, err)
	}
	if got, want := f.git("rev-parse", "topic"), f.git("rev-parse", "HEAD~1"); got != want {
		t.Fatalf("topic at %s, want %s", got, want)
	}
	for _, bad := range []string{"a..b", "-x", "x.lock", "a b", "x/", "a~1", ".x"} {
		if _, err := r.CreateBranch(context.Background(), bad, ""); err == nil {
			t.Errorf("%q accepted", bad)
		}
		if _, err := gitCmd(f.dir, "check-ref-format", "--branch", bad); err == nil {
			t.Errorf("git accepts %q", bad)
		}
	}
	bs, err := r.Branches(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, b := range bs {
		rows = append(rows, strings.Join([]string{b.Name, b.SHA[:7], b.Upstream, strconv.Itoa(b.Ahead), strconv.Itoa(b.Behind), boolStr(b.Current)}, " "))
	}
	want := f.git("for-each-ref", "--format=%(refname:short) %(objectname:short) %(upstream:short) %(upstream:track)", "refs/heads", "refs/remotes")
	t.Logf("ours:\n%s\ngit:\n%s", strings.Join(rows, "\n"), want)
	if len(bs) != 3 || bs[0].Name != "main" || !bs[0].Current || bs[0].Upstream != "origin/main" || bs[0].Ahead != 1 || bs[0].Behind != 1 || bs[1].Name != "topic" || bs[2].Name != "origin/main" || !bs[2].Remote {
		t.Fatalf("branches: %+v", bs)
	}
	// An unmerged branch is kept unless forced, as git branch -d / -D.
	f.git("switch", "-q", "topic")
	f.write("t.txt", "t\n")
	f.commitAll("topic work")
	f.git("switch", "-q", "main")
	if res, _ := r.DeleteBranch(context.Background(), "topic", false); res.OK {
		t.Fatalf("deleted an unmerged branch: %+v", res)
	}
	if _, err := gitCmd(f.dir, "branch", "-d", "topic"); err == nil {
		t.Fatal("git deleted it")
	}
	if res, _ := r.DeleteBranch(context.Background(), "main", true); res.OK {
		t.Fatal("deleted the current branch")
	}
	if res, _ := r.DeleteBranch(context.Background(), "topic", true); !res.OK {
		t.Fatalf("force delete: %+v", res)
	}
	if out, _ := gitCmd(f.dir, "rev-parse", "--verify", "-q", "topic"); out != "" {
		t.Fatalf("topic still there: %s", out)
	}
	// Switching to a name only the remote has makes a tracking branch.
	s.f.gitIn(s.other, "switch", "-q", "-c", "feature")
	s.colleague("f.txt", "f\n", "feature 1")
	s.f.gitIn(s.other, "push", "-q", "origin", "feature")
	f.git("fetch", "-q")
	res, err := f.open().SwitchBranch(context.Background(), "feature", nil)
	if err != nil || !res.OK {
		t.Fatalf("switch feature: %+v %v", res, err)
	}
	if up := strings.TrimSpace(f.git("rev-parse", "--abbrev-ref", "feature@{upstream}")); up != "origin/feature" || f.read("f.txt") != "f\n" {
		t.Fatalf("feature tracks %q", up)
	}
}

func boolStr(b bool) string {
	if b {
		return "*"
	}
	return ""
}
