package editor

import (
	"os"
	"testing"
	"time"

	"github.com/editord/editord/editor/lsp"
)

// A file changed between two queries gives the new positions: written in
// place at once (too new to be kept), and renamed over with the same size
// and modification time as the kept content (kept, and told apart by its
// inode and ctime).
func TestLineCacheNeverStale(t *testing.T) {
	// Same size (4 bytes before " = 1"), different columns: the emoji
	// takes two UTF-16 units, so character 5 is column 6 in the first and
	// column 5 in the second.
	const ascii, astral = "abcd = 1\n", "\U0001F600 = 1\n"
	loc := func(t *testing.T, e *tcEnv) CodeLocation {
		t.Helper()
		p := lsp.Position{Line: 0, Character: 5}
		cl, ok := e.s.texts(&lsp.Server{}, e.root).location(lsp.Location{URI: lsp.URI(e.abs("a.go")), Range: lsp.Range{Start: p, End: p}})
		if !ok {
			t.Fatal("a.go not mapped")
		}
		return cl
	}
	check := func(t *testing.T, e *tcEnv, col int, text string) {
		t.Helper()
		if cl := loc(t, e); cl.Column != col || cl.Text != text {
			t.Fatalf("a.go: column %d, text %q; want column %d, text %q", cl.Column, cl.Text, col, text)
		}
	}

	t.Run("in place at once", func(t *testing.T) {
		e := tcNew(t)
		e.write("a.go", ascii)
		check(t, e, 6, "abcd = 1")
		check(t, e, 6, "abcd = 1")
		if err := os.WriteFile(e.abs("a.go"), []byte(astral), 0o644); err != nil {
			t.Fatal(err)
		}
		check(t, e, 5, "\U0001F600 = 1")
	})

	t.Run("renamed over, same size and mtime", func(t *testing.T) {
		e := tcNew(t)
		e.s.lines.racy = -time.Hour // keep even what was written just now
		e.write("a.go", ascii)
		check(t, e, 6, "abcd = 1")
		if _, kept := e.s.lines.m[e.abs("a.go")]; !kept {
			t.Fatal("a.go's line index was not kept")
		}
		check(t, e, 6, "abcd = 1")
		fi, err := os.Stat(e.abs("a.go"))
		if err != nil {
			t.Fatal(err)
		}
		tmp := e.abs("a.go.tmp")
		if err := os.WriteFile(tmp, []byte(astral), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(tmp, fi.ModTime(), fi.ModTime()); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, e.abs("a.go")); err != nil {
			t.Fatal(err)
		}
		check(t, e, 5, "\U0001F600 = 1")
	})
}
