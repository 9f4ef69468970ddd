package gitops

import (
	"fmt"
	"math/rand"
	"testing"
)

// TestCountChangesMatchesDiff: the counting shortcut gives the counts of
// the full diff on random pairs (repeated lines, missing final newlines,
// changes at the ends).
func TestCountChangesMatchesDiff(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for i := range 3000 {
		base := randomText(rng, rng.Intn(60), "\n")
		other := mutate(rng, base, "\n")
		a, b := joinText(base, rng.Intn(6) == 0), joinText(other, rng.Intn(6) == 0)
		var wa, wr int
		for _, c := range xdiff(splitRecords(a), splitRecords(b), xdiffOptions{}) {
			wa += c.chg2
			wr += c.chg1
		}
		r, ad := xcountChanges(a, b)
		if r != wr || ad != wa {
			t.Fatalf("case %d: counted -%d +%d, the diff has -%d +%d\na=%q\nb=%q", i, r, ad, wr, wa, a, b)
		}
	}
}

// TestSamesMatchesDiff: the windowed diff for blame gives the unchanged
// stretches of the full diff, also where changed groups can slide far
// (long runs of equal lines) and at the files' ends.
func TestSamesMatchesDiff(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	for i := range 2000 {
		var base []string
		switch i % 3 {
		case 0:
			base = randomText(rng, rng.Intn(300), "\n")
		case 1: // long runs of one line: slides reach the margins
			for range rng.Intn(200) {
				if rng.Intn(10) == 0 {
					base = append(base, "x\n")
				} else {
					base = append(base, "}\n")
				}
			}
		default:
			base = randomText(rng, 120, "\n")
			for k := range base {
				if k%40 < 36 && k > 20 {
					base[k] = "\n"
				}
			}
		}
		other := mutate(rng, base, "\n")
		a, b := joinText(base, rng.Intn(6) == 0), joinText(other, rng.Intn(6) == 0)
		want := sames(xdiff(splitRecords(a), splitRecords(b), xdiffOptions{}), len(splitRecords(b)))
		got, n := xsames(a, b)
		if n != len(splitRecords(b)) || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("case %d: %v\nwant %v\na=%q\nb=%q", i, got, want, a, b)
		}
	}
}
