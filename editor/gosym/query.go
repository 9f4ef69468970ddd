package gosym

import (
	"path"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/editord/editord/search"
)

// Match is a declaration a query found.
type Match struct {
	Decl
	Path    string // the file, root-relative
	Package string // the package's import path
	Score   int    // higher is better, within one answer
}

// Query ranks the declarations against query as editor::find ranks paths
// (search.Rank: the query's characters in order, case-insensitively; runs,
// word starts and exact case score higher), matched on the name first and
// on pkg.Name when the name alone does not hold it. It returns the best
// limit, best first, and how many declarations match in all. Equal
// scores go to the shorter name, then byte order, then path and line.
func (x *Index) Query(query string, limit int) ([]Match, int) {
	if strings.TrimSpace(query) == "" || limit <= 0 {
		return []Match{}, 0
	}
	shards := x.prepared()
	type hit struct {
		m search.Match
		r ref
	}
	answers := make([][]hit, len(shards))
	counts := make([]int, len(shards))
	next := make(chan int, len(shards))
	for i := range shards {
		next <- i
	}
	close(next)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(shards)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				s := shards[i]
				ms, n := s.cands.RankCount(query, limit)
				hs := make([]hit, len(ms))
				for k, m := range ms {
					hs[k] = hit{m, s.refs[m.Index]}
				}
				answers[i], counts[i] = hs, n
			}
		}()
	}
	wg.Wait()
	var all []hit
	total := 0
	for i := range answers {
		all = append(all, answers[i]...)
		total += counts[i]
	}
	sort.Slice(all, func(i, j int) bool {
		a, b := all[i], all[j]
		switch {
		case search.Before(a.m, b.m):
			return true
		case search.Before(b.m, a.m):
			return false
		case a.r.f.rel != b.r.f.rel: // the same text: path order, then line
			return a.r.f.rel < b.r.f.rel
		}
		return a.r.i < b.r.i
	})
	all = all[:min(limit, len(all))]
	out := make([]Match, len(all))
	x.mu.Lock()
	defer x.mu.Unlock()
	for i, h := range all {
		f := h.r.f
		out[i] = Match{Decl: f.decls[h.r.i], Path: f.rel, Package: x.importPath(path.Dir(f.rel), f.pkg), Score: h.m.Score}
	}
	return out, total
}
