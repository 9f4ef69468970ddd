package diff

import (
	"bytes"
	"hash/maphash"
)

// A line diff that chooses the same lines git's xdiff chooses (Myers'
// O(ND) algorithm with git's preparation and heuristics), so that merges,
// blame and --numstat agree with git line for line, not only in size:
//
//   - lines are records ending in "\n" (the last one may not), compared
//     byte for byte;
//   - common leading and trailing lines are set aside first; then lines
//     with no match on the other side are marked changed before the search,
//     and so are lines matching many times when they sit among such lines
//     (git's xdl_cleanup_records), which shapes which of several equally
//     short scripts is found;
//   - the search splits the box at the middle snake, with git's cost cut-offs
//     for large inputs;
//   - changed groups are then slid as git slides them (to line up with the
//     other side's changes, or by the indent heuristic when asked).

type xfile struct {
	recs   [][]byte
	ha     []int32 // class of each record; -1 until needed (trimmed ends)
	cl     *classifier
	chg    []bool // changed marks, offset by one: chg[i+1] is record i
	rindex []int  // records taking part in the search
	rha    []int32
	dstart int
	dend   int
	nrec   int
	// A window of a larger file (xsames): lines before or after it were
	// cut off, and edge says a group reached the cut while sliding.
	cutStart, cutEnd, edge bool
}

func (f *xfile) changed(i int) bool { return f.chg[i+1] }
func (f *xfile) mark(i int, v bool) { f.chg[i+1] = v }

// class is record i's class, interned on first use for the records the
// common ends set aside.
func (f *xfile) class(i int) int32 {
	if f.ha[i] < 0 {
		f.ha[i] = f.cl.intern(f.recs[i])
	}
	return f.ha[i]
}

// Change is one hunk of an edit script, named as git's xdchange_t: Chg1
// records (lines) of the old text from record I1 (0-based) are replaced
// by Chg2 records of the new text from record I2.
type Change struct{ I1, I2, Chg1, Chg2 int }

// splitRecords cuts data into lines, each keeping its "\n". A record's
// capacity ends with it, so that an append to one never writes into the
// next (or into a string that data views).
func splitRecords(data []byte) [][]byte {
	out := make([][]byte, 0, bytes.Count(data, []byte{'\n'})+1)
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			out = append(out, data[:len(data):len(data)])
			break
		}
		out = append(out, data[:i+1:i+1])
		data = data[i+1:]
	}
	return out
}

// classifier gives equal records one class id, keeping no copy of them.
type classifier struct {
	seed maphash.Seed
	head map[uint64]int32
	reps [][]byte
	next []int32
}

func newClassifier(n int) *classifier {
	return &classifier{seed: maphash.MakeSeed(), head: make(map[uint64]int32, n)}
}

// lookup returns the class of b, or -1 when no record like it was interned.
func (c *classifier) lookup(b []byte) int32 {
	h := maphash.Bytes(c.seed, b)
	k, ok := c.head[h]
	if !ok {
		return -1
	}
	for ; k >= 0; k = c.next[k] {
		if bytes.Equal(c.reps[k], b) {
			return k
		}
	}
	return -1
}

// intern returns b's class, making one when needed.
func (c *classifier) intern(b []byte) int32 {
	h := maphash.Bytes(c.seed, b)
	first, ok := c.head[h]
	if ok {
		for k := first; k >= 0; k = c.next[k] {
			if bytes.Equal(c.reps[k], b) {
				return k
			}
		}
	} else {
		first = -1
	}
	id := int32(len(c.reps))
	c.reps = append(c.reps, b)
	c.next = append(c.next, first)
	c.head[h] = id
	return id
}

// bogosqrt is git's rough square root: 2^ceil(bits/2).
func bogosqrt(n int) int {
	i := 1
	for ; n > 0; n >>= 2 {
		i <<= 1
	}
	return i
}

// xprepare classifies both files' records and sets aside what the search
// need not see. Common leading and trailing records are found by comparing
// bytes; only the records between them are classified up front (the
// others only when sliding needs them), which keeps a one-line change to a
// large file cheap.
func xprepare(a, b [][]byte) (*xfile, *xfile) {
	n := min(len(a), len(b))
	i := 0
	for i < n && bytes.Equal(a[i], b[i]) {
		i++
	}
	lim := n - i
	j := 0
	for j < lim && bytes.Equal(a[len(a)-1-j], b[len(b)-1-j]) {
		j++
	}
	cl := newClassifier(len(a) - i - j + len(b) - i - j)
	x1, x2 := newXfile(a, cl, i, len(a)-j-1), newXfile(b, cl, i, len(b)-j-1)
	xcleanup(x1, x2, len(cl.reps))
	return x1, x2
}

