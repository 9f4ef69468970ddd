package diff

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
)

const hdr = "--- a/file\n+++ b/file\n"

func TestUnified(t *testing.T) {
	tests := []struct {
		name           string
		before, after  string
		opt            Options
		patch          string
		hunks          []Hunk
		added, removed int
		identical      bool
	}{
		{
			name:      "identical",
			before:    "a\nb\n",
			after:     "a\nb\n",
			opt:       Options{Context: 3},
			identical: true,
		},
		{
			name:      "both empty",
			identical: true,
		},
		{
			name:  "empty to text",
			after: "x\ny\n",
			opt:   Options{Context: 3},
			patch: hdr + "@@ -0,0 +1,2 @@\n+x\n+y\n",
			hunks: []Hunk{{0, 0, 1, 2, 2, 0}},
			added: 2,
		},
		{
			name:    "text to empty",
			before:  "x\ny\n",
			opt:     Options{Context: 3},
			patch:   hdr + "@@ -1,2 +0,0 @@\n-x\n-y\n",
			hunks:   []Hunk{{1, 2, 0, 0, 0, 2}},
			removed: 2,
		},
		{
			name:  "empty to text without newline",
			after: "x",
			opt:   Options{Context: 3},
			patch: hdr + "@@ -0,0 +1,1 @@\n+x\n\\ No newline at end of file\n",
			hunks: []Hunk{{0, 0, 1, 1, 1, 0}},
			added: 1,
		},
		{
			name:    "no final newline on both sides, last line changed",
			before:  "a\nb",
			after:   "a\nc",
			opt:     Options{Context: 3},
			patch:   hdr + "@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n",
			hunks:   []Hunk{{1, 2, 1, 2, 1, 1}},
			added:   1,
			removed: 1,
		},
		{
			name:    "no final newline kept as context",
			before:  "a\nb\nc",
			after:   "x\nb\nc",
			opt:     Options{Context: 3},
			patch:   hdr + "@@ -1,3 +1,3 @@\n-a\n+x\n b\n c\n\\ No newline at end of file\n",
			hunks:   []Hunk{{1, 3, 1, 3, 1, 1}},
			added:   1,
			removed: 1,
		},
		{
			name:    "only final newline added",
			before:  "a\nb",
			after:   "a\nb\n",
			opt:     Options{Context: 3},
			patch:   hdr + "@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n",
			hunks:   []Hunk{{1, 2, 1, 2, 1, 1}},
			added:   1,
			removed: 1,
		},
		{
			name:    "only final newline removed",
			before:  "a\nb\n",
			after:   "a\nb",
			opt:     Options{Context: 3},
			patch:   hdr + "@@ -1,2 +1,2 @@\n a\n-b\n+b\n\\ No newline at end of file\n",
			hunks:   []Hunk{{1, 2, 1, 2, 1, 1}},
			added:   1,
			removed: 1,
		},
		{
			name:    "lines appended after a last line without newline",
			before:  "a\nb",
			after:   "a\nb\nc\n",
			opt:     Options{Context: 0},
			patch:   hdr + "@@ -2,1 +2,2 @@\n-b\n\\ No newline at end of file\n+b\n+c\n",
			hunks:   []Hunk{{2, 1, 2, 2, 2, 1}},
			added:   2,
			removed: 1,
		},
		{
			name:    "CRLF preserved",
			before:  "a\r\nb\r\nc\r\n",
			after:   "a\r\nB\r\nc\r\n",
			opt:     Options{Context: 3},
			patch:   hdr + "@@ -1,3 +1,3 @@\n a\r\n-b\r\n+B\r\n c\r\n",
			hunks:   []Hunk{{1, 3, 1, 3, 1, 1}},
			added:   1,
			removed: 1,
		},
		{
			name:    "CRLF to LF is a change",
			before:  "a\r\nb\n",
			after:   "a\nb\n",
			opt:     Options{Context: 3},
			patch:   hdr + "@@ -1,2 +1,2 @@\n-a\r\n+a\n b\n",
			hunks:   []Hunk{{1, 2, 1, 2, 1, 1}},
			added:   1,
			removed: 1,
		},
		{
			name:    "BOM kept",
			before:  "\ufeffa\nb\n",
			after:   "\ufeffa\nc\n",
			opt:     Options{Context: 3},
			patch:   hdr + "@@ -1,2 +1,2 @@\n \ufeffa\n-b\n+c\n",
			hunks:   []Hunk{{1, 2, 1, 2, 1, 1}},
			added:   1,
			removed: 1,
		},
		{
			name:    "lines that look like diff syntax",
			before:  "--- a/file\n++ b\n@@ -1 +1 @@\nkeep\n",
			after:   "+++ b/file\n-- a\n@@ -1 +1 @@\nkeep\n\\ x\n",
			opt:     Options{Context: 1},
			patch:   hdr + "@@ -1,4 +1,5 @@\n---- a/file\n-++ b\n++++ b/file\n+-- a\n @@ -1 +1 @@\n keep\n+\\ x\n",
			hunks:   []Hunk{{1, 4, 1, 5, 3, 2}},
			added:   3,
			removed: 2,
		},
		{
			name:    "context 0 gives one hunk per change",
			before:  "1\n2\n3\n4\n5\n6\n",
			after:   "0\n1\n3\n4\nfive\n6\n7\n",
			opt:     Options{Context: 0},
			patch:   hdr + "@@ -0,0 +1,1 @@\n+0\n@@ -2,1 +2,0 @@\n-2\n@@ -5,1 +5,1 @@\n-5\n+five\n@@ -6,0 +7,1 @@\n+7\n",
			hunks:   []Hunk{{0, 0, 1, 1, 1, 0}, {2, 1, 2, 0, 0, 1}, {5, 1, 5, 1, 1, 1}, {6, 0, 7, 1, 1, 0}},
			added:   3,
			removed: 2,
		},
		{
			name:    "negative context counts as 0",
			before:  "1\n2\n3\n",
			after:   "1\nx\n3\n",
			opt:     Options{Context: -5},
			patch:   hdr + "@@ -2,1 +2,1 @@\n-2\n+x\n",
			hunks:   []Hunk{{2, 1, 2, 1, 1, 1}},
			added:   1,
			removed: 1,
		},
		{
			name:    "huge context shows the whole file",
			before:  "1\n2\n3\n",
			after:   "1\nx\n3\n",
			opt:     Options{Context: math.MaxInt},
			patch:   hdr + "@@ -1,3 +1,3 @@\n 1\n-2\n+x\n 3\n",
			hunks:   []Hunk{{1, 3, 1, 3, 1, 1}},
			added:   1,
			removed: 1,
		},
		{
			name:    "context 1 merges changes 2 lines apart",
			before:  "a\nb\nc\nd\ne\n",
			after:   "a\nB\nc\nd\nE\n",
			opt:     Options{Context: 1},
			patch:   hdr + "@@ -1,5 +1,5 @@\n a\n-b\n+B\n c\n d\n-e\n+E\n",
			hunks:   []Hunk{{1, 5, 1, 5, 2, 2}},
			added:   2,
			removed: 2,
		},
		{
			name:    "context 1 splits changes 3 lines apart",
			before:  "a\nb\nc\nd\ne\nf\n",
			after:   "a\nB\nc\nd\ne\nF\n",
			opt:     Options{Context: 1},
			patch:   hdr + "@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n@@ -5,2 +5,2 @@\n e\n-f\n+F\n",
			hunks:   []Hunk{{1, 3, 1, 3, 1, 1}, {5, 2, 5, 2, 1, 1}},
			added:   2,
			removed: 2,
		},
		{
			name:   "default context 3",
			before: "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n",
			after:  "1\n2\n3\n4\n5\n6\nsix\n7\n8\n9\n10\n11\n12\n",
			opt:    Options{Context: DefaultContext},
			patch:  hdr + "@@ -4,6 +4,7 @@\n 4\n 5\n 6\n+six\n 7\n 8\n 9\n",
			hunks:  []Hunk{{4, 6, 4, 7, 1, 0}},
			added:  1,
		},
		{
			name:   "path with a space gets git's trailing tab",
			before: "a\n",
			after:  "b\n",
			opt:    Options{Path: "dir/my file.txt"},
			patch:  "--- a/dir/my file.txt\t\n+++ b/dir/my file.txt\t\n@@ -1,1 +1,1 @@\n-a\n+b\n",
			hunks:  []Hunk{{1, 1, 1, 1, 1, 1}},
			added:  1, removed: 1,
		},
		{
			name:  "new file",
			after: "a\n",
			opt:   Options{Path: "x.go", OldMissing: true, Context: 3},
			patch: "--- /dev/null\n+++ b/x.go\n@@ -0,0 +1,1 @@\n+a\n",
			hunks: []Hunk{{0, 0, 1, 1, 1, 0}},
			added: 1,
		},
		{
			name:    "deleted file",
			before:  "a\nb",
			opt:     Options{Path: "x.go", NewMissing: true, Context: 3},
			patch:   "--- a/x.go\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\n-b\n\\ No newline at end of file\n",
			hunks:   []Hunk{{1, 2, 0, 0, 0, 2}},
			removed: 2,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := Unified(tc.before, tc.after, tc.opt)
			if res.Patch != tc.patch {
				t.Errorf("patch:\n%q\nwant:\n%q", res.Patch, tc.patch)
			}
			if tc.hunks == nil {
				tc.hunks = []Hunk{}
			}
			if got, _ := json.Marshal(res.Hunks); string(got) != mustJSON(t, tc.hunks) {
				t.Errorf("hunks %s, want %s", got, mustJSON(t, tc.hunks))
			}
			if res.Added != tc.added || res.Removed != tc.removed || res.Identical != tc.identical || res.Truncated {
				t.Errorf("got +%d -%d identical=%v truncated=%v, want +%d -%d identical=%v",
					res.Added, res.Removed, res.Identical, res.Truncated, tc.added, tc.removed, tc.identical)
			}
			if a, r := Counts(tc.before, tc.after); a != tc.added || r != tc.removed {
				t.Errorf("Counts = +%d -%d, want +%d -%d", a, r, tc.added, tc.removed)
			}
			if got, err := applyUnified(tc.before, res.Patch, res.Hunks); err != nil || got != tc.after {
				t.Errorf("in-process apply: %q, %v", got, err)
			}
			if !tc.identical {
				checkWithTools(t, tc.before, tc.after, res.Patch, tc.opt)
			}
		})
	}
}

