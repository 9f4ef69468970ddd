package shell

import "os"

// Folders is what a batch of reads (the files one workspace answer points
// into, many of them under the same folders) keeps of the folders their
// paths go through: each folder held open once, so a path is looked up
// from its deepest folder already open, not from the root with an lstat
// and an open per folder. A held folder is the one resolve opened then,
// as within one lookup; a batch is short (one answer). Close it after.
type Folders struct {
	m map[folderKey]*os.Root
}

type folderKey struct {
	root *jroot
	rel  string
}

// foldersMax bounds the folders a batch holds open.
const foldersMax = 512

// NewFolders is an empty batch.
func NewFolders() *Folders { return &Folders{m: map[folderKey]*os.Root{}} }

// Close closes the folders held.
func (f *Folders) Close() {
	if f == nil {
		return
	}
	for k, d := range f.m {
		d.Close()
		delete(f.m, k)
	}
}

func (f *Folders) get(r *jroot, rel string) (*os.Root, bool) {
	if f == nil {
		return nil, false
	}
	d, ok := f.m[folderKey{r, rel}]
	return d, ok
}

// keep holds d for rel, reporting whether it took it (and closes it).
func (f *Folders) keep(r *jroot, rel string, d *os.Root) bool {
	if f == nil || len(f.m) >= foldersMax {
		return false
	}
	f.m[folderKey{r, rel}] = d
	return true
}