// newXfile is a file of recs whose records dstart..dend are classified
// now; the others (-1) only when sliding needs them.
func newXfile(recs [][]byte, cl *classifier, dstart, dend int) *xfile {
	f := &xfile{recs: recs, nrec: len(recs), ha: make([]int32, len(recs)), cl: cl, chg: make([]bool, len(recs)+2)}
	for k := range f.ha {
		f.ha[k] = -1
	}
	f.dstart, f.dend = dstart, dend
	for k := f.dstart; k <= f.dend; k++ {
		f.ha[k] = cl.intern(recs[k])
	}
	return f
}

// xcleanup marks records without a match in the other file as changed
// (and multi-matching ones among them), listing the rest for the search.
// Matches are counted over the whole other file, its common ends included.
func xcleanup(x1, x2 *xfile, nclass int) {
	xcleanupWith(x1, x2, nclass, x1.nrec, x2.nrec, nil)
}

// xcleanupWith is xcleanup for files whose common ends were cut off
// before they were split (xcountChanges): n1 and n2 are the whole files'
// record counts, and shared adds to both files' counts the matches the
// cut-off records hold.
func xcleanupWith(x1, x2 *xfile, nclass, n1, n2 int, shared func(cnt1, cnt2 []int)) {
	// The records set aside at the ends are the same in both files:
	// looked up once, counted for both.
	cnt1, cnt2 := make([]int, nclass), make([]int, nclass)
	for k, c := range x1.ha {
		if c >= 0 {
			cnt1[c]++
		} else if c = x1.cl.lookup(x1.recs[k]); c >= 0 && int(c) < nclass {
			cnt1[c]++
			cnt2[c]++
		}
	}
	for _, c := range x2.ha {
		if c >= 0 {
			cnt2[c]++
		}
	}
	if shared != nil {
		shared(cnt1, cnt2)
	}
	dis := func(f *xfile, other []int, n int) []byte {
		mlim := min(bogosqrt(n), 1024)
		d := make([]byte, f.nrec+1)
		for i := f.dstart; i <= f.dend; i++ {
			nm := min(other[f.ha[i]], mlim)
			switch {
			case nm == 0:
				d[i] = 0
			case nm >= mlim:
				d[i] = 2
			default:
				d[i] = 1
			}
		}
		return d
	}
	keep := func(f *xfile, d []byte) {
		f.rindex = f.rindex[:0]
		for i := f.dstart; i <= f.dend; i++ {
			if d[i] == 1 || d[i] == 2 && !cleanMMatch(d, i, f.dstart, f.dend) {
				f.rindex = append(f.rindex, i)
				f.rha = append(f.rha, f.ha[i])
			} else {
				f.mark(i, true)
			}
		}
	}
	d1, d2 := dis(x1, cnt2, n1), dis(x2, cnt1, n2)
	keep(x1, d1)
	keep(x2, d2)
}

// cleanMMatch decides whether a line with many matches, sitting in a run of
// lines without any, is dropped from the search too.
func cleanMMatch(dis []byte, i, s, e int) bool {
	const window, kpdisRun = 100, 4
	if i-s > window {
		s = i - window
	}
	if e-i > window {
		e = i + window
	}
	rdis0, rpdis0 := 0, 1
	for r := 1; i-r >= s; r++ {
		if dis[i-r] == 0 {
			rdis0++
		} else if dis[i-r] == 2 {
			rpdis0++
		} else {
			break
		}
	}
	if rdis0 == 0 {
		return false
	}
	rdis1, rpdis1 := 0, 1
	for r := 1; i+r <= e; r++ {
		if dis[i+r] == 0 {
			rdis1++
		} else if dis[i+r] == 2 {
			rpdis1++
		} else {
			break
		}
	}
	if rdis1 == 0 {
		return false
	}
	rdis1 += rdis0
	rpdis1 += rpdis0
	return rpdis1*kpdisRun < rpdis1+rdis1
}

