package watch

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/editord/editord/workspace"
)

// fileSet answers as the map of whole paths it replaced, under random
// adds, removes, folder drops, folder moves and pruning.
func TestFileSetAgreesWithMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	segs := []string{"a", "b", "ab", "a.b", "c"}
	randPath := func() string {
		p := segs[rng.IntN(len(segs))]
		for rng.IntN(3) > 0 {
			p += "/" + segs[rng.IntN(len(segs))]
		}
		return p
	}
	for round := range 200 {
		set, model := newFileSet(), map[string]bool{}
		for range 300 {
			p := randPath()
			switch rng.IntN(10) {
			case 0:
				set.dropUnder(p)
				for f := range model {
					if workspace.Within(f, p) {
						delete(model, f)
					}
				}
			case 1:
				to := randPath()
				if workspace.Within(to, p) || workspace.Within(p, to) {
					continue
				}
				set.move(p, to)
				moved := map[string]bool{}
				for f := range model {
					if n, ok := workspace.Remap(f, p, to); ok && f != p {
						delete(model, f)
						moved[n] = true
					}
				}
				for f := range moved {
					model[f] = true
				}
			case 2:
				set.keepDirs(func(d string) bool { return d != p })
				for f := range model {
					if parent(f) == p {
						delete(model, f)
					}
				}
			case 3, 4:
				set.remove(p)
				delete(model, p)
			default:
				set.add(p)
				model[p] = true
			}
			if got, want := set.has(p), model[p]; got != want {
				t.Fatalf("round %d: has(%q) = %v, want %v", round, p, got, want)
			}
		}
		var got, want []string
		set.each(func(f string) { got = append(got, f) })
		for f := range model {
			want = append(want, f)
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("round %d: set %v, want %v", round, got, want)
		}
		for d, names := range set.dirs {
			if len(names) == 0 || !slices.IsSorted(names) {
				t.Fatalf("round %d: folder %q holds %v", round, d, names)
			}
		}
	}
}
