package diff

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// Lines chosen to trip up patch writers and readers: diff syntax at line
// start, the no-newline marker itself, blanks and repeats.
var trickyLines = []string{
	"", " ", "-", "+", "\\", "-x", "+y", " z", "\\x", "\\ No newline at end of file",
	"--- a/file", "+++ b/file", "-- a/file", "++ b/file", "@@ -1 +1 @@", "@@ -0,0 +1,1 @@",
	"}", "\t}", "func f() {", "return nil", "\t", "x\ty",
}

type genText struct {
	lines      []string // without terminators
	crlf       []bool
	noFinalEOL bool
}

func (g genText) String() string {
	var w strings.Builder
	for i, l := range g.lines {
		w.WriteString(l)
		if i == len(g.lines)-1 && g.noFinalEOL {
			break
		}
		if g.crlf[i] {
			w.WriteByte('\r')
		}
		w.WriteByte('\n')
	}
	return w.String()
}

func randLine(r *rand.Rand, vocab int) string {
	if r.IntN(3) == 0 {
		return trickyLines[r.IntN(len(trickyLines))]
	}
	return fmt.Sprintf("w%d", r.IntN(vocab))
}

// randPair returns a random text and an edited copy of it.
func randPair(r *rand.Rand) (before, after string) {
	n, vocab := r.IntN(40), 1+r.IntN(30)
	if r.IntN(10) == 0 { // long enough for git's cleanup of frequent lines and its cost limits
		n, vocab = 200+r.IntN(400), 5+r.IntN(200)
	}
	crlfRate := []int{0, 0, 0, 1, 100}[r.IntN(5)] // percent; mostly none, some mixed, some all
	newLine := func() string { return randLine(r, vocab) }
	var g genText
	for range n {
		g.lines = append(g.lines, newLine())
		g.crlf = append(g.crlf, r.IntN(100) < crlfRate)
	}
	g.noFinalEOL = r.IntN(4) == 0
	before = g.String()

	h := genText{lines: append([]string(nil), g.lines...), crlf: append([]bool(nil), g.crlf...), noFinalEOL: g.noFinalEOL}
	for range r.IntN(6) {
		pos := r.IntN(len(h.lines) + 1)
		switch r.IntN(5) {
		case 0, 1: // insert a run
			for k := range 1 + r.IntN(4) {
				h.lines = insertAt(h.lines, pos+k, newLine())
				h.crlf = insertAt(h.crlf, pos+k, r.IntN(100) < crlfRate)
			}
		case 2: // delete a run
			end := min(len(h.lines), pos+1+r.IntN(4))
			h.lines = append(h.lines[:pos], h.lines[end:]...)
			h.crlf = append(h.crlf[:pos], h.crlf[end:]...)
		case 3: // replace a line
			if pos < len(h.lines) {
				h.lines[pos] = newLine()
			}
		case 4: // flip a line ending
			if pos < len(h.crlf) {
				h.crlf[pos] = !h.crlf[pos]
			}
		}
	}
	if r.IntN(5) == 0 {
		h.noFinalEOL = !h.noFinalEOL
	}
	return before, h.String()
}

func insertAt[T any](s []T, i int, v T) []T {
	s = append(s, v)
	copy(s[i+1:], s[i:])
	s[i] = v
	return s
}

// TestRandomPatchesApply is the main guard: random edits of tricky texts must
// give patches that git apply and patch -p1 turn back into exactly `after`,
// with counts that agree everywhere, and that equal git diff's own patch.
// Every fourth case runs with a tiny budget, forcing the one replacement
// that big rewrites get.
func TestRandomPatchesApply(t *testing.T) {
	cases := 300
	if testing.Short() {
		cases = 60
	}
	git, patch := haveTool("git"), haveTool("patch")
	if !git || !patch {
		t.Logf("external check partly skipped: git=%v patch=%v", git, patch)
	}
	defer func(b int) { scriptBudget = b }(scriptBudget)
	r := rand.New(rand.NewPCG(2024, 7))
	for i := range cases {
		before, after := randPair(r)
		ctx := r.IntN(5)
		mode := "default"
		scriptBudget = 20_000_000
		if i%4 == 3 {
			mode, scriptBudget = "budget", 1+r.IntN(40)
		}
		opt := Options{Path: "file", Context: ctx}
		res := Unified(before, after, opt)
		desc := fmt.Sprintf("case %d (%s, U%d)\nbefore %q\nafter  %q\npatch:\n%s", i, mode, ctx, before, after, res.Patch)

		if res.Identical != (before == after) || (res.Identical && (res.Patch != "" || len(res.Hunks) != 0)) {
			t.Fatalf("identical=%v: %s", res.Identical, desc)
		}
		var ha, hr int
		for _, h := range res.Hunks {
			ha, hr = ha+h.Added, hr+h.Removed
		}
		if ha != res.Added || hr != res.Removed {
			t.Fatalf("hunks sum to +%d -%d, totals +%d -%d: %s", ha, hr, res.Added, res.Removed, desc)
		}
		if a, rm := Counts(before, after); a != res.Added || rm != res.Removed {
			t.Fatalf("Counts +%d -%d, Unified +%d -%d: %s", a, rm, res.Added, res.Removed, desc)
		}
		if got, err := applyUnified(before, res.Patch, res.Hunks); err != nil || got != after {
			t.Fatalf("in-process apply gave %q, %v: %s", got, err, desc)
		}
		if got, err := Apply(before, res.Patch); err != nil || got != after {
			t.Fatalf("Apply gave %q, %v: %s", got, err, desc)
		}
		if res.Identical {
			continue
		}
		if git {
			if got, err := applyGit(t, "file", &before, res.Patch, ctx == 0); err != nil || !sameContent(got, &after) {
				t.Fatalf("git apply gave %s, %v: %s", show(got), err, desc)
			}
			if mode == "default" {
				if want, _ := gitDiff(t, before, after, ctx); res.Patch != want {
					t.Fatalf("git diff's patch differs:\n%s\n%s", want, desc)
				}
			}
		}
		if patch {
			if got, err := applyPatch(t, "file", &before, res.Patch, ctx == 0); err != nil || !sameContent(got, &after) {
				t.Fatalf("patch -p1 gave %s, %v: %s", show(got), err, desc)
			}
		}
	}
}
