package shell

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/go-git/go-billy/v5"
)

// BillyFS is a go-billy filesystem over one folder, for go-git. Every call
// runs through an os.Root opened at that folder, so neither ".." nor a
// symlink can lead out of it.
//
// Made by Jail.GitFS it lies inside the jail and, unlike every other write
// path of shell, may write inside .git (the index, refs, objects): that is
// what a repository is for. Paths outside .git still obey the deny globs.
// Made by RemoteRepoFS it serves a file:// remote the repository's own
// configuration names, which may lie outside the jail.
type BillyFS struct {
	root     *os.Root // opened at base
	base     string   // absolute path of the folder root was opened at
	sub      string   // chroot inside root, "/"-separated, "" for none
	jail     *Jail    // nil: no deny globs (a remote)
	jailRel  string   // base relative to its jail root ("." for the root)
	worktree bool     // a worktree: .git is out of reach, nothing is written through a symlink
}

var _ billy.Filesystem = (*BillyFS)(nil)
var _ billy.Change = (*BillyFS)(nil)

// GitFS opens a go-billy filesystem over the folder abs inside the jail,
// for go-git and gitops: reads and writes stay inside abs (os.Root), writes
// inside .git are allowed, and every other path still obeys the deny globs.
// Close it when done.
func (j *Jail) GitFS(abs string) (*BillyFS, error) {
	t, err := j.resolve(abs, true)
	if err != nil {
		return nil, err
	}
	r, err := openDirRoot(t.r.root, t.rel) // a FIFO there fails, never blocks
	if err != nil {
		return nil, AsError(err, t.abs)
	}
	return &BillyFS{root: r, base: t.realAbs(), jail: j, jailRel: t.rel}, nil
}

// WorktreeFS opens a go-billy filesystem over a repository's worktree (the
// folder holding .git), for gitops and go-git. It is GitFS with two more
// rules, so that nothing a tree holds can reach git's own data through it:
//
//   - any path with a segment that names .git (IsDotGit: any case, and the
//     NTFS and HFS+ spellings) is refused, for reads and writes alike, and
//     ReadDir leaves such entries out; only the git-dir filesystem (GitFS)
//     may touch the git folder;
//   - nothing is written, created, removed, renamed or chmod'ed through a
//     symbolic link: every folder on the way must be a real folder (as git
//     refuses to write "beyond a symbolic link"), and files are opened for
//     writing with O_NOFOLLOW.
//
// The second rule is checked with lstat just before each call; it guards
// against trees, not against a local process racing to swap a folder for
// a link (which could write .git directly anyway).
func (j *Jail) WorktreeFS(abs string) (*BillyFS, error) {
	b, err := j.GitFS(abs)
	if err != nil {
		return nil, err
	}
	b.worktree = true
	return b, nil
}

// RemoteRepoFS opens a go-billy filesystem over a repository folder that a
// file:// remote names. The folder may be outside the jail: remotes are the
// repository's own configuration, which this service never writes, and
// docs/contract.md §4 allows them. Reads and writes stay inside the folder.
func RemoteRepoFS(abs string) (*BillyFS, error) {
	if err := CheckPath(abs); err != nil {
		return nil, err
	}
	abs = filepath.Clean(abs)
	r, err := os.OpenRoot(abs + "/.") // a FIFO there fails, never blocks
	if err != nil {
		return nil, AsError(err, abs)
	}
	return &BillyFS{root: r, base: abs}, nil
}

// Close releases the folder handle; chroots share it.
func (b *BillyFS) Close() error { return b.root.Close() }

// rel maps a billy name to a path relative to root.
func (b *BillyFS) rel(name string) (string, error) {
	name = filepath.ToSlash(name)
	if b.base != "/" && strings.HasPrefix(name, b.base+"/") {
		name = name[len(b.base)+1:]
	} else if name == b.base {
		name = ""
	}
	p := path.Join(b.sub, strings.TrimLeft(name, "/"))
	if p == ".." || strings.HasPrefix(p, "../") || (b.sub != "" && p != b.sub && !strings.HasPrefix(p, b.sub+"/")) {
		return "", billy.ErrCrossedBoundary
	}
	if p == "" {
		p = "."
	}
	return p, nil
}

