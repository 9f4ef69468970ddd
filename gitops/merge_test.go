package gitops

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// twin copies our repository (worktree and .git) into a sibling folder,
// where git does what editord does, for comparison.
func (s *remoteSetup) twin() string {
	s.f.t.Helper()
	dst := filepath.Join(filepath.Dir(s.f.dir), "twin")
	os.RemoveAll(dst)
	if out, err := gitCmd(filepath.Dir(s.f.dir), "clone", "-q", "--no-local", s.f.dir, dst); err != nil {
		s.f.t.Fatalf("clone twin: %v %s", err, out)
	}
	// The twin pulls from the same remote and has our branch and index.
	s.f.gitIn(dst, "remote", "set-url", "origin", s.f.git("remote", "get-url", "origin")[:len(s.f.git("remote", "get-url", "origin"))-1])
	s.f.gitIn(dst, "fetch", "-q", "origin")
	s.f.gitIn(dst, "reset", "-q", "--hard", strings.TrimSpace(s.f.git("rev-parse", "HEAD")))
	s.f.gitIn(dst, "branch", "-q", "--set-upstream-to=origin/main")
	return dst
}

func (s *remoteSetup) pull(mode string) *SyncResult {
	s.f.t.Helper()
	res, err := s.f.open().Sync(context.Background(), SyncOptions{Action: "pull", Mode: mode, Timeout: 20 * time.Second})
	if err != nil {
		s.f.t.Fatalf("pull: %v", err)
	}
	return res
}

// TestPullMergeClean pulls a diverged branch with mode merge: a merge
// commit git fsck accepts, whose tree is the one git pull makes.
func TestPullMergeClean(t *testing.T) {
	s := newRemoteSetup(t, func(bare string) string { return "file://" + bare })
	f := s.f
	f.write("a.txt", "1\n2\n3\n4\n5\n6\n7\n8\n")
	f.commitAll("lines")
	f.git("push", "-q")
	s.f.gitIn(s.other, "pull", "-q")
	s.colleague("a.txt", "1\n2 remote\n3\n4\n5\n6\n7\n8\n", "remote edit")
	s.colleague("r.txt", "remote file\n", "remote add")
	f.write("a.txt", "1\n2\n3\n4\n5\n6\n7 local\n8\n")
	f.commitAll("local edit")
	twin := s.twin()
	if res := s.pull(""); res.OK || !strings.Contains(res.Summary, "diverged") {
		t.Fatalf("ff-only pull of a diverged branch: %+v", res)
	}
	res := s.pull(PullMerge)
	if !res.OK || res.Ahead != 2 || res.Behind != 0 {
		t.Fatalf("pull merge: %+v", res)
	}
	f.gitIn(twin, "pull", "-q", "--no-rebase", "--no-edit")
	if got, want := f.git("rev-parse", "HEAD^{tree}"), f.gitIn(twin, "rev-parse", "HEAD^{tree}"); got != want {
		t.Fatalf("merged tree %s, git's %s", got, want)
	}
	if got, want := f.git("rev-parse", "HEAD^1", "HEAD^2"), f.gitIn(twin, "rev-parse", "HEAD^1", "HEAD^2"); got != want {
		t.Fatalf("parents %s, git's %s", got, want)
	}
	if out, err := gitCmd(f.dir, "fsck", "--strict"); err != nil {
		t.Fatalf("fsck: %v %s", err, out)
	}
	if st := f.git("status", "--porcelain"); st != "" {
		t.Fatalf("not clean after the merge:\n%s", st)
	}
	if f.read("a.txt") != "1\n2 remote\n3\n4\n5\n6\n7 local\n8\n" {
		t.Fatalf("a.txt: %q", f.read("a.txt"))
	}
}

