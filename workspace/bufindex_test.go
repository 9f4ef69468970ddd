package workspace

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// A session found through its index agrees with a plain list after any
// sequence of opens, refreshes, closes, moves and draft marks, on the
// session changed and on the copies of it taken along the way (which
// share the index until they change).
func TestBufIndexAgreesWithList(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	rec := newRecord()
	ses := rec.Session("/w")
	var model []string // paths in tab order
	type copyOf struct {
		rec   *Record
		paths []string
	}
	var copies []copyOf
	path := func() string { return fmt.Sprintf("d%d/f%03d.go", r.IntN(4), r.IntN(300)) }
	for step := 0; step < 6000; step++ {
		switch k := r.IntN(20); {
		case k < 12: // open or refresh
			p := path()
			ses.Upsert(Buffer{Path: p, Version: fmt.Sprint(step)})
			if !slices.Contains(model, p) {
				model = append(model, p)
			}
		case k < 15:
			p := path()
			ses.Close(p)
			if i := slices.Index(model, p); i >= 0 {
				model = slices.Delete(model, i, i+1)
			}
		case k == 15:
			from, to := fmt.Sprintf("d%d", r.IntN(4)), fmt.Sprintf("d%d", r.IntN(4))
			ses.Move(from, to)
			var m []string
			for _, p := range model {
				q, _ := Remap(p, from, to)
				if !slices.Contains(m, q) {
					m = append(m, q)
				}
			}
			// dedupBuffers keeps first-seen positions: rebuild the model
			// from the session's own order, checking the set.
			got := bufPaths(rec, "/w")
			if !sameSet(got, m) {
				t.Fatalf("step %d: move %s -> %s: %v, want the set %v", step, from, to, got, m)
			}
			model = got
		case k == 16:
			ses.SetDraft(path(), "base")
		case k == 17:
			c := rec.clone()
			c.index()
			copies = append(copies, copyOf{c, slices.Clone(model)})
		default:
			if step%500 == 0 {
				rec.index()
			}
		}
		if got := bufPaths(rec, "/w"); !slices.Equal(got, model) {
			t.Fatalf("step %d: %v, want %v", step, got, model)
		}
		for q := 0; q < 5; q++ {
			p := path()
			want := slices.Index(model, p)
			if got := ses.Find(p); got != want {
				t.Fatalf("step %d: Find(%s) = %d, want %d", step, p, got, want)
			}
		}
	}
	for i, c := range copies {
		cs := c.rec.Sessions["/w"]
		for _, p := range c.paths {
			if cs.Find(p) != slices.Index(c.paths, p) {
				t.Fatalf("copy %d: Find(%s) = %d, want %d", i, p, cs.Find(p), slices.Index(c.paths, p))
			}
		}
		if cs.Find("nope") != -1 {
			t.Fatalf("copy %d finds a path it does not hold", i)
		}
	}
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}
