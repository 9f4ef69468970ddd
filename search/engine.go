package search

import (
	"fmt"
	"hash/fnv"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/editord/editord/shell"
)

// Engine serves find and search for the roots of one jail, caching per root.
// Safe for concurrent use.
type Engine struct {
	jail  *shell.Jail
	mu    sync.Mutex
	roots map[string]*rootState
	lru   []string // most recently used last
	trees TreeCache
}

// TreeCache keeps FileTree snapshots (shell.FileTree.Snapshot) of roots
// across restarts: a new process takes a root's tree up from its snapshot,
// re-checking every folder's stamp and listing only those that changed,
// instead of walking it whole. The editor keeps them in the state dir.
// LoadTree returns nil when there is none; SaveTree may fail silently (it
// is a cache).
type TreeCache interface {
	LoadTree(root string) []byte
	SaveTree(root string, data []byte)
}

// SetTreeCache makes e take trees up from, and keep them in, c.
func (e *Engine) SetTreeCache(c TreeCache) {
	e.mu.Lock()
	e.trees = c
	e.mu.Unlock()
}

// maxCachedRoots bounds the per-root caches (a few MB each at 60,000 files).
const maxCachedRoots = 4

// New returns an Engine over j.
func New(j *shell.Jail) *Engine {
	return &Engine{jail: j, roots: map[string]*rootState{}}
}

// Close releases the watches of every cached root. The Engine stays usable;
// later calls rebuild what they need.
func (e *Engine) Close() {
	e.mu.Lock()
	roots := e.roots
	e.roots, e.lru = map[string]*rootState{}, nil
	e.mu.Unlock()
	for _, s := range roots {
		s.close()
	}
}

func (e *Engine) state(root string) *rootState {
	e.mu.Lock()
	defer e.mu.Unlock()
	for i, r := range e.lru {
		if r == root {
			e.lru = append(append(e.lru[:i:i], e.lru[i+1:]...), root)
			break
		}
	}
	s := e.roots[root]
	if s == nil {
		s = &rootState{j: e.jail, root: root, trees: e.trees}
		e.roots[root] = s
		e.lru = append(e.lru, root)
		for len(e.lru) > maxCachedRoots {
			old := e.roots[e.lru[0]]
			delete(e.roots, e.lru[0])
			e.lru = e.lru[1:]
			go old.close() // waits for a call in progress on it
		}
	}
	return s
}

// rootState is the cache of one root. mu serializes refreshes; what they
// hand out (file lists, candidate lists) is immutable.
type rootState struct {
	j    *shell.Jail
	root string
	mu   sync.Mutex

	trees    TreeCache // nil: none
	savedGen uint64    // the tree's Gen when last saved (or taken up)
	saveAt   time.Time // no save before then

	tree    *shell.FileTree
	treeKey string        // repository and content of the ignore files above the root
	parents []parentState // those ignore files, as last read

	idxKey   string // git dir the index came from
	idxStamp stamp
	idxRacy  bool
	idxSum   string // the index's trailing checksum: its content
	idxPaths []string
	idxErr   error
	idxGen   uint64

	cand *candidates

	// The tree's files but its symbolic links (what a search with no glob
	// reads), for the tree and generation they were taken from.
	plain     []shell.TreeFile
	plainTree *shell.FileTree
	plainGen  uint64
}

// plainFiles is the tree's list without its symbolic links, kept while the
// tree is the same: at 56,000 files the copy was as costly as a search
// capped at its first hundred hits. A tree without links is its own list
// (no second copy held). Call with s.mu held.
func (s *rootState) plainFiles(t *shell.FileTree) []shell.TreeFile {
	gen := t.Gen()
	if s.plainTree == t && s.plainGen == gen && s.plain != nil {
		return s.plain
	}
	all := t.Files()
	files := all
	if slices.ContainsFunc(all, func(f shell.TreeFile) bool { return f.Symlink }) {
		files = make([]shell.TreeFile, 0, len(all))
		for _, f := range all {
			if !f.Symlink {
				files = append(files, f)
			}
		}
	}
	s.plain, s.plainTree, s.plainGen = files, t, gen
	return files
}

// parentState is one ignore file above the root, as last read.
type parentState struct {
	parentFile
	st   stamp
	racy bool
	sum  uint64 // FNV-1a of the content; 0 when missing
	data []byte
}

// fresh is one consistent view of a root.
type fresh struct {
	repo *repo
	tree *shell.FileTree // nil unless asked for
	idx  []string        // tracked files; nil outside a repository or when unreadable
	gen  uint64          // idxGen
}

