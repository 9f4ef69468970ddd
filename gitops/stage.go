package gitops

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/editord/editord/shell"
	"github.com/go-git/go-git/v5/plumbing"
)

// Stage brings the named files and folders into the index as they are in
// the worktree, like `git add -A -- paths`: changes, deletions and
// untracked files (not ignored ones). A conflicted file is staged as
// resolved, unless it still holds conflict markers. It returns the paths
// whose index entry changed, sorted.
func (r *Repo) Stage(ctx context.Context, paths []string) ([]string, error) {
	return r.changeIndex(ctx, paths, "stage", func(idx *Index, headTree plumbing.Hash) error {
		var conflicted []string
		for _, p := range idx.conflicted() {
			if selects(paths, p) {
				conflicted = append(conflicted, p)
			}
		}
		if err := r.resolveConflicts(idx, conflicted); err != nil {
			return err
		}
		_, err := r.stagePaths(idx, headTree, paths)
		return err
	})
}

// Unstage puts HEAD's version of the named files and folders back into the
// index, like `git restore --staged -- paths`: a file HEAD lacks leaves the
// index (it is untracked again); the worktree is not touched. It returns
// the paths whose index entry changed, sorted.
func (r *Repo) Unstage(ctx context.Context, paths []string) ([]string, error) {
	return r.changeIndex(ctx, paths, "unstage", func(idx *Index, headTree plumbing.Hash) error {
		headFiles, err := r.treeFiles(headTree)
		if err != nil {
			return err
		}
		matched := make([]bool, len(paths))
		match := func(p string) bool {
			hit := false
			for i, sel := range paths {
				if under(p, sel) {
					matched[i], hit = true, true
				}
			}
			return hit
		}
		// Entries of the selection as HEAD has them; an entry HEAD has not
		// goes, and one already at HEAD keeps its stat data (git status
		// stays fast on it).
		kept := idx.Entries[:0]
		present := map[string]bool{}
		for _, e := range idx.Entries {
			if !match(e.Path) {
				kept = append(kept, e)
				continue
			}
			he, ok := headFiles[e.Path]
			if !ok || e.Stage() != 0 || present[e.Path] {
				continue
			}
			if he.mode != e.Mode || he.hash != e.Hash {
				e = IndexEntry{Mode: he.mode, Hash: he.hash, Path: e.Path}
			}
			e.XFlags &^= xflagIntentToAdd
			present[e.Path] = true
			kept = append(kept, e)
		}
		idx.Entries = kept
		for p, he := range headFiles {
			if match(p) && !present[p] {
				idx.Entries = append(idx.Entries, IndexEntry{Mode: he.mode, Hash: he.hash, Path: p})
			}
		}
		for i, ok := range matched {
			if !ok {
				return shell.Errorf(shell.CodeNotFound, r.Abs(paths[i]), "%s is neither in the index nor in HEAD; nothing to unstage there", paths[i])
			}
		}
		sortEntries(idx.Entries)
		return nil
	})
}

// changeIndex runs change on the index under its lock, with HEAD's tree,
// writes the index and returns the paths whose entries changed, sorted.
func (r *Repo) changeIndex(ctx context.Context, paths []string, verb string, change func(idx *Index, headTree plumbing.Hash) error) ([]string, error) {
	if len(paths) == 0 {
		return nil, shell.Errorf(shell.CodeInvalidArgument, "", "no paths to %s; pass the files or folders to %s", verb, verb)
	}
	h, err := r.head()
	if err != nil {
		return nil, err
	}
	headTree, err := r.headTree(h)
	if err != nil {
		return nil, err
	}
	lk, err := r.lockIndex()
	if err != nil {
		return nil, err
	}
	defer lk.rollback()
	before := indexState(lk.idx)
	if err := change(lk.idx, headTree); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := lk.write(lk.idx); err != nil {
		return nil, err
	}
	return changedEntries(before, indexState(lk.idx)), nil
}

// under reports whether p is sel or lies beneath it ("" selects all).
func under(p, sel string) bool {
	return sel == "" || p == sel || strings.HasPrefix(p, sel+"/")
}

func selects(paths []string, p string) bool {
	for _, sel := range paths {
		if under(p, sel) {
			return true
		}
	}
	return false
}

// indexState is what an index says of each path: mode, blob and stage.
func indexState(idx *Index) map[string]string {
	out := make(map[string]string, len(idx.Entries))
	for _, e := range idx.Entries {
		out[e.Path] += fmt.Sprintf("%o %s %d;", e.Mode, e.Hash, e.Stage())
	}
	return out
}

// changedEntries lists the paths whose index state differs, sorted.
func changedEntries(before, after map[string]string) []string {
	var out []string
	for p, s := range after {
		if before[p] != s {
			out = append(out, p)
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}
