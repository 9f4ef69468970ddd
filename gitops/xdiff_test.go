package gitops

import (
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
