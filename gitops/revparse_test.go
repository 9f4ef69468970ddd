package gitops

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

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
	for _, rev := range []string{"nope", "HEAD~9", "HEAD^3", "stash@{5}", "main:a.txt", "@{u}"} {
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

// TestRevParseDatesSearchesPrior: reflog entries by date, commit message
// searches and @{-N} resolve as git rev-parse resolves them, on a
// repository whose reflogs span ten days (git writes them with the dates
// GIT_COMMITTER_DATE gives; both sides are asked at the same "now").
func TestRevParseDatesSearchesPrior(t *testing.T) {
	f := newFixture(t)
	now := time.Now().Unix()
	defer func(old func() time.Time) { revNow = old }(revNow)
	revNow = func() time.Time { return time.Unix(now, 0) }
	at := func(ago time.Duration, args ...string) {
		t.Helper()
		when := strconv.FormatInt(now-int64(ago/time.Second), 10) + " +0000"
		cmd := exec.Command("git", args...)
		cmd.Dir = f.dir
		cmd.Env = append(os.Environ(), "GIT_COMMITTER_DATE="+when, "GIT_AUTHOR_DATE="+when)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	commit := func(ago time.Duration, msg string) {
		t.Helper()
		f.write("a.txt", msg+"\n")
		at(ago, "add", "-A")
		at(ago, "commit", "-q", "-m", msg)
	}
	day := 24 * time.Hour
	commit(10*day, "A: first\n\nbody mentions fix")
	commit(9*day, "B: second")
	at(2*day, "switch", "-q", "-c", "side")
	commit(2*day-time.Hour, "S1: on side")
	at(30*time.Hour, "switch", "-q", "main")
	commit(30*time.Hour-time.Minute, "C: fix the parser")
	commit(3*time.Hour, "D: !important change")
	at(90*time.Minute, "switch", "-q", "side")
	commit(80*time.Minute, "S2: side again")
	at(70*time.Minute, "switch", "-q", "main")
	commit(10*time.Minute, "E: latest")
	at(5*time.Minute, "tag", "-a", "-m", "tagged", "v1", "HEAD~2")
	at(4*time.Minute, "checkout", "-q", "--detach", "HEAD~1")
	at(3*time.Minute, "checkout", "-q", "main")
	iso := time.Unix(now-int64(26*time.Hour/time.Second), 0).Format("2006-01-02 15:04:05")
	r := f.open()
	for _, rev := range []string{
		"@{yesterday}", "@{1.hour.ago}", "@{2.hours.ago}", "@{1 hour ago}", "main@{2.days.ago}", "HEAD@{yesterday}",
		"HEAD@{1.hour.ago}", "side@{1.day.ago}", "side@{3.days.ago}", "main@{10.years.ago}", "@{now}", "main@{" + iso + "}",
		"main@{" + strconv.FormatInt(now-int64(5*time.Hour/time.Second), 10) + "}", "@{yesterday}~1", "main@{2.days.ago}^{tree}",
		"@{-1}", "@{-2}", "@{-3}", "@{-4}", "@{-1}~1", "@{-2}@{1}", "@{-2}@{yesterday}",
		"HEAD^{/fix}", "HEAD^{/^C}", "HEAD^{/}", "main~1^{/first}", "side^{/S[0-9]}", "v1^{/B}", "HEAD^{/fix the}",
		":/fix", ":/side", ":/S1", ":/^A", ":/!-E", ":/!!imp", ":/mentions", ":/first.*fix",
	} {
		cmd := exec.Command("git", "rev-parse", "--verify", "-q", rev)
		cmd.Dir = f.dir
		cmd.Env = append(os.Environ(), "GIT_TEST_DATE_NOW="+strconv.FormatInt(now, 10))
		want, err := cmd.Output()
		if err != nil {
			t.Fatalf("git rev-parse %s: %v %s", rev, err, want)
		}
		got, ok, err := r.revParse(rev)
		if err != nil || !ok || got.String() != strings.TrimSpace(string(want)) {
			t.Errorf("%s: got %s %v %v, git says %s", rev, got, ok, err, strings.TrimSpace(string(want)))
		}
	}
	for _, rev := range []string{"@{garbage}", "main@{-1}", "@{-9}", ":/no such text", "HEAD^{/no such}", ":/!x", ":/(", "@{-1}@{u}", ":/second$"} {
		cmd := exec.Command("git", "rev-parse", "--verify", "-q", rev)
		cmd.Dir = f.dir
		if out, err := cmd.Output(); err == nil {
			t.Errorf("git accepts %s (%s)", rev, out)
		}
		if _, _, err := r.revParse(rev); shell.CodeOf(err) != shell.CodeInvalidArgument {
			t.Errorf("%s: want invalid_argument, got %v", rev, err)
		}
	}
	// Show reads a file at such a revision.
	if data, ok, err := r.Show("@{-1}", "a.txt", 0); err != nil || !ok || string(data) != "D: !important change\n" {
		t.Fatalf("show @{-1}:a.txt = %q %v %v", data, ok, err)
	}
}
