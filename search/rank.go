package search

// Fuzzy path ranking for editor::find.
//
// Matching is sahilm/fuzzy's: the query's characters must appear in order,
// case-insensitively, and its score rewards a first-character match,
// characters after a separator or at a camelCase hump, and (strongly, growing
// with the run) consecutive characters, and it subtracts for unmatched ones.
// On top of it:
//
//   - basename first: a query (without "/") that matches inside the file
//     name is scored on the file name alone and ranks above every match that
//     needs the folders (tier). "mod" puts src/tree/mod.rs above
//     src/models/user.rs. A query with "/" is matched against the whole path.
//   - consecutive runs: fuzzy scores a character after a separator above a
//     consecutive one ("App" would match app.py as a-p-.p), so a query found
//     as one run in the name (or in the path, for a query with "/") gets a
//     bonus larger than fuzzy's separator games, more when the run starts
//     the name or a folder, and its positions are reported;
//   - exact case: each matched character whose case equals the query's adds
//     caseBonus, and a run in the exact case adds more, so "App" prefers
//     App.tsx over app.py and app.ts.
//   - words: a query of several words separated by spaces reads a space as
//     "anything between", as pickers do ("cluster autoscaler main.go" finds
//     cluster-autoscaler/main.go): the words must match in order across the
//     whole path, each word found as one run earns the run bonus, and the
//     match is in the basename tier when the last word matches inside the
//     file name. A path holding the query as written (spaces included)
//     ranks first within its tier (literalBonus).
//   - vendored trees (vendored.go) rank below the project's own files of
//     the same tier.
//   - ties go to the shorter path, then to byte order. Every candidate is
//     scored on its own and the order is total, so the result never depends
//     on the order of the candidates.
//
// Speed: a byte-level subsequence check (the exact condition under which
// fuzzy matches) discards non-matching candidates before fuzzy runs, the
// candidates are split over all cores, and each core keeps only its best
// `limit` in a heap.

import (
	"container/heap"
	"runtime"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/sahilm/fuzzy"
)

// useFuzzyASCII turns fuzzyASCII on; tests turn it off to compare.
var useFuzzyASCII = true

// Match is one ranked path.
type Match struct {
	Path      string
	Score     int
	Positions []int // byte offsets into Path of the matched characters
	// Index is the candidate's place in the list given to Prepare (-1 for
	// a match found elsewhere): what tells equal texts apart.
	Index int
}

const (
	tierBasename = 1 << 32 // added to matches inside the file name
	caseBonus    = 4
	// fuzzy's consecutive-run bonus doubles per character; past this many
	// query characters a linear score is used instead, so scores stay far
	// below tierBasename and never overflow.
	maxFuzzyRunes = 24
	// Below this many candidates one goroutine is faster than several.
	parallelRankMin = 8192
)

// Rank returns the best limit matches of query among paths, best first.
// An empty query returns the first limit paths in byte order.
func Rank(query string, paths []string, limit int) []Match {
	return Prepare(paths).Rank(query, limit)
}

// Candidates is a list of paths prepared for ranking many queries: each
// path's basename offset, and its ASCII-lowercased form for the prefilter.
type Candidates struct {
	paths []string
	lower []string // ASCII-lowercased path; "" when the path is not ASCII (or holds a NUL)
	bytes []uint64 // byteSet of lower
	base  []int32  // offset of the basename
	// vendored marks paths inside a vendored tree (vendored.go).
	vendored []bool
	// qualified: the texts are names (PrepareQualified), whose segments
	// (Type.Method) start runs as folders do and can be matched whole.
	qualified bool
}

// Prepare readies paths (not copied; do not modify them) for Rank.
func Prepare(paths []string) *Candidates {
	return prepare(paths, func(p string) int { return strings.LastIndexByte(p, '/') + 1 })
}

