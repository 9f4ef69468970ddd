package gitops

import (
	"errors"
	"fmt"
	"strings"

	"github.com/editord/editord/shell"
	"github.com/go-git/go-git/v5/plumbing"
)

// Writing trees to the worktree: the one verified path.
//
// Every git operation that writes files of a tree into the worktree (pull,
// stash push's reset and stash pop today; merge, stash apply, branch
// switch and restore as they come) does it in two steps, and no other way:
//
//	files, err := r.checkoutFiles(tree, "the upstream commit 1a2b3c4")
//	// ... the operation's own logic decides what changes (local changes
//	// in the way, conflicts), as a []worktreeChange ...
//	stats, n, err := r.applyWorktree(changes, onTouch)
//	// ... then it updates the index with stats (the new files' stat data)
//
// checkoutFiles reads a tree the operation will write and refuses it
// whole when any entry, anywhere in it, is one git refuses to check out
// (VerifyEntryName: .git in every spelling, ".", "..", empty names, "/",
// NUL, .gitmodules symlinks; and a name twice in one tree).
//
// applyWorktree verifies the whole set of changes before it writes
// anything: every path (VerifyPath), and no file written beyond a symbolic
// link or a file, whether the operation itself writes that link (a symlink
// "gl" -> ".git" from one tree and "gl/hooks/pre-commit" from another, as a
// stash's tracked and untracked trees could be) or it is on disk already.
// A refused set fails with a denied error naming the entry, and nothing is
// written. It then removes, then writes (each file through a temp file
// renamed over it), with every write going through the worktree
// filesystem (shell.WorktreeFS), which itself refuses any path through
// .git or a symbolic link: a second wall should the first be bypassed.
//
// Reading a tree (status, show, hunks) does not verify it: reading a
// hostile tree is harmless, writing it is not.

// worktreeChange is one working file an operation writes or removes.
type worktreeChange struct {
	Path   string    // repository-relative, "/"-separated
	Remove bool      // remove the file (and the folders it leaves empty)
	Entry  treeEntry // the new file (mode and blob) when !Remove; a gitlink writes nothing
}

// checkoutFiles maps every file path under tree h to its entry, like
// treeFiles, verifying each tree object on the way. what names the tree's
// source in a refusal ("the upstream commit 1a2b3c4").
func (r *Repo) checkoutFiles(h plumbing.Hash, what string) (map[string]treeEntry, error) {
	out := map[string]treeEntry{}
	err := r.flatTreeV(h, "", true, func(p string, e treeEntry) error {
		out[p] = e
		return nil
	})
	if err != nil {
		var ue *UnsafePathError
		if errors.As(err, &ue) {
			return nil, r.refuseTree(ue, what)
		}
		return nil, err
	}
	return out, nil
}

// refuseTree is the error of an operation refused for an unsafe entry.
func (r *Repo) refuseTree(ue *UnsafePathError, what string) error {
	if what != "" {
		what = " in " + what
	}
	return &shell.Error{Code: shell.CodeDenied, Path: r.Abs(""), Err: ue,
		Message: fmt.Sprintf("refused: %s%s: %s. Git refuses to check out such an entry too (it could write into .git, where hooks and config run programs); nothing was written. Its other files can still be read one by one with editor::git::show", ue.Path, what, ue.Why)}
}

