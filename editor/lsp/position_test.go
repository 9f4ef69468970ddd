package lsp

import (
	"strings"
	"testing"
)

// Columns are characters; the protocol counts UTF-16 units: a character
// outside the BMP is two of them, one of two or three UTF-8 bytes is one.
func TestTextPositions(t *testing.T) {
	tx := NewText("a😀b\r\nét x\nlast")
	for _, c := range []struct {
		line, col int
		want      Position
	}{
		{1, 1, Position{0, 0}}, {1, 2, Position{0, 1}}, {1, 3, Position{0, 3}}, {1, 4, Position{0, 4}},
		{1, 99, Position{0, 4}}, // past the end: the end, before "\r\n"
		{2, 2, Position{1, 1}}, {2, 4, Position{1, 3}}, {3, 5, Position{2, 4}},
	} {
		got, ok := tx.ToLSP(c.line, c.col)
		if !ok || got != c.want {
			t.Errorf("ToLSP(%d, %d) = %v, %v; want %v", c.line, c.col, got, ok, c.want)
		}
		if c.col < 99 {
			if l, col := tx.FromLSP(got); l != c.line || col != c.col {
				t.Errorf("FromLSP(%v) = %d:%d; want %d:%d", got, l, col, c.line, c.col)
			}
		}
	}
	if _, ok := tx.ToLSP(4, 1); ok {
		t.Error("line 4 of 3 accepted")
	}
	if got := tx.Line(0); got != "a😀b" {
		t.Errorf("line 0 %q", got)
	}
	if off := tx.Offset(Position{0, 3}); off != 5 {
		t.Errorf("offset of b: %d", off)
	}
	// Lines as LSP counts them: a final line without "\n" counts, and so
	// does the empty one after a final "\n".
	for s, want := range map[string]int{"": 1, "x": 1, "x\n": 2, "\n\n": 3, "a\nb\r\nc": 3} {
		tx := NewText(s)
		if got := tx.Lines(); got != want {
			t.Errorf("%q: %d lines, want %d", s, got, want)
		}
		if got := tx.Line(want - 1); got != strings.TrimSuffix(s[strings.LastIndexByte(s, '\n')+1:], "\r") {
			t.Errorf("%q: last line %q", s, got)
		}
	}
}

func TestApplyEdits(t *testing.T) {
	text := "func Greet() {}\nvar _ = Greet\nvar é = Greet\n"
	edits := []TextEdit{
		{Range: Range{Start: Position{2, 8}, End: Position{2, 13}}, NewText: "Welcome"},
		{Range: Range{Start: Position{0, 5}, End: Position{0, 10}}, NewText: "Welcome"},
		{Range: Range{Start: Position{1, 8}, End: Position{1, 13}}, NewText: "Welcome"},
	}
	got, err := Apply(text, edits)
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.ReplaceAll(text, "Greet", "Welcome"); got != want {
		t.Fatalf("got %q want %q", got, want)
	}
	_, err = Apply(text, []TextEdit{
		{Range: Range{Start: Position{0, 0}, End: Position{0, 6}}, NewText: "x"},
		{Range: Range{Start: Position{0, 5}, End: Position{0, 7}}, NewText: "y"},
	})
	if err == nil {
		t.Fatal("overlapping edits applied")
	}
}

func TestServerEnv(t *testing.T) {
	base := []string{"PATH=/usr/bin:relative:/ws/bin:/ws:/bin", "HOME=/home/u", "GOFLAGS=-toolexec=evil", "NODE_OPTIONS=--require x", "GOPROXY=https://example"}
	env := serverEnv(base, func(p string) bool { return p == "/ws" || strings.HasPrefix(p, "/ws/") }, map[string]string{"GOPROXY": "direct"})
	got := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		if _, dup := got[k]; dup {
			t.Errorf("%s twice", k)
		}
		got[k] = v
	}
	want := map[string]string{"PATH": "/usr/bin:/bin", "HOME": "/home/u", "GOFLAGS": "-mod=readonly -buildvcs=false", "GOPROXY": "direct", "GOTOOLCHAIN": "local"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s=%q, want %q", k, got[k], v)
		}
	}
	if _, ok := got["NODE_OPTIONS"]; ok {
		t.Error("NODE_OPTIONS passed on")
	}
}