// PrepareQualified readies qualified names (pkg.Name, pkg.Type.Field) for
// Rank: the part after the first dot plays a path's file name, so a query
// found in the name ranks above one that needs the qualifier ("v1.Pod"),
// and a run starting the name earns the start bonus.
func PrepareQualified(names []string) *Candidates {
	c := prepare(names, func(n string) int { return strings.IndexByte(n, '.') + 1 })
	c.qualified = true
	return c
}

func prepare(paths []string, base func(string) int) *Candidates {
	c := &Candidates{paths: paths, lower: make([]string, len(paths)), bytes: make([]uint64, len(paths)), base: make([]int32, len(paths)), vendored: make([]bool, len(paths))}
	for i, p := range paths {
		c.base[i] = int32(base(p))
		if isASCII(p) && strings.IndexByte(p, 0) < 0 {
			c.lower[i] = lowerASCII(p)
			c.bytes[i] = byteSet(c.lower[i])
			c.vendored[i] = vendored(c.lower[i])
		} else {
			c.vendored[i] = vendored(strings.ToLower(p))
		}
	}
	return c
}

// byteSet is a bit for each byte value of s, folded into 64: a path that
// lacks a bit of the query's set cannot hold the query in order, and is
// passed over without reading it. A long query (a whole path) rules out
// nearly every candidate this way: 876 of 56,465 are read for
// prometheus/web/web_test.go.
func byteSet(s string) uint64 {
	var m uint64
	for i := 0; i < len(s); i++ {
		m |= 1 << (s[i] & 63)
	}
	return m
}

// Len is the number of candidates.
func (c *Candidates) Len() int { return len(c.paths) }

func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			return string(asciiLower(s))
		}
	}
	return s
}

// Rank returns the best limit matches of query, best first.
func (c *Candidates) Rank(query string, limit int) []Match {
	m, _ := c.RankCount(query, limit)
	return m
}

// RankCount is Rank with the number of candidates that match (all of
// them, not only the limit returned).
func (c *Candidates) RankCount(query string, limit int) ([]Match, int) {
	if limit <= 0 {
		return []Match{}, 0
	}
	query = strings.TrimPrefix(strings.TrimSpace(query), "./")
	if query == "" {
		return firstPaths(c.paths, limit), len(c.paths)
	}
	r := newRanker(query)
	n := len(c.paths)
	workers := 1
	if n >= parallelRankMin {
		workers = min(runtime.GOMAXPROCS(0), n/(parallelRankMin/2))
	}
	tops := make([][]scored, workers)
	counts := make([]int, workers)
	chunk := (n + workers - 1) / workers
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		lo, hi := w*chunk, min((w+1)*chunk, n)
		if lo >= hi {
			continue
		}
		wg.Add(1)
		go func(w, lo, hi int) {
			defer wg.Done()
			tops[w], counts[w] = r.rankChunk(c, lo, hi, limit)
		}(w, lo, hi)
	}
	wg.Wait()
	var all []scored
	for _, t := range tops {
		all = append(all, t...)
	}
	sort.Slice(all, func(i, j int) bool { return better(all[i], all[j]) })
	if len(all) > limit {
		all = all[:limit]
	}
	out := make([]Match, len(all))
	for i, s := range all {
		out[i] = Match{Path: s.path, Score: s.score, Positions: s.pos, Index: s.idx}
	}
	total := 0
	for _, k := range counts {
		total += k
	}
	return out, total
}

func firstPaths(paths []string, limit int) []Match {
	order := make([]int, len(paths))
	for i := range order {
		order[i] = i
	}
	if !sort.StringsAreSorted(paths) {
		sort.SliceStable(order, func(a, b int) bool { return paths[order[a]] < paths[order[b]] })
	}
	n := min(limit, len(order))
	out := make([]Match, n)
	for i := range n {
		out[i] = Match{Path: paths[order[i]], Positions: []int{}, Index: order[i]}
	}
	return out
}

type scored struct {
	path  string
	score int
	pos   []int
	idx   int
}