// xsearch holds the diagonal vectors of one diff.
type xsearch struct {
	a, b         *xfile
	kf, kb       []int
	base         int
	mxcost       int
	snake, heurM int
	// budget bounds work (diagonals visited plus snake steps), 0 for
	// none; over it the search gives up (see xsearchAll).
	budget, work int
}

// overBudget is what split panics with when the work passes the budget;
// xsearchAll recovers it.
type overBudget struct{}

// spend counts n steps of work against the budget.
func (s *xsearch) spend(n int) {
	s.work += n
	if s.budget > 0 && s.work > s.budget {
		panic(overBudget{})
	}
}

const xlineMax = int(^uint(0) >> 1)

type xsplit struct {
	i1, i2       int
	minLo, minHi bool
}

func (s *xsearch) kvf(d int) int      { return s.kf[s.base+d] }
func (s *xsearch) setf(d, v int)      { s.kf[s.base+d] = v }
func (s *xsearch) kvb(d int) int      { return s.kb[s.base+d] }
func (s *xsearch) setb(d, v int)      { s.kb[s.base+d] = v }
func (s *xsearch) eq(i1, i2 int) bool { return s.a.rha[i1] == s.b.rha[i2] }

// split finds where the shortest script crosses the middle of the box
// (off1, off2)-(lim1, lim2), or a good-enough point once the cost is high.
func (s *xsearch) split(off1, lim1, off2, lim2 int, needMin bool) xsplit {
	dmin, dmax := off1-lim2, lim1-off2
	fmid, bmid := off1-off2, lim1-lim2
	odd := (fmid-bmid)&1 != 0
	fmin, fmax := fmid, fmid
	bmin, bmax := bmid, bmid
	s.setf(fmid, off1)
	s.setb(bmid, lim1)
	for ec := 1; ; ec++ {
		gotSnake := false
		if fmin > dmin {
			fmin--
			s.setf(fmin-1, -1)
		} else {
			fmin++
		}
		if fmax < dmax {
			fmax++
			s.setf(fmax+1, -1)
		} else {
			fmax--
		}
		for d := fmax; d >= fmin; d -= 2 {
			var i1 int
			if s.kvf(d-1) >= s.kvf(d+1) {
				i1 = s.kvf(d-1) + 1
			} else {
				i1 = s.kvf(d + 1)
			}
			prev := i1
			i2 := i1 - d
			for i1 < lim1 && i2 < lim2 && s.eq(i1, i2) {
				i1++
				i2++
			}
			if i1-prev > s.snake {
				gotSnake = true
			}
			s.spend(1 + i1 - prev)
			s.setf(d, i1)
			if odd && bmin <= d && d <= bmax && s.kvb(d) <= i1 {
				return xsplit{i1, i2, true, true}
			}
		}
		if bmin > dmin {
			bmin--
			s.setb(bmin-1, xlineMax)
		} else {
			bmin++
		}
		if bmax < dmax {
			bmax++
			s.setb(bmax+1, xlineMax)
		} else {
			bmax--
		}
		for d := bmax; d >= bmin; d -= 2 {
			var i1 int
			if s.kvb(d-1) < s.kvb(d+1) {
				i1 = s.kvb(d - 1)
			} else {
				i1 = s.kvb(d+1) - 1
			}
			prev := i1
			i2 := i1 - d
			for i1 > off1 && i2 > off2 && s.eq(i1-1, i2-1) {
				i1--
				i2--
			}
			if prev-i1 > s.snake {
				gotSnake = true
			}
			s.spend(1 + prev - i1)
			s.setb(d, i1)
			if !odd && fmin <= d && d <= fmax && i1 <= s.kvf(d) {
				return xsplit{i1, i2, true, true}
			}
		}
		if needMin {
			continue
		}
		if gotSnake && ec > s.heurM {
			best := 0
			var sp xsplit
			for d := fmax; d >= fmin; d -= 2 {
				dd := d - fmid
				if dd < 0 {
					dd = -dd
				}
				i1 := s.kvf(d)
				i2 := i1 - d
				v := (i1 - off1) + (i2 - off2) - dd
				if v > 4*ec && v > best && off1+s.snake <= i1 && i1 < lim1 && off2+s.snake <= i2 && i2 < lim2 {
					for k := 1; s.eq(i1-k, i2-k); k++ {
						if k == s.snake {
							best = v
							sp = xsplit{i1, i2, true, false}
							break
						}
					}
				}
			}
			if best > 0 {
				return sp
			}
			for d := bmax; d >= bmin; d -= 2 {
				dd := d - bmid
				if dd < 0 {
					dd = -dd
				}
				i1 := s.kvb(d)
				i2 := i1 - d
				v := (lim1 - i1) + (lim2 - i2) - dd
				if v > 4*ec && v > best && off1 < i1 && i1 <= lim1-s.snake && off2 < i2 && i2 <= lim2-s.snake {
					for k := 0; s.eq(i1+k, i2+k); k++ {
						if k == s.snake-1 {
							best = v
							sp = xsplit{i1, i2, false, true}
							break
						}
					}
				}
			}
			if best > 0 {
				return sp
			}
		}
		if ec >= s.mxcost {
			fbest, fbest1 := -1, -1
			for d := fmax; d >= fmin; d -= 2 {
				i1 := min(s.kvf(d), lim1)
				i2 := i1 - d
				if lim2 < i2 {
					i1, i2 = lim2+d, lim2
				}
				if fbest < i1+i2 {
					fbest, fbest1 = i1+i2, i1
				}
			}
			bbest, bbest1 := xlineMax, xlineMax
			for d := bmax; d >= bmin; d -= 2 {
				i1 := max(off1, s.kvb(d))
				i2 := i1 - d
				if i2 < off2 {
					i1, i2 = off2+d, off2
				}
				if i1+i2 < bbest {
					bbest, bbest1 = i1+i2, i1
				}
			}
			if (lim1+lim2)-bbest < fbest-(off1+off2) {
				return xsplit{fbest1, fbest - fbest1, true, false}
			}
			return xsplit{bbest1, bbest - bbest1, false, true}
		}
	}
}

