package search

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// Replace changes exactly what Scan reports: on every hit line, the hit's
// ranges, and nothing elsewhere; RE2's own syntax and per-line anchors
// included.
func TestReplaceIsTheSearchsMatches(t *testing.T) {
	data := []byte("alpha 12 beta 345\r\nno digits here\nx9\n\u212a kelvin and k\nend 7")
	for _, c := range []struct {
		pattern string
		opt     MatchOptions
		with    string
		expand  bool
		want    string
	}{
		{`[[:digit:]]+`, MatchOptions{}, "N", true, "alpha N beta N\r\nno digits here\nxN\n\u212a kelvin and k\nend N"},
		{`\pL+$`, MatchOptions{}, "W", true, "alpha 12 beta 345\r\nno digits W\nx9\n\u212a kelvin and W\nend 7"},
		{`^\w`, MatchOptions{}, "_", true, "_lpha 12 beta 345\r\n_o digits here\n_9\n\u212a kelvin and k\n_nd 7"},
		{`\Aend`, MatchOptions{}, "fin", true, "alpha 12 beta 345\r\nno digits here\nx9\n\u212a kelvin and k\nfin 7"},
		{`(\w+) (\d+)`, MatchOptions{}, "${2}_$1", true, "12_alpha 345_beta\r\nno digits here\nx9\n\u212a kelvin and k\n7_end"},
		{`(?i)K`, MatchOptions{}, "[k]", true, "alpha 12 beta 345\r\nno digits here\nx9\n[k] [k]elvin and [k]\nend 7"},
		{`K`, MatchOptions{Literal: true, IgnoreCase: true}, "$1", false, "alpha 12 beta 345\r\nno digits here\nx9\n$1 $1elvin and $1\nend 7"},
		{`a`, MatchOptions{Literal: true, WholeWord: true}, "A", false, "alpha 12 beta 345\r\nno digits here\nx9\n\u212a kelvin and k\nend 7"},
		{`\Q.\E|beta`, MatchOptions{}, "B", true, "alpha 12 B 345\r\nno digits here\nx9\n\u212a kelvin and k\nend 7"},
	} {
		m, err := Compile(c.pattern, c.opt)
		if err != nil {
			t.Fatalf("%s: %v", c.pattern, err)
		}
		got, n, err := m.Replace(data, []byte(c.with), c.expand, 1<<20)
		if err != nil {
			t.Fatalf("%s: %v", c.pattern, err)
		}
		if string(got) != c.want {
			t.Errorf("%s -> %s:\n got %q\nwant %q", c.pattern, c.with, got, c.want)
		}
		// The count and places are Scan's.
		hits, ranges := m.Scan(data, 1000), 0
		for _, h := range hits {
			ranges += len(h.Ranges)
		}
		if n != ranges {
			t.Errorf("%s: replaced %d, the search reports %d matches", c.pattern, n, ranges)
		}
		if !c.expand {
			marked, _, _ := m.Replace(data, []byte("\x00"), false, 1<<20)
			lines, hitAt := bytes.Split(marked, []byte("\n")), map[int]bool{}
			for _, h := range hits {
				hitAt[h.Line] = true
			}
			for i, l := range lines {
				if bytes.Contains(l, []byte("\x00")) != hitAt[i+1] {
					t.Errorf("%s: line %d replaced=%v, a hit=%v", c.pattern, i+1, !hitAt[i+1], hitAt[i+1])
				}
			}
		}
	}
}

// The result's size is measured before it is made: one past the limit is
// refused with the size it would have had, and the size Replace measures
// (expansions included) is the length of what it builds.
func TestReplaceMeasuresBeforeBuilding(t *testing.T) {
	data := []byte(strings.Repeat("x", 50_000) + "\n")
	m, _ := Compile("x", MatchOptions{Literal: true})
	_, _, err := m.Replace(data, bytes.Repeat([]byte("y"), 4096), false, 16<<20)
	var tl *TooLargeError
	if !errors.As(err, &tl) || tl.Size != 50_000*4096+1 || tl.Limit != 16<<20 {
		t.Fatalf("50,000 matches by 4 KB: %v, want a TooLargeError of %d bytes", err, 50_000*4096+1)
	}
	// At the limit exactly, it is built.
	if out, n, err := m.Replace(data, []byte("yy"), false, 100_001); err != nil || n != 50_000 || len(out) != 100_001 {
		t.Fatalf("at the limit: %d bytes, %d, %v", len(out), n, err)
	}
	if _, _, err := m.Replace(data, []byte("yy"), false, 100_000); !errors.As(err, &tl) || tl.Size != 100_001 {
		t.Fatalf("one byte over: %v", err)
	}
	// Templates: the measured size is what regexp.Expand makes.
	r := rand.New(rand.NewPCG(19, 1))
	re := regexp.MustCompile(`(?P<word>[a-z]+)(\d*)(?P<x>y)?`)
	pieces := []string{"$", "$$", "${", "}", "1", "0", "2", "word", "x", "_", "a", "{word}", "é", "3", "10"}
	text := []byte("abc12 de y zz9y q")
	for i := 0; i < 2000; i++ {
		var b strings.Builder
		for range r.IntN(8) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		tmpl := parseTemplate([]byte(b.String()), re)
		for _, loc := range re.FindAllSubmatchIndex(text, -1) {
			want := len(re.Expand(nil, []byte(b.String()), text, loc))
			if got := tmpl.size(loc); got != int64(want) {
				t.Fatalf("template %q on %v: measured %d, Expand makes %d", b.String(), loc, got, want)
			}
		}
	}
}

