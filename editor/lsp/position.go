package lsp

// Two ways of naming a place in a text meet here. editord's callers say
// "line 12, column 5" counting lines from 1 as editor::open numbers them
// and columns from 1 in characters (Unicode code points), which is what a
// person sees and what a model can count in a line it read. The protocol
// says "line 11, character 4" counting from 0, characters in UTF-16 code
// units. A Text converts between them, and to byte offsets for applying
// edits. Lines end at "\n"; a "\r" before it belongs to the line ending.

import (
	"sort"
	"strings"
	"unicode/utf8"
)

// Text is a document's content with its line starts indexed.
type Text struct {
	s      string
	starts []int // byte offset of each line's first byte
}

// NewText indexes s. A workspace query's answer points into up to a
// hundred files, some of them megabytes of generated code: IndexByte
// finds the line ends twice as fast as a loop over the bytes.
func NewText(s string) *Text {
	t := &Text{s: s, starts: make([]int, 1, strings.Count(s, "\n")+1)}
	for i := 0; ; {
		j := strings.IndexByte(s[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
		t.starts = append(t.starts, i)
	}
	return t
}

// String is the whole content.
func (t *Text) String() string { return t.s }

// Lines is the number of lines (a final line without "\n" counts; an
// empty text has one empty line, as LSP sees it).
func (t *Text) Lines() int { return len(t.starts) }

// Line is the text of zero-based line i without its line ending; "" when
// there is no such line.
func (t *Text) Line(i int) string {
	if i < 0 || i >= len(t.starts) {
		return ""
	}
	end := len(t.s)
	if i+1 < len(t.starts) {
		end = t.starts[i+1] - 1
	}
	line := t.s[t.starts[i]:end]
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	return line
}

// ToLSP turns a 1-based line and 1-based character column into a protocol
// position. A column past the line's end is its end; ok is false for a
// line that does not exist.
func (t *Text) ToLSP(line, column int) (Position, bool) {
	if line < 1 || line > len(t.starts) {
		return Position{}, false
	}
	text := t.Line(line - 1)
	units := 0
	for _, r := range text {
		if column <= 1 {
			break
		}
		units += utf16Len(r)
		column--
	}
	return Position{Line: line - 1, Character: units}, true
}

// FromLSP turns a protocol position into a 1-based line and 1-based
// character column (a position inside a surrogate pair counts as its
// character; one past the line's end is the column after its last).
func (t *Text) FromLSP(p Position) (line, column int) {
	text := t.Line(p.Line)
	column = 1
	units := 0
	for _, r := range text {
		if units >= p.Character {
			break
		}
		units += utf16Len(r)
		column++
	}
	return p.Line + 1, column
}

// Offset is the byte offset of a protocol position, clamped to the line's
// end (and to the text's end past its last line).
func (t *Text) Offset(p Position) int {
	if p.Line < 0 {
		return 0
	}
	if p.Line >= len(t.starts) {
		return len(t.s)
	}
	start := t.starts[p.Line]
	text := t.Line(p.Line)
	units := 0
	for i, r := range text {
		if units >= p.Character {
			return start + i
		}
		units += utf16Len(r)
	}
	return start + len(text)
}

// LineOf is the zero-based line holding byte offset off.
func (t *Text) LineOf(off int) int {
	return sort.Search(len(t.starts), func(i int) bool { return t.starts[i] > off }) - 1
}

// utf16Len is how many UTF-16 code units r takes.
func utf16Len(r rune) int {
	if r >= 0x10000 && r <= utf8.MaxRune {
		return 2
	}
	return 1
}

// LanguageID is the protocol's language id of a file of editor language
// language: React files have ids of their own, which TypeScript's server
// parses by.
func LanguageID(p, language string) string {
	switch {
	case strings.HasSuffix(p, ".tsx"):
		return "typescriptreact"
	case strings.HasSuffix(p, ".jsx"):
		return "javascriptreact"
	}
	return language
}
