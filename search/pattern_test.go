package search

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/editord/editord/shell"
)

// reference is the obvious, slow search: split into lines, run the regexp
// on each line.
func referenceRegexp(pattern string, opt MatchOptions) *regexp.Regexp {
	p := pattern
	if opt.Literal {
		p = regexp.QuoteMeta(p)
	}
	if opt.WholeWord {
		p = `\b(?:` + p + `)\b`
	}
	if opt.IgnoreCase {
		p = "(?i)" + p
	}
	return regexp.MustCompile(p)
}

func reference(re *regexp.Regexp, data []byte, max int) []Hit {
	var out []Hit
	lines := bytes.Split(data, []byte("\n"))
	if len(data) > 0 && data[len(data)-1] == '\n' {
		lines = lines[:len(lines)-1]
	}
	if len(data) == 0 {
		lines = nil
	}
	for i, line := range lines {
		locs := re.FindAllIndex(line, -1)
		if len(locs) == 0 {
			continue
		}
		ranges := make([][2]int, len(locs))
		for k, l := range locs {
			ranges[k] = [2]int{l[0], l[1]}
		}
		out = append(out, makeHit(i+1, line, ranges, nil))
		if len(out) == max {
			break
		}
	}
	return out
}

func randomText(rng *rand.Rand, lines int) []byte {
	words := []string{"foo", "Foo", "FOO", "bar", "foobar", "foo_bar", "k", "K", "\u212a", "s", "\u017f", "Sk",
		"é", "É", "x1", "(", ")", "a.b", "needle", "NEEDLE", "nee", "dle", " ", " ", "\t", "\r", "-", "_", "0", "ß", "ǅ"}
	var b bytes.Buffer
	for i := 0; i < lines; i++ {
		for w := rng.IntN(12); w > 0; w-- {
			b.WriteString(words[rng.IntN(len(words))])
		}
		if rng.IntN(20) == 0 {
			b.WriteString(strings.Repeat("long", 140)) // past the 500-byte cut
			b.WriteString("needle")
		}
		if i < lines-1 || rng.IntN(2) == 0 {
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}

func TestScanMatchesReference(t *testing.T) {
	patterns := []struct {
		p   string
		opt MatchOptions
	}{
		{"foo", MatchOptions{}},
		{"foo", MatchOptions{IgnoreCase: true}},
		{"foo", MatchOptions{WholeWord: true}},
		{"foo", MatchOptions{WholeWord: true, IgnoreCase: true}},
		{"needle", MatchOptions{}},
		{"k", MatchOptions{IgnoreCase: true}},
		{"sk", MatchOptions{IgnoreCase: true}},
		{"sk", MatchOptions{IgnoreCase: true, WholeWord: true}},
		{"é", MatchOptions{IgnoreCase: true}},
		{"a.b", MatchOptions{Literal: true}},
		{"a.b", MatchOptions{}},
		{"(", MatchOptions{Literal: true}},
		{"-", MatchOptions{WholeWord: true, Literal: true}},
		{"foo_bar", MatchOptions{Literal: true, IgnoreCase: true}},
		{`foo\w*`, MatchOptions{}},
		{`(?i)foo|bar`, MatchOptions{}},
		{`foo|needle`, MatchOptions{}},
		{`FOO|NEEDLE`, MatchOptions{IgnoreCase: true}},
		{`^foo`, MatchOptions{}},
		{`foo$`, MatchOptions{}},
		{`^$`, MatchOptions{}},
		{`^`, MatchOptions{}},
		{`x*`, MatchOptions{}},
		{`\s+$`, MatchOptions{}},
		{`[^a-z]+`, MatchOptions{}},
		{`.+`, MatchOptions{}},
		{`(?s).`, MatchOptions{}},
		{`\bfoo\b`, MatchOptions{}},
		{`nee.le`, MatchOptions{}},
		{`n(e)+dle`, MatchOptions{IgnoreCase: true}},
		{`(?:foo){2,}`, MatchOptions{}},
		{`[kK]\x{212a}?`, MatchOptions{}},
		{`\d+`, MatchOptions{WholeWord: true}},
		{`ß`, MatchOptions{IgnoreCase: true}},
		{`long(long)*needle`, MatchOptions{}},
	}
	rng := rand.New(rand.NewPCG(11, 12))
	texts := [][]byte{nil, []byte("\n"), []byte("needle")}
	rounds := 25
	if raceEnabled {
		rounds = 4
	}
	for round := 0; round < rounds; round++ {
		texts = append(texts, randomText(rng, 1+rng.IntN(60)))
	}
	for _, tc := range patterns {
		m, err := Compile(tc.p, tc.opt)
		if err != nil {
			t.Fatalf("Compile(%q, %+v): %v", tc.p, tc.opt, err)
		}
		ref := referenceRegexp(tc.p, tc.opt)
		for _, data := range texts {
			for _, max := range []int{2, 1000} {
				got := m.Scan(data, max)
				want := reference(ref, data, max)
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("pattern %q %+v max %d on %q:\n got  %+v\n want %+v", tc.p, tc.opt, max, data, got, want)
				}
			}
		}
	}
}

func TestFastPaths(t *testing.T) {
	for _, tc := range []struct {
		p        string
		opt      MatchOptions
		lit, pre bool
	}{
		{"TODO", MatchOptions{}, true, false},
		{"TODO", MatchOptions{IgnoreCase: true}, true, false},
		{`foo\.bar`, MatchOptions{}, true, false},
		{"a.b", MatchOptions{Literal: true}, true, false},
		{"é", MatchOptions{IgnoreCase: true}, false, false},
		{`func\s+\w+Handler`, MatchOptions{}, false, true},
		{`TODO|FIXME`, MatchOptions{}, false, true},
		{`[a-z]+`, MatchOptions{}, false, false},
		{`\w+\(`, MatchOptions{}, false, false}, // "(" alone is too common to prefilter on
		{`(?i)needle\d`, MatchOptions{}, false, true},
	} {
		m, err := Compile(tc.p, tc.opt)
		if err != nil {
			t.Fatal(err)
		}
		if (m.lit != nil) != tc.lit || (len(m.pre) > 0) != tc.pre {
			t.Errorf("%q %+v: literal path %v, prefilter %d literals; want %v, %v", tc.p, tc.opt, m.lit != nil, len(m.pre), tc.lit, tc.pre)
		}
	}
}

func TestCompileErrors(t *testing.T) {
	for _, tc := range []struct {
		p    string
		opt  MatchOptions
		want string
	}{
		{"", MatchOptions{}, "empty"},
		{"foo(", MatchOptions{}, "missing closing )"},
		{"a{2,1}", MatchOptions{}, "invalid repeat count"},
		{`\p{Nope}`, MatchOptions{}, "invalid character class range"},
		{"a\nb", MatchOptions{}, "line break"},
		{`a\nb`, MatchOptions{}, "line break"},
		{"a\nb", MatchOptions{Literal: true}, "line break"},
		{"\xff", MatchOptions{}, "UTF-8"},
	} {
		_, err := Compile(tc.p, tc.opt)
		if err == nil || shell.CodeOf(err) != shell.CodeInvalidArgument || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Compile(%q) = %v, want invalid_argument mentioning %q", tc.p, err, tc.want)
		}
	}
	// Bytes that are not UTF-8 are fine as a case-sensitive literal.
	m, err := Compile("\xff\xfe", MatchOptions{Literal: true})
	if err != nil {
		t.Fatal(err)
	}
	if hits := m.Scan([]byte("a\n\xff\xfe\n"), 10); len(hits) != 1 || hits[0].Line != 2 {
		t.Fatalf("non-UTF-8 literal: %+v", hits)
	}
}

