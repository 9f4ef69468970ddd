package gitops

// A three-way merge of one file's lines, with the result git's own merge
// gives (git merge-file, and the content merge of git merge, git pull and
// git stash apply): changes that do not overlap are both taken; changes
// that overlap and differ become a conflict between git's markers
//
//	<<<<<<< ours
//	(our lines)
//	=======
//	(their lines)
//	>>>>>>> theirs
//
// Conflicts are made as small as git makes them: lines both sides changed
// the same way are left out of the markers, and conflicts separated by
// three or fewer lines (or by lines with no letter or digit) are joined.

// MergeStyle is merge.conflictStyle: merge (the default), diff3 (the base
// between ||||||| and =======) or zdiff3.
type MergeStyle int

const (
	StyleMerge MergeStyle = iota
	StyleDiff3
	StyleZDiff3
)

// Merge3Input is what Merge3 merges.
type Merge3Input struct {
	Base, Ours, Theirs []byte
	// Labels written after the markers: <<<<<<< Ours, ||||||| Base,
	// >>>>>>> Theirs. Empty labels write bare markers.
	OursLabel, BaseLabel, TheirsLabel string
	Style                             MergeStyle
	MarkerSize                        int // 7 when 0
	// Histogram merges as git merge, git pull and git stash apply do
	// (their content merge diffs with the histogram algorithm and shrinks
	// conflicts less eagerly); false is git merge-file's Myers merge.
	Histogram bool
}

// merge levels (how hard conflicts are shrunk).
const (
	levelMinimal = iota
	levelEager
	levelZealous
	levelZealousAlnum
)

type xmerge struct {
	mode                         int // 0 conflict, 1 take ours, 2 take theirs, 4 identical (refined away)
	i0, chg0, i1, chg1, i2, chg2 int
}

// Merge3 merges ours and theirs, both changed from base. conflicts is the
// number of conflicted regions written with markers (0: a clean merge).
func Merge3(in Merge3Input) (out []byte, conflicts int) {
	p := planMerge3(in)
	if p.whole != nil {
		return p.whole, 0
	}
	for _, m := range p.ms {
		if m.mode == 0 {
			conflicts++
		}
	}
	return fillMerge(in, p.base, p.ours, p.theirs, p.ms), conflicts
}

// merge3Plan is a merge before its output is written: the three sides'
// lines and the regions taken from each side or in conflict; or, when
// one side did not change, whole: the other side, which is the result.
type merge3Plan struct {
	base, ours, theirs [][]byte
	ms                 []*xmerge
	whole              []byte
}