// check applies the deny globs to a path about to be touched. Paths inside
// .git are git's own and never match.
func (b *BillyFS) check(p string) error {
	if b.jail == nil {
		return nil
	}
	full := path.Join(relOrEmpty(b.jailRel), relOrEmpty(p))
	if full == "" || UnderDotGit(full) {
		return nil
	}
	if b.jail.deny.Excludes(full, false) || b.jail.deny.Excludes(full, true) {
		abs := path.Join(b.base, relOrEmpty(p))
		return &Error{Code: CodeDenied, Path: abs, Err: fs.ErrPermission,
			Message: abs + " matches a deny rule in the jail configuration; git functions leave it alone"}
	}
	return nil
}

func (b *BillyFS) path(name string) (string, error) {
	p, err := b.rel(name)
	if err != nil {
		return "", err
	}
	if b.worktree && HasDotGitSegment(p) {
		abs := path.Join(b.base, relOrEmpty(p))
		return "", &Error{Code: CodeDenied, Path: abs, Err: fs.ErrPermission,
			Message: abs + " is inside .git (or names it in a spelling some file system reads as .git); git functions never touch git's own folder through the worktree"}
	}
	return p, b.check(p)
}

// writePath is path for a call that changes p: in a worktree, every folder
// on the way to p (and p itself when self is true: a call that would follow
// a link there) must not be a symbolic link.
func (b *BillyFS) writePath(name string, self bool) (string, error) {
	p, err := b.path(name)
	if err != nil || !b.worktree {
		return p, err
	}
	return p, b.noLinkOnTheWay(p, self)
}

// noLinkOnTheWay refuses p when a folder leading to it (or p itself, with
// self) is a symbolic link. Missing components end the check: nothing
// below them exists yet.
func (b *BillyFS) noLinkOnTheWay(p string, self bool) error {
	if p == "." {
		return nil
	}
	end := len(p)
	if !self {
		end = strings.LastIndexByte(p, '/')
		if end < 0 {
			return nil
		}
	}
	for i := 0; i <= end; i++ {
		if i < end && p[i] != '/' {
			continue
		}
		prefix := p[:i]
		fi, err := b.root.Lstat(prefix)
		if err != nil {
			return nil // missing (or not a folder): the call itself will say so
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			abs := path.Join(b.base, prefix)
			return &Error{Code: CodeDenied, Path: abs, Err: fs.ErrPermission,
				Message: fmt.Sprintf("%s is a symbolic link; git functions never write beyond one (%s)", abs, path.Join(b.base, p))}
		}
		if !fi.IsDir() {
			return nil
		}
	}
	return nil
}

// billyName is p (relative to root) as a name relative to this chroot.
func (b *BillyFS) billyName(p string) string {
	if b.sub == "" {
		return p
	}
	return strings.TrimPrefix(strings.TrimPrefix(p, b.sub), "/")
}

func (b *BillyFS) Create(filename string) (billy.File, error) {
	return b.OpenFile(filename, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o666)
}

func (b *BillyFS) Open(filename string) (billy.File, error) {
	return b.OpenFile(filename, os.O_RDONLY, 0)
}

