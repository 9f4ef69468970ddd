package gitops

import (
	"strings"
	"testing"

	"github.com/editord/editord/shell"
)

// TestRevParseMatchesGit resolves revisions of every supported form and
// compares them with git rev-parse.
func TestRevParseMatchesGit(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "1\n")
	f.commitAll("one")
	f.write("a.txt", "2\n")
	f.commitAll("two")
	f.git("tag", "-a", "-m", "tag", "v1")
	f.git("branch", "side")
	f.write("a.txt", "3\n")
	f.commitAll("three")
	f.git("switch", "-q", "side")
	f.write("b.txt", "side\n")
	f.commitAll("side")
	f.git("switch", "-q", "main")
	f.git("merge", "-q", "--no-edit", "side")
	f.write("a.txt", "wip\n")
	f.write("u.txt", "untracked\n")
	f.git("stash", "push", "-q", "-u")
	f.write("a.txt", "wip2\n")
	f.git("stash", "push", "-q")
	head := strings.TrimSpace(f.git("rev-parse", "HEAD"))
	r := f.open()
	for _, rev := range []string{
		"HEAD", "@", "main", "side", "v1", "v1^{}", "v1^{commit}", "HEAD~1", "HEAD~2", "main~3", "HEAD^2", "HEAD^", "HEAD^^", "HEAD^1~1",
		"HEAD^{tree}", "stash", "stash@{0}", "stash@{1}", "stash@{1}^3", "stash@{0}^2", "stash@{1}^1", "HEAD@{0}", "HEAD@{2}", "HEAD@{3}",
		"main@{1}", "@{1}", "refs/heads/side", "heads/side", head[:7], head, "HEAD~0", "HEAD^0",
	} {
		want, err := gitCmd(f.dir, "rev-parse", "--verify", "-q", rev)
		if err != nil {
			t.Fatalf("git rev-parse %s: %v %s", rev, err, want)
		}
		got, ok, err := r.revParse(rev)
		if err != nil || !ok || got.String() != strings.TrimSpace(want) {
			t.Errorf("%s: got %s %v %v, git says %s", rev, got, ok, err, strings.TrimSpace(want))
		}
	}
	for _, rev := range []string{"nope", "HEAD~9", "HEAD^3", "stash@{5}", "HEAD@{yesterday}", "main:a.txt", "@{u}"} {
		if _, _, err := r.revParse(rev); shell.CodeOf(err) != shell.CodeInvalidArgument {
			t.Errorf("%s: want invalid_argument, got %v", rev, err)
		}
	}
	// Hunks against a revision: its file against the working file.
	before, after, _, err := r.HunkSides(AgainstRev, "main~3", "a.txt", 0)
	if err != nil || string(before.Data) != "1\n" || string(after.Data) != f.read("a.txt") {
		t.Fatalf("hunks against main~3: %q %q %v", before.Data, after.Data, err)
	}
	// A stashed untracked file is read from the stash's third parent.
	data, ok, err := r.Show("stash@{1}^3", "u.txt", 0)
	if err != nil || !ok || string(data) != "untracked\n" {
		t.Fatalf("stash@{1}^3:u.txt = %q %v %v", data, ok, err)
	}
}

// TestShowStages reads the three sides of a conflict git's merge left.
func TestShowStages(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "base\n")
	f.commitAll("base")
	f.git("switch", "-q", "-c", "side")
	f.write("a.txt", "theirs\n")
	f.commitAll("theirs")
	f.git("switch", "-q", "main")
	f.write("a.txt", "ours\n")
	f.commitAll("ours")
	if _, err := gitCmd(f.dir, "merge", "side"); err == nil {
		t.Fatal("the merge should conflict")
	}
	r := f.open()
	for rev, want := range map[string]string{":1": "base\n", ":2": "ours\n", ":3": "theirs\n"} {
		data, ok, err := r.Show(rev, "a.txt", 0)
		if err != nil || !ok || string(data) != want {
			t.Errorf("%s: %q %v %v", rev, data, ok, err)
		}
	}
	if _, ok, err := r.Show(":0", "a.txt", 0); ok || err != nil {
		t.Errorf(":0 of a conflicted path: exists %v %v", ok, err)
	}
}
