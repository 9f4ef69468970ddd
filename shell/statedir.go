package shell

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"syscall"
	"time"
)

// EnsureDir creates a folder (and its parents) outside any jail, mode 0700.
// It exists for one job: making the state dir before it is opened as a jail
// of its own. It refuses a folder that another user could have planted or
// could write into (the record, the journal and the HTTP token live
// there): one owned by another uid, or writable by group or others.
func EnsureDir(abs string) error {
	if err := CheckPath(abs); err != nil {
		return err
	}
	if err := os.MkdirAll(abs, 0o700); err != nil {
		return AsError(err, abs)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return AsError(err, abs)
	}
	if !fi.IsDir() {
		return Errorf(CodeNotADirectory, abs, "the state dir %s is not a folder; pass --state-dir a folder", abs)
	}
	return private(abs, fi, "the state dir", fmt.Sprintf("chmod go-w %s", abs), 0o022)
}

// private refuses a file or folder of the state's that another user could
// have made or could change: owned by another uid, or with any of the
// permission bits in open. what names it in the message, fix is the
// command that repairs the mode.
func private(abs string, fi fs.FileInfo, what, fix string, open fs.FileMode) error {
	if uid, me := ownerOf(fi), Euid(); uid >= 0 && me >= 0 && uid != me {
		return Errorf(CodeDenied, abs, "%s %s belongs to uid %d, not to this user (uid %d): another user may have planted it; use one of your own (a new --state-dir, or delete it)", what, abs, uid, me)
	}
	if m := fi.Mode().Perm(); m&open != 0 {
		return Errorf(CodeDenied, abs, "%s %s has mode %04o: other users could read or change it (and so plant a token or a record); run %s, or use another one", what, abs, m, fix)
	}
	return nil
}

// ReadSecret reads a small file holding a secret (a bearer token given as
// --token-file): it must be a regular file of this user's that no other
// user can read or write, and at most 4 KiB.
func ReadSecret(abs string) ([]byte, error) {
	f, err := os.Open(abs)
	if err != nil {
		return nil, AsError(err, abs)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, AsError(err, abs)
	}
	if !fi.Mode().IsRegular() {
		return nil, Errorf(CodeInvalidArgument, abs, "%s is not a regular file", abs)
	}
	if err := private(abs, fi, "the token file", fmt.Sprintf("chmod 600 %s", abs), 0o077); err != nil {
		return nil, err
	}
	b, err := io.ReadAll(io.LimitReader(f, 4097))
	if err != nil {
		return nil, AsError(err, abs)
	}
	if len(b) > 4096 {
		return nil, Errorf(CodeTooLarge, abs, "%s is over 4 KiB; a token file holds one token", abs)
	}
	return b, nil
}

// Private refuses a file of the state dir that another user could have
// planted or could read: owned by another uid, or with a group or other
// permission bit. in is its Info (from the state dir's jail).
func Private(abs string, in Info, what, fix string) error {
	if in.Uid >= 0 && Euid() >= 0 && in.Uid != Euid() {
		return Errorf(CodeDenied, abs, "%s %s belongs to uid %d, not to this user (uid %d): another user may have planted it; %s", what, abs, in.Uid, Euid(), fix)
	}
	if m := in.Mode.Perm(); m&0o077 != 0 {
		return Errorf(CodeDenied, abs, "%s %s has mode %04o: other users can read it; %s", what, abs, m, fix)
	}
	return nil
}

// AppendFile appends data to abs in one write(2) with O_APPEND, creating the
// file (mode 0600) if needed. Concurrent appenders holding a common lock get
// whole records; without the lock a crash can still leave a torn last line,
// which readers must tolerate.
func (j *Jail) AppendFile(abs string, data []byte) error {
	t, err := j.prepare(abs, true, true)
	if err != nil {
		return err
	}
	f, err := t.r.root.OpenFile(t.rel, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return AsError(err, t.abs)
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return AsError(err, t.abs)
	}
	return nil
}