// refReplace is Replace as it was before it measured its result: Scan's
// hits, and each hit line's ranges. The streaming Replace must give the
// same bytes and count.
func refReplace(m *Matcher, data, with []byte, expand bool) ([]byte, int) {
	hits := m.Scan(data, 1<<30)
	if len(hits) == 0 {
		return data, 0
	}
	re := m.re
	if expand && re == nil {
		re = regexp.MustCompile(m.src)
	}
	useLit := m.lit != nil && !(len(m.special) > 0 && containsAny(data, m.special))
	var out []byte
	n, lineNo, pos := 0, 1, 0
	for _, h := range hits {
		for lineNo < h.Line {
			j := bytes.IndexByte(data[pos:], '\n')
			out = append(out, data[pos:pos+j+1]...)
			pos += j + 1
			lineNo++
		}
		end := len(data)
		if j := bytes.IndexByte(data[pos:], '\n'); j >= 0 {
			end = pos + j
		}
		line := data[pos:end]
		last := 0
		if expand {
			for _, loc := range re.FindAllSubmatchIndex(line, -1) {
				out = append(out, line[last:loc[0]]...)
				out = re.Expand(out, with, line, loc)
				last = loc[1]
				n++
			}
		} else {
			var ranges [][2]int
			if useLit {
				ranges = litRanges(nil, m.lit, m.word, line, 0)
			} else {
				ranges = reRanges(nil, m, line)
			}
			for _, r := range ranges {
				out = append(out, line[last:r[0]]...)
				out = append(out, with...)
				last = r[1]
				n++
			}
		}
		out = append(out, line[last:]...)
		pos = end
	}
	return append(out, data[pos:]...), n
}

func TestReplaceStreamingIsTheReference(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 2))
	words := []string{"foo", "Foo", "FOO", "bar", "k", "K", "\u212a", "x", "xx", "end", "a1", "12", " ", "  ", "\t", "\r", "é", "_", "-"}
	pats := []struct {
		p   string
		opt MatchOptions
	}{
		{"foo", MatchOptions{Literal: true}}, {"foo", MatchOptions{Literal: true, IgnoreCase: true}},
		{"foo", MatchOptions{Literal: true, WholeWord: true}}, {"k", MatchOptions{Literal: true, IgnoreCase: true}},
		{"x", MatchOptions{Literal: true}}, {"xx", MatchOptions{Literal: true}},
		{`(\w+) (\d+)`, MatchOptions{}}, {`^\w`, MatchOptions{}}, {`\Aend`, MatchOptions{}}, {`x*`, MatchOptions{}},
		{`(?i)k`, MatchOptions{}}, {`$`, MatchOptions{}}, {`(?P<w>[a-z]+)$`, MatchOptions{}}, {`foo|bar`, MatchOptions{IgnoreCase: true}},
	}
	withs := []string{"", "Y", "[$1]", "${w}-$0", "$$", "$"}
	for i := 0; i < 3000; i++ {
		var b strings.Builder
		for range r.IntN(30) {
			if r.IntN(6) == 0 {
				b.WriteByte('\n')
			} else {
				b.WriteString(words[r.IntN(len(words))])
			}
		}
		data := []byte(b.String())
		pc := pats[r.IntN(len(pats))]
		m, err := Compile(pc.p, pc.opt)
		if err != nil {
			t.Fatal(err)
		}
		with := []byte(withs[r.IntN(len(withs))])
		expand := !pc.opt.Literal && r.IntN(2) == 0
		want, wn := refReplace(m, data, with, expand)
		got, gn, err := m.Replace(data, with, expand, 1<<20)
		if err != nil || !bytes.Equal(got, want) || gn != wn {
			t.Fatalf("%q %+v with %q expand %v on %q:\n got %q (%d) %v\nwant %q (%d)", pc.p, pc.opt, with, expand, data, got, gn, err, want, wn)
		}
	}
}