func TestHitText(t *testing.T) {
	long := strings.Repeat("a", 498) + "é" + "needle" // é spans bytes 498-499: the cut keeps it
	long2 := strings.Repeat("a", 499) + "é" + "x"     // é spans 499-500: the cut drops it
	m, _ := Compile("needle", MatchOptions{})
	h := m.Scan([]byte(long+"\n"), 10)
	if len(h) != 1 || len(h[0].Text) != 500 || h[0].Column != 501 || len(h[0].Ranges) != 0 {
		t.Fatalf("long line: %+v", h)
	}
	m, _ = Compile("a", MatchOptions{})
	h = m.Scan([]byte(long2), 1)
	if len(h) != 1 || len(h[0].Text) != 499 || len(h[0].Ranges) != 499 {
		t.Fatalf("cut on a UTF-8 boundary: text %d bytes, %d ranges", len(h[0].Text), len(h[0].Ranges))
	}
	m, _ = Compile(`b\s*$`, MatchOptions{})
	h = m.Scan([]byte("ab\r\nb \r\n"), 10)
	want := []Hit{
		{Line: 1, Column: 2, Text: "ab", Ranges: [][2]int{{1, 2}}},
		{Line: 2, Column: 1, Text: "b ", Ranges: [][2]int{{0, 2}}},
	}
	if !reflect.DeepEqual(h, want) {
		t.Fatalf("CRLF: %+v, want %+v", h, want)
	}
}