// AppendStateFile appends data to abs, a file of editord's own state dir
// (made 0600 when missing), in one write(2) with O_APPEND, and returns the
// offset where data begins: the file's size when it was opened, which is
// exact for a caller holding a lock every appender takes. It is AppendFile
// without what a user's file needs (no symlink walk of its own: os.Root
// keeps the path inside the state dir; deny rules still apply): one open,
// one fstat, one write.
func (j *Jail) AppendStateFile(abs string, data []byte) (int64, error) {
	r, rel, err := j.locate(abs)
	if err != nil {
		return 0, err
	}
	abs = filepath.Clean(abs)
	if rel == "." {
		return 0, Errorf(CodeIsADirectory, abs, "%s is a folder", abs)
	}
	if j.denied(rel, false) {
		return 0, Errorf(CodeDenied, abs, "%s matches a deny rule in the jail configuration; it cannot be read, listed or changed", abs)
	}
	f, err := r.root.OpenFile(rel, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return 0, AsError(err, abs)
	}
	fi, err := f.Stat()
	if err == nil {
		_, err = f.Write(data)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, writeError(err, abs)
	}
	return fi.Size(), nil
}

// ReadTail returns up to the last n bytes of abs and the file's size.
func (j *Jail) ReadTail(abs string, n int64) ([]byte, int64, error) {
	t, err := j.prepare(abs, true, false)
	if err != nil {
		return nil, 0, err
	}
	f, err := t.r.root.OpenFile(t.rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, 0, AsError(err, t.abs)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, 0, AsError(err, t.abs)
	}
	if fi.IsDir() {
		return nil, 0, Errorf(CodeIsADirectory, t.abs, "%s is a folder", t.abs)
	}
	if !fi.Mode().IsRegular() {
		return nil, 0, Errorf(CodeInvalidArgument, t.abs, "%s is not a regular file (device, socket or pipe)", t.abs)
	}
	n = max(n, 0)
	if j.maxRead > 0 {
		n = min(n, j.maxRead)
	}
	size := fi.Size()
	off := size - n
	if off < 0 {
		off = 0
	}
	buf := make([]byte, size-off)
	k, err := f.ReadAt(buf, off)
	if err != nil && err != io.EOF {
		return nil, 0, AsError(err, t.abs)
	}
	return buf[:k], size, nil
}

// ReadConfigFile reads a configuration file outside any jail (it is read
// before the jail exists). found is false when the file does not exist.
func ReadConfigFile(abs string) (data []byte, found bool, err error) {
	data, err = os.ReadFile(abs)
	if os.IsNotExist(err) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return data, true, nil
}

// ReadHandle is a regular file opened for reading at offsets, whatever
// its size: the change journal (followers read from where they left off),
// git's index (git's own data, not a user file under max_read_bytes) and a
// file content search reads in pieces.
type ReadHandle struct {
	f    *os.File
	Info Info // of the file as opened
}

// OpenAt opens abs (through symlinks, regular files only) for reading at
// offsets. Unlike OpenRead it sets no size cap: its callers read pieces
// of bounded size, never the whole file at once.
func (j *Jail) OpenAt(abs string) (*ReadHandle, error) {
	f, fi, _, err := j.openRegular(abs)
	if err != nil {
		return nil, err
	}
	return &ReadHandle{f: f, Info: infoOf(fi)}, nil
}

// ReadAt reads len(p) bytes at off (io.ReaderAt).
func (h *ReadHandle) ReadAt(p []byte, off int64) (int, error) { return h.f.ReadAt(p, off) }

// Close releases the file.
func (h *ReadHandle) Close() error { return h.f.Close() }

