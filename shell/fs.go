package shell

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"
	"syscall"
)

// Kind of a directory entry as the editor shows it.
const (
	KindFile    = "file"
	KindDir     = "dir"
	KindSymlink = "symlink"
	// KindOther is anything else: a FIFO, a socket, a device. It is never
	// opened as a file.
	KindOther = "other"
)

// Info describes one path.
type Info struct {
	Name    string
	Kind    string // file, dir, symlink (only from Lstat/ReadDir), other
	Size    int64
	ModTime int64 // Unix seconds
	ModNano int64 // Unix nanoseconds, for change detection finer than mtime
	Mode    fs.FileMode
	Ino     uint64
	Uid     int // the owner's uid; -1 when unknown
}

func infoOf(fi fs.FileInfo) Info {
	in := Info{Name: fi.Name(), Size: fi.Size(), ModTime: fi.ModTime().Unix(), ModNano: fi.ModTime().UnixNano(), Mode: fi.Mode(), Uid: ownerOf(fi)}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		in.Kind = KindSymlink
	case fi.IsDir():
		in.Kind = KindDir
	case fi.Mode().IsRegular():
		in.Kind = KindFile
	default:
		in.Kind = KindOther
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		in.Ino = st.Ino
	}
	return in
}

// Stat describes abs, following symlinks inside the jail. A dangling
// symlink is not_found.
func (j *Jail) Stat(abs string) (Info, error) {
	t, err := j.prepare(abs, true, false)
	if err != nil {
		return Info{}, err
	}
	fi, err := t.r.root.Stat(t.rel)
	if err != nil {
		return Info{}, AsError(err, t.abs)
	}
	return infoOf(fi), nil
}

// Lstat describes abs itself; a symlink is reported as one.
func (j *Jail) Lstat(abs string) (Info, error) {
	t, err := j.prepare(abs, false, false)
	if err != nil {
		return Info{}, err
	}
	fi, err := t.r.root.Lstat(t.rel)
	if err != nil {
		return Info{}, AsError(err, t.abs)
	}
	return infoOf(fi), nil
}

// ReadResult is the outcome of a capped read.
type ReadResult struct {
	Data      []byte // at most the limit; the file's beginning when Truncated
	Info      Info   // of the file as opened (Size is the full size)
	Truncated bool
}

// ReadFile reads abs through symlinks, at most limit bytes (and never more
// than the jail's max_read_bytes). A folder is is_a_directory. Reading stops
// at the limit even if the file grows meanwhile, so memory stays bounded.
func (j *Jail) ReadFile(abs string, limit int64) (ReadResult, error) {
	f, fi, t, err := j.openRegular(abs)
	if err != nil {
		return ReadResult{}, err
	}
	defer f.Close()
	return j.readOpened(f, fi, t, limit)
}

// readOpened reads the opened f as ReadFile does.
func (j *Jail) readOpened(f *os.File, fi fs.FileInfo, t target, limit int64) (ReadResult, error) {
	if limit <= 0 || (j.maxRead > 0 && limit > j.maxRead) {
		limit = j.maxRead
	}
	// Read at most limit+1 bytes: the byte past the limit tells a file over
	// it from one exactly at it, even if the file grew or shrank since the
	// stat. The buffer is sized from the stat, never past limit+2.
	want := fi.Size()
	r := io.Reader(f)
	if limit > 0 {
		r = io.LimitReader(f, limit+1)
		want = min(want, limit+1)
	}
	buf := make([]byte, 0, want+1)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return ReadResult{}, AsError(err, t.abs)
		}
	}
	res := ReadResult{Data: buf, Info: infoOf(fi)}
	if limit > 0 && int64(len(buf)) > limit {
		res.Data, res.Truncated = buf[:limit], true
		res.Info.Size = max(res.Info.Size, int64(len(buf)))
	} else {
		// The whole file was read: its size is what was read.
		res.Info.Size = int64(len(buf))
	}
	return res, nil
}

// openRegular opens abs for reading through symlinks; anything but a
// regular file is refused (a folder is is_a_directory).
func (j *Jail) openRegular(abs string) (*os.File, fs.FileInfo, target, error) {
	return j.openRegularIn(abs, nil)
}

