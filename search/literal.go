package search

import "bytes"

// litFinder finds a byte string, optionally ASCII case-insensitively, by
// scanning (memchr) for its rarest byte and comparing around each hit, the
// way ripgrep picks its "rare byte". Immutable; per-scan state lives in a
// litCursor.
type litFinder struct {
	needle []byte // ASCII-lowercased when fold
	fold   bool
	off    int  // offset of the anchor byte in needle
	b1, b2 byte // the anchor byte, and its other ASCII case when fold (else b1)
}

func newLitFinder(needle []byte, fold bool) *litFinder {
	f := &litFinder{needle: needle, fold: fold}
	best := -1
	for i, c := range needle {
		r := byteRank[c]
		if fold && isLetter(c) {
			// Both cases are scanned for, so it is as common as both together.
			r = min(r, byteRank[c^0x20]) - 8
		}
		if r > best {
			best, f.off = r, i
		}
	}
	f.b1, f.b2 = needle[f.off], needle[f.off]
	if fold && isLetter(f.b1) {
		f.b2 = f.b1 ^ 0x20
	}
	return f
}

func isLetter(c byte) bool { return (c|0x20) >= 'a' && (c|0x20) <= 'z' }

// asciiLower lowercases ASCII letters only (strings.ToLower would also
// change non-ASCII runes, which are compared exactly).
func asciiLower(s string) []byte {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 0x20
		}
	}
	return b
}

// equal compares a window of the haystack with the needle.
func (f *litFinder) equal(w []byte) bool {
	if !f.fold {
		return bytes.Equal(w, f.needle)
	}
	for i, c := range w {
		if 'A' <= c && c <= 'Z' {
			c += 0x20
		}
		if c != f.needle[i] {
			return false
		}
	}
	return true
}

// litCursor scans one buffer for a litFinder's needle at increasing offsets,
// remembering where the anchor bytes were next seen so that no byte is
// scanned twice.
type litCursor struct {
	f      *litFinder
	p1, p2 int // next anchor positions: -2 unknown, -1 none left
}

func (f *litFinder) cursor() litCursor { return litCursor{f: f, p1: -2, p2: -2} }

func nextByte(buf []byte, start int, b byte, cache *int) int {
	if *cache == -1 || (*cache >= 0 && *cache >= start) {
		return *cache
	}
	i := bytes.IndexByte(buf[start:], b)
	if i < 0 {
		*cache = -1
		return -1
	}
	*cache = start + i
	return *cache
}

// index returns the first occurrence starting at or after from, or -1.
// Calls on one cursor must not go backwards.
func (c *litCursor) index(buf []byte, from int) int {
	f := c.f
	n := len(f.needle)
	if !f.fold && f.off == 0 {
		if from > len(buf) {
			return -1
		}
		i := bytes.Index(buf[from:], f.needle)
		if i < 0 {
			return -1
		}
		return from + i
	}
	for {
		start := from + f.off
		if from+n > len(buf) {
			return -1
		}
		p := nextByte(buf, start, f.b1, &c.p1)
		if f.b2 != f.b1 {
			if q := nextByte(buf, start, f.b2, &c.p2); q >= 0 && (p < 0 || q < p) {
				p = q
			}
		}
		if p < 0 {
			return -1
		}
		cand := p - f.off
		if cand+n <= len(buf) && f.equal(buf[cand:cand+n]) {
			return cand
		}
		from = cand + 1
	}
}

// byteRank orders bytes from common (0) to rare (255) in source code and
// prose, for picking the anchor byte to scan for.
var byteRank = func() [256]int {
	const common = " etaorinsl\nc)(dup.m,f\t_h;gb=\"y:wv/-'}{*kx01>[]2<#!&+|x$@%?jzq\\3456789^~`"
	var r [256]int
	for i := range r {
		r[i] = 255 // unlisted: rare
	}
	for c := 'A'; c <= 'Z'; c++ {
		r[c] = 200 // capitals: fairly rare
	}
	r['E'], r['S'], r['T'], r['R'], r['I'], r['N'], r['A'], r['C'] = 160, 170, 160, 175, 165, 170, 165, 170
	for i := 0; i < len(common); i++ {
		if r[common[i]] == 255 || r[common[i]] >= 200 {
			r[common[i]] = i * 2
		}
	}
	return r
}()

// rareByteRank is the rank from which a single byte is worth a prefilter.
const rareByteRank = 120

// isWordByte is RE2's \w: ASCII letters, digits and underscore.
func isWordByte(c byte) bool {
	return c == '_' || ('0' <= c && c <= '9') || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
}

// boundary reports a \b at offset i of line (the line's ends count as
// non-word context, as the line breaks around it do).
func boundary(line []byte, i int) bool {
	before := i > 0 && isWordByte(line[i-1])
	after := i < len(line) && isWordByte(line[i])
	return before != after
}
