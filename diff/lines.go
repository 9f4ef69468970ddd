package diff

import "strings"

// splitLines cuts s after every '\n'. Each line keeps its terminator so that a
// last line without one never compares equal to the same text with one; that
// alone makes "only the final newline changed" show up as remove + re-add,
// exactly like git. The lines are substrings of s: nothing is copied.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := make([]string, 0, strings.Count(s, "\n")+1)
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			lines = append(lines, s)
			break
		}
		lines = append(lines, s[:i+1])
		s = s[i+1:]
	}
	return lines
}

func hasNewline(line string) bool {
	return line != "" && line[len(line)-1] == '\n'
}

// window is the part of a text the line diff looks at: lines[k] is line
// base+k (0-based) of the whole text.
type window struct {
	lines []string
	base  int
}

// windows cuts a and b down to their differing middle plus up to ctx equal
// lines on either side, which is all the hunks can show. Trimming the common
// ends at byte level first means a small edit in a big file costs a couple of
// memory compares instead of splitting and hashing every line.
func windows(a, b string, ctx int) (wa, wb window) {
	pre, suf := commonEnds(a, b)
	return windowsAt(a, b, ctx, pre, suf)
}

// windowsAt is windows for the common ends pre and suf already measured.
func windowsAt(a, b string, ctx, pre, suf int) (wa, wb window) {
	start := pre
	for k := 0; k < ctx && start > 0; k++ {
		start = strings.LastIndexByte(a[:start-1], '\n') + 1
	}
	ea, eb := len(a)-suf, len(b)-suf
	for k := 0; k < ctx && ea < len(a); k++ {
		n := strings.IndexByte(a[ea:], '\n') + 1
		if n == 0 {
			n = len(a) - ea
		}
		ea, eb = ea+n, eb+n // the suffix bytes are the same on both sides
	}
	base := strings.Count(a[:start], "\n")
	return window{splitLines(a[start:ea]), base}, window{splitLines(b[start:eb]), base}
}

// commonEnds returns the byte lengths of the longest common prefix and suffix
// of a and b that consist of whole lines and do not overlap.
func commonEnds(a, b string) (pre, suf int) {
	pre = commonPrefixLen(a, b)
	if pre == len(a) && pre == len(b) {
		return pre, 0
	}
	pre = strings.LastIndexByte(a[:pre], '\n') + 1
	suf = commonSuffixLen(a[pre:], b[pre:])
	// Equal bytes from a line start onwards are equal lines; a suffix that
	// starts mid-line on either side is cut to its first full line.
	if ea, eb := len(a)-suf, len(b)-suf; !atLineStart(a, ea) || !atLineStart(b, eb) {
		if k := strings.IndexByte(a[ea:], '\n'); k < 0 {
			suf = 0
		} else {
			suf -= k + 1
		}
	}
	return pre, suf
}

func atLineStart(s string, i int) bool { return i == 0 || s[i-1] == '\n' }

// prefixChunk lets string comparison (vectorised memequal) do the bulk of
// the work; the byte loops only ever scan the last chunk.
const prefixChunk = 1024

func commonPrefixLen(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	for i+prefixChunk <= n && a[i:i+prefixChunk] == b[i:i+prefixChunk] {
		i += prefixChunk
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

func commonSuffixLen(a, b string) int {
	n := min(len(a), len(b))
	i := 0 // bytes matched from the end
	for i+prefixChunk <= n && a[len(a)-i-prefixChunk:len(a)-i] == b[len(b)-i-prefixChunk:len(b)-i] {
		i += prefixChunk
	}
	for i < n && a[len(a)-i-1] == b[len(b)-i-1] {
		i++
	}
	return i
}
