package gitops

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/editord/editord/shell"
)

// checkRepo asserts git finds the repository sound and that its status
// agrees with ours.
func (f *fixture) checkRepo(context string) {
	f.t.Helper()
	if out, err := gitCmd(f.dir, "fsck", "--strict", "--no-dangling"); err != nil {
		f.t.Fatalf("%s: git fsck: %v\n%s", context, err, out)
	}
	f.checkStatus(context)
}

func (f *fixture) commit(opt CommitOptions) *CommitResult {
	f.t.Helper()
	res, err := f.open().Commit(context.Background(), opt)
	if err != nil {
		f.t.Fatalf("commit: %v", err)
	}
	return res
}

func TestCommitStageAll(t *testing.T) {
	f := newFixture(t)
	f.write(".gitignore", "*.log\n")
	f.write("a.txt", "one\n")
	f.write("dir/b.txt", "two\n")
	f.write("gone.txt", "bye\n")
	f.commitAll("base")
	f.write("a.txt", "one\nmore\n")
	f.write("new dir/ü.txt", "new\n")
	f.write("x.log", "ignored\n")
	os.Remove(f.path("gone.txt"))
	os.Chmod(f.path("dir/b.txt"), 0o755)
	os.Symlink("a.txt", f.path("link"))
	res := f.commit(CommitOptions{Message: "  second commit\n\n\nbody  \n", StageAll: true})
	if !res.Committed || len(res.SHA) != 40 {
		t.Fatalf("commit: %+v", res)
	}
	if !strings.Contains(res.Summary, "[main "+res.SHA[:7]+"] second commit") || !strings.Contains(res.Summary, "5 files changed") {
		t.Errorf("summary: %q", res.Summary)
	}
	f.checkRepo("after commit")
	if head := strings.TrimSpace(f.git("rev-parse", "HEAD")); head != res.SHA {
		t.Fatalf("HEAD %s, commit %s", head, res.SHA)
	}
	if msg := f.git("log", "-1", "--format=%B"); msg != "  second commit\n\nbody\n\n" {
		t.Errorf("message %q", msg)
	}
	if who := f.git("log", "-1", "--format=%an <%ae>|%cn <%ce>"); who != "Test Person <test@example.com>|Test Person <test@example.com>\n" {
		t.Errorf("identity %q", who)
	}
	if files := f.git("-c", "core.quotePath=false", "ls-files"); strings.Contains(files, "x.log") || !strings.Contains(files, "new dir/ü.txt") || strings.Contains(files, "gone.txt") {
		t.Errorf("tracked files: %q", files)
	}
	if st := f.status(); !strings.Contains(rowsString(st.Entries), "") || len(st.Entries) != 0 {
		t.Errorf("not clean after stage_all commit: %s", rowsString(st.Entries))
	}
	if rl := f.git("reflog", "-1", "--format=%gs"); rl != "commit: second commit\n" {
		t.Errorf("reflog %q", rl)
	}
	// Nothing to commit.
	res = f.commit(CommitOptions{Message: "again", StageAll: true})
	if res.Committed || !strings.Contains(res.Summary, "nothing to commit") {
		t.Errorf("empty commit: %+v", res)
	}
	f.checkRepo("after empty commit")
}