func TestHitTextNotUTF8(t *testing.T) {
	m, _ := Compile("b+", MatchOptions{})
	h := m.Scan([]byte("a\xffbb\xfe\xfdb\n"), 10)
	want := []Hit{{Line: 1, Column: 3, Text: "a\ufffdbb\ufffd\ufffdb", Ranges: [][2]int{{4, 6}, {12, 13}}}}
	if !reflect.DeepEqual(h, want) {
		t.Fatalf("got %+v\nwant %+v", h, want)
	}
	b, _ := json.Marshal(h[0].Text)
	var back string
	json.Unmarshal(b, &back)
	if back != h[0].Text || back[4:6] != "bb" || back[12:13] != "b" {
		t.Fatalf("ranges do not survive JSON: %q", back)
	}
}

func TestRequired(t *testing.T) {
	for _, tc := range []struct {
		p    string
		want []string
		fold bool
	}{
		{`func\s+\w+Handler`, []string{"Handler"}, false},
		{`TODO|FIXME`, []string{"TODO", "FIXME"}, false},
		{`(?i)needle\d`, []string{"needle"}, true},
		{`foo(bar)+`, []string{"foo"}, false},
		{`(foo)?bar`, []string{"bar"}, false},
		{`a[0-9]b`, []string{"a"}, false},
	} {
		m, err := Compile(tc.p, MatchOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range m.pre {
			got = append(got, string(f.needle))
			if f.fold != tc.fold {
				t.Errorf("%q: fold %v", tc.p, f.fold)
			}
		}
		if tc.p == `a[0-9]b` {
			// Single common letters are not worth a prefilter.
			if len(got) != 0 {
				t.Errorf("%q: prefilter %q, want none", tc.p, got)
			}
			continue
		}
		if tc.fold {
			for i := range tc.want {
				tc.want[i] = strings.ToLower(tc.want[i])
			}
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: prefilter %q, want %q", tc.p, got, tc.want)
		}
	}
}

func TestLitFinder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for i := 0; i < 2000; i++ {
		hay := make([]byte, rng.IntN(200))
		for k := range hay {
			hay[k] = "abAB_z\n"[rng.IntN(7)]
		}
		needle := make([]byte, 1+rng.IntN(3))
		for k := range needle {
			needle[k] = "abAB_z"[rng.IntN(6)]
		}
		for _, fold := range []bool{false, true} {
			n := needle
			if fold {
				n = asciiLower(string(needle))
			}
			f := newLitFinder(n, fold)
			c := f.cursor()
			var got, want []int
			for from := 0; ; {
				j := c.index(hay, from)
				if j < 0 {
					break
				}
				got = append(got, j)
				from = j + 1
			}
			for j := 0; j+len(n) <= len(hay); j++ {
				w := hay[j : j+len(n)]
				if (!fold && bytes.Equal(w, n)) || (fold && bytes.EqualFold(w, n)) {
					want = append(want, j)
				}
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("find %q (fold %v) in %q: %v, want %v", n, fold, hay, got, want)
			}
		}
	}
}
