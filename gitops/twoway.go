package gitops

import (
	"errors"

	"github.com/go-git/go-git/v5/plumbing"
)

// checkoutTree moves the index and the worktree from tree from to tree to
// for the paths that differ, keeping every other local change, as git's
// two-way merge does for a fast-forward or a branch switch: a path is
// updated when the index still holds from's version and the file is
// unchanged; left alone when the index already holds to's version; and
// anything else (staged or unstaged changes in the way, an untracked file
// where a new one goes) is returned as a problem, with nothing changed.
func (r *Repo) checkoutTree(from, to plumbing.Hash, onTouch func(Touched)) (int, []string, error) {
	lk, conflicted, err := r.lockResolvedIndex()
	if err != nil {
		return 0, nil, err
	}
	if conflicted != "" {
		return 0, []string{conflicted + " is in conflict (resolve it, or end the merge with editor::git::merge abort)"}, nil
	}
	defer lk.rollback()
	idx := lk.idx
	fileMode := r.cfg.boolean("core", "", "filemode", true)
	symlinks := r.cfg.boolean("core", "", "symlinks", true)
	var ms []pathMerge
	var problems []string
	err = r.diffTreesVerified("", from, to, func(p string, o, n side) error {
		cur := idx.entry(p)
		sameAs := func(s side) bool {
			if cur == nil || cur.intentToAdd() {
				return !s.ok
			}
			return s.ok && cur.Hash == s.e.hash && normalMode(cur.Mode) == s.e.mode
		}
		switch {
		case r.denied(p):
			problems = append(problems, p+" matches a deny rule")
			return nil
		case sameAs(n):
			return nil // the index already holds the new version
		case !sameAs(o):
			if cur == nil {
				problems = append(problems, p+" is staged for deletion")
			} else {
				problems = append(problems, p+" has staged changes")
			}
			return nil
		case cur != nil:
			ok, err := r.matchesEntry(cur, idx, fileMode, symlinks)
			if err != nil {
				return err
			}
			if !ok {
				problems = append(problems, p+" has local changes")
				return nil
			}
		default:
			if w, _ := r.readWorktree(p, false); w.exists && !w.isDir {
				problems = append(problems, p+" is an untracked file in the way")
				return nil
			}
		}
		if n.ok {
			for dir, _ := splitPath(p); dir != ""; dir, _ = splitPath(dir) {
				if w, _ := r.readWorktree(dir, false); w.exists && !w.isDir && idx.entry(dir) == nil {
					problems = append(problems, dir+" is a file where a folder is needed")
				}
			}
		}
		ms = append(ms, pathMerge{path: p, entry: n.e, exists: n.ok})
		return nil
	})
	if err != nil {
		var ue *UnsafePathError
		if errors.As(err, &ue) {
			return 0, nil, r.refuseTree(ue, "the commit "+short(to)+" checked out")
		}
		return 0, nil, err
	}
	if len(problems) > 0 {
		return 0, problems, nil
	}
	_, n, err := r.applyMerge(idx, ms, nil, onTouch)
	if err != nil {
		return n, nil, err
	}
	if err := lk.write(idx); err != nil {
		return n, nil, err
	}
	return n, nil, nil
}