// ReplaceFile replaces abs, a file of editord's own state dir, with data:
// a temp file beside it is written and renamed over it (parents made when
// asked), so that a reader sees the old content or the new one, never a
// mix, and a process killed mid-write leaves the old one. It returns the
// new file's Info (the temp file's own stat: a rename keeps the inode and
// mtime).
//
// It is WriteFile without what a user's file needs and the state dir's
// files do not: no fsync (see below), no mode, owner or extended
// attributes to carry over (state files are 0600 and editord's own), no
// folder flags to check, and no symlink walk of its own: os.Root keeps
// every path inside the state dir, and deny rules are still applied.
//
// Durability: the state dir holds the shared record (open buffers,
// expanded folders, drafts' marks) and the change journal, never a user's
// content. A crash of the process leaves each file whole (old or new: the
// rename is atomic). After a power loss a file may lose its latest
// changes; on ext4 (data=ordered, whose auto_da_alloc writes a file's data
// before a rename that replaces another file commits) it is then an older
// whole version, and on a file system without that guarantee it may be
// empty or torn, which readers take as corrupt: the record is moved aside
// with a warning and rebuilt from memory or empty (docs/contract.md §5), a torn
// journal line is skipped. An fsync per record write would make each
// buffer change wait for the disk for none of the user's data.
func (j *Jail) ReplaceFile(abs string, data []byte, parents bool) (Info, error) {
	r, rel, err := j.locate(abs)
	if err != nil {
		return Info{}, err
	}
	abs = filepath.Clean(abs)
	if rel == "." {
		return Info{}, Errorf(CodeIsADirectory, abs, "%s is a folder", abs)
	}
	if j.denied(rel, false) {
		return Info{}, Errorf(CodeDenied, abs, "%s matches a deny rule in the jail configuration; it cannot be read, listed or changed", abs)
	}
	dir, base := path.Dir(rel), path.Base(rel)
	d := r.root
	if dir != "." {
		d, err = openDirRoot(r.root, dir)
		if err != nil && parents && errors.Is(err, fs.ErrNotExist) {
			if err = mkdirParents(r.root, dir, abs); err != nil {
				return Info{}, err
			}
			d, err = openDirRoot(r.root, dir)
		}
		if err != nil {
			return Info{}, AsError(err, abs)
		}
		defer d.Close()
	}
	tmp, f, err := createTemp(d, base)
	if err != nil {
		return Info{}, writeError(err, abs)
	}
	_, err = f.Write(data)
	var fi fs.FileInfo
	if err == nil {
		fi, err = f.Stat()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = d.Rename(tmp, base)
	}
	if err != nil {
		d.Remove(tmp)
		return Info{}, writeError(err, abs)
	}
	info := infoOf(fi)
	info.Name = base
	return info, nil
}

// StatFile describes abs, a file of editord's own state dir, in one
// fstatat (os.Root keeps it inside the state dir; symlinks are followed
// there): the cheap look the record's cache takes on every call.
func (j *Jail) StatFile(abs string) (Info, error) {
	r, rel, err := j.locate(abs)
	if err != nil {
		return Info{}, err
	}
	if j.denied(rel, false) {
		return Info{}, Errorf(CodeDenied, abs, "%s matches a deny rule in the jail configuration; it cannot be read, listed or changed", abs)
	}
	fi, err := r.root.Stat(rel)
	if err != nil {
		return Info{}, AsError(err, filepath.Clean(abs))
	}
	return infoOf(fi), nil
}

// TouchFile sets abs's modification time to now, abs being a file of
// editord's own state dir: the version store (workspace) evicts by it, so
// a content handed out again counts as recently used.
func (j *Jail) TouchFile(abs string) error {
	r, rel, err := j.locate(abs)
	if err != nil {
		return err
	}
	if j.denied(rel, false) {
		return Errorf(CodeDenied, abs, "%s matches a deny rule in the jail configuration; it cannot be read, listed or changed", abs)
	}
	now := time.Now()
	if err := r.root.Chtimes(rel, now, now); err != nil {
		return AsError(err, filepath.Clean(abs))
	}
	return nil
}
