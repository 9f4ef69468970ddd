package shell

import (
	"os"
	"testing"
	"time"
)

// A walk with SweepTemps removes the stale temp files of killed writers it
// passes, and nothing else: not a fresh one (a live writer's), not a
// user's file that only looks like one; a walk without it removes none.
func TestWalkSweepsStaleTemps(t *testing.T) {
	f := newFixture(t)
	old := time.Now().Add(-10 * time.Minute)
	stale := []string{".a.txt.editord-0123456789ab.tmp", "sub/deep/.b.go.editord-abcdef012345.tmp"}
	keep := []string{"sub/.c.txt.editord-00000000000f.tmp", ".notes.editord-draft.tmp", "sub/x.txt"}
	for _, p := range append(append([]string{}, stale...), keep...) {
		f.file(p, "x")
	}
	for _, p := range append(stale, keep[1], keep[2]) {
		os.Chtimes(f.abs(p), old, old)
	}
	walk := func(sweep bool) {
		if err := f.j.Walk(f.root, WalkOptions{SweepTemps: sweep}, func(WalkEntry) error { return nil }); err != nil {
			t.Fatal(err)
		}
	}
	walk(false)
	for _, p := range stale {
		if !f.exists(p) {
			t.Fatalf("a walk without SweepTemps removed %s", p)
		}
	}
	walk(true)
	for _, p := range stale {
		if f.exists(p) {
			t.Errorf("stale temp %s survived the sweep", p)
		}
	}
	for _, p := range keep {
		if !f.exists(p) {
			t.Errorf("%s was removed", p)
		}
	}
}
