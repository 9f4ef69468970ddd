package search

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sahilm/fuzzy"
)

// fuzzyASCII gives fuzzy's own answer (match or not, positions, score) on
// random ASCII queries and texts drawn from letters of both cases, digits
// and separators, so that repeats, camelCase humps, separators and runs
// all occur.
func TestFuzzyASCIIMatchesFuzzy(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	const alpha = "aAbBcC01_-./ xXyY"
	gen := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alpha[r.IntN(len(alpha))]
		}
		return string(b)
	}
	checked := 0
	for trial := 0; trial < 200000; trial++ {
		q := gen(1 + r.IntN(5))
		text := gen(r.IntN(24))
		if trial%3 == 0 && len(text) > 0 {
			// Plant the query so that matches are common.
			b := []byte(text)
			for i := range len(q) {
				b[r.IntN(len(b))] = q[i]
			}
			text = string(b)
		}
		score, pos, ok := fuzzyASCII(q, text, nil)
		ms := fuzzy.FindNoSort(q, []string{text})
		if ok != (len(ms) == 1) {
			t.Fatalf("query %q text %q: match %v, fuzzy %v", q, text, ok, len(ms) == 1)
		}
		if !ok {
			continue
		}
		checked++
		if score != ms[0].Score || !slices.Equal(pos, ms[0].MatchedIndexes) {
			t.Fatalf("query %q text %q: score %d at %v, fuzzy %d at %v", q, text, score, pos, ms[0].Score, ms[0].MatchedIndexes)
		}
	}
	if checked < 10000 {
		t.Fatalf("only %d matches compared", checked)
	}
	// Long runs, whose doubling bonus overflows (fuzzy then commits a
	// position twice), in every slice of a long path.
	long := "internal/service/handlers/user_profile_handler.go"
	for i := 1; i <= len(long); i++ {
		for j := 0; j < i; j++ {
			q := long[j:i]
			for _, text := range []string{q, long, "x/" + q + "_test.go"} {
				score, pos, ok := fuzzyASCII(q, text, nil)
				ms := fuzzy.FindNoSort(q, []string{text})
				if ok != (len(ms) == 1) || ok && (score != ms[0].Score || !slices.Equal(pos, ms[0].MatchedIndexes)) {
					t.Fatalf("query %q text %q: %v %d %v, fuzzy %v", q, text, ok, score, pos, ms)
				}
			}
		}
	}
	// And on real paths.
	for _, p := range palettePaths(3000) {
		for _, q := range []string{"S15A9", "s15", "proto12", "T5", "bi07", "test/S", "A9_T"} {
			score, pos, ok := fuzzyASCII(q, p, nil)
			ms := fuzzy.FindNoSort(q, []string{p})
			if ok != (len(ms) == 1) || ok && (score != ms[0].Score || !slices.Equal(pos, ms[0].MatchedIndexes)) {
				t.Fatalf("query %q path %q: %v %d %v, fuzzy %v", q, p, ok, score, pos, ms)
			}
		}
	}
}

// Rank gives the same matches, scores and positions with fuzzyASCII as
// with fuzzy alone, on the palette's paths and keystrokes and on mixed
// paths (non-ASCII ones go to fuzzy either way).
func TestRankFuzzyASCIISameResults(t *testing.T) {
	paths := append(palettePaths(20000), "src/Über/naïve.go", "docs/日本/readme.md", "a/b/MakeFile", "lib/make_file.go", "x/y/makefile")
	c := Prepare(paths)
	var queries []string
	for _, q := range []string{"S15A9", "proto12", "builtins07", "T5123", "mkfile", "Über", "test/built", "js"} {
		for i := 1; i <= len(q); i++ {
			queries = append(queries, q[:i])
		}
	}
	for _, q := range queries {
		useFuzzyASCII = true
		got := c.Rank(q, 50)
		useFuzzyASCII = false
		want := c.Rank(q, 50)
		useFuzzyASCII = true
		if len(got) != len(want) {
			t.Fatalf("%q: %d matches, want %d", q, len(got), len(want))
		}
		for i := range got {
			if got[i].Path != want[i].Path || got[i].Score != want[i].Score || !slices.Equal(got[i].Positions, want[i].Positions) {
				t.Fatalf("%q #%d: %+v, want %+v", q, i, got[i], want[i])
			}
		}
	}
}