// compare marks the changed records of the box, dividing it at split
// points until one side is empty.
func (s *xsearch) compare(off1, lim1, off2, lim2 int, needMin bool) {
	for off1 < lim1 && off2 < lim2 && s.eq(off1, off2) {
		off1++
		off2++
	}
	for off1 < lim1 && off2 < lim2 && s.eq(lim1-1, lim2-1) {
		lim1--
		lim2--
	}
	switch {
	case off1 == lim1:
		for ; off2 < lim2; off2++ {
			s.b.mark(s.b.rindex[off2], true)
		}
	case off2 == lim2:
		for ; off1 < lim1; off1++ {
			s.a.mark(s.a.rindex[off1], true)
		}
	default:
		sp := s.split(off1, lim1, off2, lim2, needMin)
		s.compare(off1, sp.i1, off2, sp.i2, sp.minLo)
		s.compare(sp.i1, lim1, sp.i2, lim2, sp.minHi)
	}
}

// xdiffOptions are the few of git's diff options that change the result,
// and a bound on the work.
type xdiffOptions struct {
	indentHeuristic bool
	// budget, when not 0, bounds the search's work: past it, every line
	// between the common ends is changed (one replacement). Git has no
	// such bound; a patch for a person or a model needs one, since a
	// rewritten file of a few megabytes costs git's search seconds.
	budget int
}

// xdiff diffs two record lists and returns the hunks, in order.
func xdiff(a, b [][]byte, opt xdiffOptions) []Change {
	x1, x2 := xdiffFiles(a, b, opt)
	return xbuildScript(x1, x2)
}

// xdiffFiles runs the diff and leaves the changed marks in the files.
func xdiffFiles(a, b [][]byte, opt xdiffOptions) (*xfile, *xfile) {
	x1, x2 := xprepare(a, b)
	xsearchAll(x1, x2, opt.budget)
	xcompact(x1, x2, opt.indentHeuristic)
	xcompact(x2, x1, opt.indentHeuristic)
	return x1, x2
}

// xsearchAll marks the changed records among those xcleanup left for the
// search, with git's cost limits. With a budget (0: none) that the work
// passes, it marks them all changed instead and reports false.
func xsearchAll(x1, x2 *xfile, budget int) (ok bool) {
	n1, n2 := len(x1.rindex), len(x2.rindex)
	ndiags := n1 + n2 + 3
	s := &xsearch{a: x1, b: x2, kf: make([]int, ndiags+1), kb: make([]int, ndiags+1), base: n2 + 1,
		mxcost: max(bogosqrt(ndiags), 256), snake: 20, heurM: 256, budget: budget}
	defer func() {
		if r := recover(); r != nil {
			if _, over := r.(overBudget); !over {
				panic(r)
			}
			for _, f := range []*xfile{x1, x2} {
				for _, i := range f.rindex {
					f.mark(i, true)
				}
			}
			ok = false
		}
	}()
	s.compare(0, n1, 0, n2, false)
	return true
}

