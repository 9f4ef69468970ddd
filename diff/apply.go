package diff

import (
	"fmt"
	"strconv"
	"strings"
)

// Apply applies a unified patch of one file, as Unified writes it, to
// before, strictly: every context and removed line must be the line of
// before at that place, so a patch made against other content is an error,
// never a guess. An empty patch is no change.
func Apply(before, patch string) (string, error) {
	if patch == "" {
		return before, nil
	}
	old := splitLines(before)
	lines := splitLines(patch)
	if len(lines) < 2 || !strings.HasPrefix(lines[0], "--- ") || !strings.HasPrefix(lines[1], "+++ ") {
		return "", fmt.Errorf("not a unified patch: no file header")
	}
	lines = lines[2:]
	var out strings.Builder
	out.Grow(len(before))
	pos := 0 // next line of before to copy
	for n := 0; len(lines) > 0; n++ {
		h, err := parseHunkHeader(lines[0])
		if err != nil {
			return "", err
		}
		lines = lines[1:]
		first := h.OldStart - 1
		if h.OldLines == 0 {
			first = h.OldStart
		}
		if first < pos || first > len(old) {
			return "", fmt.Errorf("hunk %d starts at line %d, outside the text", n+1, first+1)
		}
		for _, l := range old[pos:first] {
			out.WriteString(l)
		}
		pos = first
		var oldN, newN int
		for len(lines) > 0 && !strings.HasPrefix(lines[0], "@@ ") {
			l := lines[0]
			lines = lines[1:]
			if l == noNewline || !hasNewline(l) || len(l) < 1 {
				return "", fmt.Errorf("hunk %d: stray line %q", n+1, l)
			}
			body := l[1:]
			if len(lines) > 0 && lines[0] == noNewline {
				lines = lines[1:]
				body = strings.TrimSuffix(body, "\n")
			}
			switch l[0] {
			case ' ', '-':
				if pos >= len(old) || old[pos] != body {
					return "", fmt.Errorf("hunk %d: line %d is not the one the patch was made against", n+1, pos+1)
				}
				pos++
				oldN++
				if l[0] == ' ' {
					newN++
					out.WriteString(body)
				}
			case '+':
				newN++
				out.WriteString(body)
			default:
				return "", fmt.Errorf("hunk %d: bad line %q", n+1, l)
			}
		}
		if oldN != h.OldLines || newN != h.NewLines {
			return "", fmt.Errorf("hunk %d has -%d +%d lines, its header says -%d +%d", n+1, oldN, newN, h.OldLines, h.NewLines)
		}
	}
	for _, l := range old[pos:] {
		out.WriteString(l)
	}
	return out.String(), nil
}

// parseHunkHeader reads "@@ -a[,b] +c[,d] @@..." (the short git form too,
// so it can parse git's own output).
func parseHunkHeader(line string) (Hunk, error) {
	var h Hunk
	rest, ok := strings.CutPrefix(line, "@@ -")
	if !ok {
		return h, fmt.Errorf("bad hunk header %q", line)
	}
	ranges, _, ok := strings.Cut(rest, " @@")
	oldR, newR, ok2 := strings.Cut(ranges, " +")
	if !ok || !ok2 {
		return h, fmt.Errorf("bad hunk header %q", line)
	}
	var err1, err2 error
	h.OldStart, h.OldLines, err1 = parseRange(oldR)
	h.NewStart, h.NewLines, err2 = parseRange(newR)
	if err1 != nil || err2 != nil {
		return h, fmt.Errorf("bad hunk header %q", line)
	}
	return h, nil
}

func parseRange(s string) (start, count int, err error) {
	a, b, hasCount := strings.Cut(s, ",")
	if start, err = strconv.Atoi(a); err != nil {
		return
	}
	count = 1
	if hasCount {
		count, err = strconv.Atoi(b)
	}
	return
}
