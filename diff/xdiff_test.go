package diff

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// editLines applies a few random edits to lines: runs inserted, deleted or
// replaced by lines from pick.
func editLines(r *rand.Rand, lines []string, pick func() string) []string {
	out := append([]string(nil), lines...)
	for range r.IntN(5) {
		at, n := r.IntN(len(out)+1), 1+r.IntN(3)
		end := min(at+n, len(out))
		var ins []string
		if op := r.IntN(3); op != 1 || len(out) == 0 { // 1 deletes
			for range n {
				ins = append(ins, pick())
			}
			if op == 0 {
				end = at // insert
			}
		}
		out = append(out[:at], append(ins, out[end:]...)...)
	}
	return out
}

// joined is lines as a text, its last line unterminated when cut.
func joined(lines []string, cut bool) []byte {
	s := strings.Join(lines, "\n")
	if len(lines) > 0 && !cut {
		s += "\n"
	}
	return []byte(s)
}

func countScript(script []Change) (removed, added int) {
	for _, c := range script {
		removed, added = removed+c.Chg1, added+c.Chg2
	}
	return removed, added
}

// TestCountChangesMatchesDiff: the counting shortcut gives the counts of
// the full diff on random pairs (repeated lines, missing final newlines,
// changes at the ends).
func TestCountChangesMatchesDiff(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for i := range 3000 {
		vocab := 1 + r.IntN(30)
		pick := func() string { return randLine(r, vocab) }
		var base []string
		for range r.IntN(60) {
			base = append(base, pick())
		}
		a, b := joined(base, r.IntN(6) == 0), joined(editLines(r, base, pick), r.IntN(6) == 0)
		wr, wa := countScript(xdiff(splitRecords(a), splitRecords(b), xdiffOptions{}))
		if rm, ad := xcountChanges(a, b, 0); rm != wr || ad != wa {
			t.Fatalf("case %d: counted -%d +%d, the diff has -%d +%d\na=%q\nb=%q", i, rm, ad, wr, wa, a, b)
		}
	}
}

// TestSamesMatchesDiff: the windowed diff for blame gives the unchanged
// stretches of the full diff, also where changed groups can slide far
// (long runs of equal lines) and at the files' ends.
func TestSamesMatchesDiff(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 11))
	for i := range 2000 {
		pick := func() string { return randLine(r, 40) }
		var base []string
		switch i % 3 {
		case 0:
			for range r.IntN(300) {
				base = append(base, pick())
			}
		case 1: // long runs of one line: slides reach the margins
			for range r.IntN(200) {
				base = append(base, []string{"}", "}", "}", "}", "x"}[r.IntN(5)])
			}
		default: // mostly blank: the indent heuristic looks far
			for k := range 120 {
				if k%40 < 36 && k > 20 {
					base = append(base, "")
				} else {
					base = append(base, pick())
				}
			}
		}
		a, b := joined(base, r.IntN(6) == 0), joined(editLines(r, base, pick), r.IntN(6) == 0)
		want := sames(xdiff(splitRecords(a), splitRecords(b), xdiffOptions{}), len(splitRecords(b)))
		got, n := xsames(a, b)
		if n != len(splitRecords(b)) || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("case %d: %v\nwant %v\na=%q\nb=%q", i, got, want, a, b)
		}
	}
}

// TestWindowedMatchesWhole: the script Unified takes from the lines around
// the difference (with the indent heuristic, which looks at neighbouring
// lines, and any context) is the script of the whole texts, on the shapes
// where a window could see less than the whole: long runs of one line,
// blank stretches, indented blocks, changes near the ends.
func TestWindowedMatchesWhole(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 17))
	shapes := []func() string{
		func() string { return randLine(r, 40) },
		func() string { return []string{"}", "}", "}", "x"}[r.IntN(4)] },
		func() string { return []string{"", "", "", "\tx", "y"}[r.IntN(5)] },
		func() string { return strings.Repeat("\t", r.IntN(4)) + []string{"if x {", "}", "f()", ""}[r.IntN(4)] },
	}
	for i := range 3000 {
		pick := shapes[i%len(shapes)]
		var base []string
		for range r.IntN(150) {
			base = append(base, pick())
		}
		a, b := joined(base, r.IntN(6) == 0), joined(editLines(r, base, pick), r.IntN(6) == 0)
		if string(a) == string(b) {
			continue
		}
		ctx := r.IntN(5)
		pre, suf := commonLineEnds(a, b)
		w, script := scriptOf(a, b, pre, suf, ctx)
		for k := range script {
			script[k].I1 += w.base
			script[k].I2 += w.base
		}
		want := xdiff(splitRecords(a), splitRecords(b), xdiffOptions{indentHeuristic: true})
		if fmt.Sprint(script) != fmt.Sprint(want) {
			t.Fatalf("case %d (U%d): windowed %v, whole %v\na=%q\nb=%q", i, ctx, script, want, a, b)
		}
	}
}

// TestBudget: texts that share almost no lines cost git's search
// seconds per megabyte; past scriptBudget Unified and Counts give one
// replacement instead, and agree. A few lines changed in a
// file as large stay git's diff.
func TestBudget(t *testing.T) {
	before, after := unrelated(2 << 20)
	lines := len(splitRecords([]byte(after)))
	if lines != len(splitRecords([]byte(before))) {
		t.Fatal("unrelated gave sides of different lengths")
	}
	res := Unified(before, after, Options{Context: 3})
	if res.Added != lines || res.Removed != lines || len(res.Hunks) != 1 {
		t.Errorf("over the budget: +%d -%d in %d hunks, want one replacement of %d lines", res.Added, res.Removed, len(res.Hunks), lines)
	}
	if ad, rm := Counts(before, after); ad != res.Added || rm != res.Removed {
		t.Errorf("Counts +%d -%d, Unified +%d -%d", ad, rm, res.Added, res.Removed)
	}
	before, after = bigPair(2<<20, 2000)
	res = Unified(before, after, Options{Context: 3})
	wr, wa := countScript(xdiff(splitRecords([]byte(before)), splitRecords([]byte(after)), xdiffOptions{indentHeuristic: true}))
	if res.Added != wa || res.Removed != wr {
		t.Errorf("2,000 edits in 2 MiB: +%d -%d, git's diff +%d -%d", res.Added, res.Removed, wa, wr)
	}
}