// openRegularIn is openRegular resolving through dirs, and opening the
// file from its folder when dirs holds it.
func (j *Jail) openRegularIn(abs string, dirs *Folders) (*os.File, fs.FileInfo, target, error) {
	t, err := j.prepareIn(abs, true, false, dirs)
	if err != nil {
		return nil, nil, target{}, err
	}
	from, name := t.r.root, t.rel
	if d, ok := dirs.get(t.r, path.Dir(t.rel)); ok {
		from, name = d, path.Base(t.rel)
	}
	f, err := from.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, target{}, AsError(err, t.abs)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, target{}, AsError(err, t.abs)
	}
	if fi.IsDir() {
		f.Close()
		return nil, nil, target{}, Errorf(CodeIsADirectory, t.abs, "%s is a folder; list it with editor::tree", t.abs)
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, target{}, Errorf(CodeInvalidArgument, t.abs, "%s is not a regular file (device, socket or pipe)", t.abs)
	}
	return f, fi, t, nil
}

// OpenRead opens abs for a caller that streams it (a ranged read of a file
// too big to hold): through symlinks, regular files only, and never more
// than max_read_bytes+1 bytes, so a caller tells a file over the cap from
// one at it however the file grows. Info.Size is the size at open.
func (j *Jail) OpenRead(abs string) (io.ReadCloser, Info, error) {
	f, fi, _, err := j.openRegular(abs)
	if err != nil {
		return nil, Info{}, err
	}
	var r io.Reader = f
	if j.maxRead > 0 {
		r = io.LimitReader(f, j.maxRead+1)
	}
	return readCloser{r, f}, infoOf(fi), nil
}

type readCloser struct {
	io.Reader
	io.Closer
}

// IsBinary reports whether data looks binary: a NUL byte in its first 8 KiB,
// the same sniff git and ripgrep use.
func IsBinary(data []byte) bool {
	if len(data) > 8192 {
		data = data[:8192]
	}
	return strings.IndexByte(string(data), 0) >= 0
}

// DirEntry is one entry of a listing.
type DirEntry struct {
	Info
	Target string // for a symlink, what it points to
}

// ReadDir lists abs (through symlinks), sorted by name, leaving out deny-glob
// matches and editord's own temp files. Entries are lstat'ed: a symlink is
// reported as a symlink.
func (j *Jail) ReadDir(abs string) ([]DirEntry, error) {
	d, err := j.OpenDir(abs)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.ReadDir()
}

// Dir is an open folder of the jail. A listing that goes down a tree level
// by level (editor::tree) lists each folder through its parent's handle,
// instead of resolving the folder's whole path from the root again: on a
// chain 1,000 folders deep that was O(n²) lookups per level.
type Dir struct {
	j    *Jail
	d    *os.Root
	abs  string // as the caller named it, for messages
	rel  string // relative to the jail root, symlinks resolved ("" for the root)
	lex  string // relative to the jail root as the caller named it
	name string
}

// OpenDir opens the folder abs (through symlinks inside the jail). A file
// is not_a_directory.
func (j *Jail) OpenDir(abs string) (*Dir, error) {
	t, err := j.prepare(abs, true, false)
	if err != nil {
		return nil, err
	}
	d, err := openDirRoot(t.r.root, t.rel)
	if err != nil {
		if errors.Is(err, syscall.ENOTDIR) {
			return nil, Errorf(CodeNotADirectory, t.abs, "%s is a file, not a folder", t.abs)
		}
		return nil, AsError(err, t.abs)
	}
	return &Dir{j: j, d: d, abs: t.abs, rel: relOrEmpty(t.rel), lex: j.lexRel(abs), name: path.Base(t.abs)}, nil
}

// Sub opens the child folder name (one path segment) of d. A denied
// folder is denied; a symlink is followed only while it stays in the jail.
func (d *Dir) Sub(name string) (*Dir, error) {
	abs := d.abs + "/" + name
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, "/\x00") {
		return nil, Errorf(CodeInvalidArgument, abs, "%q is not a single folder name", name)
	}
	rel, lex := path.Join(d.rel, name), path.Join(d.lex, name)
	if d.j.denied(rel, true) || d.j.denied(lex, true) {
		return nil, Errorf(CodeDenied, abs, "%s matches a deny rule in the jail configuration; it cannot be read, listed or changed", abs)
	}
	sub, err := openDirRoot(d.d, name)
	if err != nil {
		if errors.Is(err, syscall.ENOTDIR) {
			return nil, Errorf(CodeNotADirectory, abs, "%s is a file, not a folder", abs)
		}
		return nil, AsError(err, abs)
	}
	return &Dir{j: d.j, d: sub, abs: abs, rel: rel, lex: lex, name: name}, nil
}

// Close releases the folder.
func (d *Dir) Close() error { return d.d.Close() }

