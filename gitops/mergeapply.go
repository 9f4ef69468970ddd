package gitops

import (
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/editord/editord/shell"
	"github.com/go-git/go-git/v5/plumbing"
)

// wtOp is one worktree write of a merge, a stash apply, a branch switch or
// a restore: a file (or symlink) written, or removed.
type wtOp struct {
	path   string
	data   []byte
	mode   uint32
	remove bool
}

// badTreePath says why a path from a tree must not be written into the
// worktree ("" when it may): an empty, "." or ".." component, anything
// named .git (in any case, with the trailing dots or spaces some
// filesystems drop), a NUL or a backslash.
func badTreePath(p string) string {
	if p == "" || strings.ContainsAny(p, "\x00\\") {
		return "an empty name, a NUL or a backslash"
	}
	for _, c := range strings.Split(p, "/") {
		trimmed := strings.TrimRight(c, ". ")
		switch {
		case c == "" || c == "." || c == "..":
			return "a " + fmt.Sprintf("%q", c) + " component"
		case strings.EqualFold(trimmed, ".git") || strings.EqualFold(c, "git~1"):
			return "a .git component"
		}
	}
	return ""
}

// putWorktree is the one way the functions of this file write the
// worktree. Every path is checked before anything is written: names a tree
// must never hold (badTreePath), and folders on the way that are symlinks
// (writing through one would land outside the path git means). Removals go
// first, so a file can become a folder. It returns the stat data of each
// file written, for the index.
func (r *Repo) putWorktree(ops []wtOp, onTouch func(Touched)) (map[string]shell.FileStat, error) {
	for _, op := range ops {
		if why := badTreePath(op.path); why != "" {
			return nil, shell.Errorf(shell.CodeDenied, r.Abs(op.path), "refusing to write %q: the path holds %s, which git never checks out", op.path, why)
		}
		for dir, _ := splitPath(op.path); dir != ""; dir, _ = splitPath(dir) {
			if fi, err := r.wfs.Lstat(dir); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
				return nil, shell.Errorf(shell.CodeDenied, r.Abs(op.path), "refusing to write %s: %s is a symlink, and git does not write through one", op.path, dir)
			}
		}
	}
	stats := map[string]shell.FileStat{}
	sorted := append([]wtOp(nil), ops...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].remove && !sorted[j].remove })
	for _, op := range sorted {
		before, _ := r.readWorktree(op.path, true)
		if op.remove {
			if !before.exists || before.isDir {
				continue
			}
			if err := r.removeWorktree(op.path); err != nil {
				return stats, err
			}
			if onTouch != nil {
				onTouch(newTouched(op.path, before.data, nil, true, false))
			}
			continue
		}
		if before.isDir {
			r.wfs.Remove(op.path) // an empty folder where the file goes
		}
		st, err := r.writeWorktree(op.path, op.data, op.mode)
		if err != nil {
			return stats, err
		}
		stats[op.path] = st
		if onTouch != nil {
			onTouch(newTouched(op.path, before.data, op.data, before.exists && !before.isDir, true))
		}
	}
	return stats, nil
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
			problems = append(problems, m.path+" is a file on one side and a folder on the other (resolve that merge with git)")
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
		w, err := r.readWorktree(m.path, true)
		if err != nil {
			return nil, err
		}
		if w.exists && !w.isDir {
			same := m.exists && m.conflict == "" && w.mode == m.entry.mode && hashObject("blob", w.data) == m.entry.hash
			if !same {
				problems = append(problems, m.path+" is an untracked file in the way")
			}
		}
	}
	return problems, nil
}

// applyMerge writes a merge's outcome: clean paths into the index (stage
// 0) and the worktree, conflicted ones as stages 1-3 with the worktree
// holding the file with markers. It returns the conflicted paths.
func (r *Repo) applyMerge(idx *Index, ms []pathMerge, onTouch func(Touched)) (conflicts []string, n int, err error) {
	var ops []wtOp
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
		case m.entry.mode != modeGitlink:
			data, err := r.readBlob(m.entry.hash)
			if err != nil {
				return nil, 0, err
			}
			ops = append(ops, wtOp{path: m.path, data: data, mode: m.entry.mode})
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