// Before reports whether a ranks before b in Rank's order: higher score,
// then shorter, then byte order. Equal texts are left to the caller (Rank
// puts them in the candidates' order): merging answers of several lists
// keeps Rank's order with it.
func Before(a, b Match) bool {
	return better(scored{path: a.Path, score: a.Score}, scored{path: b.Path, score: b.Score})
}

// better is the total order of results: score, then shorter, then bytes,
// then the candidates' order (equal texts).
func better(a, b scored) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	if len(a.path) != len(b.path) {
		return len(a.path) < len(b.path)
	}
	if a.path != b.path {
		return a.path < b.path
	}
	return a.idx < b.idx
}

// worstHeap keeps the best n seen so far, the worst of them on top.
type worstHeap []scored

func (h worstHeap) Len() int           { return len(h) }
func (h worstHeap) Less(i, j int) bool { return better(h[j], h[i]) }
func (h worstHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *worstHeap) Push(x any)        { *h = append(*h, x.(scored)) }
func (h *worstHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

type ranker struct {
	query string
	q     []rune
	lower string // the query ASCII-lowercased, when it is ASCII
	bytes uint64 // byteSet of lower
	ascii bool
	slash bool
	long  bool
	// A query of several words: query, q and lower are the words joined
	// (what must match, in order); terms are the words, whole the query as
	// written (words.go).
	terms []*ranker
	whole *ranker
}

func newRanker(query string) *ranker {
	if words := strings.Fields(query); len(words) > 1 {
		return newWordsRanker(query, words)
	}
	return newTermRanker(query)
}

func newTermRanker(query string) *ranker {
	r := &ranker{query: query, q: []rune(query), ascii: isASCII(query), slash: strings.Contains(query, "/")}
	r.long = len(r.q) > maxFuzzyRunes
	if r.ascii {
		r.lower = string(asciiLower(query))
		r.bytes = byteSet(r.lower)
	}
	return r
}

// subseqLower is the prefilter for an ASCII query on an ASCII path: the
// lowercased query's bytes appear in order in the lowercased path.
func subseqLower(q, s string) bool {
	if len(q) > len(s) {
		return false
	}
	k := 0
	c := q[0]
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			k++
			if k == len(q) {
				return true
			}
			c = q[k]
		}
	}
	return false
}

// subseq reports whether the query's characters appear in s in order,
// case-folded the way fuzzy compares them: exactly fuzzy's match condition.
func (r *ranker) subseq(s string) bool {
	q, qi := r.q, 0
	for i := 0; i < len(s) && qi < len(q); {
		cr, size := rune(s[i]), 1
		if cr >= utf8.RuneSelf {
			cr, size = utf8.DecodeRuneInString(s[i:])
		}
		if equalFold(cr, q[qi]) {
			qi++
		}
		i += size
	}
	return qi == len(q)
}

// matches reports whether candidate i matches in its basename and/or at all.
func (r *ranker) matches(c *Candidates, i int) (inBase, inPath bool) {
	p, b := c.paths[i], int(c.base[i])
	if lp := c.lower[i]; r.ascii && lp != "" {
		if r.bytes&^c.bytes[i] != 0 || !subseqLower(r.lower, lp) {
			return false, false
		}
		if r.terms != nil {
			return r.lastInBase(c, i), true
		}
		return !r.slash && subseqLower(r.lower, lp[b:]), true
	}
	if !r.subseq(p) {
		return false, false
	}
	if r.terms != nil {
		return r.lastInBase(c, i), true
	}
	return !r.slash && r.subseq(p[b:]), true
}

// pathSource feeds fuzzy the basenames (or whole paths) of some candidates.
type pathSource struct {
	c    *Candidates
	idx  []int
	base bool
}

func (p pathSource) String(i int) string { return p.text(p.idx[i]) }

// text is what candidate k is matched on: its basename or its path.
func (p pathSource) text(k int) string {
	if p.base {
		return p.c.paths[k][p.c.base[k]:]
	}
	return p.c.paths[k]
}
func (p pathSource) Len() int { return len(p.idx) }

