//go:build linux

package shell

// Linux side of FileTree and TreeReader: raw descriptors, so that a folder
// costs openat+fstat+close to re-check and a file openat+fstat+read+close to
// read (os.File would add fcntl and epoll calls per file).

import (
	"bytes"
	"encoding/binary"
	"strconv"
	"sync"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// ftFD is an open folder.
type ftFD int

const ftNoFD ftFD = -1

func ftStampOf(st *unix.Stat_t) ftStamp {
	return ftStamp{mtime: st.Mtim.Nano(), ino: st.Ino, size: st.Size}
}

// ftOpenBase opens the resolved base folder through the jail's os.Root and
// keeps a raw descriptor of it.
func ftOpenBase(tg target) (ftFD, ftStamp, error) {
	f, err := tg.r.root.Open(tg.rel)
	if err != nil {
		return ftNoFD, ftStamp{}, AsError(err, tg.abs)
	}
	defer f.Close()
	rc, err := f.SyscallConn()
	if err != nil {
		return ftNoFD, ftStamp{}, AsError(err, tg.abs)
	}
	nfd, derr := -1, error(nil)
	if err := rc.Control(func(fd uintptr) { nfd, derr = unix.FcntlInt(fd, unix.F_DUPFD_CLOEXEC, 0) }); err != nil {
		return ftNoFD, ftStamp{}, AsError(err, tg.abs)
	}
	if derr != nil {
		return ftNoFD, ftStamp{}, AsError(derr, tg.abs)
	}
	var st unix.Stat_t
	if err := ftRetry(func() error { return unix.Fstat(nfd, &st) }); err != nil {
		unix.Close(nfd)
		return ftNoFD, ftStamp{}, AsError(err, tg.abs)
	}
	if st.Mode&unix.S_IFMT != unix.S_IFDIR {
		unix.Close(nfd)
		return ftNoFD, ftStamp{}, Errorf(CodeNotADirectory, tg.abs, "%s is a file, not a folder", tg.abs)
	}
	return ftFD(nfd), ftStampOf(&st), nil
}

func ftRetry(f func() error) error {
	for {
		if err := f(); err != unix.EINTR {
			return err
		}
	}
}

// openDir opens the folder name inside d without following a symlink.
func (d ftFD) openDir(name string) (ftFD, ftStamp, error) {
	var fd int
	err := ftRetry(func() (err error) {
		fd, err = unix.Openat(int(d), name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		return err
	})
	if err != nil {
		return ftNoFD, ftStamp{}, err
	}
	var st unix.Stat_t
	if err := ftRetry(func() error { return unix.Fstat(fd, &st) }); err != nil {
		unix.Close(fd)
		return ftNoFD, ftStamp{}, err
	}
	return ftFD(fd), ftStampOf(&st), nil
}

func (d ftFD) close() {
	if d >= 0 {
		unix.Close(int(d))
	}
}

// lstat stamps the entry name of d (a symlink is not followed).
func (d ftFD) lstat(name string) (ftStamp, error) {
	var st unix.Stat_t
	if err := ftRetry(func() error { return unix.Fstatat(int(d), name, &st, unix.AT_SYMLINK_NOFOLLOW) }); err != nil {
		return ftStamp{}, err
	}
	return ftStampOf(&st), nil
}

var ftDirentPool = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// list reads d's entries (unsorted, without "." and "..").
func (d ftFD) list() ([]ftEnt, error) {
	bp := ftDirentPool.Get().(*[]byte)
	defer ftDirentPool.Put(bp)
	out := []ftEnt{}
	for {
		var n int
		err := ftRetry(func() (err error) {
			n, err = unix.Getdents(int(d), *bp)
			return err
		})
		if err != nil {
			return nil, err
		}
		if n <= 0 {
			return out, nil
		}
		b := (*bp)[:n]
		for len(b) >= 19 {
			ino := binary.NativeEndian.Uint64(b[0:8])
			reclen := int(binary.NativeEndian.Uint16(b[16:18]))
			if reclen < 19 || reclen > len(b) {
				break
			}
			typ := b[18]
			nb := b[19:reclen]
			if i := bytes.IndexByte(nb, 0); i >= 0 {
				nb = nb[:i]
			}
			b = b[reclen:]
			if ino == 0 || len(nb) == 0 || (nb[0] == '.' && (len(nb) == 1 || (len(nb) == 2 && nb[1] == '.'))) {
				continue
			}
			name := string(nb)
			var t byte
			switch typ {
			case unix.DT_DIR:
				t = ftTypeDir
			case unix.DT_REG:
				t = ftTypeReg
			case unix.DT_LNK:
				t = ftTypeLink
			case unix.DT_UNKNOWN:
				var st unix.Stat_t
				if unix.Fstatat(int(d), name, &st, unix.AT_SYMLINK_NOFOLLOW) != nil {
					continue
				}
				switch st.Mode & unix.S_IFMT {
				case unix.S_IFDIR:
					t = ftTypeDir
				case unix.S_IFREG:
					t = ftTypeReg
				case unix.S_IFLNK:
					t = ftTypeLink
				}
			}
			out = append(out, ftEnt{name: name, typ: t})
		}
	}
}

// readFile reads the regular file name inside d into *buf (reused).
func (d ftFD) readFile(name string, buf *[]byte, max int64, sniff bool) ([]byte, TreeSkip, error) {
	var fd int
	err := ftRetry(func() (err error) {
		fd, err = unix.Openat(int(d), name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
		return err
	})
	if err == unix.ELOOP {
		return nil, TreeNotRegular, nil
	}
	if err != nil {
		return nil, TreeNotRegular, err
	}
	return ftReadOpen(fd, buf, max, sniff)
}

// ftNoOpenat2 is set once openat2 turned out to be missing (kernels before
// 5.6, or a seccomp filter that refuses it).
var ftNoOpenat2 atomic.Bool

// readBeneath reads the regular file at the relative path rel under d with
// one openat2 that refuses symlinks anywhere on the path and any escape
// from d: the guarantee of opening folder by folder with O_NOFOLLOW, in one
// call. ok is false when openat2 is unavailable (use readFile).
func (d ftFD) readBeneath(rel string, buf *[]byte, max int64, sniff bool) (data []byte, skip TreeSkip, err error, ok bool) {
	if ftNoOpenat2.Load() {
		return nil, TreeNotRegular, nil, false
	}
	how := unix.OpenHow{
		Flags:   unix.O_RDONLY | unix.O_NOFOLLOW | unix.O_NONBLOCK | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
	}
	var fd int
	err = ftRetry(func() (err error) {
		fd, err = unix.Openat2(int(d), rel, &how)
		return err
	})
	switch err {
	case nil:
	case unix.ENOSYS, unix.EPERM:
		ftNoOpenat2.Store(true)
		return nil, TreeNotRegular, nil, false
	case unix.ELOOP:
		return nil, TreeNotRegular, nil, true // a symlink on the way
	case unix.EXDEV:
		return nil, TreeNotRegular, unix.EINVAL, true // would leave the base
	default:
		return nil, TreeNotRegular, err, true
	}
	data, skip, err = ftReadOpen(fd, buf, max, sniff)
	return data, skip, err, true
}

// ftReadOpen reads the file open as fd (and closes it): regular files of
// at most max bytes, in one read, sniffed for binary content.
func ftReadOpen(fd int, buf *[]byte, max int64, sniff bool) ([]byte, TreeSkip, error) {
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := ftRetry(func() error { return unix.Fstat(fd, &st) }); err != nil {
		return nil, TreeNotRegular, err
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return nil, TreeNotRegular, nil
	}
	if max > 0 && st.Size > max {
		return nil, TreeTooLarge, nil
	}
	b := ftGrow(buf, int(st.Size))
	n, err := ftReadFull(fd, b)
	if err != nil {
		return nil, TreeNotRegular, err
	}
	data := b[:n]
	if sniff && ftHasNUL(data) {
		return nil, TreeBinary, nil
	}
	return data, TreeReadOK, nil
}

// ftReadFull reads until b is full or the file ends.
func ftReadFull(fd int, b []byte) (int, error) {
	got := 0
	for got < len(b) {
		n, err := unix.Read(fd, b[got:])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return got, err
		}
		if n <= 0 {
			break
		}
		got += n
	}
	return got, nil
}

// readSmall reads a small regular file (a .gitignore) into a fresh slice.
func (d ftFD) readSmall(name string, max int64) ([]byte, error) {
	var b []byte
	data, skip, err := d.readFile(name, &b, max, false)
	if err != nil || skip != TreeReadOK {
		return nil, err
	}
	// The tree keeps it: a copy of its size, not the 64 KiB read buffer
	// (a 240,000-file tree has hundreds of .gitignore files).
	return bytes.Clone(data), nil
}

// ftWatcher is a FileTree's inotify instance: one watch per listed folder.
type ftWatcher struct {
	fd      int
	mu      sync.Mutex
	wds     map[int32]*ftDir
	victims []*ftDir // folders whose watch another folder took over
	buf     []byte
	closed  bool
}

// ftWatchMask: entries created, deleted or moved; files closed after a
// write (a .gitignore edited in place); the folder itself gone or moved.
const ftWatchMask = unix.IN_CREATE | unix.IN_DELETE | unix.IN_MOVED_FROM | unix.IN_MOVED_TO |
	unix.IN_CLOSE_WRITE | unix.IN_DELETE_SELF | unix.IN_MOVE_SELF | unix.IN_ONLYDIR

func ftNewWatcher() *ftWatcher {
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		return nil
	}
	return &ftWatcher{fd: fd, wds: map[int32]*ftDir{}, buf: make([]byte, 64<<10)}
}

// add watches the folder open as fd, through its descriptor (never a path
// that could have changed since).
func (w *ftWatcher) add(fd ftFD, d *ftDir) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return false
	}
	wd, err := unix.InotifyAddWatch(w.fd, "/proc/self/fd/"+strconv.Itoa(int(fd)), ftWatchMask)
	if err != nil {
		return false
	}
	if old := w.wds[int32(wd)]; old != nil && old != d {
		// The same folder under another node (moved within the tree, and
		// its old place not yet dropped): it is one or the other's.
		old.wd.Store(0)
		w.victims = append(w.victims, old)
	}
	w.wds[int32(wd)] = d
	d.wd.Store(int32(wd))
	return true
}

