package shell

import (
	"encoding/binary"
	"errors"
	"io"
	"io/fs"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The Linux scan works on raw descriptors: a folder is opened relative to
// the scan's base with openat2(RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS), which
// the kernel guarantees stays beneath the base without following a link,
// and its entries are stat'ed with fstatat relative to it: one system call
// per file, as git does. Where openat2 is unavailable the path is opened
// one component at a time with O_NOFOLLOW, which is as safe and a little
// slower.

type scanBase struct{ fd int }

var scanNoOpenat2 atomic.Bool

func openScanBase(t target) (scanBase, error) {
	f, err := t.r.root.Open(t.rel)
	if err != nil {
		return scanBase{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return scanBase{}, err
	}
	if !fi.IsDir() {
		return scanBase{}, syscall.ENOTDIR
	}
	var fd int
	var derr error
	rc, err := f.SyscallConn()
	if err != nil {
		return scanBase{}, err
	}
	if err := rc.Control(func(raw uintptr) {
		fd, derr = unix.FcntlInt(raw, unix.F_DUPFD_CLOEXEC, 0)
	}); err != nil {
		return scanBase{}, err
	}
	if derr != nil {
		return scanBase{}, derr
	}
	return scanBase{fd: fd}, nil
}

func (b scanBase) close() { unix.Close(b.fd) }

const scanDirFlags = unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC | unix.O_NOFOLLOW

// openDir opens the folder rel (relative to the base) without following
// any symlink on the way.
func (b scanBase) openDir(rel string) (scanHandle, error) {
	if rel == "" {
		fd, err := unix.FcntlInt(uintptr(b.fd), unix.F_DUPFD_CLOEXEC, 0)
		if err != nil {
			return nil, err
		}
		return &scanFD{fd: fd}, nil
	}
	if !scanNoOpenat2.Load() {
		fd, err := unix.Openat2(b.fd, rel, &unix.OpenHow{
			Flags:   uint64(scanDirFlags),
			Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
		})
		if err == nil {
			return &scanFD{fd: fd}, nil
		}
		if !errors.Is(err, unix.ENOSYS) && !errors.Is(err, unix.EPERM) {
			return nil, err
		}
		scanNoOpenat2.Store(true)
	}
	fd := b.fd
	for i, name := range strings.Split(rel, "/") {
		if !scanPlainName(name) {
			if i > 0 {
				unix.Close(fd)
			}
			return nil, fs.ErrInvalid
		}
		next, err := unix.Openat(fd, name, scanDirFlags, 0)
		if i > 0 {
			unix.Close(fd)
		}
		if err != nil {
			return nil, err
		}
		fd = next
	}
	return &scanFD{fd: fd}, nil
}

type scanFD struct{ fd int }

func (d *scanFD) close() { unix.Close(d.fd) }

var scanDirentBufs = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// list reads the folder's entries with their types from getdents; an entry
// whose type the file system does not report is stat'ed.
func (d *scanFD) list() ([]ScanEntry, error) {
	bp := scanDirentBufs.Get().(*[]byte)
	defer scanDirentBufs.Put(bp)
	buf := *bp
	var out []ScanEntry
	var names []byte // every name of the folder, made one string at the end
	var ends []int
	defer func() {
		// One string for the folder; each name is followed by a NUL in it,
		// so lstatEntry can hand the kernel the name in place.
		all := string(names)
		for i, start := 0, 0; i < len(out); i++ {
			out[i].Name = all[start:ends[i]]
			out[i].cstr = true
			start = ends[i] + 1
		}
	}()
	for {
		n, err := unix.Getdents(d.fd, buf)
		if err != nil {
			return out, err
		}
		if n <= 0 {
			break
		}
		for off := 0; off+19 <= n; {
			reclen := int(binary.NativeEndian.Uint16(buf[off+16:]))
			if reclen == 0 || off+reclen > n {
				break
			}
			typ := buf[off+18]
			raw := buf[off+19 : off+reclen]
			if i := scanIndexNUL(raw); i >= 0 {
				raw = raw[:i]
			}
			off += reclen
			if (len(raw) == 1 && raw[0] == '.') || (len(raw) == 2 && raw[0] == '.' && raw[1] == '.') {
				continue
			}
			e := ScanEntry{}
			switch typ {
			case unix.DT_DIR:
				e.Type = fs.ModeDir
			case unix.DT_REG:
			case unix.DT_LNK:
				e.Type = fs.ModeSymlink
			case unix.DT_UNKNOWN:
				st, err := d.lstat(string(raw))
				if err != nil {
					continue // gone meanwhile
				}
				e.stat = &st
				e.Type = st.Mode.Type()
				if e.Type != 0 && e.Type != fs.ModeDir && e.Type != fs.ModeSymlink {
					e.Type = fs.ModeIrregular
				}
			default:
				e.Type = fs.ModeIrregular
			}
			names = append(names, raw...)
			ends = append(ends, len(names))
			names = append(names, 0)
			out = append(out, e)
		}
	}
	return out, nil
}

func scanIndexNUL(b []byte) int {
	for i, c := range b {
		if c == 0 {
			return i
		}
	}
	return -1
}

func (d *scanFD) lstat(name string) (FileStat, error) {
	var st unix.Stat_t
	if err := unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return FileStat{}, err
	}
	return scanFileStat(&st), nil
}

// lstatEntry is lstat for a name from list, whose bytes sit NUL-terminated
// in the listing's string: no copy of the name per call.
func (d *scanFD) lstatEntry(e *ScanEntry) (FileStat, error) {
	if !e.cstr || e.Name == "" {
		return d.lstat(e.Name)
	}
	var st unix.Stat_t
	p := unsafe.StringData(e.Name)
	for {
		_, _, errno := unix.Syscall6(unix.SYS_NEWFSTATAT, uintptr(d.fd), uintptr(unsafe.Pointer(p)),
			uintptr(unsafe.Pointer(&st)), unix.AT_SYMLINK_NOFOLLOW, 0, 0)
		if errno == unix.EINTR {
			continue
		}
		runtime.KeepAlive(e)
		if errno != 0 {
			return FileStat{}, errno
		}
		return scanFileStat(&st), nil
	}
}

func scanFileStat(st *unix.Stat_t) FileStat {
	return FileStat{
		Mode:     scanModeOf(st.Mode),
		Size:     st.Size,
		MtimeSec: st.Mtim.Sec, MtimeNsec: st.Mtim.Nsec,
		CtimeSec: st.Ctim.Sec, CtimeNsec: st.Ctim.Nsec,
		Dev: st.Dev, Ino: st.Ino,
		UID: st.Uid, GID: st.Gid,
	}
}

// scanModeOf converts st_mode to an fs.FileMode.
func scanModeOf(m uint32) fs.FileMode {
	mode := fs.FileMode(m & 0o777)
	switch m & unix.S_IFMT {
	case unix.S_IFDIR:
		mode |= fs.ModeDir
	case unix.S_IFLNK:
		mode |= fs.ModeSymlink
	case unix.S_IFIFO:
		mode |= fs.ModeNamedPipe
	case unix.S_IFSOCK:
		mode |= fs.ModeSocket
	case unix.S_IFCHR:
		mode |= fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		mode |= fs.ModeDevice
	}
	return mode
}

func (d *scanFD) open(name string) (io.ReadCloser, error) {
	fd, err := unix.Openat(d.fd, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC|unix.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), name), nil
}

