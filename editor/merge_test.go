package editor

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/editord/editord/diff"
	"github.com/editord/editord/workspace"
)

const tmBase = "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\n"

// A stale save whose base the server handed out merges with the disk and
// says what the other change brought; the reply's version guards the next.
func TestStaleSaveMergesNonOverlapping(t *testing.T) {
	e := tcNew(t)
	ctx := context.Background()
	e.write("a.txt", tmBase)
	o := e.open("a.txt")
	e.write("a.txt", strings.Replace(tmBase, "seven", "SEVEN", 1)) // another writer
	r, err := e.s.Save(ctx, &SaveRequest{Path: "a.txt", Content: strings.Replace(tmBase, "two", "TWO", 1), ExpectedVersion: &o.Version})
	if err != nil {
		t.Fatal(err)
	}
	want := "one\nTWO\nthree\nfour\nfive\nsix\nSEVEN\neight\n"
	if !r.Saved || !r.Merged || r.Conflict || e.read("a.txt") != want || r.Version != Version([]byte(want)) {
		t.Fatalf("%+v, disk %q", r, e.read("a.txt"))
	}
	if r.TheirsLines != "7" || r.BaseVersion == nil || *r.BaseVersion != o.Version || !strings.Contains(*r.MergedPatch, "+SEVEN") {
		t.Fatalf("theirs_lines %q base %v patch %v", r.TheirsLines, r.BaseVersion, r.MergedPatch)
	}
	if r.Added != 1 || r.Removed != 1 {
		t.Fatalf("+%d -%d against the disk, want +1 -1", r.Added, r.Removed)
	}
	// The merged version guards the next save as any save's does.
	r2, err := e.s.Save(ctx, &SaveRequest{Path: "a.txt", Content: want + "nine\n", ExpectedVersion: &r.Version})
	if err != nil || !r2.Saved || r2.Merged {
		t.Fatalf("%+v %v", r2, err)
	}
}

// strict, an unknown base, an empty guard and a store that keeps nothing
// all give §3's plain conflict, nothing written.
func TestStaleSaveRefusedWhenNotMergeable(t *testing.T) {
	for name, tc := range map[string]struct {
		strict bool
		guard  func(v string) string
		adjust func(*Config)
	}{
		"strict":        {strict: true, guard: func(v string) string { return v }},
		"unknown base":  {guard: func(string) string { return Version([]byte("never handed out")) }},
		"nothing kept":  {guard: func(v string) string { return v }, adjust: func(c *Config) { c.Limits.VersionsKept = 0 }},
		"a path in it":  {guard: func(string) string { return "../../workspace.json" }},
		"empty version": {guard: func(string) string { return "" }},
	} {
		t.Run(name, func(t *testing.T) {
			adj := []func(*Config){}
			if tc.adjust != nil {
				adj = append(adj, tc.adjust)
			}
			e := tcNew(t, adj...)
			e.write("a.txt", tmBase)
			o := e.open("a.txt")
			theirs := strings.Replace(tmBase, "seven", "SEVEN", 1)
			e.write("a.txt", theirs)
			g := tc.guard(o.Version)
			r, err := e.s.Save(context.Background(), &SaveRequest{Path: "a.txt", Content: strings.Replace(tmBase, "two", "TWO", 1), ExpectedVersion: &g, Strict: tc.strict})
			if err != nil || !r.Conflict || r.Saved || r.Merged || r.BaseVersion != nil || r.ConflictPatch == nil {
				t.Fatalf("%+v %v", r, err)
			}
			if e.read("a.txt") != theirs {
				t.Fatal("written")
			}
		})
	}
}