// ReadDir lists the folder as Jail.ReadDir does.
func (d *Dir) ReadDir() ([]DirEntry, error) {
	ents, _, err := d.ReadDirLimit(0)
	return ents, err
}

// ReadDirLimit is ReadDir stopping after limit entries (0: no limit);
// more reports that entries were left out. Every name is read (the order
// needs them all) but only the entries returned are looked at, so a folder
// of 200,000 entries listed 10,000 at a time costs 10,000 lstats, not
// 200,000.
func (d *Dir) ReadDirLimit(limit int) (ents []DirEntry, more bool, err error) {
	// O_DIRECTORY: a folder swapped for a FIFO must fail, not block.
	f, err := d.d.OpenFile(".", os.O_RDONLY|syscall.O_DIRECTORY, 0)
	if err != nil {
		return nil, false, AsError(err, d.abs)
	}
	defer f.Close()
	names, err := f.Readdirnames(-1)
	if err != nil {
		return nil, false, AsError(err, d.abs)
	}
	sort.Strings(names)
	out := make([]DirEntry, 0, min(len(names), max(limit, 64)))
	for _, name := range names {
		if IsTempName(name) {
			continue
		}
		if limit > 0 && len(out) == limit {
			return out, true, nil
		}
		fi, err := d.d.Lstat(name)
		if err != nil {
			continue // vanished between listing and stat
		}
		// Under the resolved name and the one the caller used: what cannot
		// be read is not listed.
		if d.j.denied(path.Join(d.rel, name), fi.IsDir()) || d.j.denied(path.Join(d.lex, name), fi.IsDir()) {
			continue
		}
		e := DirEntry{Info: infoOf(fi)}
		if e.Kind == KindSymlink {
			e.Target, _ = d.d.Readlink(name)
		}
		out = append(out, e)
	}
	return out, false, nil
}

// ReadDirSome lists at most n entries of the folder, in no order, reading
// only as many names as it returns (ReadDirLimit reads every name, to
// sort them): what a bounded look into a folder of any size costs. Denied
// entries and editord's temp files are left out, as by ReadDir.
func (d *Dir) ReadDirSome(n int) ([]DirEntry, error) {
	f, err := d.d.OpenFile(".", os.O_RDONLY|syscall.O_DIRECTORY, 0)
	if err != nil {
		return nil, AsError(err, d.abs)
	}
	defer f.Close()
	names, err := f.Readdirnames(max(n, 1))
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, AsError(err, d.abs)
	}
	out := make([]DirEntry, 0, len(names))
	for _, name := range names {
		if IsTempName(name) {
			continue
		}
		fi, err := d.d.Lstat(name)
		if err != nil || d.j.denied(path.Join(d.rel, name), fi.IsDir()) || d.j.denied(path.Join(d.lex, name), fi.IsDir()) {
			continue
		}
		out = append(out, DirEntry{Info: infoOf(fi)})
	}
	return out, nil
}

// Mkdir creates the folder abs (with its parents when parents is set).
// created is false when a folder already stood there.
func (j *Jail) Mkdir(abs string, parents bool) (created bool, err error) {
	t, err := j.prepare(abs, true, true)
	if err != nil {
		return false, err
	}
	if fi, err := t.r.root.Stat(t.rel); err == nil {
		if fi.IsDir() {
			return false, nil
		}
		return false, Errorf(CodeExists, t.abs, "%s already exists and is a file", t.abs)
	}
	if parents {
		err = t.r.root.MkdirAll(t.rel, 0o755)
	} else {
		err = t.r.root.Mkdir(t.rel, 0o755)
	}
	if err != nil {
		if errors.Is(err, fs.ErrExist) {
			// Made meanwhile by someone else: fine if it is a folder.
			fi, serr := t.r.root.Stat(t.rel)
			switch {
			case serr == nil && fi.IsDir():
				return false, nil
			case serr == nil:
				return false, Errorf(CodeExists, t.abs, "%s already exists and is a file", t.abs)
			}
			// MkdirAll met a file where a parent folder should be.
			return false, Errorf(CodeNotADirectory, t.abs, "%s: a parent of it is a file, not a folder", t.abs)
		}
		return false, AsError(err, t.abs)
	}
	return true, nil
}