func TestCommitIndexOnlyAndPaths(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "a\n")
	f.write("b.txt", "b\n")
	f.write("d/c.txt", "c\n")
	f.commitAll("base")
	f.write("a.txt", "a2\n")
	f.write("b.txt", "b2\n")
	f.git("add", "b.txt")
	f.write("d/c.txt", "c2\n")
	f.write("d/new.txt", "new\n")
	// stage_all false: the index as it is.
	res := f.commit(CommitOptions{Message: "index only"})
	if !res.Committed {
		t.Fatalf("%+v", res)
	}
	if got := f.git("show", "--name-only", "--format=", "HEAD"); got != "b.txt\n" {
		t.Errorf("index-only commit holds %q", got)
	}
	f.checkRepo("index only")
	// paths: exactly those, staged changes elsewhere stay staged.
	f.write("b.txt", "b3\n")
	f.git("add", "b.txt")
	res = f.commit(CommitOptions{Message: "paths", Paths: []string{"d"}})
	if !res.Committed {
		t.Fatalf("%+v", res)
	}
	if got := f.git("show", "--name-only", "--format=", "HEAD"); got != "d/c.txt\nd/new.txt\n" {
		t.Errorf("paths commit holds %q", got)
	}
	f.checkRepo("paths")
	st := f.status()
	if rowsString(st.Entries) != ".M a.txt\nM. b.txt\n" {
		t.Errorf("after paths commit:\n%s", rowsString(st.Entries))
	}
	_, err := f.open().Commit(context.Background(), CommitOptions{Message: "x", Paths: []string{"nope"}})
	if shell.CodeOf(err) != shell.CodeNotFound {
		t.Errorf("unknown path: %v", err)
	}
	// The staged b.txt, then nothing staged.
	if res = f.commit(CommitOptions{Message: "b"}); !res.Committed {
		t.Fatalf("%+v", res)
	}
	res = f.commit(CommitOptions{Message: "nothing"})
	if res.Committed || !strings.Contains(res.Summary, "no changes added") && !strings.Contains(res.Summary, "nothing") {
		t.Errorf("%+v", res)
	}
}

func TestCommitFirstAndDetachedAndIdentity(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "a\n")
	res := f.commit(CommitOptions{Message: "root", StageAll: true})
	if !res.Committed || !strings.Contains(res.Summary, "root-commit") {
		t.Fatalf("%+v", res)
	}
	f.checkRepo("root commit")
	if rl := f.git("reflog", "-1", "--format=%gs"); rl != "commit (initial): root\n" {
		t.Errorf("reflog %q", rl)
	}
	f.git("checkout", "-q", "--detach")
	f.write("a.txt", "b\n")
	res = f.commit(CommitOptions{Message: "detached", StageAll: true})
	if !res.Committed || !strings.Contains(res.Summary, "detached HEAD") {
		t.Fatalf("%+v", res)
	}
	if head := strings.TrimSpace(f.git("rev-parse", "HEAD")); head != res.SHA {
		t.Fatalf("HEAD %s", head)
	}
	f.checkRepo("detached")

	empty := filepath.Join(t.TempDir(), "empty")
	os.WriteFile(empty, nil, 0o644)
	t.Setenv("GIT_CONFIG_GLOBAL", empty)
	f.write("a.txt", "c\n")
	_, err := f.open().Commit(context.Background(), CommitOptions{Message: "who", StageAll: true})
	if shell.CodeOf(err) != shell.CodeGitFailed || !strings.Contains(err.Error(), "user.name") {
		t.Fatalf("no identity: %v", err)
	}
	if _, err := os.Stat(f.path(".git/index.lock")); err == nil {
		t.Fatal("index.lock left behind")
	}
	f.git("-c", "user.name=Repo", "-c", "user.email=r@x", "config", "user.name", "Repo Person")
	f.git("config", "user.email", "repo@example.com")
	res = f.commit(CommitOptions{Message: "repo identity", StageAll: true})
	if who := f.git("log", "-1", "--format=%an <%ae>"); !res.Committed || who != "Repo Person <repo@example.com>\n" {
		t.Fatalf("repo identity: %q %+v", who, res)
	}
}

func TestUndoCommit(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "a\n")
	f.commitAll("root")
	_, _, err := f.open().UndoCommit(context.Background())
	if shell.CodeOf(err) != shell.CodeInvalidArgument || !strings.Contains(err.Error(), "root") {
		t.Fatalf("root commit: %v", err)
	}
	f.write("a.txt", "b\n")
	f.write("n.txt", "n\n")
	second := f.commitAll("second\n\nwith body")
	sha, msg, err := f.open().UndoCommit(context.Background())
	if err != nil || sha != second || msg != "second\n\nwith body" {
		t.Fatalf("undo: %s %q %v", sha, msg, err)
	}
	st := f.checkStatus("after undo")
	if rowsString(st.Entries) != "M. a.txt\nA. n.txt\n" {
		t.Errorf("changes not staged:\n%s", rowsString(st.Entries))
	}
	if rl := f.git("reflog", "-1", "--format=%gs"); rl != "reset: moving to HEAD~1\n" {
		t.Errorf("reflog %q", rl)
	}
	// A pushed commit is refused.
	f.commitAll("third")
	bare := t.TempDir()
	f.gitIn(bare, "init", "-q", "--bare")
	f.git("remote", "add", "origin", bare)
	f.git("push", "-q", "-u", "origin", "main")
	_, _, err = f.open().UndoCommit(context.Background())
	if shell.CodeOf(err) != shell.CodeInvalidArgument || !strings.Contains(err.Error(), "origin/main") {
		t.Fatalf("pushed commit: %v", err)
	}
	f.write("a.txt", "local\n")
	local := f.commitAll("local only")
	if sha, _, err := f.open().UndoCommit(context.Background()); err != nil || sha != local {
		t.Fatalf("unpushed: %s %v", sha, err)
	}
}

