package gitops

import (
	"context"
	"os"
	"slices"
	"testing"

	"github.com/editord/editord/shell"
)

// Stage is git add -A on the paths given, Unstage git restore --staged:
// what the real git then reads from the index says so, and git fsck finds
// the repository sound.
func TestStageAndUnstageAsGitSeesThem(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "one\n")
	f.write("dir/b.txt", "two\n")
	f.write("dir/c.txt", "three\n")
	f.write("gone.txt", "bye\n")
	f.commitAll("base")
	f.write("a.txt", "one\nmore\n")
	f.write("dir/b.txt", "two, changed\n")
	f.write("dir/new.txt", "new\n")
	f.write("other.txt", "untracked, not staged\n")
	os.Remove(f.path("gone.txt"))
	ctx := context.Background()

	got, err := f.open().Stage(ctx, []string{"a.txt", "dir", "gone.txt"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a.txt", "dir/b.txt", "dir/new.txt", "gone.txt"}; !slices.Equal(got, want) {
		t.Fatalf("Stage changed %v, want %v", got, want)
	}
	if got, want := f.git("status", "--porcelain"), "M  a.txt\nM  dir/b.txt\nA  dir/new.txt\nD  gone.txt\n?? other.txt\n"; got != want {
		t.Fatalf("git status after Stage:\n%s\nwant\n%s", got, want)
	}
	f.checkRepo("after Stage")

	// Unstage a file, a folder and a staged deletion: HEAD's entries are
	// back, the new file is untracked again, the worktree is as it was.
	got, err = f.open().Unstage(ctx, []string{"a.txt", "dir", "gone.txt"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a.txt", "dir/b.txt", "dir/new.txt", "gone.txt"}; !slices.Equal(got, want) {
		t.Fatalf("Unstage changed %v, want %v", got, want)
	}
	if got, want := f.git("status", "--porcelain"), " M a.txt\n M dir/b.txt\n D gone.txt\n?? dir/new.txt\n?? other.txt\n"; got != want {
		t.Fatalf("git status after Unstage:\n%s\nwant\n%s", got, want)
	}
	if f.read("a.txt") != "one\nmore\n" || f.read("dir/new.txt") != "new\n" || f.exists("gone.txt") {
		t.Fatal("Unstage touched the worktree")
	}
	f.checkRepo("after Unstage")

	// Nothing to do is no error and changes nothing.
	if got, err := f.open().Unstage(ctx, []string{"dir/c.txt"}); err != nil || len(got) != 0 {
		t.Fatalf("unstaging an unchanged file: %v, %v", got, err)
	}
	if _, err := f.open().Stage(ctx, []string{"nowhere.txt"}); shell.CodeOf(err) != shell.CodeNotFound {
		t.Fatalf("staging a path that matches nothing: %v", err)
	}
	if _, err := f.open().Unstage(ctx, []string{"nowhere.txt"}); shell.CodeOf(err) != shell.CodeNotFound {
		t.Fatalf("unstaging a path that matches nothing: %v", err)
	}
}

// In a repository with no commit yet, unstaging takes a file out of the
// index (HEAD has nothing), as git rm --cached would.
func TestUnstageOnUnbornBranch(t *testing.T) {
	f := newFixture(t)
	f.write("first.txt", "1\n")
	if _, err := f.open().Stage(context.Background(), []string{"first.txt"}); err != nil {
		t.Fatal(err)
	}
	if got := f.git("status", "--porcelain"); got != "A  first.txt\n" {
		t.Fatalf("after Stage: %q", got)
	}
	if _, err := f.open().Unstage(context.Background(), []string{"first.txt"}); err != nil {
		t.Fatal(err)
	}
	if got := f.git("status", "--porcelain"); got != "?? first.txt\n" {
		t.Fatalf("after Unstage: %q", got)
	}
}

// A conflicted file is staged as resolved once its markers are gone, and
// refused while they are there.
func TestStageResolvesConflict(t *testing.T) {
	f := newFixture(t)
	f.write("m.txt", "base\n")
	f.commitAll("base")
	f.git("checkout", "-q", "-b", "other")
	f.write("m.txt", "theirs\n")
	f.commitAll("theirs")
	f.git("checkout", "-q", "main")
	f.write("m.txt", "ours\n")
	f.commitAll("ours")
	if _, err := gitCmd(f.dir, "merge", "-q", "other"); err == nil {
		t.Fatal("the merge did not conflict")
	}
	if _, err := f.open().Stage(context.Background(), []string{"m.txt"}); shell.CodeOf(err) != shell.CodeGitFailed {
		t.Fatalf("staging a file with markers: %v", err)
	}
	f.write("m.txt", "ours and theirs\n")
	if _, err := f.open().Stage(context.Background(), []string{"m.txt"}); err != nil {
		t.Fatal(err)
	}
	if got := f.git("status", "--porcelain"); got != "M  m.txt\n" {
		t.Fatalf("after staging the resolved file: %q", got)
	}
}
