package diff

import "strings"

// change is one non-equal stretch of an edit script in the form the patch
// writer walks: old lines [i1,i2) become new lines [j1,j2). One side may
// be empty. Changes are sorted and never touch each other.
type change struct{ i1, i2, j1, j2 int }

// splitLines cuts s after every '\n' (Apply reads texts and patches as
// lines). Each line keeps its terminator, so that a last line without one
// never compares equal to the same text with one. The lines are
// substrings of s: nothing is copied.
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

func hasNewline[T string | []byte](line T) bool {
	return len(line) > 0 && line[len(line)-1] == '\n'
}
