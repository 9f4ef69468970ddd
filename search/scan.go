package search

import (
	"bytes"
	"unicode/utf8"
)

// Hit is one matching line.
type Hit struct {
	Line   int      // 1-based
	Column int      // 1-based byte column of the first match
	Text   string   // the line without its line ending, cut to MaxTextBytes on a UTF-8 boundary
	Ranges [][2]int // every match in the line: byte offsets [start, end) into Text, clipped to it
}

// MaxTextBytes is how much of a line a hit carries.
const MaxTextBytes = 500

// Scan returns the first max matching lines of data, in line order.
func (m *Matcher) Scan(data []byte, max int) []Hit {
	var sc scanner
	sc.m = m
	return sc.scan(data, max, nil)
}

// scanner is one worker's scratch space for a Matcher.
type scanner struct {
	m      *Matcher
	cur    []litCursor
	ranges [][2]int // a line's matches, before makeHit copies them to the arena
	arena  hitArena
}

// scan appends to out the matching lines of data, stopping at max hits.
//
// The whole buffer is searched at once (memchr, or the regexp over the rest
// of the file); only around a candidate is the line cut out, its number
// counted (bytes.Count, vectorized) and its matches listed. Lines without a
// candidate are never looked at one by one.
func (sc *scanner) scan(data []byte, max int, out []Hit) []Hit {
	m := sc.m
	if max <= 0 {
		return out
	}
	lineNo, counted := 1, 0
	sc.lines(data, func(ls, le, from int, lit bool) bool {
		line := data[ls:le]
		if lit {
			// The scan found no occurrence between the line's start and from.
			sc.ranges = litRanges(sc.ranges[:0], m.lit, m.word, line, from)
		} else {
			sc.ranges = reRanges(sc.ranges[:0], m, line)
		}
		if len(sc.ranges) > 0 {
			lineNo += bytes.Count(data[counted:ls], []byte{'\n'})
			counted = ls
			out = append(out, makeHit(lineNo, line, sc.ranges, &sc.arena))
		}
		return len(out) < max
	})
	return out
}

// lines calls fn for each line of data that may hold a match, in order,
// until fn returns false: the line is data[ls:le] (without its "\n"). lit
// says the literal path found it, with no occurrence in the line before
// from (line-relative); otherwise the regexp or its prefilter did, and
// the line must be matched whole.
//
// The whole buffer is searched at once (memchr, or the regexp over the rest
// of the file); only around a candidate is the line cut out. Lines without a
// candidate are never looked at one by one.
func (sc *scanner) lines(data []byte, fn func(ls, le, from int, lit bool) bool) {
	m := sc.m
	if len(data) == 0 {
		return
	}
	useLit, usePre := m.lit != nil, len(m.pre) > 0
	if len(m.special) > 0 && containsAny(data, m.special) {
		// A KELVIN SIGN or LONG S folds to k or s: only the regexp knows.
		useLit, usePre = false, false
	}
	var lc litCursor
	if useLit {
		lc = m.lit.cursor()
	}
	if usePre {
		sc.cur = sc.cur[:0]
		for _, f := range m.pre {
			sc.cur = append(sc.cur, f.cursor())
		}
	}
	pos := 0
	for pos < len(data) {
		var i int
		switch {
		case useLit:
			i = lc.index(data, pos)
		case usePre:
			i = -1
			for k := range sc.cur {
				if j := sc.cur[k].index(data, pos); j >= 0 && (i < 0 || j < i) {
					i = j
				}
			}
		default:
			loc := m.re.FindIndex(data[pos:])
			if loc == nil {
				i = -1
			} else {
				i = pos + loc[0]
			}
		}
		if i < 0 {
			return
		}
		if i == len(data) && data[len(data)-1] == '\n' {
			return // the empty "line" after a final line break is not a line
		}
		ls := pos + bytes.LastIndexByte(data[pos:i], '\n') + 1
		le := len(data)
		if j := bytes.IndexByte(data[i:], '\n'); j >= 0 {
			le = i + j
		}
		if !fn(ls, le, i-ls, useLit) {
			return
		}
		pos = le + 1
	}
}

