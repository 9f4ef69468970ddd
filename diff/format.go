package diff

import (
	"strconv"
	"strings"
)

const noNewline = "\\ No newline at end of file\n"

// span is one hunk: changes[first:last+1] plus context, covering old lines
// [i1,i2) and new lines [j1,j2).
type span struct {
	first, last    int
	i1, i2, j1, j2 int
}

// groupHunks merges changes separated by at most 2*ctx equal lines, as git
// does, so the context of neighbouring hunks never overlaps.
func groupHunks(changes []change, oldLen, ctx int) []span {
	var spans []span
	for k, c := range changes {
		if n := len(spans); n > 0 && c.i1-changes[spans[n-1].last].i2 <= 2*ctx {
			spans[n-1].last = k
			continue
		}
		// Before the first change i1 == j1 and between hunks there are more
		// than 2*ctx equal lines, so the same lead works on both sides.
		lead := min(ctx, c.i1)
		spans = append(spans, span{first: k, last: k, i1: c.i1 - lead, j1: c.j1 - lead})
	}
	for n := range spans {
		s := &spans[n]
		end := changes[s.last]
		trail := min(ctx, oldLen-end.i2) // equal lines left at the end: same on both sides
		s.i2, s.j2 = end.i2+trail, end.j2+trail
	}
	return spans
}

// hunk numbers the span in whole-text lines; base is the window's offset.
func (s span) hunk(changes []change, base int) Hunk {
	h := Hunk{
		OldStart: headerStart(base+s.i1, base+s.i2),
		OldLines: s.i2 - s.i1,
		NewStart: headerStart(base+s.j1, base+s.j2),
		NewLines: s.j2 - s.j1,
	}
	for _, c := range changes[s.first : s.last+1] {
		h.Removed += c.i2 - c.i1
		h.Added += c.j2 - c.j1
	}
	return h
}

// headerStart converts a 0-based half-open range to git's 1-based start,
// where an empty range names the line before it.
func headerStart(lo, hi int) int {
	if lo == hi {
		return lo
	}
	return lo + 1
}

func renderPatch(a, b [][]byte, changes []change, spans []span, hunks []Hunk, opt Options) string {
	path := opt.Path
	if path == "" {
		path = "file"
	}
	oldName, newName := headerName("a/", path), headerName("b/", path)
	if opt.OldMissing {
		oldName = "/dev/null"
	}
	if opt.NewMissing {
		newName = "/dev/null"
	}

	// Sized up front: patches of big files would otherwise be copied
	// log(n) times while growing.
	size := len(oldName) + len(newName) + 10
	for _, s := range spans {
		size += len("@@ -1234567,1234567 +1234567,1234567 @@\n")
		s.body(a, b, changes, func(_ byte, lines [][]byte) { size += linesSize(lines) })
	}

	var w strings.Builder
	w.Grow(size)
	w.WriteString("--- ")
	w.WriteString(oldName)
	w.WriteString("\n+++ ")
	w.WriteString(newName)
	w.WriteByte('\n')
	var num []byte
	for n, s := range spans {
		h := hunks[n]
		num = append(num[:0], "@@ -"...)
		num = strconv.AppendInt(num, int64(h.OldStart), 10)
		num = append(num, ',')
		num = strconv.AppendInt(num, int64(h.OldLines), 10)
		num = append(num, " +"...)
		num = strconv.AppendInt(num, int64(h.NewStart), 10)
		num = append(num, ',')
		num = strconv.AppendInt(num, int64(h.NewLines), 10)
		num = append(num, " @@\n"...)
		w.Write(num)
		s.body(a, b, changes, func(prefix byte, lines [][]byte) { writeLines(&w, prefix, lines) })
	}
	return w.String()
}

// body hands out the span's lines in patch order, grouped by prefix: context,
// then for each change its removed lines before its added ones, as git does.
func (s span) body(a, b [][]byte, changes []change, fn func(prefix byte, lines [][]byte)) {
	pos := s.i1
	for _, c := range changes[s.first : s.last+1] {
		fn(' ', a[pos:c.i1])
		fn('-', a[c.i1:c.i2])
		fn('+', b[c.j1:c.j2])
		pos = c.i2
	}
	fn(' ', a[pos:s.i2])
}

func linesSize(lines [][]byte) int {
	n := 0
	for _, l := range lines {
		n += 1 + len(l)
		if !hasNewline(l) {
			n += 1 + len(noNewline)
		}
	}
	return n
}

// writeLines emits lines with a diff prefix. Only a side's last line can lack
// its newline; git then ends it and adds the marker right after it.
func writeLines(w *strings.Builder, prefix byte, lines [][]byte) {
	for _, l := range lines {
		w.WriteByte(prefix)
		w.Write(l)
		if !hasNewline(l) {
			w.WriteByte('\n')
			w.WriteString(noNewline)
		}
	}
}

// headerName renders prefix+path the way git does in ---/+++ lines: C-quoted
// when the name holds characters that would break parsing, and followed by a
// tab when it holds a space, so GNU patch does not stop at the space.
func headerName(prefix, path string) string {
	name := prefix + path
	if needsQuote(name) {
		return quoteC(name)
	}
	if strings.IndexByte(name, ' ') >= 0 {
		return name + "\t"
	}
	return name
}

func needsQuote(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f || c == '"' || c == '\\' {
			return true
		}
	}
	return false
}

// quoteC is git's quote_c_style for the bytes needsQuote flags; other bytes,
// UTF-8 included, are kept as they are (git with core.quotePath=false).
func quoteC(s string) string {
	var w strings.Builder
	w.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"', '\\':
			w.WriteByte('\\')
			w.WriteByte(c)
		case '\a':
			w.WriteString(`\a`)
		case '\b':
			w.WriteString(`\b`)
		case '\t':
			w.WriteString(`\t`)
		case '\n':
			w.WriteString(`\n`)
		case '\v':
			w.WriteString(`\v`)
		case '\f':
			w.WriteString(`\f`)
		case '\r':
			w.WriteString(`\r`)
		default:
			if c < 0x20 || c == 0x7f {
				w.WriteByte('\\')
				w.WriteByte('0' + c>>6)
				w.WriteByte('0' + c>>3&7)
				w.WriteByte('0' + c&7)
			} else {
				w.WriteByte(c)
			}
		}
	}
	w.WriteByte('"')
	return w.String()
}