// checkWithTools applies patch with git apply and patch -p1 where available.
func checkWithTools(t *testing.T, before, after, patch string, opt Options) {
	t.Helper()
	name := opt.Path
	if name == "" {
		name = "file"
	}
	var in, want *string = &before, &after
	if opt.OldMissing {
		in = nil
	}
	if opt.NewMissing {
		want = nil
	}
	for _, tool := range []struct {
		bin   string
		apply func(*testing.T, string, *string, string, bool) (*string, error)
	}{{"git", applyGit}, {"patch", applyPatch}} {
		if !haveTool(tool.bin) {
			continue
		}
		got, err := tool.apply(t, name, in, patch, opt.Context <= 0)
		if err != nil {
			t.Errorf("%s rejected the patch: %v\n%s", tool.bin, err, patch)
		} else if !sameContent(got, want) {
			t.Errorf("%s produced %s, want %s\npatch:\n%s", tool.bin, show(got), show(want), patch)
		}
	}
}

func show(s *string) string {
	if s == nil {
		return "<no file>"
	}
	return strings.ReplaceAll(strings.ReplaceAll(`"`+*s+`"`, "\n", `\n`), "\r", `\r`)
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestIdenticalJSON(t *testing.T) {
	got := mustJSON(t, Unified("same\n", "same\n", Options{Context: 3}))
	want := `{"patch":"","hunks":[],"added":0,"removed":0,"identical":true,"truncated":false}`
	if got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
}

func TestMaxBytes(t *testing.T) {
	for _, tc := range []struct {
		before, after string
		max           int
		truncated     bool
	}{
		{"abc\n", "abd\n", 4, false},
		{"abcd\n", "abd\n", 4, true},
		{"abc\n", "abcd\n", 4, true},
		{strings.Repeat("x\n", 1000), "y\n", 0, false},
	} {
		res := Unified(tc.before, tc.after, Options{MaxBytes: tc.max})
		if res.Truncated != tc.truncated {
			t.Errorf("MaxBytes %d on %d/%d bytes: Truncated = %v", tc.max, len(tc.before), len(tc.after), res.Truncated)
		}
		if tc.truncated && (res.Patch != "" || res.Hunks == nil || len(res.Hunks) != 0 || res.Added != 0 || res.Removed != 0 || res.Identical) {
			t.Errorf("truncated result carries data: %+v", res)
		}
	}
}

func TestHeaderNameQuoting(t *testing.T) {
	for path, want := range map[string]string{
		"":             "a/file",
		"src/main.go":  "a/src/main.go",
		"héllo.txt":    "a/héllo.txt",
		"a b":          "a/a b\t",
		`q"uote`:       `"a/q\"uote"`,
		`back\slash`:   `"a/back\\slash"`,
		"tab\there":    `"a/tab\there"`,
		"bell\x07\x01": `"a/bell\a\001"`,
	} {
		res := Unified("x\n", "y\n", Options{Path: path})
		first, _, _ := strings.Cut(res.Patch, "\n")
		if first != "--- "+want {
			t.Errorf("path %q: header %q, want %q", path, first, "--- "+want)
		}
	}
}

// Lines that are frequent in a side (blank lines, braces) still align: a
// region made only of such lines is not one big replacement (difflib's
// autojunk made it one, before editord diffed as git does).
func TestNoAutojunkDegradation(t *testing.T) {
	body := strings.Repeat("\n}\n", 150)
	before := "first\n" + body + "last\n"
	after := "FIRST\n" + body + "LAST\n"
	res := Unified(before, after, Options{Context: 0})
	if res.Added != 2 || res.Removed != 2 || len(res.Hunks) != 2 {
		t.Fatalf("got +%d -%d in %d hunks, want +2 -2 in 2:\n%s", res.Added, res.Removed, len(res.Hunks), res.Patch)
	}
}

// Long runs of repeated lines are a line diff's worst case; git's search
// must still find the small edit, quickly.
func TestRepetitiveInput(t *testing.T) {
	zeros := strings.Repeat("0\n", 3000)
	for _, tc := range []struct {
		name           string
		before, after  string
		added, removed int
	}{
		{"edits around a long run", zeros, "1\n" + zeros + "2\n", 2, 0},
		{"two edits inside a long run", zeros + zeros, zeros[:3000] + "x\n" + zeros + zeros[:3000] + "y\n", 2, 0},
		{"shifted period", strings.Repeat("a\nb\n", 20000), strings.Repeat("b\na\n", 20000), 1, 1},
		{"alternating block rewritten", strings.Repeat("a\nb\n", 1000), "x\n" + strings.Repeat("b\na\n", 1000) + "y\n", 3, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := Unified(tc.before, tc.after, Options{Context: 3})
			if res.Added != tc.added || res.Removed != tc.removed {
				t.Errorf("got +%d -%d, want +%d -%d", res.Added, res.Removed, tc.added, tc.removed)
			}
			if got, err := applyUnified(tc.before, res.Patch, res.Hunks); err != nil || got != tc.after {
				t.Fatalf("patch does not rebuild after: %v", err)
			}
			if a, r := Counts(tc.before, tc.after); a != res.Added || r != res.Removed {
				t.Errorf("Counts +%d -%d, Unified +%d -%d", a, r, res.Added, res.Removed)
			}
		})
	}
}

