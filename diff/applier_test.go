package diff

import (
	"fmt"
	"strings"
)

// applyUnified is a strict in-process patch applier for one file. It lets the
// randomized tests check every patch even where git and patch are missing,
// and it cross-checks Result.Hunks against the hunk text itself.
func applyUnified(before, patch string, want []Hunk) (string, error) {
	if patch == "" {
		return before, nil
	}
	old := splitLines(before)
	lines := splitLines(patch)
	if len(lines) < 2 || !strings.HasPrefix(lines[0], "--- ") || !strings.HasPrefix(lines[1], "+++ ") {
		return "", fmt.Errorf("bad file header")
	}
	lines = lines[2:]
	var out strings.Builder
	pos := 0 // next old line to copy
	n := 0
	for ; len(lines) > 0; n++ {
		h, err := parseHunkHeader(lines[0])
		if err != nil {
			return "", err
		}
		lines = lines[1:]
		if n >= len(want) || want[n].OldStart != h.OldStart || want[n].OldLines != h.OldLines ||
			want[n].NewStart != h.NewStart || want[n].NewLines != h.NewLines {
			return "", fmt.Errorf("hunk %d header %+v does not match Result.Hunks", n, h)
		}
		first := h.OldStart - 1
		if h.OldLines == 0 {
			first = h.OldStart
		}
		if first < pos || first > len(old) {
			return "", fmt.Errorf("hunk %d starts at %d, before %d or past end", n, first, pos)
		}
		for _, l := range old[pos:first] {
			out.WriteString(l)
		}
		pos = first
		var oldN, newN, added, removed int
		for len(lines) > 0 && !strings.HasPrefix(lines[0], "@@ ") {
			l := lines[0]
			lines = lines[1:]
			if l == noNewline || l == "" || !hasNewline(l) {
				return "", fmt.Errorf("hunk %d: stray or unterminated line %q", n, l)
			}
			body := l[1:]
			marked := len(lines) > 0 && lines[0] == noNewline
			if marked {
				lines = lines[1:]
				body = strings.TrimSuffix(body, "\n")
			}
			switch l[0] {
			case ' ', '-':
				if pos >= len(old) || old[pos] != body {
					return "", fmt.Errorf("hunk %d: old line %d does not match %q", n, pos+1, body)
				}
				pos++
				oldN++
				if marked && pos != len(old) {
					return "", fmt.Errorf("hunk %d: marker after old line %d, not the last", n, pos)
				}
				if l[0] == ' ' {
					newN++
					out.WriteString(body)
				} else {
					removed++
				}
			case '+':
				newN++
				added++
				out.WriteString(body)
			default:
				return "", fmt.Errorf("bad hunk line %q", l)
			}
		}
		if oldN != h.OldLines || newN != h.NewLines || added != want[n].Added || removed != want[n].Removed {
			return "", fmt.Errorf("hunk %d body has -%d +%d (%d added, %d removed), header/Result say %+v",
				n, oldN, newN, added, removed, want[n])
		}
	}
	if n != len(want) {
		return "", fmt.Errorf("patch has %d hunks, Result.Hunks %d", n, len(want))
	}
	for _, l := range old[pos:] {
		out.WriteString(l)
	}
	return out.String(), nil
}
