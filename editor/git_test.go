package editor

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/editord/editord/diff"
	"github.com/editord/editord/shell"
)

func TestGitCatalogEntries(t *testing.T) {
	want := map[string]Annotations{
		"editor::git::status":      readOnly,
		"editor::git::hunks":       readOnly,
		"editor::git::show":        readOnly,
		"editor::git::commit":      destructive,
		"editor::git::sync":        openWorld,
		"editor::git::stash":       destructive,
		"editor::git::undo-commit": destructive,
	}
	for id, ann := range want {
		f, ok := Lookup(id)
		if !ok {
			t.Errorf("%s missing", id)
			continue
		}
		if f.Annotations != ann {
			t.Errorf("%s annotations %+v, want %+v", id, f.Annotations, ann)
		}
		for _, sch := range []map[string]any{f.InputSchema(), f.OutputSchema()} {
			for name, p := range sch["properties"].(map[string]any) {
				if d, _ := p.(map[string]any)["description"].(string); d == "" {
					t.Errorf("%s: field %s has no description", id, name)
				}
			}
		}
	}
}

func TestGitNotARepository(t *testing.T) {
	gtIsolate(t)
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	s, err := New(DefaultConfig(), Options{Root: dir, StateDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	e := &gtEnv{t: t, repo: dir, root: dir, s: s}
	for id, args := range map[string]string{
		"editor::git::status":      `{}`,
		"editor::git::show":        `{"path": "a.txt"}`,
		"editor::git::hunks":       `{"path": "a.txt", "against": "head"}`,
		"editor::git::commit":      `{"message": "x"}`,
		"editor::git::sync":        `{"action": "fetch"}`,
		"editor::git::stash":       `{"action": "push"}`,
		"editor::git::undo-commit": `{}`,
	} {
		if _, ok := Lookup(id); !ok {
			continue
		}
		_, err := gtCall[map[string]any](e, id, args)
		if shell.CodeOf(err) != shell.CodeNotARepository {
			t.Errorf("%s outside a repository: %v", id, err)
		}
	}
}

func TestGitStatusSubfolderRoot(t *testing.T) {
	e := gtNew(t, "pkg/app")
	e.write("pkg/app/main.go", "package main\n")
	e.write("pkg/app/old.go", "package old\n")
	e.write("top.txt", "top\n")
	e.commitAll("c1")
	e.write("pkg/app/main.go", "package main // changed\n")
	e.write("pkg/app/new file ü.go", "package x\n")
	e.write("top.txt", "top changed\n")
	e.git("mv", "pkg/app/old.go", "pkg/app/renamed.go")
	st := gtMust[GitStatusResponse](e, "editor::git::status", `{}`)
	if st.Branch == nil || *st.Branch != "main" || st.Upstream != nil || st.Clean {
		t.Fatalf("status head: %+v", st)
	}
	got := map[string]GitStatusEntry{}
	for _, row := range st.Entries {
		got[row.Path] = row
	}
	if r := got["main.go"]; r.Worktree != "modified" || r.Index != "unchanged" || r.Staged {
		t.Errorf("main.go: %+v", r)
	}
	if r := got["renamed.go"]; r.Index != "renamed" || r.RenamedFrom == nil || *r.RenamedFrom != "old.go" || !r.Staged {
		t.Errorf("renamed.go: %+v", r)
	}
	if r := got["new file ü.go"]; r.Index != "untracked" || r.Worktree != "untracked" || r.Staged {
		t.Errorf("untracked: %+v", r)
	}
	top := filepath.Join(e.repo, "top.txt")
	if r := got[top]; r.Worktree != "modified" {
		t.Errorf("a path outside the root is stored absolute: %+v (all: %+v)", r, st.Entries)
	}
	// show and hunks take root-relative paths too.
	sh := gtMust[GitShowResponse](e, "editor::git::show", `{"path": "main.go"}`)
	if !sh.Exists || sh.Content != "package main\n" || sh.Rev != "HEAD" {
		t.Errorf("show: %+v", sh)
	}
	h := gtMust[GitHunksResponse](e, "editor::git::hunks", `{"path": "main.go", "against": "worktree"}`)
	if len(h.Hunks) != 1 || h.Added != 1 || h.Removed != 1 {
		t.Errorf("hunks: %+v", h)
	}
	u := gtMust[GitHunksResponse](e, "editor::git::hunks", `{"path": "new file ü.go", "against": "head"}`)
	if !u.Untracked || len(u.Hunks) != 0 {
		t.Errorf("untracked hunks: %+v", u)
	}
}

func TestGitStatusDetachedAndUnborn(t *testing.T) {
	e := gtNew(t, "")
	e.write("a.txt", "1\n")
	st := gtMust[GitStatusResponse](e, "editor::git::status", `{}`)
	if st.Branch == nil || *st.Branch != "main" || len(st.Entries) != 1 || st.Entries[0].Index != "untracked" {
		t.Fatalf("unborn: %+v", st)
	}
	sh := gtMust[GitShowResponse](e, "editor::git::show", `{"path": "a.txt"}`)
	if sh.Exists {
		t.Fatalf("show on an unborn branch: %+v", sh)
	}
	e.commitAll("c1")
	e.write("a.txt", "2\n")
	e.commitAll("c2")
	e.git("checkout", "-q", "HEAD~1")
	st = gtMust[GitStatusResponse](e, "editor::git::status", `{}`)
	if st.Branch != nil || !st.Clean {
		t.Fatalf("detached: %+v", st)
	}
}

var hunkHeader = regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@`)

// gitHunks parses git's -U0 hunk headers.
func gitHunks(patch string) []diff.Hunk {
	var out []diff.Hunk
	for _, line := range strings.Split(patch, "\n") {
		m := hunkHeader.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		n := func(s string, def int) int {
			if s == "" {
				return def
			}
			v, _ := strconv.Atoi(s)
			return v
		}
		out = append(out, diff.Hunk{OldStart: n(m[1], 0), OldLines: n(m[2], 1), NewStart: n(m[3], 0), NewLines: n(m[4], 1)})
	}
	return out
}

func sameRanges(a, b []diff.Hunk) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].OldStart != b[i].OldStart || a[i].OldLines != b[i].OldLines || a[i].NewStart != b[i].NewStart || a[i].NewLines != b[i].NewLines {
			return false
		}
	}
	return true
}

// uniqueLines is a file of distinct lines, so that the minimal diff is
// unambiguous and git and editord must agree on every range.
func uniqueLines(rng *rand.Rand, n int, tag string) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s line %d %d\n", tag, i, rng.Intn(1_000_000))
	}
	return out
}

func editLines(rng *rand.Rand, lines []string, tag string) []string {
	out := append([]string(nil), lines...)
	for k := range 1 + rng.Intn(4) {
		switch i := rng.Intn(len(out) + 1); rng.Intn(3) {
		case 0: // insert
			out = append(out[:i], append([]string{fmt.Sprintf("%s inserted %d %d\n", tag, k, rng.Int())}, out[i:]...)...)
		case 1: // delete
			if i < len(out) {
				out = append(out[:i], out[i+1:]...)
			}
		default: // replace; lines that look like patch syntax on purpose
			if i < len(out) {
				out[i] = fmt.Sprintf("-- %s ++ replaced %d %d\n", tag, k, rng.Int())
			}
		}
	}
	return out
}

func TestGitHunksMatchGit(t *testing.T) {
	e := gtNew(t, "")
	rng := rand.New(rand.NewSource(7))
	base := uniqueLines(rng, 40, "base")
	e.write("f.txt", strings.Join(base, ""))
	e.commitAll("c1")
	bare := t.TempDir()
	if out, err := gtGit(bare, "init", "-q", "--bare"); err != nil {
		t.Fatal(out)
	}
	e.git("remote", "add", "origin", bare)
	e.git("push", "-q", "-u", "origin", "main")
	up := editLines(rng, base, "head")
	e.write("f.txt", strings.Join(up, ""))
	e.commitAll("c2")
	for round := range 25 {
		staged := editLines(rng, up, fmt.Sprintf("s%d", round))
		e.write("f.txt", strings.Join(staged, ""))
		e.git("add", "f.txt")
		work := editLines(rng, staged, fmt.Sprintf("w%d", round))
		e.write("f.txt", strings.Join(work, ""))
		for against, args := range map[string][]string{
			"worktree": {"diff", "-U0", "--no-color", "--", "f.txt"},
			"index":    {"diff", "--cached", "-U0", "--no-color", "--", "f.txt"},
			"head":     {"diff", "HEAD", "-U0", "--no-color", "--", "f.txt"},
			"upstream": {"diff", "@{u}", "-U0", "--no-color", "--", "f.txt"},
		} {
			h := gtMust[GitHunksResponse](e, "editor::git::hunks", fmt.Sprintf(`{"path": "f.txt", "against": %q}`, against))
			want := gitHunks(e.git(args...))
			if !sameRanges(h.Hunks, want) {
				t.Fatalf("round %d against %s:\nours %+v\ngit  %+v\npatch:\n%s", round, against, h.Hunks, want, h.Patch)
			}
			added, removed := 0, 0
			for _, x := range h.Hunks {
				added += x.Added
				removed += x.Removed
			}
			if added != h.Added || removed != h.Removed {
				t.Fatalf("round %d: sums %d/%d vs %d/%d", round, added, removed, h.Added, h.Removed)
			}
		}
	}
}

func TestGitHunksEdges(t *testing.T) {
	e := gtNew(t, "")
	e.write("a.txt", "one\n")
	e.write("gone.txt", "bye\n")
	e.commitAll("c1")
	os.Remove(filepath.Join(e.repo, "gone.txt"))
	h := gtMust[GitHunksResponse](e, "editor::git::hunks", `{"path": "gone.txt", "against": "worktree"}`)
	if h.Removed != 1 || !strings.Contains(h.Patch, "+++ /dev/null") {
		t.Errorf("deleted file: %+v", h)
	}
	if _, err := gtCall[GitHunksResponse](e, "editor::git::hunks", `{"path": "nope.txt", "against": "head"}`); shell.CodeOf(err) != shell.CodeNotFound {
		t.Errorf("missing file: %v", err)
	}
	if _, err := gtCall[GitHunksResponse](e, "editor::git::hunks", `{"path": "a.txt", "against": "upstream"}`); shell.CodeOf(err) != shell.CodeInvalidArgument {
		t.Errorf("no upstream: %v", err)
	}
	if _, err := gtCall[GitHunksResponse](e, "editor::git::hunks", `{"path": "a.txt", "against": "sideways"}`); shell.CodeOf(err) != shell.CodeInvalidArgument {
		t.Errorf("bad against: %v", err)
	}
	h = gtMust[GitHunksResponse](e, "editor::git::hunks", `{"path": "a.txt", "against": "head"}`)
	if len(h.Hunks) != 0 || h.Patch != "" || h.Untracked {
		t.Errorf("unchanged: %+v", h)
	}
	if _, err := gtCall[GitShowResponse](e, "editor::git::show", `{"path": "a.txt", "rev": "nope"}`); shell.CodeOf(err) != shell.CodeInvalidArgument {
		t.Errorf("show unknown rev: %v", err)
	}
	if _, err := gtCall[GitShowResponse](e, "editor::git::show", `{"path": ".env"}`); shell.CodeOf(err) != shell.CodeDenied {
		t.Errorf("show denied: %v", err)
	}
}

func gtChanges(e *gtEnv) []map[string]any {
	e.t.Helper()
	resp := gtMust[map[string]any](e, "editor::changes", `{}`)
	var out []map[string]any
	for _, c := range (*resp)["changes"].([]any) {
		out = append(out, c.(map[string]any))
	}
	return out
}

func TestGitCommitAndUndoThroughCatalog(t *testing.T) {
	e := gtNew(t, "")
	e.write("a.txt", "a\n")
	e.commitAll("base")
	e.write("a.txt", "a2\n")
	e.write("b.txt", "b\n")
	c := gtMust[GitCommitResponse](e, "editor::git::commit", `{"message": "change a, add b"}`)
	if !c.Committed || len(c.SHA) != 40 || !strings.Contains(c.Summary, "2 files changed") {
		t.Fatalf("commit: %+v", c)
	}
	if out, err := gtGit(e.repo, "fsck", "--strict", "--no-dangling"); err != nil {
		t.Fatalf("fsck: %v %s", err, out)
	}
	if out := e.git("status", "--porcelain"); out != "" {
		t.Fatalf("git status after commit: %q", out)
	}
	c = gtMust[GitCommitResponse](e, "editor::git::commit", `{"message": "again"}`)
	if c.Committed || c.SHA != "" || !strings.Contains(c.Summary, "nothing to commit") {
		t.Fatalf("empty commit: %+v", c)
	}
	e.write("a.txt", "a3\n")
	e.write("b.txt", "b3\n")
	c = gtMust[GitCommitResponse](e, "editor::git::commit", `{"message": "only b", "paths": ["b.txt"]}`)
	if !c.Committed || e.git("show", "--name-only", "--format=", "HEAD") != "b.txt\n" {
		t.Fatalf("paths commit: %+v", c)
	}
	if _, err := gtCall[GitCommitResponse](e, "editor::git::commit", `{"message": "x", "paths": ["../../etc/passwd"]}`); shell.CodeOf(err) != shell.CodeOutsideJail && shell.CodeOf(err) != shell.CodeInvalidArgument {
		t.Fatalf("path outside: %v", err)
	}
	if _, err := gtCall[GitCommitResponse](e, "editor::git::commit", `{"message": "  "}`); shell.CodeOf(err) != shell.CodeInvalidArgument {
		t.Fatalf("empty message: %v", err)
	}
	u := gtMust[GitUndoCommitResponse](e, "editor::git::undo-commit", `{}`)
	if u.UndoneSHA != c.SHA || u.Message != "only b" {
		t.Fatalf("undo: %+v", u)
	}
	if out := e.git("status", "--porcelain"); out != "M  b.txt\n M a.txt\n" && out != " M a.txt\nM  b.txt\n" {
		t.Fatalf("after undo: %q", out)
	}
}

func TestGitStashThroughCatalog(t *testing.T) {
	e := gtNew(t, "")
	e.write("a.txt", "a\n")
	e.commitAll("base")
	e.write("a.txt", "edited\n")
	e.write("u.txt", "untracked\n")
	before := len(gtChanges(e))
	p := gtMust[GitStashResponse](e, "editor::git::stash", `{"action": "push", "include_untracked": true, "message": "wip"}`)
	if !p.OK || p.Action != "push" {
		t.Fatalf("push: %+v", p)
	}
	if list := e.git("stash", "list"); !strings.Contains(list, "On main: wip") {
		t.Fatalf("git stash list: %q", list)
	}
	evs := gtChanges(e)[before:]
	kinds := map[string]string{}
	for _, ev := range evs {
		kinds[ev["path"].(string)] = ev["kind"].(string)
		if ev["cause"] != "editor::git::stash" {
			t.Errorf("cause %v", ev["cause"])
		}
	}
	if kinds["a.txt"] != "modified" || kinds["u.txt"] != "deleted" {
		t.Fatalf("push events: %v", kinds)
	}
	p = gtMust[GitStashResponse](e, "editor::git::stash", `{"action": "pop"}`)
	if !p.OK || e.read("a.txt") != "edited\n" || e.read("u.txt") != "untracked\n" {
		t.Fatalf("pop: %+v", p)
	}
	p = gtMust[GitStashResponse](e, "editor::git::stash", `{"action": "pop"}`)
	if p.OK {
		t.Fatalf("pop of nothing: %+v", p)
	}
}

func TestGitSyncThroughCatalog(t *testing.T) {
	e := gtNew(t, "")
	e.write("a.txt", "a\n")
	e.commitAll("base")
	bare := filepath.Join(filepath.Dir(e.repo), "remote.git")
	if out, err := gtGit(filepath.Dir(e.repo), "init", "-q", "--bare", bare); err != nil {
		t.Fatal(out)
	}
	e.git("remote", "add", "origin", "file://"+bare)
	e.git("push", "-q", "-u", "origin", "main")
	other := filepath.Join(filepath.Dir(e.repo), "other")
	if out, err := gtGit(filepath.Dir(e.repo), "clone", "-q", bare, other); err != nil {
		t.Fatal(out)
	}
	os.WriteFile(filepath.Join(other, "a.txt"), []byte("a\nfrom other\n"), 0o644)
	for _, args := range [][]string{{"commit", "-q", "-am", "other"}, {"push", "-q"}} {
		if out, err := gtGit(other, args...); err != nil {
			t.Fatal(out)
		}
	}
	before := len(gtChanges(e))
	s := gtMust[GitSyncResponse](e, "editor::git::sync", `{"action": "pull"}`)
	if !s.OK || s.Behind != 0 || e.read("a.txt") != "a\nfrom other\n" {
		t.Fatalf("pull: %+v", s)
	}
	evs := gtChanges(e)[before:]
	if len(evs) != 1 || evs[0]["path"] != "a.txt" || evs[0]["cause"] != "editor::git::sync" || evs[0]["added"].(float64) != 1 {
		t.Fatalf("pull events: %+v", evs)
	}
	if _, err := gtCall[GitSyncResponse](e, "editor::git::sync", `{"action": "merge"}`); shell.CodeOf(err) != shell.CodeInvalidArgument {
		t.Fatalf("bad action: %v", err)
	}
}
