package search

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// A query of several words, as a picker reads it: a space is "anything
// between", so "cluster autoscaler main.go" is the words cluster,
// autoscaler and main.go in that order anywhere in the path. The condition
// is the words joined ("clusterautoscalermain.go") being a subsequence of
// the path, which is what fuzzy scores; the words add the run bonus of each
// one found as a run, in order, and decide the tier: the basename tier when
// the last word can match inside the file name after the others matched
// before it.

func newWordsRanker(query string, words []string) *ranker {
	r := newTermRanker(strings.Join(words, ""))
	// Several words are matched across the whole path, as a query with "/".
	r.slash = true
	for _, w := range words {
		t := newTermRanker(w)
		t.slash = true // a word starting a folder earns the start bonus
		r.terms = append(r.terms, t)
	}
	r.whole = newTermRanker(query)
	r.whole.slash = true
	return r
}

// lastInBase reports whether candidate i matches with its last word inside
// the file name: the words before it matched as early as they can (which
// leaves the most room), then the last one in what follows within the name.
func (r *ranker) lastInBase(c *Candidates, i int) bool {
	at := 0
	n := len(r.terms)
	for _, t := range r.terms[:n-1] {
		if at = t.endIn(c, i, at); at < 0 {
			return false
		}
	}
	return r.terms[n-1].endIn(c, i, max(at, int(c.base[i]))) >= 0
}

// endIn is where the earliest match of t in candidate i's path from byte
// from ends (the byte after its last character), or -1.
func (t *ranker) endIn(c *Candidates, i, from int) int {
	if lp := c.lower[i]; t.ascii && lp != "" {
		q, k := t.lower, 0
		for j := from; j < len(lp); j++ {
			if lp[j] == q[k] {
				if k++; k == len(q) {
					return j + 1
				}
			}
		}
		return -1
	}
	p, k := c.paths[i], 0
	for j := from; j < len(p); {
		cr, size := utf8.DecodeRuneInString(p[j:])
		if equalFold(cr, t.q[k]) {
			if k++; k == len(t.q) {
				return j + size
			}
		}
		j += size
	}
	return -1
}

// literalBonus lifts a path holding the query as written (spaces
// included, "docs/my file.txt" for "my file") above the paths of its tier
// that match it only as words: a literal space is the strongest sign of
// the file meant. It exceeds any score within a tier (maxFuzzyRunes) and
// stays below vendorPenalty, so the tiers keep their order.
const literalBonus = 1 << 30

// wordsBonus is runBonus for a query of words: the bonus of each word found
// as a run after the previous word's run, plus literalBonus when the path
// holds the query as written. The positions (appended to pos) are the runs',
// one per character of the joined words, when every word was found as a
// run; nil otherwise (fuzzy's positions stand).
func (r *ranker) wordsBonus(c *Candidates, k int, pos []int) (int, []int) {
	start := len(pos)
	total, from, all := 0, 0, true
	for _, t := range r.terms {
		b, p := t.runBonus(c, k, from, pos)
		if p == nil {
			all = false
			continue
		}
		total += b
		pos = p
		last := p[len(p)-1]
		_, size := utf8.DecodeRuneInString(c.paths[k][last:])
		from = last + size
	}
	if _, p := r.whole.runBonus(c, k, 0, pos[:start]); p != nil {
		// The run of the query as written: its positions, less the spaces'.
		kept := p[:start]
		for qi, at := range p[start:] {
			if !unicode.IsSpace(r.whole.q[qi]) {
				kept = append(kept, at)
			}
		}
		return total + literalBonus, kept
	}
	if !all {
		return total, nil
	}
	return total, pos
}