// OpenFile opens a file; with O_CREATE its missing parents are created, as
// go-git expects of a billy filesystem.
func (b *BillyFS) OpenFile(filename string, flag int, perm os.FileMode) (billy.File, error) {
	writes := flag&(os.O_WRONLY|os.O_RDWR|os.O_CREATE|os.O_TRUNC|os.O_APPEND) != 0
	p, err := b.path(filename)
	if err == nil && writes && b.worktree {
		err = b.noLinkOnTheWay(p, false)
		flag |= syscall.O_NOFOLLOW
	}
	if err != nil {
		return nil, err
	}
	if flag&os.O_CREATE != 0 {
		if err := b.mkParent(p); err != nil {
			return nil, err
		}
	}
	// Non-blocking, so that a FIFO planted where git keeps a file (config,
	// HEAD, a ref, the index, an object) cannot hang the call in open(2);
	// then only a regular file is served.
	f, err := b.root.OpenFile(p, flag|syscall.O_NONBLOCK, perm)
	if err != nil {
		if errors.Is(err, syscall.ENXIO) { // opened for writing, a FIFO with no reader
			return nil, b.notRegular(p, fs.ModeNamedPipe)
		}
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, b.notRegular(p, fi.Mode())
	}
	return &gitBillyFile{File: f, name: b.billyName(p)}, nil
}

// notRegular is the error for a path git reads or writes as a file that
// is something else (a FIFO, a device, a socket, a folder).
func (b *BillyFS) notRegular(p string, mode fs.FileMode) error {
	abs := path.Join(b.base, relOrEmpty(p))
	if mode.IsDir() {
		return &Error{Code: CodeIsADirectory, Path: abs, Err: syscall.EISDIR,
			Message: abs + " is a folder where git expects a file; remove it or put the file git expects there"}
	}
	return &Error{Code: CodeInvalidArgument, Path: abs, Err: fs.ErrInvalid,
		Message: fmt.Sprintf("%s is %s, not a regular file; git functions read and write only regular files (remove it, or replace it with the file git expects)", abs, kindWords(mode))}
}