// rankChunk scores candidates lo..hi and keeps the best limit, with the
// number that match.
func (r *ranker) rankChunk(c *Candidates, lo, hi, limit int) ([]scored, int) {
	var inBase, inPath []int
	for i := lo; i < hi; i++ {
		b, p := r.matches(c, i)
		switch {
		case b:
			inBase = append(inBase, i)
		case p:
			inPath = append(inPath, i)
		}
	}
	h := make(worstHeap, 0, limit+1)
	push := func(s scored) {
		if len(h) < limit {
			heap.Push(&h, s)
		} else if better(s, h[0]) {
			h[0] = s
			heap.Fix(&h, 0)
		}
	}
	for _, tier := range []bool{true, false} {
		// The basename tier of a one-word query is scored on the file name
		// alone; several words are scored on the whole path.
		base := tier && r.terms == nil
		src := pathSource{c: c, idx: inPath}
		if tier {
			src = pathSource{c: c, idx: inBase, base: base}
		}
		if src.Len() == 0 {
			continue
		}
		if !tier && len(h) == limit && h[0].score >= tierBasename {
			// limit matches inside file names already: a match that needs
			// the folders cannot beat them.
			break
		}
		// consider scores a match (its fuzzy score and positions in the
		// text matched) and keeps it if it is among the best so far; the
		// positions are copied only then, so a match that does not make it
		// allocates nothing.
		var runScratch []int
		consider := func(k, fscore int, pos []int) {
			p := c.paths[k]
			off := 0
			if base {
				off = int(c.base[k])
			}
			for j := range pos {
				pos[j] += off
			}
			score := fscore
			if r.long {
				score = linearScore(p, pos, off)
			}
			var run int
			var runPos []int
			if r.terms != nil {
				run, runPos = r.wordsBonus(c, k, runScratch[:0])
			} else {
				run, runPos = r.runBonus(c, k, off, runScratch[:0])
			}
			if runPos != nil {
				runScratch, pos = runPos, runPos
			}
			score += run + caseBonus*r.exactCase(p, pos)
			if tier {
				score += tierBasename
			}
			if c.vendored[k] {
				score -= vendorPenalty
			}
			s := scored{path: p, score: score, idx: k}
			if len(h) == limit && !better(s, h[0]) {
				return
			}
			s.pos = append(make([]int, 0, len(pos)), pos...)
			push(s)
		}
		// ASCII candidates of an ASCII query are scored by fuzzyASCII
		// (fuzzy's own score, on bytes); the rest by fuzzy itself.
		var other []int
		var scratch []int
		for _, k := range src.idx {
			if !useFuzzyASCII || !r.ascii || c.lower[k] == "" {
				other = append(other, k)
				continue
			}
			lt := c.lower[k]
			if base {
				lt = lt[c.base[k]:]
			}
			score, pos, ok := fuzzyASCIILower(r.lower, src.text(k), lt, scratch)
			scratch = pos
			if ok {
				consider(k, score, pos)
			}
		}
		if len(other) > 0 {
			src.idx = other
			for _, m := range fuzzy.FindFromNoSort(r.query, src) {
				consider(src.idx[m.Index], m.Score, m.MatchedIndexes)
			}
		}
	}
	return h, len(inBase) + len(inPath)
}

// Bonuses for the query found as one consecutive run.
const (
	runBase       = 100 // plus runPerChar per query character
	runPerChar    = 10
	runStartBonus = 50 // the run starts the name (or a folder, for a path query)
	runExactChar  = 5  // per character, when the run has the query's exact case
	runWholeBonus = 40 // a qualified name's whole segment (PrepareQualified)
)

