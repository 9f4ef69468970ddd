package shell

import (
	"io"
	"os"
	"syscall"
)

// EnsureDir creates a folder (and its parents) outside any jail, mode 0700.
// It exists for one job: making the state dir before it is opened as a jail
// of its own.
func EnsureDir(abs string) error {
	if err := CheckPath(abs); err != nil {
		return err
	}
	if err := os.MkdirAll(abs, 0o700); err != nil {
		return AsError(err, abs)
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