func containsAny(data []byte, needles [][]byte) bool {
	for _, n := range needles {
		if bytes.Contains(data, n) {
			return true
		}
	}
	return false
}

// litRanges appends to out the non-overlapping occurrences of the literal in line
// at or after from (none starts before it), with whole_word those with a
// \b at both ends, leftmost first, exactly as the regexp \b(?:literal)\b
// would. A line is short: an exact needle is found by bytes.Index, which
// beats the rare-byte cursor built for whole files.
func litRanges(out [][2]int, f *litFinder, word bool, line []byte, from int) [][2]int {
	n := len(f.needle)
	c := f.cursor()
	for from+n <= len(line) {
		i := -1
		if f.fold {
			i = c.index(line, from)
		} else if k := bytes.Index(line[from:], f.needle); k >= 0 {
			i = from + k
		}
		if i < 0 {
			break
		}
		if word && !(boundary(line, i) && boundary(line, i+n)) {
			from = i + 1
			continue
		}
		out = append(out, [2]int{i, i + n})
		from = i + n
	}
	return out
}

func reRanges(out [][2]int, m *Matcher, line []byte) [][2]int {
	for _, l := range m.re.FindAllIndex(line, -1) {
		out = append(out, [2]int{l[0], l[1]})
	}
	return out
}

// makeHit builds a hit from a whole line (without "\n") and its matches,
// its text and ranges copied into a when a is not nil.
func makeHit(lineNo int, line []byte, ranges [][2]int, a *hitArena) Hit {
	col := ranges[0][0] + 1
	text := line
	if n := len(text); n > 0 && text[n-1] == '\r' {
		text = text[:n-1]
	}
	if len(text) > MaxTextBytes {
		text = cutUTF8(text, MaxTextBytes)
	}
	n := len(text)
	kept := ranges[:0]
	for _, r := range ranges {
		if r[0] > n || (r[0] == n && r[1] > r[0]) {
			continue // starts beyond the cut (or is the line ending)
		}
		r[1] = min(r[1], n)
		kept = append(kept, r)
	}
	if kept == nil {
		kept = [][2]int{}
	}
	if !utf8.Valid(text) {
		return Hit{Line: lineNo, Column: col, Text: validText(text, kept), Ranges: a.rng(kept)}
	}
	return Hit{Line: lineNo, Column: col, Text: a.str(text), Ranges: a.rng(kept)}
}

// validText replaces each byte that is not UTF-8 with U+FFFD, as JSON
// encoding would, and moves the ranges so they still point at the same
// characters of the returned text.
func validText(text []byte, ranges [][2]int) string {
	var b []byte
	shift := make([]int, len(text)+1) // new offset of each old offset
	for i := 0; i < len(text); {
		shift[i] = len(b)
		r, size := utf8.DecodeRune(text[i:])
		if r == utf8.RuneError && size == 1 {
			b = utf8.AppendRune(b, utf8.RuneError)
		} else {
			b = append(b, text[i:i+size]...)
		}
		for k := 1; k < size; k++ {
			shift[i+k] = len(b) // inside a character: not a range end
		}
		i += size
	}
	shift[len(text)] = len(b)
	for k := range ranges {
		ranges[k] = [2]int{shift[ranges[k][0]], shift[ranges[k][1]]}
	}
	return string(b)
}

// cutUTF8 cuts b to at most n bytes without splitting a UTF-8 sequence.
func cutUTF8(b []byte, n int) []byte {
	if len(b) <= n {
		return b
	}
	cut := n
	for k := 0; k < utf8.UTFMax && cut > 0 && !utf8.RuneStart(b[cut]); k++ {
		cut--
	}
	if !utf8.RuneStart(b[cut]) {
		cut = n // not UTF-8 here anyway: cut at the byte limit
	}
	return b[:cut]
}