func planMerge3(in Merge3Input) merge3Plan {
	base, ours, theirs := splitRecords(in.Base), splitRecords(in.Ours), splitRecords(in.Theirs)
	diffFiles := xdiffFiles
	if in.Histogram {
		diffFiles = xdiffFilesHistogram
	}
	a1, b1 := diffFiles(base, ours, xdiffOptions{})
	s1 := xbuildScript(a1, b1)
	a2, b2 := diffFiles(base, theirs, xdiffOptions{})
	s2 := xbuildScript(a2, b2)
	switch {
	case len(s1) == 0:
		return merge3Plan{whole: append([]byte{}, in.Theirs...)}
	case len(s2) == 0:
		return merge3Plan{whole: append([]byte{}, in.Ours...)}
	}
	level := levelZealousAlnum
	if in.Histogram {
		level = levelZealous // git's ll_merge
	}
	if in.Style != StyleMerge && level > levelEager {
		level = levelEager
	}
	var ms []*xmerge
	add := func(mode, i0, chg0, i1, chg1, i2, chg2 int) {
		if n := len(ms); n > 0 {
			m := ms[n-1]
			if i1 <= m.i1+m.chg1 || i2 <= m.i2+m.chg2 {
				if mode != m.mode {
					m.mode = 0
				}
				m.chg0 = i0 + chg0 - m.i0
				m.chg1 = i1 + chg1 - m.i1
				m.chg2 = i2 + chg2 - m.i2
				return
			}
		}
		ms = append(ms, &xmerge{mode: mode, i0: i0, chg0: chg0, i1: i1, chg1: chg1, i2: i2, chg2: chg2})
	}
	sameLines := func(p1 int, p2 int, n int) bool {
		for k := 0; k < n; k++ {
			if string(ours[p1+k]) != string(theirs[p2+k]) {
				return false
			}
		}
		return true
	}
	x, y := 0, 0
	for x < len(s1) && y < len(s2) {
		c1, c2 := s1[x], s2[y]
		if c1.i1+c1.chg1 < c2.i1 {
			add(1, c1.i1, c1.chg1, c1.i2, c1.chg2, c2.i2-c2.i1+c1.i1, c1.chg1)
			x++
			continue
		}
		if c2.i1+c2.chg1 < c1.i1 {
			add(2, c2.i1, c2.chg1, c1.i2-c1.i1+c2.i1, c2.chg1, c2.i2, c2.chg2)
			y++
			continue
		}
		if level == levelMinimal || c1.i1 != c2.i1 || c1.chg1 != c2.chg1 || c1.chg2 != c2.chg2 || !sameLines(c1.i2, c2.i2, c1.chg2) {
			off := c1.i1 - c2.i1
			ffo := off + c1.chg1 - c2.chg1
			i0, i1, i2 := c1.i1, c1.i2, c2.i2
			if off > 0 {
				i0 -= off
				i1 -= off
			} else {
				i2 += off
			}
			chg0 := c1.i1 + c1.chg1 - i0
			chg1 := c1.i2 + c1.chg2 - i1
			chg2 := c2.i2 + c2.chg2 - i2
			if ffo < 0 {
				chg0 -= ffo
				chg1 -= ffo
			} else {
				chg2 += ffo
			}
			add(0, i0, chg0, i1, chg1, i2, chg2)
		}
		e1, e2 := c1.i1+c1.chg1, c2.i1+c2.chg1
		if e1 >= e2 {
			y++
		}
		if e2 >= e1 {
			x++
		}
	}
	for ; x < len(s1); x++ {
		c1 := s1[x]
		add(1, c1.i1, c1.chg1, c1.i2, c1.chg2, c1.i1+len(theirs)-len(base), c1.chg1)
	}
	for ; y < len(s2); y++ {
		c2 := s2[y]
		add(2, c2.i1, c2.chg1, c2.i1+len(ours)-len(base), c2.chg1, c2.i2, c2.chg2)
	}
	switch {
	case in.Style == StyleZDiff3:
		for _, m := range ms {
			if m.mode != 0 {
				continue
			}
			for m.chg1 > 0 && m.chg2 > 0 && string(ours[m.i1]) == string(theirs[m.i2]) {
				m.chg1--
				m.chg2--
				m.i1++
				m.i2++
			}
			for m.chg1 > 0 && m.chg2 > 0 && string(ours[m.i1+m.chg1-1]) == string(theirs[m.i2+m.chg2-1]) {
				m.chg1--
				m.chg2--
			}
		}
	case level >= levelZealous:
		ms = refineConflicts(ms, ours, theirs, diffFiles)
		ms = simplifyNonConflicts(ms, ours, level > levelZealous)
	}
	return merge3Plan{base: base, ours: ours, theirs: theirs, ms: ms}
}

// refineConflicts diffs the two sides of each conflict and keeps only
// the lines where they differ.
func refineConflicts(ms []*xmerge, ours, theirs [][]byte, diffFiles func(a, b [][]byte, opt xdiffOptions) (*xfile, *xfile)) []*xmerge {
	var out []*xmerge
	for _, m := range ms {
		if m.mode != 0 || m.chg1 == 0 || m.chg2 == 0 {
			out = append(out, m)
			continue
		}
		sc := xbuildScript(diffFiles(ours[m.i1:m.i1+m.chg1], theirs[m.i2:m.i2+m.chg2], xdiffOptions{}))
		if len(sc) == 0 {
			m.mode = 4
			out = append(out, m)
			continue
		}
		for _, c := range sc {
			// i0/chg0 keep the whole conflict's base, as git's do.
			out = append(out, &xmerge{mode: 0, i0: m.i0, chg0: m.chg0, i1: m.i1 + c.i1, chg1: c.chg1, i2: m.i2 + c.i2, chg2: c.chg2})
		}
	}
	return out
}

