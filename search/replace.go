package search

import (
	"bytes"
	"math"
	"regexp"
)

// Replace returns data with every match of m replaced by with, and how many
// it replaced. The matches are exactly those editor::search reports: the
// lines Scan finds, and in each the ranges its hits list (computed on the
// whole line, not the 500 bytes a hit carries). With expand, with is a
// template: $1 or ${name} insert a group, $$ a "$" (Go's regexp.Expand);
// otherwise it is inserted as is.
func (m *Matcher) Replace(data, with []byte, expand bool) ([]byte, int, error) {
	return m.ReplaceCase(data, with, expand, false)
}

// ReplaceCase is Replace; with preserveCase each replacement takes the case
// of the text it replaces (PreserveCase).
func (m *Matcher) ReplaceCase(data, with []byte, expand, preserveCase bool) ([]byte, int, error) {
	hits := m.Scan(data, math.MaxInt)
	if len(hits) == 0 {
		return data, 0, nil
	}
	var re *regexp.Regexp
	if expand {
		if re = m.re; re == nil {
			var err error
			if re, err = regexp.Compile(m.src); err != nil || m.src == "" {
				return nil, 0, invalidf("this pattern cannot expand $ groups; pass literal: true with plain text")
			}
		}
	}
	useLit := m.lit != nil && !(len(m.special) > 0 && containsAny(data, m.special))
	out := make([]byte, 0, len(data)+len(hits)*len(with))
	n, lineNo, pos := 0, 1, 0
	for _, h := range hits {
		// Skip to the hit's line.
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
		switch {
		case expand:
			for _, loc := range re.FindAllSubmatchIndex(line, -1) {
				out = append(out, line[last:loc[0]]...)
				if preserveCase {
					out = append(out, PreserveCase(line[loc[0]:loc[1]], re.Expand(nil, with, line, loc))...)
				} else {
					out = re.Expand(out, with, line, loc)
				}
				last = loc[1]
				n++
			}
		default:
			var ranges [][2]int
			if useLit {
				ranges = litRanges(nil, m.lit, m.word, line, 0)
			} else {
				ranges = reRanges(nil, m, line)
			}
			for _, r := range ranges {
				out = append(out, line[last:r[0]]...)
				if preserveCase {
					out = append(out, PreserveCase(line[r[0]:r[1]], with)...)
				} else {
					out = append(out, with...)
				}
				last = r[1]
				n++
			}
		}
		out = append(out, line[last:]...)
		pos = end
	}
	return append(out, data[pos:]...), n, nil
}