// Remove deletes abs (a symlink itself, not its target). A non-empty folder
// needs recursive. The jail roots themselves are never removed.
func (j *Jail) Remove(abs string, recursive bool) error {
	t, err := j.prepare(abs, false, true)
	if err != nil {
		return err
	}
	if t.rel == "." {
		return Errorf(CodeDenied, t.abs, "%s is a jail root and cannot be removed", t.abs)
	}
	fi, err := t.r.root.Lstat(t.rel)
	if err != nil {
		return AsError(err, t.abs)
	}
	if recursive && fi.IsDir() {
		if denied, err := j.deniedBeneath(t.r.root, t.rel, j.namesOf(abs, t)); err != nil {
			return AsError(err, t.abs)
		} else if denied != "" {
			return deniedBeneathError(t.r, t.abs, denied, "a recursive delete")
		}
	}
	if recursive {
		err = t.r.root.RemoveAll(t.rel)
	} else {
		err = t.r.root.Remove(t.rel)
	}
	if err != nil {
		return AsError(err, t.abs)
	}
	return nil
}

// Rename moves from to to (a symlink moves as a link). An existing to is
// exists unless overwrite; parents of to are created.
func (j *Jail) Rename(from, to string, overwrite bool) error {
	src, err := j.prepare(from, false, true)
	if err != nil {
		return err
	}
	dst, err := j.prepare(to, false, true)
	if err != nil {
		return err
	}
	if src.rel == "." {
		return Errorf(CodeDenied, src.abs, "%s is a jail root and cannot be moved", src.abs)
	}
	if src.r != dst.r {
		return Errorf(CodeInvalidArgument, src.abs, "%s and %s are in different jail roots; a move stays inside one", src.abs, dst.abs)
	}
	if dst.rel == "." {
		return Errorf(CodeDenied, dst.abs, "%s is a jail root and cannot be replaced", dst.abs)
	}
	srcInfo, err := src.r.root.Lstat(src.rel)
	if err != nil {
		return AsError(err, src.abs)
	}
	if src.rel == dst.rel {
		return nil // moving a path onto itself changes nothing
	}
	if srcInfo.IsDir() {
		// What the folder holds goes by new names after the move: a
		// denied entry must not be carried off (out of sight, or into
		// sight of an anchored rule), nor may an entry land where a
		// deny rule covers it.
		names := append(j.namesOf(from, src), j.namesOf(to, dst)...)
		if denied, err := j.deniedBeneath(src.r.root, src.rel, names); err != nil {
			return AsError(err, src.abs)
		} else if denied != "" {
			return deniedBeneathError(src.r, src.abs, denied, "a move")
		}
	}
	if strings.HasPrefix(dst.rel, src.rel+"/") {
		// Checked before any parent of to is made inside from.
		return Errorf(CodeInvalidArgument, dst.abs, "%s is inside %s; a folder cannot be moved into itself", dst.abs, src.abs)
	}
	if fi, err := dst.r.root.Lstat(dst.rel); err == nil {
		if !overwrite {
			return Errorf(CodeExists, dst.abs, "%s already exists; pass overwrite: true to replace it", dst.abs)
		}
		if fi.IsDir() {
			return Errorf(CodeExists, dst.abs, "%s is an existing folder; overwrite replaces files, not folders: delete it first", dst.abs)
		}
	}
	if dir := path.Dir(dst.rel); dir != "." {
		if err := mkdirParents(dst.r.root, dir, dst.abs); err != nil {
			return err
		}
	}
	if err := src.r.root.Rename(src.rel, dst.rel); err != nil {
		return AsError(err, dst.abs)
	}
	return nil
}

// namesOf are the names the resolved target t (named abs by the caller)
// goes by, relative to its jail root: as the caller named it first, then
// its real path when that differs.
func (j *Jail) namesOf(abs string, t target) subtreeNames {
	lex := j.lexRel(abs)
	names := subtreeNames{segsOf(lex)}
	if relOrEmpty(t.rel) != lex {
		names = append(names, segsOf(t.rel))
	}
	return names
}

// Realpath is abs with every symlink resolved (inside the jail).
func (j *Jail) Realpath(abs string) (string, error) {
	t, err := j.prepare(abs, true, false)
	if err != nil {
		return "", err
	}
	if _, err := t.r.root.Lstat(t.rel); err != nil {
		return "", AsError(err, t.abs)
	}
	return t.realAbs(), nil
}

// mkdirParents makes dir (relative to r) and its parents for the path abs.
// A file standing where a folder should be is not_a_directory (os.Root
// reports exists when that file is dir itself).
func mkdirParents(r *os.Root, dir, abs string) error {
	err := r.MkdirAll(dir, 0o755)
	if err == nil {
		return nil
	}
	if errors.Is(err, fs.ErrExist) {
		return Errorf(CodeNotADirectory, abs, "%s: a parent of it is a file, not a folder", abs)
	}
	return AsError(err, abs)
}