func (d *scanFD) readlink(name string) (string, error) {
	buf := make([]byte, 256)
	for {
		n, err := unix.Readlinkat(d.fd, name, buf)
		if err != nil {
			return "", err
		}
		if n < len(buf) {
			return string(buf[:n]), nil
		}
		buf = make([]byte, 2*len(buf))
	}
}

func (d *scanFD) child(name string) (scanHandle, error) {
	fd, err := unix.Openat(d.fd, name, scanDirFlags, 0)
	if err != nil {
		return nil, err
	}
	return &scanFD{fd: fd}, nil
}

func (d *scanFD) hasChild(dir, name string) bool {
	sub, err := unix.Openat(d.fd, dir, scanDirFlags, 0)
	if err != nil {
		return false
	}
	defer unix.Close(sub)
	var st unix.Stat_t
	return unix.Fstatat(sub, name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil
}

// StatOf extracts git's stat data from a FileInfo (from Lstat, or a
// BillyFS).
func StatOf(fi fs.FileInfo) FileStat {
	st := FileStat{Mode: fi.Mode(), Size: fi.Size()}
	mt := fi.ModTime()
	st.MtimeSec, st.MtimeNsec = mt.Unix(), int64(mt.Nanosecond())
	if s, ok := fi.Sys().(*syscall.Stat_t); ok {
		st.CtimeSec, st.CtimeNsec = s.Ctim.Sec, s.Ctim.Nsec
		st.Dev, st.Ino = uint64(s.Dev), s.Ino
		st.UID, st.GID = s.Uid, s.Gid
	}
	return st
}