// xbuildScript collects the changed groups into hunks.
func xbuildScript(x1, x2 *xfile) []Change {
	var rev []Change
	for i1, i2 := x1.nrec, x2.nrec; i1 >= 0 && i2 >= 0; i1, i2 = i1-1, i2-1 {
		if x1.chg[i1] || x2.chg[i2] { // chg[i] is record i-1
			l1, l2 := i1, i2
			for x1.chg[i1] {
				i1--
			}
			for x2.chg[i2] {
				i2--
			}
			rev = append(rev, Change{I1: i1, I2: i2, Chg1: l1 - i1, Chg2: l2 - i2})
		}
	}
	out := make([]Change, len(rev))
	for i := range rev {
		out[i] = rev[len(rev)-1-i]
	}
	return out
}

// --- sliding groups ---

type xgroup struct{ start, end int }

func groupInit(f *xfile) xgroup {
	g := xgroup{}
	for f.changed(g.end) {
		g.end++
	}
	return g
}

func groupNext(f *xfile, g *xgroup) bool {
	if g.end == f.nrec {
		return false
	}
	g.start = g.end + 1
	for g.end = g.start; f.changed(g.end); g.end++ {
	}
	return true
}

func groupPrevious(f *xfile, g *xgroup) bool {
	if g.start == 0 {
		return false
	}
	g.end = g.start - 1
	for g.start = g.end; f.changed(g.start - 1); g.start-- {
	}
	return true
}

func groupSlideDown(f *xfile, g *xgroup) bool {
	if g.end == f.nrec && f.cutEnd {
		f.edge = true // the whole file goes on: the window cannot tell
	}
	if g.end < f.nrec && f.class(g.start) == f.class(g.end) {
		f.mark(g.start, false)
		g.start++
		f.mark(g.end, true)
		g.end++
		for f.changed(g.end) {
			g.end++
		}
		return true
	}
	return false
}

func groupSlideUp(f *xfile, g *xgroup) bool {
	if g.start == 0 && f.cutStart {
		f.edge = true
	}
	if g.start > 0 && f.class(g.start-1) == f.class(g.end-1) {
		g.start--
		f.mark(g.start, true)
		g.end--
		f.mark(g.end, false)
		for f.changed(g.start - 1) {
			g.start--
		}
		return true
	}
	return false
}

// xcompact slides each changed group of f as far up and down as equal
// lines allow, merging groups it meets, and settles it where it lines up
// with a change of the other file (or, with the indent heuristic, where
// the split reads best).
func xcompact(f, o *xfile, indent bool) {
	g, go_ := groupInit(f), groupInit(o)
	for {
		if g.end != g.start {
			var groupsize, earliestEnd, endMatching int
			for {
				groupsize = g.end - g.start
				endMatching = -1
				for groupSlideUp(f, &g) {
					groupPrevious(o, &go_)
				}
				earliestEnd = g.end
				if go_.end > go_.start {
					endMatching = g.end
				}
				for groupSlideDown(f, &g) {
					groupNext(o, &go_)
					if go_.end > go_.start {
						endMatching = g.end
					}
				}
				if groupsize == g.end-g.start {
					break
				}
			}
			switch {
			case g.end == earliestEnd:
			case endMatching != -1:
				for go_.end == go_.start {
					groupSlideUp(f, &g)
					groupPrevious(o, &go_)
				}
			case indent:
				shift := earliestEnd
				if g.end-groupsize-1 > shift {
					shift = g.end - groupsize - 1
				}
				if g.end-100 > shift {
					shift = g.end - 100
				}
				bestShift := -1
				var best splitScore
				for ; shift <= g.end; shift++ {
					var sc splitScore
					sc.add(measureSplit(f, shift))
					sc.add(measureSplit(f, shift-groupsize))
					if bestShift == -1 || sc.cmp(best) <= 0 {
						best, bestShift = sc, shift
					}
				}
				for g.end > bestShift {
					groupSlideUp(f, &g)
					groupPrevious(o, &go_)
				}
			}
		}
		if !groupNext(f, &g) {
			break
		}
		groupNext(o, &go_)
	}
}