// refresh brings the caches up to date; call with s.mu held.
func (s *rootState) refresh(r *repo, needTree, needIndex bool) (fresh, error) {
	now := time.Now()
	f := fresh{repo: r}
	if needTree {
		key := s.parentKey(r, now)
		if s.tree == nil || key != s.treeKey {
			var rules []shell.ParentRules
			for _, p := range s.parents {
				if p.st.exists {
					rules = append(rules, shell.ParentRules{Below: p.below, Rules: shell.ParseIgnoreFile(p.data)})
				}
			}
			t, err := s.newTree(key, shell.FileTreeOptions{Gitignore: true, Noise: true, Parents: rules})
			if err != nil {
				return f, err
			}
			if s.tree != nil {
				s.tree.Close()
			}
			s.tree, s.treeKey = t, key
		} else if _, err := s.tree.Refresh(); err != nil {
			s.tree.Close()
			s.tree = nil
			return f, err
		}
		f.tree = s.tree
		s.maybeSave(now)
	}
	if needIndex && r != nil {
		s.refreshIndex(r, now)
		if s.idxErr == nil {
			f.idx = s.idxPaths
		}
		f.gen = s.idxGen
	}
	return f, nil
}

// A tree walked whole is saved at once (in the background); one taken up
// from a snapshot that had changed, treeSaveFirst later; then at most
// every treeSaveEvery while it changes (a few MB at most once a minute for
// a 240,000-file tree).
const (
	treeSaveFirst = 10 * time.Second
	treeSaveEvery = time.Minute
)

// newTree builds the root's tree: from its snapshot when the cache holds
// one taken under the same key (the repository and the ignore rules above
// the root), else by a walk.
func (s *rootState) newTree(key string, opt shell.FileTreeOptions) (*shell.FileTree, error) {
	if s.trees != nil {
		if snap := s.trees.LoadTree(s.root); snap != nil {
			if t, changed, err := s.j.LoadFileTree(s.root, opt, snap, key); err == nil {
				// Taken up as it was: nothing to save yet. Changed: save
				// it later, off the first calls' path.
				s.savedGen, s.saveAt = t.Gen(), time.Now().Add(treeSaveFirst)
				if changed {
					s.savedGen = 0
				}
				return t, nil
			}
		}
	}
	// Walked whole: saved right away (in the background), so that the
	// next process to start on this state dir need not walk it again.
	t, err := s.j.NewFileTree(s.root, opt)
	if err == nil {
		s.savedGen, s.saveAt = 0, time.Time{}
	}
	return t, err
}

// maybeSave saves the tree's snapshot in the background when it changed
// since the last save and the time has come; call with s.mu held.
func (s *rootState) maybeSave(now time.Time) {
	if s.trees == nil || s.tree == nil || now.Before(s.saveAt) {
		return
	}
	t, key, gen := s.tree, s.treeKey, s.tree.Gen()
	if gen == s.savedGen {
		return
	}
	s.savedGen, s.saveAt = gen, now.Add(treeSaveEvery)
	go func() {
		if data, err := t.Snapshot(key); err == nil {
			s.trees.SaveTree(s.root, data)
		}
	}()
}

// parentKey re-reads the ignore files above the root that may have changed
// and returns a key naming the repository and their content.
func (s *rootState) parentKey(r *repo, now time.Time) string {
	files := parentFiles(r)
	old := map[string]parentState{}
	for _, p := range s.parents {
		old[p.abs] = p
	}
	s.parents = s.parents[:0]
	var key strings.Builder
	key.WriteString(repoKey(r))
	for _, f := range files {
		st := stampOf(s.j, f.abs)
		p, ok := old[f.abs]
		if !ok || p.racy || st != p.st {
			p = parentState{parentFile: f, st: st, racy: st.racy(now)}
			if st.exists {
				if res, err := s.j.ReadFile(f.abs, 1<<20); err == nil {
					p.data = res.Data
					h := fnv.New64a()
					h.Write(res.Data)
					p.sum = h.Sum64()
				} else {
					p.st.exists = false
				}
			}
		}
		p.parentFile = f
		s.parents = append(s.parents, p)
		fmt.Fprintf(&key, "\x00%s\x00%s\x00%v:%x", f.abs, f.below, p.st.exists, p.sum)
	}
	return key.String()
}

// refreshIndex re-reads git's index when it may have changed: its stamp
// moved or was too young to trust, and its trailing checksum (the hash of
// its content) differs from the one decoded last.
func (s *rootState) refreshIndex(r *repo, now time.Time) {
	abs := r.gitDir + "/index"
	st := stampOf(s.j, abs)
	key := r.gitDir + "\x00" + r.rootRel
	if key == s.idxKey && st == s.idxStamp && !s.idxRacy && s.idxGen > 0 {
		return
	}
	sum := ""
	if st.exists {
		if tail, _, err := s.j.ReadTail(abs, 20); err == nil {
			sum = string(tail)
		}
	}
	if key == s.idxKey && s.idxGen > 0 && sum != "" && sum == s.idxSum && s.idxErr == nil {
		s.idxStamp, s.idxRacy = st, st.racy(now)
		return
	}
	s.idxPaths, s.idxErr = indexPaths(s.j, r, s.root)
	s.idxKey, s.idxStamp, s.idxRacy, s.idxSum = key, st, st.racy(now), sum
	s.idxGen++
}

// close releases the root's watches.
func (s *rootState) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tree != nil {
		s.tree.Close()
	}
}

func repoKey(r *repo) string {
	if r == nil {
		return "-"
	}
	return r.gitDir + "\x00" + r.common + "\x00" + r.rootRel
}
