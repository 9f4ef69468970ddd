package diff

import (
	"hash/maphash"
	"sort"

	"github.com/pmezard/go-difflib/difflib"
)

// change is one non-equal stretch of the edit script: old lines [i1,i2) become
// new lines [j1,j2). One side may be empty. Changes are sorted and never
// touch each other.
type change struct{ i1, i2, j1, j2 int }

// Tuning knobs; variables so tests can force each code path on small inputs.
var (
	// Regions up to this many lines (both sides together) go straight to
	// SequenceMatcher, whose results read best. Larger regions are first
	// cut at unique common lines, because the matcher rescans the whole
	// region at every recursion level and is far too slow on big files
	// with scattered edits.
	directMatchLines = 512

	// Upper bound on the inner-loop work of one SequenceMatcher pass (pairs
	// of equal lines across the sides, ~100ns each); see match.
	matchBudget = 1 << 18

	// Work bound for the Myers fallback: lines times edit distance.
	myersBudget = 1 << 23
)

// maxAnchorDepth bounds re-anchoring inside gaps between anchors. Each level
// costs a pass over its lines, so unbounded nesting could go quadratic on
// crafted input; past this depth gaps go to the budgeted matcher.
const maxAnchorDepth = 4

// editScript computes the changes that turn a into b.
func editScript(a, b []string) []change {
	s := scripter{a: a, b: b}
	s.solve(0, len(a), 0, len(b), 0)
	return s.out
}

type scripter struct {
	a, b []string
	out  []change
}

func (s *scripter) emit(i1, i2, j1, j2 int) {
	if n := len(s.out); n > 0 && s.out[n-1].i2 == i1 && s.out[n-1].j2 == j1 {
		s.out[n-1].i2, s.out[n-1].j2 = i2, j2
		return
	}
	s.out = append(s.out, change{i1, i2, j1, j2})
}

// solve appends the changes turning a[a0:a1] into b[b0:b1].
func (s *scripter) solve(a0, a1, b0, b1, depth int) {
	// Common prefix/suffix: cheap, and it keeps them away from the
	// matcher's quadratic parts and its autojunk counting.
	for a0 < a1 && b0 < b1 && s.a[a0] == s.b[b0] {
		a0, b0 = a0+1, b0+1
	}
	for a0 < a1 && b0 < b1 && s.a[a1-1] == s.b[b1-1] {
		a1, b1 = a1-1, b1-1
	}
	if a0 == a1 || b0 == b1 {
		if a0 != a1 || b0 != b1 {
			s.emit(a0, a1, b0, b1)
		}
		return
	}
	if (a1-a0)+(b1-b0) > directMatchLines && depth < maxAnchorDepth {
		if anchors := s.anchors(a0, a1, b0, b1); len(anchors) > 0 {
			for _, p := range anchors {
				s.solve(a0, p.i, b0, p.j, depth+1)
				a0, b0 = p.i+1, p.j+1
			}
			s.solve(a0, a1, b0, b1, depth+1)
			return
		}
	}
	s.match(a0, a1, b0, b1)
}

type anchor struct{ i, j int }

// hashSeed keys the line hashes used to find anchor candidates.
var hashSeed = maphash.MakeSeed()

// anchors returns, in order, the longest increasing chain of lines that occur
// exactly once in each side (patience diff). Such lines are almost always
// true correspondences, so splitting there loses little and turns one huge
// matcher run into many tiny ones.
//
// This runs over every line of big inputs, so lines are counted by 64-bit
// hash in a pointer-free table: about a quarter faster than a map[string]
// and invisible to the GC. A collision can only merge counts (losing an
// anchor) or pair different lines, which the final equality check drops, so
// every anchor returned is a real match.
func (s *scripter) anchors(a0, a1, b0, b1 int) []anchor {
	// Open addressing with linear probing over a power-of-two table at most
	// half full; slots hold 1+index into occs so the zero value means empty.
	type occ struct {
		h      uint64
		na, nb int32
		j      int32
	}
	size := 1
	for size < 2*(a1-a0) {
		size <<= 1
	}
	table, mask := make([]int32, size), uint64(size-1)
	occs := make([]occ, 0, a1-a0)
	slot := make([]int32, a1-a0)
	for i := a0; i < a1; i++ {
		h := maphash.String(hashSeed, s.a[i])
		p := h & mask
		for table[p] != 0 && occs[table[p]-1].h != h {
			p = (p + 1) & mask
		}
		if table[p] == 0 {
			occs = append(occs, occ{h: h})
			table[p] = int32(len(occs))
		}
		k := table[p] - 1
		occs[k].na++
		slot[i-a0] = k
	}
	for j := b0; j < b1; j++ {
		h := maphash.String(hashSeed, s.b[j])
		p := h & mask
		for table[p] != 0 && occs[table[p]-1].h != h {
			p = (p + 1) & mask
		}
		if k := table[p] - 1; k >= 0 {
			occs[k].nb++
			occs[k].j = int32(j)
		}
	}
	unique := 0
	for _, o := range occs {
		if o.na == 1 && o.nb == 1 {
			unique++
		}
	}
	cand := make([]anchor, 0, unique)
	for i := a0; i < a1; i++ {
		if o := occs[slot[i-a0]]; o.na == 1 && o.nb == 1 && s.a[i] == s.b[o.j] {
			cand = append(cand, anchor{i, int(o.j)})
		}
	}
	return longestIncreasing(cand)
}