// Overlapping changes: a conflict with the three sides, nothing written;
// the disk's version in the reply guards a save of the reconciled text.
func TestStaleSaveOverlapIsConflictWithThreeSides(t *testing.T) {
	e := tcNew(t)
	ctx := context.Background()
	e.write("a.txt", tmBase)
	o := e.open("a.txt")
	theirs := strings.Replace(tmBase, "four", "FOUR (theirs)", 1)
	e.write("a.txt", theirs)
	r, err := e.s.Save(ctx, &SaveRequest{Path: "a.txt", Content: strings.Replace(tmBase, "four", "four (yours)", 1), ExpectedVersion: &o.Version})
	if err != nil || !r.Conflict || r.Saved || e.read("a.txt") != theirs {
		t.Fatalf("%+v %v", r, err)
	}
	if len(r.Conflicts) != 1 || r.Conflicts[0] != (MergeConflict{Base: LineSpan{4, 1}, Theirs: LineSpan{4, 1}, Yours: LineSpan{4, 1}}) {
		t.Fatalf("conflicts %+v", r.Conflicts)
	}
	if !strings.Contains(*r.TheirsPatch, "+FOUR (theirs)") || !strings.Contains(*r.YoursPatch, "+four (yours)") || *r.BaseVersion != o.Version {
		t.Fatalf("sides: %v / %v", *r.TheirsPatch, *r.YoursPatch)
	}
	r2, err := e.s.Save(ctx, &SaveRequest{Path: "a.txt", Content: strings.Replace(tmBase, "four", "FOUR (both)", 1), ExpectedVersion: r.DiskVersion})
	if err != nil || !r2.Saved || r2.Merged {
		t.Fatalf("%+v %v", r2, err)
	}
}

// A writer that lands between the merge's check and its rename: the save
// merges again with what is there now; nobody's change is lost.
func TestStaleSaveMergeRetriesWhenAWriterSlipsIn(t *testing.T) {
	e := tcNew(t)
	e.write("a.txt", tmBase)
	o := e.open("a.txt")
	e.write("a.txt", strings.Replace(tmBase, "seven", "SEVEN", 1))
	var once sync.Once
	slippedInHook = func() {
		once.Do(func() {
			e.write("a.txt", strings.Replace(strings.Replace(tmBase, "seven", "SEVEN", 1), "five", "FIVE", 1))
		})
	}
	defer func() { slippedInHook = nil }()
	r, err := e.s.Save(context.Background(), &SaveRequest{Path: "a.txt", Content: strings.Replace(tmBase, "two", "TWO", 1), ExpectedVersion: &o.Version})
	if err != nil || !r.Merged {
		t.Fatalf("%+v %v", r, err)
	}
	if got, want := e.read("a.txt"), "one\nTWO\nthree\nfour\nFIVE\nsix\nSEVEN\neight\n"; got != want {
		t.Fatalf("disk %q, want %q", got, want)
	}
	if r.TheirsLines != "5,7" {
		t.Fatalf("theirs_lines %q", r.TheirsLines)
	}
}

// A damaged entry of the version store is never merged with.
func TestStaleSaveIgnoresDamagedBase(t *testing.T) {
	e := tcNew(t)
	e.write("a.txt", tmBase)
	o := e.open("a.txt")
	p := filepath.Join(e.s.StateDir(), "versions", o.Version)
	if err := os.WriteFile(p, []byte(strings.ToUpper(tmBase)), 0o600); err != nil {
		t.Fatal(err)
	}
	e.write("a.txt", strings.Replace(tmBase, "seven", "SEVEN", 1))
	r, err := e.s.Save(context.Background(), &SaveRequest{Path: "a.txt", Content: strings.Replace(tmBase, "two", "TWO", 1), ExpectedVersion: &o.Version})
	if err != nil || !r.Conflict || r.Merged {
		t.Fatalf("%+v %v", r, err)
	}
}

// The store is the state dir's: a version one process handed out merges a
// save made through another.
func TestStaleSaveMergesAcrossProcesses(t *testing.T) {
	e := tcNew(t)
	e.write("a.txt", tmBase)
	o := e.open("a.txt")
	other := e.service()
	e.write("a.txt", strings.Replace(tmBase, "seven", "SEVEN", 1))
	r, err := other.Save(context.Background(), &SaveRequest{Path: "a.txt", Content: strings.Replace(tmBase, "two", "TWO", 1), ExpectedVersion: &o.Version})
	if err != nil || !r.Merged {
		t.Fatalf("%+v %v", r, err)
	}
}

