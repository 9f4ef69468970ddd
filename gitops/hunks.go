package gitops

import (
	"sort"

	"github.com/editord/editord/shell"
	"github.com/go-git/go-git/v5/plumbing"
)

// Side is one side of a diff: the content, and whether the file exists
// there at all (a missing side diffs as an empty file, shown as /dev/null).
type Side struct {
	Data   []byte
	Exists bool
}

// Against values of HunkSides.
const (
	AgainstWorktree = "worktree" // index -> working file (git diff)
	AgainstIndex    = "index"    // HEAD -> index (git diff --cached)
	AgainstHead     = "head"     // HEAD -> working file (git diff HEAD)
	AgainstUpstream = "upstream" // upstream's commit -> working file
	AgainstRev      = "rev"      // any revision -> working file (git diff <rev> -- path)
)

// HunkSides returns the two sides to diff for path. untracked is true for
// a file git does not track (then the sides are empty). A path absent on
// both sides is not_found. maxBytes bounds each side (too_large).
// With against "rev", rev names the revision (anything revParse takes).
func (r *Repo) HunkSides(against, rev, path string, maxBytes int64) (before, after Side, untracked bool, err error) {
	idx, err := r.sharedIndex()
	if err != nil {
		return before, after, false, err
	}
	i := sort.Search(len(idx.Entries), func(i int) bool { return idx.Entries[i].Path >= path })
	for ; i < len(idx.Entries) && idx.Entries[i].Path == path; i++ {
		if idx.Entries[i].Stage() != 0 {
			return before, after, false, shell.Errorf(shell.CodeGitFailed, r.Abs(path), "%s is in conflict (a merge left it unresolved); its sides are editor::git::show rev \":1\", \":2\" and \":3\"; fix the markers in the file, then finish with editor::git::commit", path)
		}
	}
	ie := idx.entry(path)
	if ie != nil && ie.intentToAdd() {
		ie = nil
	}
	fromIndex := func() (Side, error) {
		if ie == nil {
			return Side{}, nil
		}
		data, err := r.blobContent(ie.Hash, normalMode(ie.Mode), path, maxBytes)
		return Side{Data: data, Exists: err == nil}, err
	}
	fromCommit := func(rev string) (Side, error) {
		c, ok, err := r.compared(rev, path)
		if err != nil || !ok {
			return Side{}, err
		}
		tree, err := r.treeOf(c)
		if err != nil {
			return Side{}, err
		}
		te, found, err := r.lookupPath(tree, path)
		if err != nil || !found || te.isDir() {
			return Side{}, err
		}
		data, err := r.blobContent(te.hash, te.mode, path, maxBytes)
		return Side{Data: data, Exists: err == nil}, err
	}
	fromWorktree := func() (Side, error) {
		data, ok, err := r.worktreeFile(path, maxBytes)
		return Side{Data: data, Exists: ok}, err
	}
	switch against {
	case AgainstWorktree, "":
		if before, err = fromIndex(); err != nil {
			return
		}
		if after, err = fromWorktree(); err != nil {
			return
		}
		if !before.Exists && after.Exists {
			return Side{}, Side{}, true, nil
		}
	case AgainstIndex:
		if before, err = fromCommit("HEAD"); err != nil {
			return
		}
		if after, err = fromIndex(); err != nil {
			return
		}
		if !before.Exists && !after.Exists && ie == nil && r.exists(path) {
			return Side{}, Side{}, true, nil
		}
	case AgainstHead, AgainstUpstream, AgainstRev:
		switch against {
		case AgainstHead:
			rev = "HEAD"
		case AgainstUpstream:
			rev = ""
		default:
			if rev == "" {
				return before, after, false, shell.Errorf(shell.CodeInvalidArgument, "", "against \"rev\" needs rev, the revision to compare with (main~2, a SHA, stash@{0})")
			}
		}
		if before, err = fromCommit(rev); err != nil {
			return
		}
		if after, err = fromWorktree(); err != nil {
			return
		}
		if ie == nil && after.Exists && !before.Exists {
			return Side{}, Side{}, true, nil
		}
		if ie == nil && !before.Exists {
			after = Side{}
		}
	default:
		return before, after, false, shell.Errorf(shell.CodeInvalidArgument, "", "against must be worktree, index, head, upstream or rev, not %q", against)
	}
	if !before.Exists && !after.Exists {
		return before, after, false, shell.Errorf(shell.CodeNotFound, r.Abs(path), "%s is not in the worktree, the index or the revision compared; check the path with editor::git::status", path)
	}
	return before, after, false, nil
}

// compared is the commit a comparison reads: rev, or the upstream's
// commit when rev is "" (path names the file asked about in errors). ok is
// false for a revision that resolves to nothing (HEAD before the first
// commit).
func (r *Repo) compared(rev, path string) (c plumbing.Hash, ok bool, err error) {
	if rev != "" {
		return r.revParse(rev)
	}
	h, err := r.head()
	if err != nil {
		return c, false, err
	}
	short, ref, has := r.upstreamOf(h.branch)
	if !has {
		return c, false, shell.Errorf(shell.CodeInvalidArgument, r.Abs(path), "the current branch has no upstream; compare against a remote-tracking branch by name instead (against \"rev\", rev \"origin/main\")")
	}
	if c, err = r.ref(ref); err != nil {
		return c, false, err
	}
	if c.IsZero() {
		return c, false, shell.Errorf(shell.CodeInvalidArgument, r.Abs(path), "the upstream %s has not been fetched; run editor::git::sync with action fetch", short)
	}
	return c, true, nil
}

// exists reports whether anything is at path in the worktree.
func (r *Repo) exists(path string) bool {
	_, err := r.wfs.Lstat(path)
	return err == nil
}