// --- the indent heuristic (git diff's default since 2.14) ---

type splitMeasure struct {
	eof                   bool
	indent                int
	preBlank, preIndent   int
	postBlank, postIndent int
}

type splitScore struct{ effIndent, penalty int }

func getIndent(rec []byte) int {
	ret := 0
	for _, c := range rec {
		switch c {
		case ' ':
			ret++
		case '\t':
			ret += 8 - ret%8
		case '\n', '\r', '\f', '\v':
		default:
			return ret
		}
		if ret >= 200 {
			return 200
		}
	}
	return -1
}

func measureSplit(f *xfile, split int) splitMeasure {
	var m splitMeasure
	if split >= f.nrec {
		m.eof, m.indent = true, -1
	} else {
		m.indent = getIndent(f.recs[split])
	}
	m.preIndent = -1
	for i := split - 1; i >= 0; i-- {
		m.preIndent = getIndent(f.recs[i])
		if m.preIndent != -1 {
			break
		}
		m.preBlank++
		if m.preBlank == 20 {
			m.preIndent = 0
			break
		}
	}
	m.postIndent = -1
	for i := split + 1; i < f.nrec; i++ {
		m.postIndent = getIndent(f.recs[i])
		if m.postIndent != -1 {
			break
		}
		m.postBlank++
		if m.postBlank == 20 {
			m.postIndent = 0
			break
		}
	}
	// A scan that ran off a window's cut (indent still -1) measured less
	// than the whole file holds.
	if m.preIndent == -1 && f.cutStart || (m.postIndent == -1 || m.eof) && f.cutEnd {
		f.edge = true
	}
	return m
}

func (s *splitScore) add(m splitMeasure) {
	if m.preIndent == -1 && m.preBlank == 0 {
		s.penalty += 1
	}
	if m.eof {
		s.penalty += 21
	}
	postBlank := 0
	if m.indent == -1 {
		postBlank = 1 + m.postBlank
	}
	totalBlank := m.preBlank + postBlank
	s.penalty += -30 * totalBlank
	s.penalty += 6 * postBlank
	indent := m.indent
	if indent == -1 {
		indent = m.postIndent
	}
	anyBlanks := totalBlank != 0
	s.effIndent += indent
	switch {
	case indent == -1, m.preIndent == -1:
	case indent > m.preIndent:
		if anyBlanks {
			s.penalty += 10
		} else {
			s.penalty += -4
		}
	case indent == m.preIndent:
	default:
		if m.postIndent != -1 && m.postIndent > indent {
			if anyBlanks {
				s.penalty += 17
			} else {
				s.penalty += 24
			}
		} else if anyBlanks {
			s.penalty += 17
		} else {
			s.penalty += 23
		}
	}
}

func (s splitScore) cmp(o splitScore) int {
	c := 0
	if s.effIndent > o.effIndent {
		c = 1
	} else if s.effIndent < o.effIndent {
		c = -1
	}
	return 60*c + (s.penalty - o.penalty)
}

// xcountChanges is git's --numstat count for two versions of a file: the
// records removed and added by the diff xdiff would make, without making
// it. The common leading and trailing lines are found on the bytes and
// never split; they still count as matches where git's cleanup looks.
// budget is xdiffOptions.budget.
func xcountChanges(a, b []byte, budget int) (removed, added int) {
	if bytes.Equal(a, b) {
		return 0, 0
	}
	p, sfx := commonLineEnds(a, b)
	prefix, suffix := a[:p], a[len(a)-sfx:]
	mid1, mid2 := splitRecords(a[p:len(a)-sfx]), splitRecords(b[p:len(b)-sfx])
	shared := bytes.Count(prefix, []byte{'\n'}) + countRecords(suffix)
	n1, n2 := shared+len(mid1), shared+len(mid2)
	if len(mid1) == 0 || len(mid2) == 0 {
		return len(mid1), len(mid2)
	}
	cl := newClassifier(len(mid1) + len(mid2))
	x1, x2 := newXfile(mid1, cl, 0, len(mid1)-1), newXfile(mid2, cl, 0, len(mid2)-1)
	nclass := len(cl.reps)
	xcleanupWith(x1, x2, nclass, n1, n2, func(cnt1, cnt2 []int) {
		countShared(cl, nclass, [][]byte{prefix, suffix}, cnt1, cnt2)
	})
	xsearchAll(x1, x2, budget)
	for i := range mid1 {
		if x1.changed(i) {
			removed++
		}
	}
	for i := range mid2 {
		if x2.changed(i) {
			added++
		}
	}
	return removed, added
}

