package gitops

import (
	"github.com/editord/editord/shell"
	"github.com/go-git/go-git/v5/plumbing"
)

// wtOp is one worktree write of a merge, a stash apply, a branch switch or
// a restore: a file (or symlink) written, or removed.
type wtOp struct {
	path   string
	data   []byte        // the content, when hash is zero
	hash   plumbing.Hash // the blob, when known
	mode   uint32
	remove bool
}

// putWorktree is the one way merges, stash apply, branch switch and
// restore write the worktree: secgit's verified applyWorktree (checkout.go),
// which checks every path of the set before anything is written. Content
// that is no blob yet (a file with conflict markers, a merged file) is
// stored as one first, so that every write names a blob.
func (r *Repo) putWorktree(ops []wtOp, onTouch func(Touched)) (map[string]shell.FileStat, error) {
	changes := make([]worktreeChange, 0, len(ops))
	for _, op := range ops {
		if op.remove {
			changes = append(changes, worktreeChange{Path: op.path, Remove: true})
			continue
		}
		h := op.hash
		if h.IsZero() {
			h = hashObject("blob", op.data)
		}
		changes = append(changes, worktreeChange{Path: op.path, Entry: treeEntry{name: op.path, mode: op.mode, hash: h}})
	}
	// Verified before any blob is stored: a refused set writes nothing.
	if _, err := r.verifyChanges(changes); err != nil {
		return nil, err
	}
	for _, op := range ops {
		if !op.remove && op.hash.IsZero() {
			if _, err := r.writeObject(plumbing.BlobObject, op.data); err != nil {
				return nil, err
			}
		}
	}
	stats, _, err := r.applyWorktree(changes, onTouch)
	return stats, err
}

// mergeCheck is what must hold in the index and the worktree before a
// merge's outcome is written.
type mergeCheck struct {
	// oursTree: the index must hold its version at every path the merge
	// changes (zero: skip this check, the index is ours).
	oursTree plumbing.Hash
}

// mergeProblems lists the paths a merge would change that hold local
// changes (staged, or in the worktree) or an untracked file in the way, as
// git refuses them ("Your local changes to the following files would be
// overwritten by merge").
func (r *Repo) mergeProblems(idx *Index, ms []pathMerge, chk mergeCheck) ([]string, error) {
	fileMode := r.cfg.boolean("core", "", "filemode", true)
	symlinks := r.cfg.boolean("core", "", "symlinks", true)
	var problems []string
	for _, m := range ms {
		if m.conflict == "file/directory" {
			problems = append(problems, m.path+" is a file on one side and a folder on the other, a conflict editord's merge cannot leave for you to resolve (move it aside on this branch with editor::move and commit, then merge again)")
			continue
		}
		if r.denied(m.path) {
			problems = append(problems, m.path+" matches a deny rule")
			continue
		}
		cur := idx.entry(m.path)
		if !chk.oursTree.IsZero() {
			te, ok, err := r.lookupPath(chk.oursTree, m.path)
			if err != nil {
				return nil, err
			}
			inIdx := cur != nil && !cur.intentToAdd()
			if ok != inIdx || ok && (te.hash != cur.Hash || te.mode != normalMode(cur.Mode)) {
				problems = append(problems, m.path+" has staged changes")
				continue
			}
		}
		if cur != nil {
			ok, err := r.matchesEntry(cur, idx, fileMode, symlinks)
			if err != nil {
				return nil, err
			}
			if !ok {
				problems = append(problems, m.path+" has local changes")
			}
			continue
		}
		w, err := r.readWorktree(m.path, false)
		if err != nil {
			return nil, err
		}
		if w.exists && !w.isDir {
			problems = append(problems, m.path+" is an untracked file in the way")
		}
	}
	return problems, nil
}

// applyMerge writes a merge's outcome: clean paths into the index (stage
// 0) and the worktree, conflicted ones as stages 1-3 with the worktree
// holding the file with markers. It returns the conflicted paths.
// extra are further writes of the same operation (a stash's untracked
// files), verified and written together with the merge's.
func (r *Repo) applyMerge(idx *Index, ms []pathMerge, extra []wtOp, onTouch func(Touched)) (conflicts []string, n int, err error) {
	ops := append([]wtOp(nil), extra...)
	for _, m := range ms {
		switch {
		case m.conflict != "":
			if m.wtExists {
				if m.wtMode != modeGitlink {
					ops = append(ops, wtOp{path: m.path, data: m.wt, mode: m.wtMode})
				}
			} else {
				ops = append(ops, wtOp{path: m.path, remove: true})
			}
		case !m.exists:
			ops = append(ops, wtOp{path: m.path, remove: true})
		case m.data != nil:
			ops = append(ops, wtOp{path: m.path, data: m.data, mode: m.entry.mode})
		case m.entry.mode != modeGitlink:
			ops = append(ops, wtOp{path: m.path, hash: m.entry.hash, mode: m.entry.mode})
		}
	}
	stats, err := r.putWorktree(ops, onTouch)
	if err != nil {
		return nil, 0, err
	}
	drop := map[string]bool{}
	var add []IndexEntry
	for _, m := range ms {
		drop[m.path] = true
		switch {
		case m.conflict != "":
			conflicts = append(conflicts, m.path)
			for st := 1; st <= 3; st++ {
				if m.has[st] {
					add = append(add, IndexEntry{Mode: m.stages[st].mode, Hash: m.stages[st].hash, Path: m.path, Flags: uint16(st) << 12})
				}
			}
		case m.exists:
			e := IndexEntry{Mode: m.entry.mode, Hash: m.entry.hash, Path: m.path}
			if st, ok := stats[m.path]; ok {
				e.setStat(st)
			}
			add = append(add, e)
		}
	}
	kept := idx.Entries[:0]
	for _, e := range idx.Entries {
		if !drop[e.Path] {
			kept = append(kept, e)
		}
	}
	idx.Entries = append(kept, add...)
	for _, e := range add {
		if e.Stage() == 0 {
			removeUnder(idx, e.Path)
			removeAncestors(idx, e.Path)
		}
	}
	sortEntries(idx.Entries)
	return conflicts, len(ops), nil
}
