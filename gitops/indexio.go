package gitops

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"

	"github.com/editord/editord/shell"
)

// readIndex reads .git/index; a repository without one has an empty index.
func (r *Repo) readIndex() (*Index, error) {
	f, err := r.gfs.Open("index")
	if err != nil {
		if isNotExist(err) {
			return &Index{Version: 2}, nil
		}
		return nil, gitErr(r.top, "read the index", err)
	}
	defer f.Close()
	fi, err := r.gfs.Stat("index")
	if err != nil {
		return nil, gitErr(r.top, "read the index", err)
	}
	// A file replaced meanwhile is caught by the checksum.
	idx, err := readIndexFile(f, fi.Size())
	if err != nil {
		return nil, gitErr(r.top, "read the index", err)
	}
	st := shell.StatOf(fi)
	idx.MtimeSec, idx.MtimeNsec = st.MtimeSec, st.MtimeNsec
	return idx, nil
}

// sharedIndex is readIndex for callers that only read: the parsed index is
// kept per repository and reused while the file is the same one (git and
// editord both replace the index by renaming a new file over it, so a
// change is a new inode, size or time). Parsing a 60,000-entry index costs
// more than the rest of a hunks call; callers must not modify what they get.
func (r *Repo) sharedIndex() (*Index, error) {
	fi, err := r.gfs.Stat("index")
	if err != nil {
		return r.readIndex()
	}
	// Keyed by the stat taken before reading: content read after it is as
	// new or newer, and a newer file shows a different stat next time.
	st := shell.StatOf(fi)
	if c, ok := indexCache.get(r.gitDir); ok && c.st == st {
		return c.idx, nil
	}
	idx, err := r.readIndex()
	if err != nil {
		return nil, err
	}
	indexCache.put(r.gitDir, cachedIndex{st: st, idx: idx})
	return idx, nil
}

// SharedIndex is the parsed index of the repository holding root, shared
// with every other reader of this process while the file stays the same
// (editor::find's candidates are its paths, and git::status's reads the
// same 30 MB index at 240,000 files: one copy of the names, one parse).
// The result must not be modified.
func SharedIndex(j *shell.Jail, root string) (*Index, error) {
	r, err := Open(j, root)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return r.sharedIndex()
}

type cachedIndex struct {
	st  shell.FileStat
	idx *Index
}

// indexCache keeps the parsed index of up to 8 repositories.
var indexCache = newLRU[string](8, one[cachedIndex])

// readSized reads at most max bytes (max <= 0: all of it) from r into one
// buffer made for size bytes, so a file of known size is read without
// regrowing.
func readSized(r io.Reader, size, max int64) ([]byte, error) {
	if max > 0 {
		r = io.LimitReader(r, max)
		size = min(size, max)
	}
	buf := bytes.NewBuffer(make([]byte, 0, size+bytes.MinRead))
	_, err := buf.ReadFrom(r)
	return buf.Bytes(), err
}

// lockFile is git's lock protocol: "<name>.lock" is created exclusively,
// the new content written to it, and it is renamed over name to commit.
// While it exists, git (and every other editord) refuses to change name.
type lockFile struct {
	r    *Repo
	name string
	f    billyFile
	done bool
}

type billyFile interface {
	io.Writer
	io.Closer
}

// lock takes name.lock in the git folder.
func (r *Repo) lock(name string) (*lockFile, error) {
	f, err := r.gfs.OpenFile(name+".lock", os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil, &shell.Error{Code: shell.CodeGitFailed, Path: r.gitDir, Err: err,
				Message: fmt.Sprintf("%s/%s.lock exists: another git process is working in this repository; retry in a moment. If no git process is running, one crashed and left the file behind, and git functions stay refused until it is removed (editord never removes it: a running git may own it)", r.gitDir, name)}
		}
		return nil, gitErr(r.top, "lock "+name, err)
	}
	return &lockFile{r: r, name: name, f: f}, nil
}

// commit writes data and renames the lock over the file.
func (l *lockFile) commit(data []byte) error {
	if l.done {
		return errors.New("lock already released")
	}
	l.done = true
	_, err := l.f.Write(data)
	if s, ok := l.f.(interface{ Sync() error }); ok && err == nil {
		err = s.Sync()
	}
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = l.r.gfs.Rename(l.name+".lock", l.name)
	}
	if err != nil {
		l.r.gfs.Remove(l.name + ".lock")
		return gitErr(l.r.top, "write "+l.name, err)
	}
	return nil
}

// rollback drops the lock without changing the file. Safe after commit.
func (l *lockFile) rollback() {
	if l.done {
		return
	}
	l.done = true
	l.f.Close()
	l.r.gfs.Remove(l.name + ".lock")
}

// indexLock holds index.lock for a read-modify-write of the index.
type indexLock struct {
	*lockFile
	idx *Index
}

// lockIndex takes index.lock and reads the index under it.
func (r *Repo) lockIndex() (*indexLock, error) {
	l, err := r.lock("index")
	if err != nil {
		return nil, err
	}
	idx, err := r.readIndex()
	if err != nil {
		l.rollback()
		return nil, err
	}
	return &indexLock{lockFile: l, idx: idx}, nil
}

// lockResolvedIndex is lockIndex for the writers git refuses while a
// path is in conflict (merge, stash push and apply, switch): when one is,
// it returns that path's name with the lock already released, for the
// caller's refusal; else the lock, which the caller rolls back or writes.
func (r *Repo) lockResolvedIndex() (lk *indexLock, conflicted string, err error) {
	lk, err = r.lockIndex()
	if err != nil {
		return nil, "", err
	}
	if conf := lk.idx.conflicted(); len(conf) > 0 {
		lk.rollback()
		return nil, conf[0], nil
	}
	return lk, "", nil
}

// write commits idx as the new index. Entries whose file changed within the
// last second are written racily-clean (size 0), as git does, so no reader
// trusts their stat data.
//
// When the index hashes to a tree the object store holds (after a commit,
// a stash, a pull), git's cache-tree extension is written too, as git
// itself does, so that the next status need not hash the index again.
func (l *indexLock) write(idx *Index) error {
	sortEntries(idx.Entries)
	var ext []byte
	plain := true
	for i := range idx.Entries {
		if idx.Entries[i].Stage() != 0 || idx.Entries[i].intentToAdd() {
			plain = false
			break
		}
	}
	if plain {
		if tree := buildIndexTree(idx, false); l.r.st.HasEncodedObject(tree.hash) == nil {
			ext = cacheTreeExt(tree)
		}
	}
	racy := time.Now().Add(-time.Second)
	return l.commit(idx.encode(racy.Unix(), int64(racy.Nanosecond()), ext))
}