// TestPullMergeConflict leaves the merge as git leaves it: the same file
// with markers, unmerged stages git status shows, MERGE_HEAD; then git
// merge --abort undoes it, and a second run is finished by git commit.
func TestPullMergeConflict(t *testing.T) {
	s := newRemoteSetup(t, func(bare string) string { return "file://" + bare })
	f := s.f
	s.colleague("a.txt", "a remote\n", "remote edit")
	s.colleague("r.txt", "remote file\n", "remote add")
	f.write("a.txt", "a local\n")
	f.commitAll("local edit")
	twin := s.twin()
	res := s.pull(PullMerge)
	if res.OK || len(res.Conflicts) != 1 || res.Conflicts[0] != "a.txt" {
		t.Fatalf("pull merge: %+v", res)
	}
	gitCmd(twin, "pull", "-q", "--no-rebase", "--no-edit")
	if got, want := f.read("a.txt"), readFile(t, filepath.Join(twin, "a.txt")); got != want {
		t.Fatalf("a.txt with markers:\n%s\ngit's:\n%s", got, want)
	}
	if got, want := f.git("status", "--porcelain"), f.gitIn(twin, "status", "--porcelain"); got != want {
		t.Fatalf("status:\n%s\ngit's:\n%s", got, want)
	}
	if got, want := f.git("ls-files", "-s"), f.gitIn(twin, "ls-files", "-s"); got != want {
		t.Fatalf("index:\n%s\ngit's:\n%s", got, want)
	}
	f.checkStatus("after a conflicted pull")
	f.git("merge", "--abort")
	if st := f.git("status", "--porcelain"); st != "" || f.read("a.txt") != "a local\n" {
		t.Fatalf("after git merge --abort: %q %q", st, f.read("a.txt"))
	}
	// Again, then resolve and let git commit finish it.
	if res := s.pull(PullMerge); len(res.Conflicts) != 1 {
		t.Fatalf("second pull: %+v", res)
	}
	f.write("a.txt", "a both\n")
	f.git("add", "a.txt")
	f.git("commit", "-q", "--no-edit")
	if n := strings.Fields(f.git("rev-list", "--parents", "-n1", "HEAD")); len(n) != 3 {
		t.Fatalf("git commit did not make a merge commit: %v", n)
	}
	if msg := f.git("log", "-1", "--format=%s"); !strings.HasPrefix(msg, "Merge branch 'main' of ") {
		t.Fatalf("merge message: %q", msg)
	}
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestMergeRefAbortContinue: editord's merge of a branch against git's
// merge of the same branch in a copy; a conflicted one is aborted by
// editord as git merge --abort would, then redone and finished by
// editord's commit once the markers are gone (refused while they remain).
func TestMergeRefAbortContinue(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "1\n2\n3\n4\n5\n6\n")
	f.write("b.txt", "b\n")
	f.commitAll("base")
	f.git("switch", "-q", "-c", "topic")
	f.write("a.txt", "1\n2 topic\n3\n4\n5\n6\n")
	f.write("t.txt", "t\n")
	f.commitAll("topic")
	f.git("switch", "-q", "main")
	f.write("a.txt", "1\n2\n3\n4\n5 main\n6\n")
	f.commitAll("main")
	twin := f.copyRepo()
	res, err := f.open().MergeRef(context.Background(), "topic", "", nil)
	if err != nil || !res.OK || res.FastForward {
		t.Fatalf("merge: %+v %v", res, err)
	}
	f.gitIn(twin, "merge", "-q", "--no-edit", "topic")
	if got, want := f.git("rev-parse", "HEAD^{tree}"), f.gitIn(twin, "rev-parse", "HEAD^{tree}"); got != want {
		t.Fatalf("tree %s, git's %s", got, want)
	}
	if got, want := f.git("log", "-1", "--format=%s"), f.gitIn(twin, "log", "-1", "--format=%s"); got != want {
		t.Fatalf("message %q, git's %q", got, want)
	}
	if out, err := gitCmd(f.dir, "fsck", "--strict"); err != nil {
		t.Fatalf("fsck: %v %s", err, out)
	}
	// A conflict: both change line 2.
	f.git("switch", "-q", "-c", "other", "HEAD~1")
	f.write("a.txt", "1\n2 other\n3\n4\n5 main\n6\n")
	f.commitAll("other")
	f.git("switch", "-q", "main")
	before := f.git("rev-parse", "HEAD")
	res, err = f.open().MergeRef(context.Background(), "other", "", nil)
	if err != nil || res.OK || len(res.Conflicts) != 1 {
		t.Fatalf("conflicted merge: %+v %v", res, err)
	}
	if !strings.Contains(f.read("a.txt"), "<<<<<<< HEAD\n") || !strings.Contains(f.read("a.txt"), ">>>>>>> other\n") {
		t.Fatalf("markers:\n%s", f.read("a.txt"))
	}
	if st := f.git("status", "--porcelain"); st != "UU a.txt\n" {
		t.Fatalf("status: %q", st)
	}
	if res, err := f.open().MergeAbort(context.Background(), nil); err != nil || !res.OK {
		t.Fatalf("abort: %+v %v", res, err)
	}
	if st := f.git("status", "--porcelain"); st != "" || f.git("rev-parse", "HEAD") != before {
		t.Fatalf("after abort: %q", st)
	}
	if _, err := gitCmd(f.dir, "rev-parse", "-q", "--verify", "MERGE_HEAD"); err == nil {
		t.Fatal("MERGE_HEAD left after abort")
	}
	f.open().MergeRef(context.Background(), "other", "", nil)
	if _, err := f.open().Commit(context.Background(), CommitOptions{StageAll: true}); err == nil {
		t.Fatal("committed a file that still holds markers")
	}
	f.write("a.txt", "1\n2 resolved\n3\n4\n5 main\n6\n")
	c, err := f.open().MergeContinue(context.Background(), "")
	if err != nil || !c.Committed {
		t.Fatalf("continue: %+v %v", c, err)
	}
	if p := strings.Fields(f.git("rev-list", "--parents", "-n1", "HEAD")); len(p) != 3 {
		t.Fatalf("not a merge commit: %v", p)
	}
	if msg := f.git("log", "-1", "--format=%s"); msg != "Merge branch 'other'\n" {
		t.Fatalf("message %q", msg)
	}
	if st := f.git("status", "--porcelain"); st != "" {
		t.Fatalf("after continue: %q", st)
	}
	if out, err := gitCmd(f.dir, "fsck", "--strict"); err != nil {
		t.Fatalf("fsck: %v %s", err, out)
	}
}
