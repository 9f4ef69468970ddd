//go:build !linux

package shell

import (
	"io"
	"io/fs"
	"os"
	"syscall"
)

// The portable scan: folders through os.Root (safe against symlinks and
// "..", a little slower than the raw descriptors of the Linux version),
// types from the directory listing, stat data from os.Root.Lstat.

type scanBase struct{ root *os.Root }

// Folders are opened with openDirRoot ("rel/."): os.Root opens a last
// component without O_DIRECTORY, so a FIFO there (or swapped in after the
// Lstat) would block the scan.

func openScanBase(t target) (scanBase, error) {
	r, err := openDirRoot(t.r.root, t.rel)
	if err != nil {
		return scanBase{}, err
	}
	return scanBase{root: r}, nil
}

func (b scanBase) close() { b.root.Close() }

func (b scanBase) openDir(rel string) (scanHandle, error) {
	if rel == "" {
		r, err := b.root.OpenRoot(".")
		if err != nil {
			return nil, err
		}
		return &scanRoot{r: r}, nil
	}
	if fi, err := b.root.Lstat(rel); err != nil || !fi.IsDir() {
		return nil, fs.ErrNotExist
	}
	r, err := openDirRoot(b.root, rel)
	if err != nil {
		return nil, err
	}
	return &scanRoot{r: r}, nil
}

type scanRoot struct{ r *os.Root }

func (d *scanRoot) close() { d.r.Close() }

func (d *scanRoot) list() ([]ScanEntry, error) {
	f, err := d.r.Open(".")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ents, err := f.ReadDir(-1)
	out := make([]ScanEntry, 0, len(ents))
	for _, e := range ents {
		typ := e.Type() & fs.ModeType
		if typ != 0 && typ != fs.ModeDir && typ != fs.ModeSymlink {
			typ = fs.ModeIrregular
		}
		out = append(out, ScanEntry{Name: e.Name(), Type: typ})
	}
	return out, err
}

func (d *scanRoot) lstat(name string) (FileStat, error) {
	fi, err := d.r.Lstat(name)
	if err != nil {
		return FileStat{}, err
	}
	return StatOf(fi), nil
}

func (d *scanRoot) lstatEntry(e *ScanEntry) (FileStat, error) { return d.lstat(e.Name) }

func (d *scanRoot) open(name string) (io.ReadCloser, error) {
	if fi, err := d.r.Lstat(name); err != nil || !fi.Mode().IsRegular() {
		return nil, fs.ErrNotExist
	}
	// Non-blocking, and a regular file still: a FIFO swapped in since the
	// lstat must not hang the scan.
	f, err := d.r.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, fs.ErrNotExist
	}
	return f, nil
}

func (d *scanRoot) readlink(name string) (string, error) { return d.r.Readlink(name) }

func (d *scanRoot) hasChild(dir, name string) bool {
	if fi, err := d.r.Lstat(dir); err != nil || !fi.IsDir() {
		return false
	}
	_, err := d.r.Lstat(dir + "/" + name)
	return err == nil
}

func (d *scanRoot) child(name string) (scanHandle, error) {
	if fi, err := d.r.Lstat(name); err != nil || !fi.IsDir() {
		return nil, fs.ErrNotExist
	}
	r, err := openDirRoot(d.r, name) // a FIFO swapped in fails, never blocks
	if err != nil {
		return nil, err
	}
	return &scanRoot{r: r}, nil
}

// StatOf extracts git's stat data from a FileInfo. Off Linux only what
// every system reports is kept (no ctime, inode or owner), which makes
// status hash a little more often but never report wrongly.
func StatOf(fi fs.FileInfo) FileStat {
	mt := fi.ModTime()
	return FileStat{Mode: fi.Mode(), Size: fi.Size(), MtimeSec: mt.Unix(), MtimeNsec: int64(mt.Nanosecond())}
}
