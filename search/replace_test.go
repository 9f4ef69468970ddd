package search

import (
	"bytes"
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
		got, n, err := m.Replace(data, []byte(c.with), c.expand)
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
			marked, _, _ := m.Replace(data, []byte("\x00"), false)
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
