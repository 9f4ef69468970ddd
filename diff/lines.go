package diff

// change is one non-equal stretch of an edit script in the form the patch
// writer walks: old lines [i1,i2) become new lines [j1,j2). One side may
// be empty. Changes are sorted and never touch each other.
type change struct{ i1, i2, j1, j2 int }

func hasNewline(line []byte) bool {
	return len(line) > 0 && line[len(line)-1] == '\n'
}
