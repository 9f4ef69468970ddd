package gitops

import (
	"context"
	"errors"
	"testing"
)

// A worktree walk whose context has ended stops at the next folder and
// says why (a status warmed at start gives way to a call this way); with a
// live context the same walk finds the change.
func TestScanWorktreeStopsWhenItsContextEnds(t *testing.T) {
	f := newFixture(t)
	f.write("a/b/c.txt", "c\n")
	f.commitAll("base")
	f.write("a/b/c.txt", "changed\n")
	r := f.open()
	idx, err := r.sharedIndex()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := r.scanWorktreeCtx(ctx, idx); !errors.Is(err, context.Canceled) {
		t.Fatalf("a walk with its context ended: %v, want context.Canceled", err)
	}
	wt, err := r.scanWorktreeCtx(context.Background(), idx)
	if err != nil {
		t.Fatal(err)
	}
	if got := wt.codes[0]; got != codeModified {
		t.Fatalf("the live walk's code for the changed file: %q, want %q", got, codeModified)
	}
}
