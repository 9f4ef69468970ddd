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
	if r.IntN(10) == 0 { // long enough for difflib's autojunk and our anchoring
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
// with counts that agree everywhere. The modes force the paths that normally
// only big or repetitive inputs reach: anchoring, the Myers fallback (whose
// scripts must then be minimal), and autojunk or whole replacement.
func TestRandomPatchesApply(t *testing.T) {
	cases := 300
	if testing.Short() {
		cases = 60
	}
	git, patch := haveTool("git"), haveTool("patch")
	if !git || !patch {
		t.Logf("external check partly skipped: git=%v patch=%v", git, patch)
	}
	defer func(d, b, mb int) {
		directMatchLines, matchBudget, myersBudget = d, b, mb
	}(directMatchLines, matchBudget, myersBudget)
	r := rand.New(rand.NewPCG(2024, 7))
	for i := range cases {
		before, after := randPair(r)
		ctx := r.IntN(5)
		directMatchLines, matchBudget, myersBudget = 512, 1<<18, 1<<23
		mode := []string{"default", "anchors", "myers", "junk"}[i%4]
		switch mode {
		case "anchors":
			directMatchLines = 0
		case "myers":
			directMatchLines, matchBudget = 1<<30, 0
		case "junk":
			matchBudget, myersBudget = r.IntN(200), r.IntN(200)
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
		if mode == "myers" {
			if d := editDistance(splitLines(before), splitLines(after)); res.Added+res.Removed != d {
				t.Fatalf("Myers script has %d edits, minimum is %d: %s", res.Added+res.Removed, d, desc)
			}
		}
		if err := sameScriptAsLines(before, after); err != nil {
			t.Fatalf("%v: %s", err, desc)
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
		}
		if patch {
			if got, err := applyPatch(t, "file", &before, res.Patch, ctx == 0); err != nil || !sameContent(got, &after) {
				t.Fatalf("patch -p1 gave %s, %v: %s", show(got), err, desc)
			}
		}
	}
}

// sameScriptAsLines checks that the byte-level window trimming is only an
// optimisation: the script must equal the one computed on all lines.
func sameScriptAsLines(before, after string) error {
	wa, wb := windows(before, after, 0)
	got := editScript(wa.lines, wb.lines)
	for k := range got {
		got[k].i1 += wa.base
		got[k].i2 += wa.base
		got[k].j1 += wb.base
		got[k].j2 += wb.base
	}
	want := editScript(splitLines(before), splitLines(after))
	if fmt.Sprint(got) != fmt.Sprint(want) {
		return fmt.Errorf("windowed script %v, full script %v", got, want)
	}
	return nil
}

// editDistance is the minimum number of inserted plus deleted lines, by the
// textbook LCS table.
func editDistance(a, b []string) int {
	prev, cur := make([]int, len(b)+1), make([]int, len(b)+1)
	for i := range a {
		for j := range b {
			if a[i] == b[j] {
				cur[j+1] = prev[j] + 1
			} else {
				cur[j+1] = max(prev[j+1], cur[j])
			}
		}
		prev, cur = cur, prev
	}
	return len(a) + len(b) - 2*prev[len(b)]
}