// kindWords names a file type for a message.
func kindWords(mode fs.FileMode) string {
	switch {
	case mode&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case mode&fs.ModeSocket != 0:
		return "a socket"
	case mode&fs.ModeDevice != 0:
		return "a device"
	case mode&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "not a plain file (" + mode.Type().String() + ")"
}

func (b *BillyFS) mkParent(p string) error {
	if dir := path.Dir(p); dir != "." {
		return b.root.MkdirAll(dir, 0o755)
	}
	return nil
}

func (b *BillyFS) Stat(filename string) (os.FileInfo, error) {
	p, err := b.path(filename)
	if err != nil {
		return nil, err
	}
	return b.root.Stat(p)
}

func (b *BillyFS) Lstat(filename string) (os.FileInfo, error) {
	p, err := b.path(filename)
	if err != nil {
		return nil, err
	}
	return b.root.Lstat(p)
}

// Rename moves oldpath to newpath, creating newpath's parents.
func (b *BillyFS) Rename(oldpath, newpath string) error {
	from, err := b.writePath(oldpath, false)
	if err != nil {
		return err
	}
	to, err := b.writePath(newpath, false)
	if err != nil {
		return err
	}
	if err := b.mkParent(to); err != nil {
		return err
	}
	return b.root.Rename(from, to)
}

func (b *BillyFS) Remove(filename string) error {
	p, err := b.writePath(filename, false)
	if err != nil {
		return err
	}
	if p == "." {
		return &Error{Code: CodeDenied, Path: b.base, Message: b.base + " is the filesystem's own folder and cannot be removed"}
	}
	return b.root.Remove(p)
}

// RemoveAll removes a path with everything under it (util.RemoveAll uses it).
func (b *BillyFS) RemoveAll(filename string) error {
	p, err := b.writePath(filename, false)
	if err != nil {
		return err
	}
	if p == "." {
		return &Error{Code: CodeDenied, Path: b.base, Message: b.base + " is the filesystem's own folder and cannot be removed"}
	}
	return b.root.RemoveAll(p)
}

func (b *BillyFS) Join(elem ...string) string { return path.Join(elem...) }

// TempFile creates a new file with a random name in dir (created if need
// be). Its Name is relative to this filesystem, ready for Rename.
func (b *BillyFS) TempFile(dir, prefix string) (billy.File, error) {
	d, err := b.writePath(dir, true)
	if err != nil {
		return nil, err
	}
	if d != "." {
		if err := b.root.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	for range 10 {
		var r [8]byte
		rand.Read(r[:])
		p := path.Join(d, prefix+hex.EncodeToString(r[:]))
		f, err := b.root.OpenFile(p, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			return &gitBillyFile{File: f, name: b.billyName(p)}, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
	}
	return nil, errors.New("could not create a temp file in " + dir)
}

// ReadDir lists a folder, entries lstat'ed (a symlink is reported as one).
func (b *BillyFS) ReadDir(dir string) ([]os.FileInfo, error) {
	p, err := b.path(dir)
	if err != nil {
		return nil, err
	}
	f, err := b.root.OpenFile(p, os.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ents, err := f.ReadDir(-1)
	if err != nil {
		return nil, err
	}
	out := make([]os.FileInfo, 0, len(ents))
	for _, e := range ents {
		if IsTempName(e.Name()) || b.worktree && IsDotGit(e.Name()) {
			continue
		}
		if b.check(path.Join(p, e.Name())) != nil {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue // vanished meanwhile
		}
		out = append(out, fi)
	}
	return out, nil
}

func (b *BillyFS) MkdirAll(filename string, perm os.FileMode) error {
	p, err := b.writePath(filename, true)
	if err != nil {
		return err
	}
	if perm == 0 {
		perm = 0o755
	}
	return b.root.MkdirAll(p, perm)
}

// Symlink creates link pointing at target (text, not checked), creating
// link's parents.
func (b *BillyFS) Symlink(target, link string) error {
	p, err := b.writePath(link, false)
	if err != nil {
		return err
	}
	if err := b.mkParent(p); err != nil {
		return err
	}
	return b.root.Symlink(target, p)
}

func (b *BillyFS) Readlink(link string) (string, error) {
	p, err := b.path(link)
	if err != nil {
		return "", err
	}
	return b.root.Readlink(p)
}

func (b *BillyFS) Chmod(name string, mode os.FileMode) error {
	p, err := b.writePath(name, true)
	if err != nil {
		return err
	}
	return b.root.Chmod(p, mode)
}

func (b *BillyFS) Lchown(name string, uid, gid int) error {
	p, err := b.writePath(name, false)
	if err != nil {
		return err
	}
	return b.root.Lchown(p, uid, gid)
}

func (b *BillyFS) Chown(name string, uid, gid int) error {
	p, err := b.writePath(name, true)
	if err != nil {
		return err
	}
	return b.root.Chown(p, uid, gid)
}

func (b *BillyFS) Chtimes(name string, atime, mtime time.Time) error {
	p, err := b.writePath(name, true)
	if err != nil {
		return err
	}
	return b.root.Chtimes(p, atime, mtime)
}

// Chroot is a view of the folder dir; it shares this filesystem's handle.
func (b *BillyFS) Chroot(dir string) (billy.Filesystem, error) {
	p, err := b.rel(dir)
	if err != nil {
		return nil, err
	}
	if p == "." {
		p = ""
	}
	c := *b
	c.sub = p
	return &c, nil
}

// Root is the absolute path of the folder this filesystem (or chroot) serves.
func (b *BillyFS) Root() string { return path.Join(b.base, b.sub) }

// Capabilities implements billy.Capable.
func (b *BillyFS) Capabilities() billy.Capability { return billy.DefaultCapabilities }

// gitBillyFile is an *os.File that reports its billy name and can be locked.
type gitBillyFile struct {
	*os.File
	name string
}

func (f *gitBillyFile) Name() string { return f.name }

func (f *gitBillyFile) Lock() error {
	return syscall.Flock(int(f.File.Fd()), syscall.LOCK_EX)
}

func (f *gitBillyFile) Unlock() error {
	return syscall.Flock(int(f.File.Fd()), syscall.LOCK_UN)
}