// A ranged open hands out the whole file's version, and that is kept too.
func TestStaleEditMergesAfterRangedOpen(t *testing.T) {
	e := tcNew(t)
	ctx := context.Background()
	e.write("a.txt", tmBase)
	o, err := e.s.Open(ctx, &OpenRequest{Path: "a.txt", Offset: 2, Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	e.write("a.txt", strings.Replace(tmBase, "seven", "SEVEN", 1))
	r, err := e.s.Edit(ctx, &EditRequest{Path: "a.txt", Edits: []TextEdit{{OldText: "two", NewText: tcPtr("TWO")}}, ExpectedVersion: &o.Version})
	if err != nil || !r.Applied || !r.Merged || r.TheirsLines != "7" {
		t.Fatalf("%+v %v", r, err)
	}
	if got := e.read("a.txt"); got != "one\nTWO\nthree\nfour\nfive\nsix\nSEVEN\neight\n" {
		t.Fatalf("disk %q", got)
	}
	// The patch is what this edit did to the disk.
	if !strings.Contains(r.Patch, "-two\n+TWO") || strings.Contains(r.Patch, "+SEVEN") {
		t.Fatalf("patch %q", r.Patch)
	}
}

// A stale edit is applied to the version it was made against: an anchor
// the other change rewrote still applies, and the merge decides.
func TestStaleEditOverlapAndStrict(t *testing.T) {
	e := tcNew(t)
	ctx := context.Background()
	e.write("a.txt", tmBase)
	o := e.open("a.txt")
	theirs := strings.Replace(tmBase, "two", "2", 1)
	e.write("a.txt", theirs)
	edit := []TextEdit{{OldText: "two", NewText: tcPtr("TWO")}}
	r, err := e.s.Edit(ctx, &EditRequest{Path: "a.txt", Edits: edit, ExpectedVersion: &o.Version})
	if err != nil || !r.Conflict || r.Applied || len(r.Conflicts) != 1 || r.YoursPatch == nil || e.read("a.txt") != theirs {
		t.Fatalf("%+v %v", r, err)
	}
	// Dry run of a mergeable one: the merge is shown, nothing written.
	edit = []TextEdit{{OldText: "eight", NewText: tcPtr("EIGHT")}}
	r, err = e.s.Edit(ctx, &EditRequest{Path: "a.txt", Edits: edit, ExpectedVersion: &o.Version, DryRun: true})
	if err != nil || r.Applied || !r.Merged || e.read("a.txt") != theirs || !strings.Contains(r.Patch, "+EIGHT") {
		t.Fatalf("%+v %v", r, err)
	}
	r, err = e.s.Edit(ctx, &EditRequest{Path: "a.txt", Edits: edit, ExpectedVersion: &o.Version, Strict: true})
	if err != nil || !r.Conflict || r.Merged || e.read("a.txt") != theirs {
		t.Fatalf("%+v %v", r, err)
	}
}

// Agents see the person: a save or edit of a file the person holds a
// draft of says who and which lines; open and workspace::get show it; the
// holder itself (any session of it) is not told of its own draft.
func TestAgentWriteToDraftedFileSaysSo(t *testing.T) {
	e := tcNew(t)
	page := WithCaller(context.Background(), NewCaller("editord-page#0001"))
	agent := WithCaller(context.Background(), NewCaller("claude-code#0002"))
	e.write("a.txt", tmBase)
	o := e.open("a.txt")
	draft := strings.Replace(tmBase, "three\n", "three\nthree and a half\n", 1)
	if _, err := e.s.Draft(page, &DraftRequest{Path: "a.txt", Content: &draft, BaseVersion: o.Version}); err != nil {
		t.Fatal(err)
	}
	want := DraftNotice{By: "editord-page#0001", BaseVersion: o.Version, Lines: "4"}
	ov, err := e.s.Open(agent, &OpenRequest{Path: "a.txt"})
	if err != nil || ov.Draft == nil || *ov.Draft != want {
		t.Fatalf("open: %+v %v", ov.Draft, err)
	}
	v, err := e.s.WorkspaceGet(agent, nil)
	if err != nil || len(v.Buffers) != 1 || v.Buffers[0].DraftBy != want.By || v.Buffers[0].DraftLines != "4" {
		t.Fatalf("workspace::get: %+v %v", v, err)
	}
	r, err := e.s.Edit(agent, &EditRequest{Path: "a.txt", Edits: []TextEdit{{OldText: "eight", NewText: tcPtr("EIGHT")}}})
	if err != nil || !r.Applied || r.Draft == nil || *r.Draft != want {
		t.Fatalf("edit: %+v %v", r, err)
	}
	s, err := e.s.Save(agent, &SaveRequest{Path: "a.txt", Content: "x\n", ExpectedVersion: &r.Version})
	if err != nil || !s.Saved || s.Draft == nil || *s.Draft != want {
		t.Fatalf("save: %+v %v", s, err)
	}
	// The page, reconnected (another session of the same client), is not
	// told of its own draft.
	again := WithCaller(context.Background(), NewCaller("editord-page#0003"))
	if ov, err := e.s.Open(again, &OpenRequest{Path: "a.txt"}); err != nil || ov.Draft != nil {
		t.Fatalf("own draft: %+v %v", ov.Draft, err)
	}
}

// draft_conflict = "refuse": an agent's write to a drafted file is held,
// nothing written; once the draft is gone it goes through.
func TestDraftConflictRefuseHoldsAgentWrites(t *testing.T) {
	e := tcNew(t, func(c *Config) { c.Editor.DraftConflict = DraftRefuse })
	page := WithCaller(context.Background(), NewCaller("editord-page#0001"))
	agent := WithCaller(context.Background(), NewCaller("claude-code#0002"))
	e.write("a.txt", tmBase)
	o := e.open("a.txt")
	draft := "draft\n" + tmBase
	if _, err := e.s.Draft(page, &DraftRequest{Path: "a.txt", Content: &draft, BaseVersion: o.Version}); err != nil {
		t.Fatal(err)
	}
	r, err := e.s.Edit(agent, &EditRequest{Path: "a.txt", Edits: []TextEdit{{OldText: "eight", NewText: tcPtr("EIGHT")}}})
	if err != nil || !r.Held || r.Applied || r.Draft == nil || r.Draft.Lines != "1" || e.read("a.txt") != tmBase {
		t.Fatalf("edit: %+v %v", r, err)
	}
	s, err := e.s.Save(agent, &SaveRequest{Path: "a.txt", Content: "x\n", ExpectedVersion: &o.Version})
	if err != nil || !s.Held || s.Saved || s.Conflict || e.read("a.txt") != tmBase {
		t.Fatalf("save: %+v %v", s, err)
	}
	// The person's own save goes through, and clears the draft.
	if s, err := e.s.Save(page, &SaveRequest{Path: "a.txt", Content: draft, ExpectedVersion: &o.Version}); err != nil || !s.Saved {
		t.Fatalf("page save: %+v %v", s, err)
	}
	r, err = e.s.Edit(agent, &EditRequest{Path: "a.txt", Edits: []TextEdit{{OldText: "eight", NewText: tcPtr("EIGHT")}}})
	if err != nil || !r.Applied || r.Held || r.Draft != nil {
		t.Fatalf("after the draft: %+v %v", r, err)
	}
}

// The record keeps who holds a draft and its lines through re-opens, and
// forgets them with the draft.
func TestDraftMarksSurviveReopenAndClear(t *testing.T) {
	e := tcNew(t)
	page := WithCaller(context.Background(), NewCaller("editord-page#0001"))
	e.write("a.txt", tmBase)
	o := e.open("a.txt")
	draft := strings.Replace(tmBase, "one\ntwo\n", "", 1)
	if _, err := e.s.Draft(page, &DraftRequest{Path: "a.txt", Content: &draft, BaseVersion: o.Version}); err != nil {
		t.Fatal(err)
	}
	e.open("a.txt")
	bufs := func() workspace.Buffer {
		v, err := e.s.WorkspaceGet(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		return v.Buffers[0]
	}
	if b := bufs(); !b.Dirty || b.DraftBy != "editord-page#0001" || b.DraftLines != "1" {
		t.Fatalf("%+v", b)
	}
	if _, err := e.s.Draft(page, &DraftRequest{Path: "a.txt"}); err != nil {
		t.Fatal(err)
	}
	if b := bufs(); b.Dirty || b.DraftBy != "" || b.DraftLines != "" {
		t.Fatalf("%+v", b)
	}
}

func TestLineRanges(t *testing.T) {
	for _, tc := range []struct{ before, after, want string }{
		{"a\nb\nc\n", "a\nB\nc\n", "2"},
		{"a\nb\nc\n", "a\nc\n", "2"},
		{"a\nb\nc\n", "a\nb\nc\nd\ne\n", "4-5"},
		{"a\nb\nc\nd\n", "A\nb\nC\nD\n", "1,3-4"},
		{"a\n", "", "1"},
	} {
		d := tcDiffHunks(tc.before, tc.after)
		if got := lineRanges(d); got != tc.want {
			t.Errorf("%q -> %q: %q, want %q", tc.before, tc.after, got, tc.want)
		}
	}
	var many []string
	for i := range 100 {
		many = append(many, "x"+strings.Repeat("y", i))
	}
	changed := append([]string(nil), many...)
	for i := 0; i < 100; i += 2 {
		changed[i] = "changed"
	}
	got := lineRanges(tcDiffHunks(strings.Join(many, "\n")+"\n", strings.Join(changed, "\n")+"\n"))
	if parts := strings.Split(got, ","); len(parts) != maxLineRanges || parts[len(parts)-1] != "63-99" {
		t.Fatalf("%d ranges, last %q", len(parts), parts[len(parts)-1])
	}
}

func tcDiffHunks(before, after string) []diff.Hunk {
	return diff.Unified(before, after, diff.Options{Context: 0}).Hunks
}

// A draft read back carries its base's content while the store holds it,
// so the editor that kept it can merge it with a newer disk after a reload.
func TestDraftReadCarriesBaseContent(t *testing.T) {
	e := tcNew(t)
	page := WithCaller(context.Background(), NewCaller("editord-page#0001"))
	e.write("a.txt", tmBase)
	o := e.open("a.txt")
	draft := "draft\n" + tmBase
	if _, err := e.s.Draft(page, &DraftRequest{Path: "a.txt", Content: &draft, BaseVersion: o.Version}); err != nil {
		t.Fatal(err)
	}
	d, err := e.s.Draft(page, &DraftRequest{Path: "a.txt", Read: true})
	if err != nil || d.BaseContent == nil || *d.BaseContent != tmBase {
		t.Fatalf("%+v %v", d, err)
	}
}

// An external change an editor follows through the event's patch hands
// out its version like an open does: a save guarded by it merges.
func TestStaleSaveMergesOverAWatchedVersion(t *testing.T) {
	e := tcNew(t)
	e.write("a.txt", tmBase)
	e.open("a.txt")
	twStart(t, e.s)
	twReady(t, e.s, e.root)
	cur := twCursor(t, e.s)
	twWriteRaw(t, e.abs("a.txt"), strings.Replace(tmBase, "one", "ONE", 1))
	ev := twFind(t, twWait(t, e.s, cur, "modified a.txt"), "modified", "a.txt")
	if ev.Version == nil || ev.Patch == "" {
		t.Fatalf("%+v", ev)
	}
	// Another change the editor has not seen yet, then its save.
	twWriteRaw(t, e.abs("a.txt"), strings.Replace(strings.Replace(tmBase, "one", "ONE", 1), "eight", "EIGHT", 1))
	r, err := e.s.Save(context.Background(), &SaveRequest{Path: "a.txt", Content: strings.Replace(strings.Replace(tmBase, "one", "ONE", 1), "four", "FOUR", 1), ExpectedVersion: ev.Version})
	if err != nil || !r.Merged {
		t.Fatalf("%+v %v", r, err)
	}
	if got := e.read("a.txt"); got != "ONE\ntwo\nthree\nFOUR\nfive\nsix\nseven\nEIGHT\n" {
		t.Fatalf("disk %q", got)
	}
}