// applyWorktree verifies changes as a whole (see the top of this file),
// then removes and writes them: removals first, so a file can become a
// folder, then writes, in the order given. A write whose file already
// holds exactly the new content is not made. It returns the stat data of
// every file the worktree now holds as written (for the index) and the
// number of files it changed; onTouch (may be nil) hears of each.
func (r *Repo) applyWorktree(changes []worktreeChange, onTouch func(Touched)) (map[string]shell.FileStat, int, error) {
	skip, err := r.verifyChanges(changes)
	if err != nil {
		return nil, 0, err
	}
	touch := func(t Touched) {
		if onTouch != nil {
			onTouch(t)
		}
	}
	n := 0
	for _, c := range changes {
		if !c.Remove || skip[c.Path] {
			continue
		}
		before, err := r.readWorktree(c.Path, true)
		if err != nil {
			return nil, n, err
		}
		if !before.exists || before.isDir {
			continue
		}
		if err := r.removeWorktree(c.Path); err != nil {
			return nil, n, err
		}
		touch(newTouched(c.Path, before.data, nil, true, false))
		n++
	}
	stats := map[string]shell.FileStat{}
	for _, c := range changes {
		if c.Remove || c.Entry.mode == modeGitlink {
			continue
		}
		data, err := r.readBlob(c.Entry.hash)
		if err != nil {
			return nil, n, err
		}
		before, err := r.readWorktree(c.Path, true)
		if err != nil {
			return nil, n, err
		}
		if before.exists && !before.isDir && before.mode == c.Entry.mode && string(before.data) == string(data) {
			stats[c.Path] = before.stat
			continue
		}
		if before.isDir {
			r.wfs.Remove(c.Path) // an empty folder where the file goes
		}
		st, err := r.writeWorktree(c.Path, data, c.Entry.mode)
		if err != nil {
			return nil, n, err
		}
		stats[c.Path] = st
		touch(newTouched(c.Path, before.data, data, before.exists && !before.isDir, true))
		n++
	}
	return stats, n, nil
}

// verifyChanges refuses a set of changes that would write where git never
// writes. It returns the removals to skip: files behind a symbolic link
// on disk, which git does not see as there (and would not remove).
func (r *Repo) verifyChanges(changes []worktreeChange) (map[string]bool, error) {
	written := make(map[string]uint32, len(changes)) // path -> mode written
	removed := map[string]bool{}
	for _, c := range changes {
		mode := c.Entry.mode
		if c.Remove {
			mode = modeRegular
		}
		if err := VerifyPath(c.Path, mode); err != nil {
			return nil, r.refuseTree(err.(*UnsafePathError), "")
		}
		if c.Remove {
			removed[c.Path] = true
		} else {
			written[c.Path] = c.Entry.mode
		}
	}
	onDisk := map[string]wtFile{} // leading folders looked at
	look := func(dir string) wtFile {
		w, ok := onDisk[dir]
		if !ok {
			w, _ = r.lstatWorktree(dir)
			onDisk[dir] = w
		}
		return w
	}
	skip := map[string]bool{}
	for _, c := range changes {
		for dir, _ := splitPath(c.Path); dir != ""; dir, _ = splitPath(dir) {
			if m, ok := written[dir]; ok && !c.Remove {
				kind := "a file"
				if m == modeSymlink {
					kind = "a symbolic link"
				} else if m == modeGitlink {
					kind = "a submodule"
				}
				return nil, r.refuseTree(&UnsafePathError{Path: c.Path, Why: fmt.Sprintf("it would be written beyond %s, which the same operation writes as %s", dir, kind)}, "")
			}
			if removed[dir] {
				continue // gone before anything is written
			}
			w := look(dir)
			switch {
			case !w.exists || w.isDir:
			case c.Remove:
				skip[c.Path] = true
			case w.mode == modeSymlink:
				return nil, r.refuseTree(&UnsafePathError{Path: c.Path, Why: fmt.Sprintf("it would be written beyond the symbolic link %s", dir)}, "")
			default:
				return nil, r.refuseTree(&UnsafePathError{Path: c.Path, Why: fmt.Sprintf("%s is a file where it needs a folder", dir)}, "")
			}
		}
	}
	return skip, nil
}

// lstatWorktree is readWorktree without content, for a path whose leading
// folders may themselves be links: it looks at each component without
// following any.
func (r *Repo) lstatWorktree(p string) (wtFile, error) {
	for i := strings.IndexByte(p, '/'); i >= 0; {
		w, err := r.readWorktree(p[:i], false)
		if err != nil || !w.exists || !w.isDir {
			return wtFile{}, err // behind a link or a file: not there as itself
		}
		j := strings.IndexByte(p[i+1:], '/')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return r.readWorktree(p, false)
}