// TestCacheTreeWritten checks that our index carries a cache-tree git
// accepts and agrees with (git's own write-tree and its index checks).
func TestCacheTreeWritten(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "a\n")
	f.write("d/e/b.txt", "b\n")
	f.write("d/c.txt", "c\n")
	f.write("longer-name/x.txt", "x\n")
	f.write("z/y.txt", "y\n")
	res := f.commit(CommitOptions{Message: "c", StageAll: true})
	idx, err := f.open().readIndex()
	if err != nil {
		t.Fatal(err)
	}
	tree, ok := idx.cachedTree()
	want := strings.TrimSpace(f.git("rev-parse", "HEAD^{tree}"))
	if !ok || tree.String() != want {
		t.Fatalf("cache-tree %s (valid %v), HEAD tree %s (commit %s)", tree, ok, want, res.SHA)
	}
	out := f.git("ls-files", "--debug")
	if strings.Contains(out, "error") {
		t.Fatal(out)
	}
	if got := strings.TrimSpace(f.git("write-tree")); got != want {
		t.Fatalf("git write-tree %s, want %s", got, want)
	}
	f.checkRepo("cache-tree")
	// git trusts the cache-tree for the subtrees a commit leaves alone: a
	// wrong one would give git's next commit a wrong tree.
	f.write("d/e/b.txt", "b changed by git\n")
	f.write("z/new.txt", "new\n")
	f.git("add", "-A")
	f.git("commit", "-q", "-m", "by git")
	if got, want := f.git("ls-tree", "-r", "--name-only", "HEAD"), "a.txt\nd/c.txt\nd/e/b.txt\nlonger-name/x.txt\nz/new.txt\nz/y.txt\n"; got != want {
		t.Fatalf("git's commit on our cache-tree holds:\n%s", got)
	}
	f.checkRepo("git commit after ours")
}

// TestDenyGlobsLeftAlone: a tracked file matching the jail's deny globs
// (.env here) is never listed, staged, stashed or overwritten.
func TestDenyGlobsLeftAlone(t *testing.T) {
	f := newFixture(t)
	f.write(".env", "TOKEN=1\n")
	f.write("a.txt", "a\n")
	f.commitAll("base")
	f.write(".env", "TOKEN=2\n")
	f.write("a.txt", "a2\n")
	f.write("new.key", "secret\n")
	st := f.status()
	if rowsString(st.Entries) != ".M a.txt\n" {
		t.Fatalf("status lists denied files:\n%s", rowsString(st.Entries))
	}
	res, _ := f.stash(StashOptions{Action: "push", IncludeUntracked: true})
	if !res.OK || f.read(".env") != "TOKEN=2\n" || f.read("new.key") != "secret\n" {
		t.Fatalf("stash touched denied files: %+v", res)
	}
	if got := f.git("status", "--porcelain"); got != " M .env\n?? new.key\n" {
		t.Fatalf("after stash, git says %q", got)
	}
	f.stash(StashOptions{Action: "pop"})
	c := f.commit(CommitOptions{Message: "all", StageAll: true})
	if !c.Committed || f.git("show", "--name-only", "--format=", "HEAD") != "a.txt\n" {
		t.Fatalf("commit took denied files: %+v %q", c, f.git("show", "--name-only", "--format=", "HEAD"))
	}
	f.git("fsck", "--strict", "--no-dangling")
}
