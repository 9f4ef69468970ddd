package search

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// rgFixture generates a tree with nested .gitignore files, noise folders,
// hidden files, binary files, CRLF lines and a little UTF-8, as a git
// repository (so that ripgrep honours the .gitignore files too).
func rgFixture(t *testing.T) string {
	t.Helper()
	needGit(t)
	root := tempRoot(t)
	rng := rand.New(rand.NewPCG(21, 22))
	words := []string{"func", "return", "needle", "needle_42", "needle_7", "foo", "bar", "foobar", "foo_bar", "Foo", "FOO",
		"TODO", "FIXME", "(", ")", "a.b", "axb", "ParseError", "IOError", "error", "//", "x", "  ", "\t", " é ", " unicodé ", "{", "}"}
	dirs := []string{"", "src", "src/lib", "src/lib/deep", "docs", ".hidden", "node_modules/pkg", "target/debug",
		"gen", "gen/keep", "logs", "a b", "build/out", "vendor/x"}
	files := map[string]string{
		".gitignore":      "*.log\ngen/*\n!gen/keep/\n/vendor/\ntmp*/\n",
		"src/.gitignore":  "deep/*.txt\n!deep/important.txt\n",
		"docs/.gitignore": "*.draft\n",
	}
	for i := 0; i < 240; i++ {
		d := dirs[rng.IntN(len(dirs))]
		ext := []string{".go", ".txt", ".md", ".log", ".draft", ".rs"}[rng.IntN(6)]
		name := fmt.Sprintf("f%d%s", i, ext)
		if i%40 == 0 {
			name = "important.txt"
		}
		var b strings.Builder
		if rng.IntN(25) == 0 {
			b.WriteString("\x00binary") // NUL at the start: binary for both tools
		}
		for l := rng.IntN(30); l >= 0; l-- {
			if rng.IntN(10) == 0 {
				b.WriteString(strings.Repeat(" ", rng.IntN(3)))
			} else {
				for w := rng.IntN(9); w >= 0; w-- {
					b.WriteString(words[rng.IntN(len(words))])
					if rng.IntN(3) > 0 {
						b.WriteByte(' ')
					}
				}
			}
			if rng.IntN(8) == 0 {
				b.WriteString("\r\n")
			} else {
				b.WriteString("\n")
			}
		}
		files[filepath.ToSlash(filepath.Join(d, name))] = b.String()
	}
	files["tmpdir/x.txt"] = "needle\n"
	files["fixed.txt"] = "foo bar baz\nreturn (x)\nfoofoo\n\nunicodé\n"
	// whole_word follows RE2's \b (ASCII word characters) where ripgrep's
	// is Unicode-aware, so non-ASCII words are kept apart from others.
	writeTree(t, root, files)
	git(t, root, "init", "-q")
	return root
}

type lineKey struct {
	path string
	line int
}

func rgLines(t *testing.T, root string, args ...string) map[lineKey]bool {
	t.Helper()
	base := []string{"--json", "--hidden", "--no-config", "--no-ignore-global"}
	for _, n := range testNoise {
		base = append(base, "-g", "!"+n)
	}
	cmd := exec.Command("rg", append(base, args...)...)
	cmd.Dir = root
	cmd.Env = gitEnv(t)
	out, err := cmd.Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
			t.Fatalf("rg %q: %v", args, err)
		}
	}
	got := map[lineKey]bool{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var msg struct {
			Type string `json:"type"`
			Data struct {
				Path struct {
					Text string `json:"text"`
				} `json:"path"`
				LineNumber int `json:"line_number"`
			} `json:"data"`
		}
		if err := json.Unmarshal(sc.Bytes(), &msg); err != nil {
			t.Fatal(err)
		}
		if msg.Type == "match" {
			got[lineKey{strings.TrimPrefix(msg.Data.Path.Text, "./"), msg.Data.LineNumber}] = true
		}
	}
	return got
}

func TestEquivalentToRipgrep(t *testing.T) {
	if _, err := exec.LookPath("rg"); err != nil {
		t.Skip("ripgrep (rg) is not installed")
	}
	root := rgFixture(t)
	e := New(openJail(t, root, nil, testNoise))
	for _, tc := range []struct {
		pattern string
		opt     MatchOptions
	}{
		{"needle", MatchOptions{}},
		{"needle_42", MatchOptions{}},
		{"foo bar", MatchOptions{}},
		{"TODO", MatchOptions{}},
		{"(", MatchOptions{Literal: true}},
		{"a.b", MatchOptions{Literal: true}},
		{"a.b", MatchOptions{}},
		{"é", MatchOptions{}},
		{"unicodé", MatchOptions{IgnoreCase: true}},
		{"NeEdLe", MatchOptions{IgnoreCase: true}},
		{"foo", MatchOptions{WholeWord: true}},
		{"FOO", MatchOptions{WholeWord: true, IgnoreCase: true}},
		{`needle_\d+`, MatchOptions{}},
		{`needle_4[0-9]`, MatchOptions{}},
		{`^func `, MatchOptions{}},
		{`\)$`, MatchOptions{}},
		{`foo|bar`, MatchOptions{}},
		{`[A-Z][a-z]+Error`, MatchOptions{}},
		{`^\s*//`, MatchOptions{}},
		{`TODO|FIXME`, MatchOptions{IgnoreCase: true}},
		{`^$`, MatchOptions{}},
		{`(foo){2}`, MatchOptions{}},
		{`return\s+\(`, MatchOptions{}},
	} {
		t.Run(fmt.Sprintf("%s/%+v", tc.pattern, tc.opt), func(t *testing.T) {
			res := doSearch(t, e, root, SearchOptions{Pattern: tc.pattern, MatchOptions: tc.opt})
			got := map[lineKey]bool{}
			for _, f := range res.Files {
				for _, h := range f.Hits {
					got[lineKey{f.Path, h.Line}] = true
				}
			}
			var args []string
			if tc.opt.Literal {
				args = append(args, "-F")
			}
			if tc.opt.IgnoreCase {
				args = append(args, "-i")
			}
			if tc.opt.WholeWord {
				args = append(args, "-w")
			}
			want := rgLines(t, root, append(args, "-e", tc.pattern)...)
			if len(want) == 0 {
				t.Fatalf("ripgrep found nothing: the fixture does not exercise %q", tc.pattern)
			}
			var missing, extra []string
			for k := range want {
				if !got[k] {
					missing = append(missing, fmt.Sprint(k))
				}
			}
			for k := range got {
				if !want[k] {
					extra = append(extra, fmt.Sprint(k))
				}
			}
			sort.Strings(missing)
			sort.Strings(extra)
			if len(missing)+len(extra) > 0 {
				t.Fatalf("differs from rg (%d lines): missing %v, extra %v", len(want), missing, extra)
			}
		})
	}
}