// TestMaxChangedBytes bounds what differs, not the texts: a one-line
// change of a big text has its patch, line numbers and all; a change
// bigger than the bound is Truncated.
func TestMaxChangedBytes(t *testing.T) {
	var a, b strings.Builder
	for i := 1; i <= 50_000; i++ {
		fmt.Fprintf(&a, "line %d\n", i)
		if i == 40_000 {
			b.WriteString("changed\n")
			continue
		}
		fmt.Fprintf(&b, "line %d\n", i)
	}
	r := Unified(a.String(), b.String(), Options{Context: 1, MaxChangedBytes: 100})
	want := "--- a/file\n+++ b/file\n@@ -39999,3 +39999,3 @@\n line 39999\n-line 40000\n+changed\n line 40001\n"
	if r.Truncated || r.Patch != want || r.Added != 1 || r.Removed != 1 {
		t.Fatalf("%+v", r)
	}
	if r := Unified(a.String(), b.String(), Options{Context: 1, MaxBytes: 100}); !r.Truncated {
		t.Fatalf("MaxBytes still bounds the sides: %+v", r)
	}
	if r := Unified("a\n"+strings.Repeat("x\n", 100)+"z\n", "a\n"+strings.Repeat("y\n", 100)+"z\n", Options{MaxChangedBytes: 150}); !r.Truncated || r.Patch != "" {
		t.Fatalf("a change over the bound: %+v", r)
	}
}