// orphaned reports whether a folder still in the tree lost its watch.
func (w *ftWatcher) orphaned() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	bad := false
	for _, v := range w.victims {
		if !v.gone.Load() && v.wd.Load() == 0 {
			bad = true
		}
	}
	w.victims = nil
	return bad
}

// removeTree drops the watches of d and everything beneath it.
func (w *ftWatcher) removeTree(d *ftDir) {
	w.mu.Lock()
	defer w.mu.Unlock()
	var rec func(d *ftDir)
	rec = func(d *ftDir) {
		d.gone.Store(true)
		if wd := d.wd.Load(); wd != 0 {
			if w.wds[wd] == d {
				delete(w.wds, wd)
				if !w.closed {
					unix.InotifyRmWatch(w.fd, uint32(wd))
				}
			}
			d.wd.Store(0)
		}
		for _, s := range d.subs {
			rec(s)
		}
	}
	rec(d)
}

// drain reads every queued event and marks the folders concerned. It
// reports an overflow (events were lost: sweep).
func (w *ftWatcher) drain() (overflow bool, err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return false, unix.EBADF
	}
	for {
		n, err := unix.Read(w.fd, w.buf)
		if err == unix.EINTR {
			continue
		}
		if err == unix.EAGAIN {
			return overflow, nil
		}
		if err != nil {
			return overflow, err
		}
		if n <= 0 {
			return overflow, nil
		}
		b := w.buf[:n]
		for len(b) >= unix.SizeofInotifyEvent {
			wd := int32(binary.NativeEndian.Uint32(b[0:4]))
			mask := binary.NativeEndian.Uint32(b[4:8])
			nlen := int(binary.NativeEndian.Uint32(b[12:16]))
			if unix.SizeofInotifyEvent+nlen > len(b) {
				break
			}
			name := b[unix.SizeofInotifyEvent : unix.SizeofInotifyEvent+nlen]
			if i := bytes.IndexByte(name, 0); i >= 0 {
				name = name[:i]
			}
			b = b[unix.SizeofInotifyEvent+nlen:]
			if mask&unix.IN_Q_OVERFLOW != 0 {
				overflow = true
				continue
			}
			d := w.wds[wd]
			if d == nil {
				continue
			}
			isIgnore := string(name) == ".gitignore"
			switch {
			case mask&unix.IN_IGNORED != 0:
				// The kernel dropped the watch (folder deleted): if the folder
				// is still in the tree, the visit watches it again.
				delete(w.wds, wd)
				d.wd.Store(0)
				ftMarkDirty(d)
			case mask&(unix.IN_CREATE|unix.IN_DELETE|unix.IN_MOVED_FROM|unix.IN_MOVED_TO|unix.IN_DELETE_SELF|unix.IN_MOVE_SELF) != 0:
				ftMarkDirty(d)
				if isIgnore {
					d.ignDirty = true
				}
			case mask&unix.IN_CLOSE_WRITE != 0 && isIgnore:
				d.ignDirty = true
				ftMarkAbove(d.parent)
			}
		}
	}
}

func (w *ftWatcher) close() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.closed {
		w.closed = true
		unix.Close(w.fd)
	}
}
