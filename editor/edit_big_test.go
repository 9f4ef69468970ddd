package editor

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestEditOfAFileOverMaxDiffBytes: one line changed in a file over
// max_diff_bytes still answers its patch and counts (an edit of a 3 MB file
// used to answer no patch and +0 -0, which the text called "unchanged"),
// its event carries the patch, and git hunks of the file give the change;
// a change itself over the bound has no patch but true counts.
func TestEditOfAFileOverMaxDiffBytes(t *testing.T) {
	e := gtNew(t, "")
	var b strings.Builder
	for i := 1; i <= 20_000; i++ {
		fmt.Fprintf(&b, "line %05d: the quick brown fox\n", i)
	}
	e.write("big.txt", b.String())
	e.commitAll("base")
	e.s.cfg.Limits.MaxDiffBytes = 10_000 // the file is 620,000 bytes
	ctx := context.Background()
	before := e.read("big.txt")
	r, err := e.s.Edit(ctx, &EditRequest{Path: "big.txt", Edits: []TextEdit{{OldText: "line 15000: the quick", NewText: tcPtr("line 15000: the QUICK")}}})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Applied || r.Added != 1 || r.Removed != 1 || !strings.Contains(r.Patch, "@@ -14997,7 +14997,7 @@") || !strings.Contains(r.Patch, "+line 15000: the QUICK brown fox\n") {
		t.Fatalf("edit: %+v", r)
	}
	if got := tcGitApply(t, "big.txt", before, r.Patch); got != e.read("big.txt") {
		t.Fatal("git apply of the edit's patch differs from the file")
	}
	ch, _ := e.s.Changes(ctx, &ChangesRequest{})
	if ev := ch.Changes[len(ch.Changes)-1]; ev.Patch != r.Patch || ev.Truncated || ev.Added != 1 {
		t.Fatalf("event: %+v", ev)
	}
	h := gtMust[GitHunksResponse](e, "editor::git::hunks", `{"path": "big.txt", "against": "head"}`)
	if len(h.Hunks) != 1 || h.Added != 1 || h.Hunks[0].OldStart != 15000 {
		t.Fatalf("hunks: %+v", h)
	}
	// Every line changed: over the bound, no patch, the true counts.
	r, err = e.s.Edit(ctx, &EditRequest{Path: "big.txt", Edits: []TextEdit{{OldText: "brown", NewText: tcPtr("red"), ReplaceAll: true}}})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Applied || r.Patch != "" || r.Added != 20_000 || r.Removed != 20_000 {
		t.Fatalf("replace all: %+v", r)
	}
}

// TestWritesOverMaxFileBytesOpenNoBuffer: an edit or save leaving a file
// over max_file_bytes does not add it to the tab set, as open does not; a
// buffer already open is refreshed.
func TestWritesOverMaxFileBytesOpenNoBuffer(t *testing.T) {
	e := tcNew(t, func(c *Config) { c.Limits.MaxFileBytes = 1000 })
	e.write("big.txt", strings.Repeat("line of text\n", 200)+"end\n")
	e.write("small.txt", "a\n")
	ctx := context.Background()
	if _, err := e.s.Edit(ctx, &EditRequest{Path: "big.txt", Edits: []TextEdit{{OldText: "end", NewText: tcPtr("END")}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.s.Save(ctx, &SaveRequest{Path: "new.txt", Content: strings.Repeat("x\n", 600)}); err != nil {
		t.Fatal(err)
	}
	if got := e.buffers(e.s); len(got) != 0 {
		t.Fatalf("buffers after writes of files over max_file_bytes: %v", got)
	}
	// Open while small, then grown past the limit by an edit: refreshed.
	o, _ := e.s.Open(ctx, &OpenRequest{Path: "small.txt"})
	r, err := e.s.Edit(ctx, &EditRequest{Path: "small.txt", Edits: []TextEdit{{OldText: "a\n", NewText: tcPtr(strings.Repeat("b\n", 600))}}})
	if err != nil {
		t.Fatal(err)
	}
	v, _ := e.s.WorkspaceGet(ctx, nil)
	if len(v.Buffers) != 1 || v.Buffers[0].Version != r.Version || r.Version == o.Version {
		t.Fatalf("the open buffer was not refreshed: %+v", v.Buffers)
	}
}