// longestIncreasing keeps the longest subsequence of cand (sorted by i) whose
// j are increasing, by patience sorting.
func longestIncreasing(cand []anchor) []anchor {
	if len(cand) == 0 {
		return nil
	}
	tails := make([]int, 0, 64) // tails[l]: cand index ending the best chain of length l+1
	prev := make([]int32, len(cand))
	for k, c := range cand {
		var l int
		if n := len(tails); n > 0 && cand[tails[n-1]].j < c.j {
			l = n // the common case when few lines moved: skip the search
		} else {
			l = sort.Search(n, func(x int) bool { return cand[tails[x]].j >= c.j })
		}
		if l > 0 {
			prev[k] = int32(tails[l-1])
		} else {
			prev[k] = -1
		}
		if l == len(tails) {
			tails = append(tails, k)
		} else {
			tails[l] = k
		}
	}
	out := make([]anchor, len(tails))
	for k, n := tails[len(tails)-1], len(tails)-1; n >= 0; k, n = int(prev[k]), n-1 {
		out[n] = cand[k]
	}
	return out
}

// match runs difflib's SequenceMatcher on a region that shares no prefix or
// suffix. Autojunk is off: in v1.0.0 it ignores every line seen more than
// 1%+1 times in a side of 200+ lines (blank lines, "}", ...), so the matcher
// misses obvious alignments and emits needlessly large hunks.
//
// The exact matcher costs about one map operation per pair of equal lines
// across the sides at every recursion level, which is hopeless on long runs
// of repeated lines (3000 identical lines on each side: ~1s). Such regions go
// to a bounded Myers search, which is quick when few lines changed, and only
// then to autojunk or, failing all, one replacement: big, but still correct.
func (s *scripter) match(a0, a1, b0, b1 int) {
	a, b := s.a[a0:a1], s.b[b0:b1]
	exact, junked := matchCost(a, b)
	if exact <= matchBudget {
		s.opcodes(a0, b0, difflib.NewMatcherWithJunk(a, b, false, nil))
		return
	}
	if s.myers(a0, a1, b0, b1, myersBudget/(len(a)+len(b))) {
		return
	}
	if junked <= matchBudget {
		s.opcodes(a0, b0, difflib.NewMatcherWithJunk(a, b, true, nil))
		return
	}
	s.emit(a0, a1, b0, b1)
}

func (s *scripter) opcodes(a0, b0 int, m *difflib.SequenceMatcher) {
	for _, op := range m.GetOpCodes() {
		if op.Tag != 'e' {
			s.emit(a0+op.I1, a0+op.I2, b0+op.J1, b0+op.J2)
		}
	}
}

// matchCost estimates the matcher's work per pass over a and b, without and
// with autojunk: the number of pairs of equal lines it would visit.
func matchCost(a, b []string) (exact, junked int) {
	if len(a)*len(b) <= matchBudget {
		return len(a) * len(b), len(a) * len(b) // upper bounds, cheap
	}
	type occ struct{ na, nb int }
	counts := make(map[string]*occ, len(b))
	for _, l := range b {
		o := counts[l]
		if o == nil {
			o = new(occ)
			counts[l] = o
		}
		o.nb++
	}
	for _, l := range a {
		if o := counts[l]; o != nil {
			o.na++
		}
	}
	popular := len(b)/100 + 1 // difflib's autojunk threshold, for len(b) >= 200
	for _, o := range counts {
		exact += o.na * o.nb
		if o.nb <= popular || len(b) < 200 {
			junked += o.na * o.nb
		}
	}
	return exact, junked
}