// countRecords is the number of records in data (a last line without a
// newline is one).
func countRecords(data []byte) int {
	n := bytes.Count(data, []byte{'\n'})
	if len(data) > 0 && data[len(data)-1] != '\n' {
		n++
	}
	return n
}

// sames lists the unchanged stretches of a script between files of n1 and
// n2 records.
func sames(script []Change, n2 int) []Run {
	var out []Run
	ci, pi := 0, 0
	for _, ch := range script {
		if ch.I2 > ci {
			out = append(out, Run{ci, pi, ch.I2 - ci})
		}
		ci, pi = ch.I2+ch.Chg2, ch.I1+ch.Chg1
	}
	if n2 > ci {
		out = append(out, Run{ci, pi, n2 - ci})
	}
	return out
}

// xsames is sames(xdiff(theirs, mine)) for two versions of a file, for
// blame, from xwindowed's diff when it can tell.
func xsames(theirs, mine []byte) ([]Run, int) {
	nMine := countRecords(mine)
	if bytes.Equal(theirs, mine) {
		if nMine == 0 {
			return nil, 0
		}
		return []Run{{0, 0, nMine}}, nMine
	}
	p, sfx := commonLineEnds(theirs, mine)
	w, script, ok := xwindowed(theirs, mine, p, sfx, slideMargin, 0, xdiffOptions{})
	if !ok {
		return sames(xdiff(splitRecords(theirs), splitRecords(mine), xdiffOptions{}), nMine), nMine
	}
	var out []Run
	if w.base > 0 {
		out = append(out, Run{0, 0, w.base})
	}
	for _, r := range sames(script, len(w.b)) {
		r.New += w.base
		r.Old += w.base
		if k := len(out) - 1; k >= 0 && out[k].New+out[k].N == r.New && out[k].Old+out[k].N == r.Old {
			out[k].N += r.N
			continue
		}
		out = append(out, r)
	}
	if rest := nMine - w.base - len(w.b); rest > 0 {
		c, p := w.base+len(w.b), w.base+len(w.a)
		if k := len(out) - 1; k >= 0 && out[k].New+out[k].N == c && out[k].Old+out[k].N == p {
			out[k].N += rest
		} else {
			out = append(out, Run{c, p, rest})
		}
	}
	return out, nMine
}

// slideMargin is how many shared lines a windowed diff keeps on each side
// of the lines that differ, for changed groups to slide into.
const slideMargin = 32

// xwindow is the part of two texts a windowed diff split into records:
// a's and b's, each starting at line base (the lines before are the same
// in both).
type xwindow struct {
	a, b [][]byte
	base int
}

