package gitops

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"syscall"

	"github.com/editord/editord/shell"
	"github.com/go-git/go-git/v5/plumbing"
)

// Touched describes one working file a git operation (pull, stash) wrote or
// removed, for the change journal.
type Touched struct {
	Path   string // repository-relative
	Kind   string // created, modified or deleted
	Before []byte // the old content, when it was text of a sane size
	After  []byte // the new content, likewise
	Known  bool   // Before and After are both known
}

// maxTouchBytes bounds the content kept for a change event.
const maxTouchBytes = 1 << 20

// wtFile is what the worktree holds at a path.
type wtFile struct {
	exists bool
	isDir  bool
	mode   uint32
	data   []byte // read only when asked
	stat   shell.FileStat
}

// readWorktree looks at path; with content it also reads the file (or the
// symlink's target).
func (r *Repo) readWorktree(p string, content bool) (wtFile, error) {
	fi, err := r.wfs.Lstat(p)
	if err != nil {
		if isNotExist(err) || isNotDir(err) {
			return wtFile{}, nil
		}
		return wtFile{}, shell.AsError(err, r.Abs(p))
	}
	w := wtFile{exists: true, stat: shell.StatOf(fi)}
	switch {
	case fi.IsDir():
		w.isDir = true
		return w, nil
	case fi.Mode()&fs.ModeSymlink != 0:
		w.mode = modeSymlink
		if content {
			t, err := r.wfs.Readlink(p)
			if err != nil {
				return w, shell.AsError(err, r.Abs(p))
			}
			w.data = []byte(t)
		}
	default:
		w.mode = modeRegular
		if fi.Mode()&0o100 != 0 {
			w.mode = modeExecutable
		}
		if content {
			if fi.Size() > maxStageBytes {
				return w, shell.Errorf(shell.CodeTooLarge, r.Abs(p), "%s is %d bytes; too large for editord's git operations", p, fi.Size())
			}
			f, err := r.wfs.Open(p)
			if err != nil {
				return w, shell.AsError(err, r.Abs(p))
			}
			w.data, err = io.ReadAll(f)
			f.Close()
			if err != nil {
				return w, shell.AsError(err, r.Abs(p))
			}
		}
	}
	return w, nil
}

func isNotDir(err error) bool { return errors.Is(err, syscall.ENOTDIR) }

// matchesEntry reports whether the worktree file still holds what the index
// entry records (stat data first, content when it cannot tell).
func (r *Repo) matchesEntry(e *IndexEntry, idx *Index, fileMode, symlinks bool) (bool, error) {
	w, err := r.readWorktree(e.Path, false)
	if err != nil || !w.exists {
		return false, err
	}
	if w.isDir {
		return e.Mode == modeGitlink, nil
	}
	code := r.compareStat(e, w.stat, fileMode, symlinks, idx, func() (plumbing.Hash, bool) {
		full, err := r.readWorktree(e.Path, true)
		if err != nil || !full.exists {
			return plumbing.ZeroHash, false
		}
		return hashObject("blob", full.data), true
	})
	return code == codeUnchanged, nil
}

// writeWorktree replaces the file at p with data (a symlink for
// modeSymlink), through a temp file renamed over it so a reader never sees
// half a file, creating parent folders. It returns the new stat data.
func (r *Repo) writeWorktree(p string, data []byte, mode uint32) (shell.FileStat, error) {
	dir, name := splitPath(p)
	if dir != "" {
		if err := r.wfs.MkdirAll(dir, 0o755); err != nil {
			return shell.FileStat{}, shell.AsError(err, r.Abs(dir))
		}
	}
	var b [6]byte
	rand.Read(b[:])
	tmp := path.Join(dir, "."+name+".editord-"+hex.EncodeToString(b[:])+".tmp")
	if mode == modeSymlink {
		if err := r.wfs.Symlink(string(data), tmp); err != nil {
			return shell.FileStat{}, shell.AsError(err, r.Abs(p))
		}
	} else {
		perm := os.FileMode(0o644)
		if mode == modeExecutable {
			perm = 0o755
		}
		f, err := r.wfs.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if err != nil {
			return shell.FileStat{}, shell.AsError(err, r.Abs(p))
		}
		_, err = f.Write(data)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = r.wfs.Chmod(tmp, perm) // the umask may have cut the bits
		}
		if err != nil {
			r.wfs.Remove(tmp)
			return shell.FileStat{}, shell.AsError(err, r.Abs(p))
		}
	}
	if err := r.wfs.Rename(tmp, p); err != nil {
		r.wfs.Remove(tmp)
		return shell.FileStat{}, shell.AsError(err, r.Abs(p))
	}
	fi, err := r.wfs.Lstat(p)
	if err != nil {
		return shell.FileStat{}, shell.AsError(err, r.Abs(p))
	}
	return shell.StatOf(fi), nil
}

// removeWorktree deletes the file at p and then the folders it leaves
// empty, as git does.
func (r *Repo) removeWorktree(p string) error {
	if err := r.wfs.Remove(p); err != nil && !isNotExist(err) {
		return shell.AsError(err, r.Abs(p))
	}
	for dir, _ := splitPath(p); dir != ""; dir, _ = splitPath(dir) {
		if ents, err := r.wfs.ReadDir(dir); err != nil || len(ents) > 0 {
			break
		}
		if r.wfs.Remove(dir) != nil {
			break
		}
	}
	return nil
}

// touchedText keeps content for an event only when it is small text.
func touchedText(b []byte) ([]byte, bool) {
	if len(b) > maxTouchBytes || shell.IsBinary(b) {
		return nil, false
	}
	if b == nil {
		b = []byte{}
	}
	return b, true
}

// newTouched describes a write of p from before to after (nil: absent).
func newTouched(p string, before, after []byte, existed, exists bool) Touched {
	t := Touched{Path: p, Kind: "modified"}
	switch {
	case !existed:
		t.Kind = "created"
	case !exists:
		t.Kind = "deleted"
	}
	b, okb := touchedText(before)
	a, oka := touchedText(after)
	if okb && oka {
		t.Before, t.After, t.Known = b, a, true
	}
	return t
}
