package search

import (
	"context"
	"slices"
	"sort"
	"strings"
)

// FindOptions are the inputs of editor::find.
type FindOptions struct {
	Query            string
	Limit            int  // results wanted
	IncludeUntracked bool // in a repository, add untracked files that are not ignored
	MaxCandidates    int  // candidates considered at most (max_find_candidates); 0: no cap
}

// FindResult is what editor::find returns.
type FindResult struct {
	Matches   []Match
	Scanned   int  // candidates considered
	Truncated bool // more than MaxCandidates candidates existed; the first ones in byte order were kept
	FromGit   bool // candidates came from git's index
}

// candidates is find's merged, capped candidate list for one set of inputs.
type candidates struct {
	key       candKey
	paths     []string
	prepared  *Candidates
	truncated bool
	// past holds the candidates the cap left out (byte order), where an
	// exact path or file name is still looked up (exactPast).
	past []string
}

type candKey struct {
	fromGit, untracked bool
	treeGen, idxGen    uint64
	tree               any // the *shell.FileTree the list came from
	max                int
}

// Find ranks the root's files against the query.
func (e *Engine) Find(ctx context.Context, root string, opt FindOptions) (*FindResult, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s := e.state(root)
	s.mu.Lock()
	c, err := s.candidates(opt.IncludeUntracked, opt.MaxCandidates)
	s.mu.Unlock()
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	matches := c.prepared.Rank(opt.Query, opt.Limit)
	if c.truncated {
		matches = mergeMatches(matches, exactPast(c.past, opt.Query, opt.Limit), opt.Limit)
	}
	return &FindResult{
		Matches:   matches,
		Scanned:   len(c.paths),
		Truncated: c.truncated,
		FromGit:   c.key.fromGit,
	}, nil
}

// Files lists the root's files as Find ranks them (git's tracked files
// and its untracked, not ignored ones; else a walk honouring .gitignore),
// root-relative, in byte order: what a tool that indexes the workspace
// reads. maxCandidates is Find's own (max_find_candidates), so that both
// share one list.
func (e *Engine) Files(ctx context.Context, root string, maxCandidates int) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s := e.state(root)
	s.mu.Lock()
	c, err := s.candidates(true, maxCandidates)
	s.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return append(slices.Clip(c.paths), c.past...), nil
}

// candidates returns the current candidate list, rebuilding it only when
// the tree or the index changed; call with s.mu held.
//
// In a repository the candidates are the index's tracked files under the
// root, plus (include_untracked) the walk's files that git does not track:
// the walk honours .gitignore, so those are exactly the untracked,
// non-ignored ones (noise folders left out). A tracked file that the walk
// did not see (ignored, in a noise folder, or deleted) is kept only if it
// still exists. Outside a repository, or when the index cannot be read, the
// walk alone.
func (s *rootState) candidates(untracked bool, max int) (*candidates, error) {
	r := findRepo(s.j, s.root)
	needTree := r == nil || untracked
	f, err := s.refresh(r, needTree, r != nil)
	if err != nil {
		return nil, err
	}
	if f.repo != nil && f.idx == nil && f.tree == nil {
		// The index could not be read: fall back to the walk.
		if f, err = s.refresh(r, true, false); err != nil {
			return nil, err
		}
	}
	key := candKey{fromGit: f.idx != nil, untracked: untracked, idxGen: f.gen, max: max}
	if f.tree != nil {
		key.tree, key.treeGen = f.tree, f.tree.Gen()
	}
	if s.cand != nil && s.cand.key == key {
		return s.cand, nil
	}
	var paths []string
	switch {
	case key.fromGit && f.tree == nil:
		paths = f.idx
	case key.fromGit:
		paths, err = mergeTracked(f, untracked)
		if err != nil {
			return nil, err
		}
	default:
		files := f.tree.Files()
		paths = make([]string, len(files))
		for i, t := range files {
			paths[i] = t.Rel
		}
	}
	c := &candidates{key: key, paths: paths}
	if max > 0 && len(paths) > max {
		c.paths, c.past, c.truncated = paths[:max:max], paths[max:], true
	}
	c.prepared = Prepare(c.paths)
	s.cand = c
	return c, nil
}

// mergeTracked merges the tracked files with the walk (both in byte order).
func mergeTracked(f fresh, untracked bool) ([]string, error) {
	files := f.tree.Files()
	rd, err := f.tree.NewReader()
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	out := make([]string, 0, max(len(files), len(f.idx)))
	i, k := 0, 0
	for i < len(f.idx) || k < len(files) {
		switch {
		case k == len(files) || (i < len(f.idx) && f.idx[i] < files[k].Rel):
			if rd.Exists(f.idx[i]) {
				out = append(out, f.idx[i])
			}
			i++
		case i == len(f.idx) || files[k].Rel < f.idx[i]:
			if untracked {
				out = append(out, files[k].Rel)
			}
			k++
		default:
			out = append(out, f.idx[i])
			i++
			k++
		}
	}
	return out, nil
}

// exactPast finds, among the candidates the cap left out, the one whose
// path is exactly the query and those whose file name is: the cap bounds
// fuzzy ranking, but never hides a file asked for by its name (issue 12).
func exactPast(past []string, query string, limit int) []Match {
	q := strings.TrimPrefix(strings.TrimSpace(query), "./")
	if q == "" || len(past) == 0 {
		return nil
	}
	var hits []string
	if i, ok := slices.BinarySearch(past, q); ok {
		hits = append(hits, past[i])
	}
	if !strings.Contains(q, "/") {
		for _, p := range past {
			if strings.HasSuffix(p, q) && (len(p) == len(q) || p[len(p)-len(q)-1] == '/') && p != q {
				hits = append(hits, p)
				if len(hits) >= limit {
					break
				}
			}
		}
	}
	if len(hits) == 0 {
		return nil
	}
	return Prepare(hits).Rank(q, limit)
}

// mergeMatches merges two ranked lists in the order of Rank, keeping limit.
func mergeMatches(a, b []Match, limit int) []Match {
	if len(b) == 0 {
		return a
	}
	all := append(slices.Clone(a), b...)
	sort.SliceStable(all, func(i, j int) bool { return Before(all[i], all[j]) })
	all = slices.CompactFunc(all, func(x, y Match) bool { return x.Path == y.Path })
	if len(all) > limit {
		all = all[:limit]
	}
	return all
}

// Warm builds what a first find or search of root needs (the tree, git's
// index, find's prepared candidates), so that the first call finds it
// ready. A call that arrives meanwhile waits for it on the root's lock
// rather than doing the same work a second time.
func (e *Engine) Warm(root string, maxCandidates int) error {
	s := e.state(root)
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.candidates(true, maxCandidates); err != nil {
		return err
	}
	// A tree starts watching for changes at its second refresh (one used
	// once, by `editord call`, never pays for the watches): do that here,
	// in the background of a server that just started, rather than in its
	// first call (38,000 folders to watch at 240,000 files: 0.3 s).
	_, err := s.candidates(true, maxCandidates)
	return err
}
