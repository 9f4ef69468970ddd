package gitops

import (
	"context"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// Changed is a path a repository-wide comparison covers.
type Changed struct {
	Path      string // repository-relative
	Untracked bool   // git does not track it: the whole file is new
	Conflict  bool   // a merge left it unresolved (no two sides to diff)
}

// ChangedPaths lists, by path, every file whose sides differ for a
// comparison as HunkSides reads it (against, rev): from git status for
// worktree (unstaged changes and untracked files), index (staged changes)
// and head (both), and for upstream and rev also every file that differs
// between that commit and HEAD. Untracked files are listed where the
// worktree is a side (not for index); nested repositories are not (they
// have no lines to diff). Denied paths never appear (Status leaves them
// out; so does this).
func (r *Repo) ChangedPaths(ctx context.Context, against, rev string) ([]Changed, error) {
	st, err := r.Status(ctx)
	if err != nil {
		return nil, err
	}
	set := map[string]Changed{}
	add := func(c Changed) {
		if c.Path == "" || strings.HasSuffix(c.Path, "/") || r.denied(c.Path) {
			return
		}
		if old, ok := set[c.Path]; ok {
			c.Untracked = c.Untracked && old.Untracked
			c.Conflict = c.Conflict || old.Conflict
		}
		set[c.Path] = c
	}
	for _, e := range st.Entries {
		switch {
		case e.X == codeUnmerged:
			add(Changed{Path: e.Path, Conflict: true})
		case e.X == codeUntracked:
			if against != AgainstIndex {
				add(Changed{Path: e.Path, Untracked: true})
			}
		default:
			staged, unstaged := e.X != codeUnchanged, e.Y != codeUnchanged
			if against == AgainstIndex && !staged || against == AgainstWorktree && !unstaged {
				continue
			}
			add(Changed{Path: e.Path})
			if e.From != "" && against != AgainstWorktree {
				add(Changed{Path: e.From}) // the rename's source: gone from the other side
			}
		}
	}
	if against == AgainstUpstream || against == AgainstRev {
		if err := r.changedSinceCommit(rev, add); err != nil {
			return nil, err
		}
	}
	out := make([]Changed, 0, len(set))
	for _, c := range set {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// changedSinceCommit adds the files that differ between the compared
// commit (rev, or the upstream's for "") and HEAD: with the changes status
// sees since HEAD, every file that differs between that commit and the
// worktree.
func (r *Repo) changedSinceCommit(rev string, add func(Changed)) error {
	c, ok, err := r.compared(rev, "")
	if err != nil {
		return err
	}
	var from plumbing.Hash
	if ok {
		if from, err = r.treeOf(c); err != nil {
			return err
		}
	}
	h, err := r.head()
	if err != nil {
		return err
	}
	headTree, err := r.headTree(h)
	if err != nil {
		return err
	}
	return r.diffTrees("", from, headTree, func(p string, _, _ side) error {
		add(Changed{Path: p})
		return nil
	})
}

// WorktreeSide is the working file at path as a side of a diff (a new,
// untracked file's content), read up to maxBytes (too_large past it).
func (r *Repo) WorktreeSide(path string, maxBytes int64) (Side, error) {
	data, ok, err := r.worktreeFile(path, maxBytes)
	return Side{Data: data, Exists: ok}, err
}
