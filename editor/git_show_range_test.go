package editor

import (
	"fmt"
	"strings"
	"testing"

	"github.com/editord/editord/shell"
)

// TestGitShowRange: editor::git::show reads a range of lines as
// editor::open does, also of a file over max_file_bytes, and says which
// lines it returned; without a range it returns the whole file.
func TestGitShowRange(t *testing.T) {
	e := gtNew(t, "")
	var b strings.Builder
	for i := 1; i <= 3000; i++ {
		fmt.Fprintf(&b, "line %d\r\n", i)
	}
	e.write("big.txt", b.String()+"tail")
	e.write("small.txt", "a\nb\nc\n")
	e.commitAll("c1")
	e.s.cfg.Limits.MaxFileBytes = 1000

	sh := gtMust[GitShowResponse](e, "editor::git::show", `{"path": "big.txt", "offset": 2999, "limit": 5}`)
	if sh.Content != "line 2999\r\nline 3000\r\ntail" || sh.StartLine != 2999 || sh.EndLine != 3001 || sh.TotalLines != 3001 {
		t.Errorf("range of a file over max_file_bytes: %+v", sh)
	}
	sh = gtMust[GitShowResponse](e, "editor::git::show", `{"path": "small.txt", "offset": 2, "limit": 1}`)
	if sh.Content != "b\n" || sh.StartLine != 2 || sh.EndLine != 2 || sh.TotalLines != 3 {
		t.Errorf("one line: %+v", sh)
	}
	sh = gtMust[GitShowResponse](e, "editor::git::show", `{"path": "small.txt", "offset": 9}`)
	if sh.Content != "" || sh.StartLine != 9 || sh.EndLine != 8 || sh.TotalLines != 3 {
		t.Errorf("past the end: %+v", sh)
	}
	sh = gtMust[GitShowResponse](e, "editor::git::show", `{"path": "small.txt"}`)
	if sh.Content != "a\nb\nc\n" || sh.StartLine != 1 || sh.EndLine != 3 || sh.TotalLines != 3 {
		t.Errorf("whole: %+v", sh)
	}
	_, err := gtCall[GitShowResponse](e, "editor::git::show", `{"path": "big.txt"}`)
	if shell.CodeOf(err) != shell.CodeTooLarge || !strings.Contains(err.Error(), "offset and limit") {
		t.Errorf("a whole file over max_file_bytes is too_large and says how to read it: %v", err)
	}
}
