package diff

// The histogram diff of git's xdiff (the algorithm git merge, git pull and
// git stash apply use for content merges): find the longest run of
// common lines whose rarest line occurs least often, split there, and
// recurse on both sides; a region whose common lines are all too frequent
// (more than 64 occurrences) falls back to the Myers diff.

const histMaxChain = 64

type histRec struct {
	ptr, cnt int // first occurrence in the region, occurrences
}

type histIndex struct {
	a, b     *xfile
	recs     map[int32]*histRec // by class
	lineMap  []*histRec         // by line of a, offset by ptrShift
	nextPtrs []int              // next occurrence of the same line, 0 for none
	ptrShift int
	cnt      int
	common   bool
}

// class of 1-based line l of a or b.
func (ix *histIndex) ca(l int) int32 { return ix.a.class(l - 1) }
func (ix *histIndex) cb(l int) int32 { return ix.b.class(l - 1) }

type histRegion struct{ begin1, end1, begin2, end2 int }

func (ix *histIndex) scanA(line1, count1 int) {
	for ptr := line1 + count1 - 1; line1 <= ptr; ptr-- {
		c := ix.ca(ptr)
		if rec := ix.recs[c]; rec != nil {
			ix.nextPtrs[ptr-ix.ptrShift] = rec.ptr
			rec.ptr = ptr
			rec.cnt++
			ix.lineMap[ptr-ix.ptrShift] = rec
			continue
		}
		rec := &histRec{ptr: ptr, cnt: 1}
		ix.recs[c] = rec
		ix.lineMap[ptr-ix.ptrShift] = rec
	}
}

func (ix *histIndex) tryLCS(lcs *histRegion, bPtr, line1, count1, line2, count2 int) int {
	bNext := bPtr + 1
	rec := ix.recs[ix.cb(bPtr)]
	if rec == nil {
		return bNext
	}
	if rec.cnt > ix.cnt {
		ix.common = true
		return bNext
	}
	end1, end2 := line1+count1-1, line2+count2-1
	as := rec.ptr
	ix.common = true
	for {
		np := ix.nextPtrs[as-ix.ptrShift]
		bs := bPtr
		ae, be := as, bs
		rc := rec.cnt
		for line1 < as && line2 < bs && ix.ca(as-1) == ix.cb(bs-1) {
			as--
			bs--
			if 1 < rc {
				rc = min(rc, ix.lineMap[as-ix.ptrShift].cnt)
			}
		}
		for ae < end1 && be < end2 && ix.ca(ae+1) == ix.cb(be+1) {
			ae++
			be++
			if 1 < rc {
				rc = min(rc, ix.lineMap[ae-ix.ptrShift].cnt)
			}
		}
		if bNext <= be {
			bNext = be + 1
		}
		if lcs.end1-lcs.begin1 < ae-as || rc < ix.cnt {
			*lcs = histRegion{begin1: as, begin2: bs, end1: ae, end2: be}
			ix.cnt = rc
		}
		if np == 0 {
			break
		}
		for np <= ae {
			np = ix.nextPtrs[np-ix.ptrShift]
			if np == 0 {
				return bNext
			}
		}
		as = np
	}
	return bNext
}

// findLCS returns 1 when the region should fall back to Myers, 0 when lcs
// holds the split (all zero: nothing in common).
func findLCS(a, b *xfile, lcs *histRegion, line1, count1, line2, count2 int) int {
	ix := &histIndex{a: a, b: b, recs: make(map[int32]*histRec, count1), lineMap: make([]*histRec, count1),
		nextPtrs: make([]int, count1), ptrShift: line1}
	ix.scanA(line1, count1)
	ix.cnt = histMaxChain + 1
	for bPtr := line2; bPtr <= line2+count2-1; {
		bPtr = ix.tryLCS(lcs, bPtr, line1, count1, line2, count2)
	}
	if ix.common && histMaxChain < ix.cnt {
		return 1
	}
	return 0
}

func histogramDiff(a, b *xfile, line1, count1, line2, count2 int) {
	for {
		if count1 <= 0 && count2 <= 0 {
			return
		}
		if count1 == 0 {
			for ; count2 > 0; count2-- {
				b.mark(line2-1, true)
				line2++
			}
			return
		}
		if count2 == 0 {
			for ; count1 > 0; count1-- {
				a.mark(line1-1, true)
				line1++
			}
			return
		}
		var lcs histRegion
		if findLCS(a, b, &lcs, line1, count1, line2, count2) == 1 {
			fallBackDiff(a, b, line1, count1, line2, count2)
			return
		}
		if lcs.begin1 == 0 && lcs.begin2 == 0 {
			for ; count1 > 0; count1-- {
				a.mark(line1-1, true)
				line1++
			}
			for ; count2 > 0; count2-- {
				b.mark(line2-1, true)
				line2++
			}
			return
		}
		histogramDiff(a, b, line1, lcs.begin1-line1, line2, lcs.begin2-line2)
		end1, end2 := line1+count1-1, line2+count2-1
		count1, line1 = end1-lcs.end1, lcs.end1+1
		count2, line2 = end2-lcs.end2, lcs.end2+1
	}
}

// fallBackDiff diffs a region with Myers (all of xdiff's preparation, on
// the region alone) and copies its marks, as git's xdl_fall_back_diff.
func fallBackDiff(a, b *xfile, line1, count1, line2, count2 int) {
	sa, sb := xprepare(a.recs[line1-1:line1-1+count1], b.recs[line2-1:line2-1+count2])
	n1, n2 := len(sa.rindex), len(sb.rindex)
	ndiags := n1 + n2 + 3
	s := &xsearch{a: sa, b: sb, kf: make([]int, ndiags+1), kb: make([]int, ndiags+1), base: n2 + 1,
		mxcost: max(bogosqrt(ndiags), 256), snake: 20, heurM: 256}
	s.compare(0, n1, 0, n2, false)
	for i := 0; i < count1; i++ {
		a.mark(line1-1+i, sa.changed(i))
	}
	for i := 0; i < count2; i++ {
		b.mark(line2-1+i, sb.changed(i))
	}
}

// xdiffFilesHistogram is xdiffFiles with the histogram algorithm: no
// trimming or cleanup first (git skips both for it), every line
// classified, the marks slid as for Myers.
func xdiffFilesHistogram(a, b [][]byte, opt xdiffOptions) (*xfile, *xfile) {
	cl := newClassifier(len(a) + len(b))
	mk := func(recs [][]byte) *xfile {
		f := &xfile{recs: recs, nrec: len(recs), ha: make([]int32, len(recs)), cl: cl, chg: make([]bool, len(recs)+2)}
		for k := range recs {
			f.ha[k] = cl.intern(recs[k])
		}
		f.dend = len(recs) - 1
		return f
	}
	x1, x2 := mk(a), mk(b)
	histogramDiff(x1, x2, 1, len(a), 1, len(b))
	xcompact(x1, x2, opt.indentHeuristic)
	xcompact(x2, x1, opt.indentHeuristic)
	return x1, x2
}