// xwindowed diffs two different texts as xdiff diffs them whole, without
// splitting the lines they share at their start and end: only those
// between, and margin lines on each side for the sliding of changed
// groups, are split (a one-line change to a big file costs little more
// than comparing its bytes). The lines outside still count where git's
// cleanup counts matches. It reports false when a changed group slid to
// the edge of the margin, the indent heuristic looked past it, or a change
// ends nearer than ctx lines to it: only the whole texts then give git's
// answer and its context.
// p and sfx are commonLineEnds(a, b).
func xwindowed(a, b []byte, p, sfx, margin, ctx int, opt xdiffOptions) (w xwindow, script []Change, ok bool) {
	// The window starts margin lines before the first difference.
	ws := p
	pre := 0
	for pre < margin && ws > 0 {
		ws = bytes.LastIndexByte(a[:ws-1], '\n') + 1
		pre++
	}
	// And ends margin lines after the last one (suffix bytes are shared).
	suffix := a[len(a)-sfx:]
	we := 0 // bytes of the suffix inside the window
	post := 0
	for post < margin && we < len(suffix) {
		i := bytes.IndexByte(suffix[we:], '\n')
		if i < 0 {
			we = len(suffix)
		} else {
			we += i + 1
		}
		post++
	}
	wa := splitRecords(a[ws : len(a)-sfx+we])
	wb := splitRecords(b[ws : len(b)-sfx+we])
	outside := [][]byte{a[:ws], suffix[we:]}
	cl := newClassifier(len(wa) + len(wb))
	x1, x2 := newXfile(wa, cl, pre, len(wa)-post-1), newXfile(wb, cl, pre, len(wb)-post-1)
	cutStart, cutEnd := ws > 0, len(suffix)-we > 0
	for _, f := range []*xfile{x1, x2} {
		f.cutStart, f.cutEnd = cutStart, cutEnd
	}
	nclass := len(cl.reps)
	xcleanupWith(x1, x2, nclass, countRecords(a), countRecords(b), func(cnt1, cnt2 []int) {
		countShared(cl, nclass, outside, cnt1, cnt2)
	})
	xsearchAll(x1, x2, opt.budget)
	xcompact(x1, x2, opt.indentHeuristic)
	xcompact(x2, x1, opt.indentHeuristic)
	if x1.edge || x2.edge {
		return xwindow{}, nil, false
	}
	script = xbuildScript(x1, x2)
	if n := len(script); n > 0 {
		first, last := script[0], script[n-1]
		if cutStart && first.I1 < ctx || cutEnd && len(wa)-(last.I1+last.Chg1) < ctx {
			return xwindow{}, nil, false
		}
	}
	return xwindow{a: wa, b: wb, base: bytes.Count(a[:ws], []byte{'\n'})}, script, true
}

// commonLineEnds is the byte lengths of the longest common prefix and
// suffix of two different a and b that are whole lines and do not
// overlap. A last line without a newline only matches its exact twin, so
// the suffix starts after a newline (or at the prefix end) on both sides.
func commonLineEnds(a, b []byte) (p, sfx int) {
	p = commonPrefixLen(a, b)
	p = bytes.LastIndexByte(a[:p], '\n') + 1
	sfx = commonSuffixLen(a, b, min(len(a)-p, len(b)-p))
	for sfx > 0 {
		ia, ib := len(a)-sfx, len(b)-sfx
		if (ia == p || a[ia-1] == '\n') && (ib == p || b[ib-1] == '\n') {
			break
		}
		sfx--
	}
	return p, sfx
}

// commonPrefixLen is the length of the longest common prefix of a and b,
// compared a block at a time.
func commonPrefixLen(a, b []byte) int {
	n := min(len(a), len(b))
	p := 0
	for p+256 <= n && bytes.Equal(a[p:p+256], b[p:p+256]) {
		p += 256
	}
	for p < n && a[p] == b[p] {
		p++
	}
	return p
}

// commonSuffixLen is the length of the longest common suffix of a and b,
// at most limit.
func commonSuffixLen(a, b []byte, limit int) int {
	s := 0
	for s+256 <= limit && bytes.Equal(a[len(a)-s-256:len(a)-s], b[len(b)-s-256:len(b)-s]) {
		s += 256
	}
	for s < limit && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	return s
}

// countShared adds to both files' counts the records of parts (lines the
// two files share, outside what was split) that equal a classified
// record. With few classes each is searched for in the bytes; with many,
// each line is looked up.
func countShared(cl *classifier, nclass int, parts [][]byte, cnt1, cnt2 []int) {
	if nclass <= 16 {
		// Few classes: a line can only be one of them if its length is
		// one of theirs, and then a byte comparison or two says which.
		byLen := map[int][]int{}
		for c := 0; c < nclass; c++ {
			byLen[len(cl.reps[c])] = append(byLen[len(cl.reps[c])], c)
		}
		for _, part := range parts {
			for len(part) > 0 {
				i := bytes.IndexByte(part, '\n')
				n := len(part)
				if i >= 0 {
					n = i + 1
				}
				for _, c := range byLen[n] {
					if bytes.Equal(cl.reps[c], part[:n]) {
						cnt1[c]++
						cnt2[c]++
						break
					}
				}
				part = part[n:]
			}
		}
		return
	}
	for _, part := range parts {
		for len(part) > 0 {
			i := bytes.IndexByte(part, '\n')
			line := part
			if i >= 0 {
				line = part[:i+1]
			}
			if c := cl.lookup(line); c >= 0 && int(c) < nclass {
				cnt1[c]++
				cnt2[c]++
			}
			part = part[len(line):]
		}
	}
}
