package diff

import (
	"fmt"
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

func TestRecords(t *testing.T) {
	for in, want := range map[string][]string{
		"":           {},
		"\n":         {"\n"},
		"a":          {"a"},
		"a\nb":       {"a\n", "b"},
		"a\r\nb\r\n": {"a\r\n", "b\r\n"},
		"a\rb\n":     {"a\rb\n"},
		"\n\n":       {"\n", "\n"},
	} {
		got := []string{}
		for _, r := range Records([]byte(in)) {
			got = append(got, string(r))
			if cap(r) != len(r) {
				t.Errorf("Records(%q): %q has room to grow into the next line", in, r)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("Records(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCommonLineEnds(t *testing.T) {
	for _, tc := range []struct {
		a, b     string
		pre, suf int
	}{
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
		pre, suf := commonLineEnds([]byte(tc.a), []byte(tc.b))
		if pre != tc.pre || suf != tc.suf {
			t.Errorf("commonLineEnds(%q, %q) = %d, %d; want %d, %d", tc.a, tc.b, pre, suf, tc.pre, tc.suf)
		}
	}
}

// The common ends are compared a block at a time; a difference anywhere
// in or across a block is found exactly.
func TestCommonLenAcrossChunks(t *testing.T) {
	const chunk = 256
	long := make([]byte, 5*chunk+17)
	for i := range long {
		long[i] = byte('a' + i%26)
	}
	for _, at := range []int{0, 1, chunk - 1, chunk, 3*chunk + 5, len(long) - 1} {
		other := slices.Clone(long)
		other[at] = '#'
		if got := commonPrefixLen(long, other); got != at {
			t.Errorf("prefix with difference at %d: %d", at, got)
		}
		if got, want := commonSuffixLen(long, other, len(long)), len(long)-at-1; got != want {
			t.Errorf("suffix with difference at %d: %d, want %d", at, got, want)
		}
	}
	if got := commonPrefixLen(long, long[:2*chunk+3]); got != 2*chunk+3 {
		t.Errorf("prefix of a prefix: %d", got)
	}
	if got := commonSuffixLen(long, long, 2*chunk+3); got != 2*chunk+3 {
		t.Errorf("suffix bounded by limit: %d", got)
	}
}

func ExampleRecords() {
	fmt.Printf("%q\n", Records([]byte("a\r\nb\nc")))
	// Output: ["a\r\n" "b\n" "c"]
}
