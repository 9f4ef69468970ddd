package search

import (
	"fmt"
	"regexp"
)

// TooLargeError is Replace's refusal of a result over its limit: Size is
// the length the result would have had.
type TooLargeError struct {
	Size, Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("the result would be %d bytes, over %d", e.Size, e.Limit)
}

// Replace returns data with every match of m replaced by with, and how many
// it replaced. The matches are exactly those editor::search reports: the
// lines Scan finds, and in each the ranges its hits list (computed on the
// whole line, not the 500 bytes a hit carries). With expand, with is a
// template: $1 or ${name} insert a group, $$ a "$" (Go's regexp.Expand);
// otherwise it is inserted as is.
//
// The result's length is known before it is made: a first pass measures it
// (each expansion measured, not made), and a result over limit is refused
// with a *TooLargeError and nothing allocated for it. A 50 KB line of
// single-byte matches replaced by 4 KB grows to 200 MB, and building it
// (then diffing it) took 577 MiB before anything checked its size.
func (m *Matcher) Replace(data, with []byte, expand bool, limit int64) ([]byte, int, error) {
	return m.ReplaceCase(data, with, expand, false, limit)
}

// ReplaceCase is Replace; with preserveCase each replacement takes the case
// of the text it replaces (PreserveCase), measured as it is built.
func (m *Matcher) ReplaceCase(data, with []byte, expand, preserveCase bool, limit int64) ([]byte, int, error) {
	r := replacer{m: m, data: data, with: with, expand: expand, preserve: preserveCase}
	if expand {
		if r.re = m.re; r.re == nil {
			var err error
			if r.re, err = regexp.Compile(m.src); err != nil || m.src == "" {
				return nil, 0, invalidf("this pattern cannot expand $ groups; pass literal: true with plain text")
			}
		}
		r.tmpl = parseTemplate(with, r.re)
	} else if m.lit != nil && !(len(m.special) > 0 && containsAny(data, m.special)) {
		r.lit = m.lit
	} else {
		r.re = m.re
	}
	size, n := r.run(nil)
	if n == 0 {
		return data, 0, nil
	}
	if size > limit {
		return nil, 0, &TooLargeError{Size: size, Limit: limit}
	}
	out := make([]byte, 0, size)
	r.run(&out)
	return out, n, nil
}

// replacer walks the matches of one Replace: once to measure, once to
// build. It keeps no list of them: a line of 50,000 one-byte matches costs
// what the line costs.
type replacer struct {
	m      *Matcher
	data   []byte
	with   []byte
	lit    *litFinder     // the literal path: matches found across the data
	re     *regexp.Regexp // else, line by line; with expand, the template's
	expand bool
	tmpl   template
	// preserve gives each replacement the case of its match: the
	// replacement is then made (and dropped) in the measuring pass too.
	preserve bool
}

// run measures the result, and appends it to *out unless out is nil.
func (r *replacer) run(out *[]byte) (size int64, n int) {
	data := r.data
	last := 0 // data[last:] is not emitted yet
	emit := func(b []byte) {
		size += int64(len(b))
		if out != nil {
			*out = append(*out, b...)
		}
	}
	if r.lit != nil {
		// The needle holds no line break, so every occurrence lies in one
		// line, and a line break is a word boundary: the occurrences across
		// the data are each line's (litRanges).
		k := len(r.lit.needle)
		c := r.lit.cursor()
		for from := 0; from+k <= len(data); {
			i := c.index(data, from)
			if i < 0 {
				break
			}
			if r.m.word && !(boundary(data, i) && boundary(data, i+k)) {
				from = i + 1
				continue
			}
			emit(data[last:i])
			if r.preserve {
				emit(PreserveCase(data[i:i+k], r.with))
			} else {
				emit(r.with)
			}
			last, from = i+k, i+k
			n++
		}
		emit(data[last:])
		return size, n
	}
	// Line by line, the lines the search would look at (Scan's), each
	// matched whole.
	sc := scanner{m: r.m}
	sc.lines(data, func(ls, le, _ int, _ bool) bool {
		line := data[ls:le]
		var ms [][]int
		if r.expand {
			ms = r.re.FindAllSubmatchIndex(line, -1)
		} else {
			ms = r.re.FindAllIndex(line, -1)
		}
		if len(ms) == 0 {
			return true
		}
		emit(data[last:ls])
		at := 0 // line[at:] is not emitted yet
		for _, m := range ms {
			emit(line[at:m[0]])
			switch {
			case r.preserve && r.expand:
				emit(PreserveCase(line[m[0]:m[1]], r.re.Expand(nil, r.with, line, m)))
			case r.preserve:
				emit(PreserveCase(line[m[0]:m[1]], r.with))
			case !r.expand:
				emit(r.with)
			case out != nil:
				before := len(*out)
				*out = r.re.Expand(*out, r.with, line, m)
				size += int64(len(*out) - before)
			default:
				size += r.tmpl.size(m)
			}
			at = m[1]
			n++
		}
		last = ls + at
		return true
	})
	emit(data[last:])
	return size, n
}
