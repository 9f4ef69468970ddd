package diff

import (
	"slices"
	"testing"
)

func TestSplitLines(t *testing.T) {
	for in, want := range map[string][]string{
		"":           nil,
		"\n":         {"\n"},
		"a":          {"a"},
		"a\nb":       {"a\n", "b"},
		"a\r\nb\r\n": {"a\r\n", "b\r\n"},
		"a\rb\n":     {"a\rb\n"},
		"\n\n":       {"\n", "\n"},
	} {
		if got := splitLines(in); !slices.Equal(got, want) {
			t.Errorf("splitLines(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCommonEnds(t *testing.T) {
	for _, tc := range []struct {
		a, b     string
		pre, suf int
	}{
		{"a\nb\n", "a\nb\n", 4, 0},
		{"a\nb\nc\n", "a\nx\nc\n", 2, 2},
		{"a\nb", "a\nb\n", 2, 0},      // unterminated last line differs
		{"x\nb", "y\nb", 0, 1},        // shared unterminated last line
		{"x\nfoo\n", "yfoo\n", 0, 0},  // shared bytes but not a whole line on one side
		{"ab\nc\n", "b\nc\n", 0, 2},   // suffix starting mid-line is cut back
		{"a\nb\n", "a\nx\nb\n", 2, 2}, // suffix may not overlap the prefix
		{"a\na\n", "a\na\na\n", 4, 0}, // ...on the shorter side either
		{"", "a\n", 0, 0},
		{"k\r\nv\r\n", "k\nv\r\n", 0, 3},
	} {
		pre, suf := commonEnds(tc.a, tc.b)
		if pre != tc.pre || suf != tc.suf {
			t.Errorf("commonEnds(%q, %q) = %d, %d; want %d, %d", tc.a, tc.b, pre, suf, tc.pre, tc.suf)
		}
	}
}

func TestCommonLenAcrossChunks(t *testing.T) {
	long := make([]byte, 5*prefixChunk+17)
	for i := range long {
		long[i] = byte('a' + i%26)
	}
	for _, at := range []int{0, 1, prefixChunk - 1, prefixChunk, 3*prefixChunk + 5, len(long) - 1} {
		other := slices.Clone(long)
		other[at] = '#'
		if got := commonPrefixLen(string(long), string(other)); got != at {
			t.Errorf("prefix with difference at %d: %d", at, got)
		}
		if got, want := commonSuffixLen(string(long), string(other)), len(long)-at-1; got != want {
			t.Errorf("suffix with difference at %d: %d, want %d", at, got, want)
		}
	}
	if got := commonPrefixLen(string(long), string(long[:2*prefixChunk+3])); got != 2*prefixChunk+3 {
		t.Errorf("prefix of a prefix: %d", got)
	}
}