// simplifyNonConflicts joins conflicts separated by at most three lines
// (or, with alnum, by lines holding no letter or digit).
func simplifyNonConflicts(ms []*xmerge, ours [][]byte, alnum bool) []*xmerge {
	if len(ms) == 0 {
		return ms
	}
	out := []*xmerge{ms[0]}
	for _, next := range ms[1:] {
		m := out[len(out)-1]
		begin, end := m.i1+m.chg1, next.i1
		if m.mode != 0 || next.mode != 0 || (end-begin > 3 && (!alnum || linesHaveAlnum(ours[begin:end]))) {
			out = append(out, next)
			continue
		}
		m.chg1 = next.i1 + next.chg1 - m.i1
		m.chg2 = next.i2 + next.chg2 - m.i2
	}
	return out
}

func linesHaveAlnum(recs [][]byte) bool {
	for _, r := range recs {
		for _, c := range r {
			if c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
				return true
			}
		}
	}
	return false
}

// eolCRLF tells whether record i ends in CRLF: 1 yes, 0 no, -1 unknown
// (a last line without an end, then judged by the line before it).
func eolCRLF(recs [][]byte, i int) int {
	crlf := func(r []byte) int {
		if len(r) > 1 && r[len(r)-2] == '\r' {
			return 1
		}
		return 0
	}
	switch {
	case i < len(recs)-1:
		return crlf(recs[i])
	case len(recs) == 0:
		return -1
	case len(recs[i]) > 0 && recs[i][len(recs[i])-1] == '\n':
		return crlf(recs[i])
	case i == 0:
		return -1
	}
	return crlf(recs[i-1])
}

// crNeeded: markers end in CRLF when the sides around the conflict do.
func crNeeded(base, ours, theirs [][]byte, m *xmerge) bool {
	at := func(i int) int {
		if i > 0 {
			return i - 1
		}
		return 0
	}
	n := eolCRLF(ours, at(m.i1))
	if n != 0 {
		n = eolCRLF(theirs, at(m.i2))
	}
	if n != 0 {
		n = eolCRLF(base, 0)
	}
	return n > 0
}

func fillMerge(in Merge3Input, base, ours, theirs [][]byte, ms []*xmerge) []byte {
	size := in.MarkerSize
	if size <= 0 {
		size = 7
	}
	var out []byte
	copyRecs := func(recs [][]byte, i, n int, cr, addNL bool) {
		if n < 1 {
			return
		}
		for _, r := range recs[i : i+n] {
			out = append(out, r...)
		}
		if last := recs[i+n-1]; addNL && (len(last) == 0 || last[len(last)-1] != '\n') {
			if cr {
				out = append(out, '\r')
			}
			out = append(out, '\n')
		}
	}
	marker := func(c byte, label string, cr bool) {
		for range size {
			out = append(out, c)
		}
		if label != "" {
			out = append(out, ' ')
			out = append(out, label...)
		}
		if cr {
			out = append(out, '\r')
		}
		out = append(out, '\n')
	}
	i := 0
	for _, m := range ms {
		switch {
		case m.mode == 0:
			cr := crNeeded(base, ours, theirs, m)
			copyRecs(ours, i, m.i1-i, false, false)
			marker('<', in.OursLabel, cr)
			copyRecs(ours, m.i1, m.chg1, cr, true)
			if in.Style != StyleMerge {
				marker('|', in.BaseLabel, cr)
				copyRecs(base, m.i0, m.chg0, cr, true)
			}
			marker('=', "", cr)
			copyRecs(theirs, m.i2, m.chg2, cr, true)
			marker('>', in.TheirsLabel, cr)
		case m.mode&3 != 0:
			copyRecs(ours, i, m.i1-i, false, false)
			if m.mode&1 != 0 {
				copyRecs(ours, m.i1, m.chg1, crNeeded(base, ours, theirs, m), m.mode&2 != 0)
			}
			if m.mode&2 != 0 {
				copyRecs(theirs, m.i2, m.chg2, false, false)
			}
		default:
			continue
		}
		i = m.i1 + m.chg1
	}
	copyRecs(ours, i, len(ours)-i, false, false)
	return out
}