// runBonus looks for the query as one run in candidate k's text from off
// (its basename, or the whole path): case-insensitively, preferring an
// exact-case run, then one at the start of a name, then the leftmost. It
// returns the bonus and the run's positions, appended to pos (nil when
// there is no run; pos may hold an earlier word's run, words.go).
func (r *ranker) runBonus(c *Candidates, k, off int, pos []int) (int, []int) {
	p := c.paths[k]
	text := p[off:]
	best, bestRank := -1, -1
	rank := func(at int) {
		rk := 0
		if strings.HasPrefix(text[at:], r.query) {
			rk += 2
		}
		if r.startsSegment(c, text, at) {
			rk++
		}
		if rk > bestRank {
			best, bestRank = at, rk
		}
	}
	if lp := c.lower[k]; r.ascii && lp != "" {
		lt := lp[off:]
		for from := 0; from <= len(lt)-len(r.lower); {
			i := strings.Index(lt[from:], r.lower)
			if i < 0 {
				break
			}
			rank(from + i)
			from += i + 1
		}
	} else {
		for i := 0; i < len(text); {
			if end := foldPrefix(text[i:], r.q); end >= 0 {
				rank(i)
			}
			_, size := utf8.DecodeRuneInString(text[i:])
			i += size
		}
	}
	if best < 0 {
		return 0, nil
	}
	n := len(r.q)
	bonus := runBase + runPerChar*n
	if r.startsSegment(c, text, best) {
		bonus += runStartBonus
		if end := best + len(r.query); c.qualified && (end == len(text) || text[end] == '.') && r.ascii {
			// The name itself ("Reconcile" for X.Reconcile, above
			// Reconciler).
			bonus += runWholeBonus
		}
	}
	if strings.HasPrefix(text[best:], r.query) {
		bonus += runExactChar * n
	}
	if pos == nil {
		pos = make([]int, 0, n)
	}
	for i, need := best, len(pos)+n; len(pos) < need; {
		pos = append(pos, off+i)
		_, size := utf8.DecodeRuneInString(text[i:])
		i += size
	}
	return bonus, pos
}

// startsSegment reports whether a run at byte at of text starts a name:
// the text's start, a folder's for a path query, a segment's (after a
// dot) for a qualified name.
func (r *ranker) startsSegment(c *Candidates, text string, at int) bool {
	return at == 0 || (r.slash && text[at-1] == '/') || (c.qualified && text[at-1] == '.')
}

// foldPrefix reports the byte length of the prefix of s that equals q
// case-insensitively (fuzzy's folding), or -1.
func foldPrefix(s string, q []rune) int {
	i := 0
	for _, qr := range q {
		if i >= len(s) {
			return -1
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if !equalFold(r, qr) {
			return -1
		}
		i += size
	}
	return i
}

// exactCase counts matched characters whose case equals the query's.
func (r *ranker) exactCase(p string, pos []int) int {
	n := 0
	for k, at := range pos {
		if k >= len(r.q) || at >= len(p) {
			break
		}
		c, _ := utf8.DecodeRuneInString(p[at:])
		if c == r.q[k] {
			n++
		}
	}
	return n
}

// linearScore scores a long query's match without fuzzy's doubling run
// bonus: each matched character counts, more after a separator or at the
// start, more when it continues a run; unmatched characters cost one each.
func linearScore(p string, pos []int, from int) int {
	score := 0
	for k, at := range pos {
		score += 2
		if at == from || isSeparator(p[at-1]) {
			score += 10
		}
		if k > 0 && pos[k-1] == at-1 {
			score += 8
		}
	}
	return score - (len(p) - from - len(pos))
}

func isSeparator(c byte) bool {
	return c == '/' || c == '-' || c == '_' || c == ' ' || c == '.' || c == '\\'
}

// equalFold is fuzzy's rune comparison (from strings.EqualFold).
func equalFold(tr, sr rune) bool {
	if tr == sr {
		return true
	}
	if tr < sr {
		tr, sr = sr, tr
	}
	if tr < utf8.RuneSelf {
		return 'A' <= sr && sr <= 'Z' && tr == sr+'a'-'A'
	}
	r := unicode.SimpleFold(sr)
	for r != sr && r < tr {
		r = unicode.SimpleFold(r)
	}
	return r == tr
}
