//go:build !linux

package shell

// Portable side of FileTree and TreeReader, on os.Root handles: correct and
// confined, with a few more system calls per entry than the Linux side.

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// ftFD is an open folder.
type ftFD struct{ r *os.Root }

var ftNoFD = ftFD{}

func ftStampOfInfo(fi fs.FileInfo) ftStamp {
	st := ftStamp{mtime: fi.ModTime().UnixNano(), size: fi.Size()}
	if s, ok := fi.Sys().(*syscall.Stat_t); ok {
		st.ino = uint64(s.Ino)
	}
	return st
}

// Folders are opened with openDirRoot ("name/."), never OpenRoot(name):
// os.Root opens a last component without O_DIRECTORY, so a FIFO there (or
// swapped in after the Lstat) would block the walk forever.

func ftOpenBase(tg target) (ftFD, ftStamp, error) {
	r, err := openDirRoot(tg.r.root, tg.rel)
	if err != nil {
		return ftNoFD, ftStamp{}, AsError(err, tg.abs)
	}
	fi, err := r.Stat(".")
	if err != nil {
		r.Close()
		return ftNoFD, ftStamp{}, AsError(err, tg.abs)
	}
	return ftFD{r}, ftStampOfInfo(fi), nil
}

func (d ftFD) openDir(name string) (ftFD, ftStamp, error) {
	fi, err := d.r.Lstat(name)
	if err != nil {
		return ftNoFD, ftStamp{}, err
	}
	if !fi.IsDir() {
		return ftNoFD, ftStamp{}, syscall.ENOTDIR
	}
	r, err := openDirRoot(d.r, name)
	if err != nil {
		return ftNoFD, ftStamp{}, err
	}
	return ftFD{r}, ftStampOfInfo(fi), nil
}

func (d ftFD) close() {
	if d.r != nil {
		d.r.Close()
	}
}

func (d ftFD) lstat(name string) (ftStamp, error) {
	fi, err := d.r.Lstat(name)
	if err != nil {
		return ftStamp{}, err
	}
	return ftStampOfInfo(fi), nil
}

func (d ftFD) list() ([]ftEnt, error) {
	f, err := d.r.Open(".")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ents, err := f.ReadDir(-1)
	if err != nil {
		return nil, err
	}
	out := make([]ftEnt, 0, len(ents))
	for _, e := range ents {
		var t byte
		switch {
		case e.Type()&fs.ModeSymlink != 0:
			t = ftTypeLink
		case e.IsDir():
			t = ftTypeDir
		case e.Type().IsRegular():
			t = ftTypeReg
		}
		out = append(out, ftEnt{name: e.Name(), typ: t})
	}
	return out, nil
}

func (d ftFD) readFile(name string, buf *[]byte, max int64, sniff bool) ([]byte, TreeSkip, error) {
	fi, err := d.r.Lstat(name)
	if err != nil {
		return nil, TreeNotRegular, err
	}
	if !fi.Mode().IsRegular() {
		return nil, TreeNotRegular, nil
	}
	f, err := d.r.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, TreeNotRegular, err
	}
	defer f.Close()
	if fi, err = f.Stat(); err != nil {
		return nil, TreeNotRegular, err
	}
	if !fi.Mode().IsRegular() {
		return nil, TreeNotRegular, nil
	}
	if max > 0 && fi.Size() > max {
		return nil, TreeTooLarge, nil
	}
	b := ftGrow(buf, int(fi.Size()))
	n, err := io.ReadFull(f, b)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, TreeNotRegular, err
	}
	data := b[:n]
	if sniff && ftHasNUL(data) {
		return nil, TreeBinary, nil
	}
	return data, TreeReadOK, nil
}

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

// ftWatcher: no change notifications here; trees stay in sweep mode.
type ftWatcher struct{}

func ftNewWatcher() *ftWatcher             { return nil }
func (w *ftWatcher) add(ftFD, *ftDir) bool { return false }
func (w *ftWatcher) orphaned() bool        { return true }
func (w *ftWatcher) removeTree(d *ftDir)   { ftMarkGone(d) }
func (w *ftWatcher) drain() (bool, error)  { return true, nil }
func (w *ftWatcher) close()                {}

func (d ftFD) readBeneath(string, *[]byte, int64, bool) ([]byte, TreeSkip, error, bool) {
	return nil, TreeNotRegular, nil, false
}
