package diff

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// gitDiff runs `git diff --no-index` on before/after and returns the patch from
// its --- line on, with hunk headers reduced to their ranges (git appends a
// function name and drops ",1" counts) and the parsed hunks.
func gitDiff(t *testing.T, before, after string, context int) (string, []Hunk) {
	t.Helper()
	dir := t.TempDir()
	for name, text := range map[string]string{"a/file": before, "b/file": after} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, err := run(dir, "git", "diff", "--no-index", "--no-prefix", "--no-color", "--no-ext-diff",
		fmt.Sprintf("-U%d", context), "a/file", "b/file")
	if err != nil && !strings.Contains(err.Error(), "exit status 1") {
		t.Fatalf("git diff: %v\n%s", err, out)
	}
	_, body, ok := strings.Cut(out, "\n--- ")
	if !ok {
		return "", []Hunk{}
	}
	hunks := []Hunk{}
	var w strings.Builder
	w.WriteString("--- ")
	for _, l := range splitLines(body) {
		if strings.HasPrefix(l, "@@ ") {
			h, err := parseHunkHeader(l)
			if err != nil {
				t.Fatal(err)
			}
			hunks = append(hunks, h)
			l = fmt.Sprintf("@@ -%d,%d +%d,%d @@\n", h.OldStart, h.OldLines, h.NewStart, h.NewLines)
		}
		w.WriteString(l)
	}
	return w.String(), hunks
}

func numbered(from, to int, edit func(i int) string) string {
	var w strings.Builder
	for i := from; i <= to; i++ {
		w.WriteString(edit(i))
	}
	return w.String()
}

// TestMatchesGit compares whole patches with git's on inputs whose minimal
// edit script is unique, so any difference is a formatting difference.
func TestMatchesGit(t *testing.T) {
	needTool(t, "git")
	line := func(i int) string { return fmt.Sprintf("line %d\n", i) }
	ten := numbered(1, 10, line)
	big := numbered(1, 2000, line)
	cases := []struct{ name, before, after string }{
		{"replace middle", ten, strings.Replace(ten, "line 5\n", "five\n", 1)},
		{"insert at start", ten, "zero\n" + ten},
		{"insert at end", ten, ten + "eleven\n"},
		{"insert in middle", ten, strings.Replace(ten, "line 6\n", "new\nline 6\n", 1)},
		{"delete first", ten, strings.TrimPrefix(ten, "line 1\n")},
		{"delete last", ten, strings.TrimSuffix(ten, "line 10\n")},
		{"delete block", ten, strings.Replace(ten, "line 4\nline 5\nline 6\n", "", 1)},
		{"scattered", ten, numbered(1, 10, func(i int) string {
			switch i {
			case 2:
				return "two\n"
			case 4:
				return ""
			case 9:
				return "line 9\nnine and a half\n"
			}
			return line(i)
		})},
		{"empty to text", "", ten},
		{"text to empty", ten, ""},
		{"add missing final newline", strings.TrimSuffix(ten, "\n"), ten},
		{"drop final newline", ten, strings.TrimSuffix(ten, "\n")},
		{"append after unterminated line", "a\nb", "a\nb\nc\n"},
		{"unterminated on both sides", "a\nb\nc", "a\nB\nc"},
		{"CRLF", strings.ReplaceAll(ten, "\n", "\r\n"), strings.ReplaceAll(strings.Replace(ten, "line 3\n", "three\n", 1), "\n", "\r\n")},
		// Ambiguous placements that prefix trimming resolves like git's
		// downward sliding of change groups.
		{"blank line added", "a\n\nb\n", "a\n\n\nb\n"},
		{"line duplicated", ten, strings.Replace(ten, "line 4\n", "line 4\nline 4\n", 1)},
		{"function inserted", "func a() {\n\treturn\n}\n\nfunc b() {\n\treturn\n}\n",
			"func a() {\n\treturn\n}\n\nfunc c() {\n\treturn\n}\n\nfunc b() {\n\treturn\n}\n"},
		{"diff-like lines", "--- a\n+++ b\n@@ x\n", "--- a\n++ c\n@@ x\n-- d\n"},
		{"large with few edits", big, numbered(1, 2000, func(i int) string {
			switch {
			case i%397 == 0:
				return fmt.Sprintf("edited %d\n", i)
			case i == 1000:
				return ""
			case i == 1500:
				return "inserted\n" + line(i)
			}
			return line(i)
		})},
	}
	for _, tc := range cases {
		for _, ctx := range []int{0, 1, 3} {
			t.Run(fmt.Sprintf("%s/U%d", tc.name, ctx), func(t *testing.T) {
				want, wantHunks := gitDiff(t, tc.before, tc.after, ctx)
				res := Unified(tc.before, tc.after, Options{Context: ctx})
				if len(res.Hunks) != len(wantHunks) {
					t.Fatalf("%d hunks, git has %d", len(res.Hunks), len(wantHunks))
				}
				for i, h := range res.Hunks {
					h.Added, h.Removed = 0, 0
					if h != wantHunks[i] {
						t.Errorf("hunk %d: %+v, git: %+v", i, h, wantHunks[i])
					}
				}
				if res.Patch != want {
					t.Errorf("patch differs from git's\ngot:\n%s\ngit:\n%s", res.Patch, want)
				}
			})
		}
	}
}
