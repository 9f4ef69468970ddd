package shell

// FileTree snapshots: the tree as a later process can take it up again.
//
// A first editor::find or editor::search on a large tree waited for a
// walk of every folder (240,000 files: half a second of CPU and more on a
// loaded machine). A snapshot is what the walk learnt: every folder with
// its stamp (mtime, inode, size) and listing, and every .gitignore with
// its stamp and bytes. LoadFileTree rebuilds the tree from one and brings
// it up to date with a sweep (FileTree's own fallback when events were
// lost): every folder is re-stat'ed, and only those whose stamp moved, or
// was too young to vouch for its listing when the snapshot was taken, are
// listed again; a .gitignore whose stamp moved is read again and, if its
// rules changed, its subtree is listed again. So a snapshot is never
// trusted, only used to know what need not be read: the tree afterwards is
// the one a walk would give.
//
// The caller keys a snapshot (its options and the rules above the base);
// the jail adds its own listing configuration (deny globs, noise folders)
// and the base. A snapshot taken under another key is refused.

import (
	"encoding/binary"
	"errors"
	"strings"
)

const ftSnapMagic = "editord-filetree-1\n"

var errSnapshot = errors.New("not a snapshot of this tree")

// Snapshot returns the tree as last refreshed, for LoadFileTree, under the
// caller's key.
func (t *FileTree) Snapshot(key string) ([]byte, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.top == nil || !t.top.listed {
		return nil, errors.New("the tree was never walked")
	}
	b := make([]byte, 0, 64+ftCount(t.top)*24)
	b = append(b, ftSnapMagic...)
	b = ftSnapString(b, t.snapKey(key))
	return ftSnapDir(b, t.top), nil
}

func (t *FileTree) snapKey(key string) string {
	return t.abs + "\x00" + t.j.listing + "\x00" + key + "\x00" + strings.Repeat("g", btoi(t.opt.Gitignore)) + strings.Repeat("n", btoi(t.opt.Noise))
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// LoadFileTree is NewFileTree starting from a snapshot taken under key
// (see the top of this file): the tree it returns is up to date, and
// changed says whether it differs from the snapshot. A snapshot that does
// not fit (another key, base or configuration, or not a snapshot at all)
// is errSnapshot: walk instead.
func (j *Jail) LoadFileTree(abs string, opt FileTreeOptions, snap []byte, key string) (t *FileTree, changed bool, err error) {
	t = &FileTree{j: j, abs: abs, opt: opt}
	top, err := ftSnapRead(snap, t.snapKey(key))
	if err != nil {
		return nil, false, err
	}
	t.top = top
	list := ftFlatten(t.top, make([]TreeFile, 0, ftCount(t.top)))
	t.list.Store(&list)
	t.gen.Add(1)
	t.sweep = true
	if changed, err = t.Refresh(); err != nil {
		return nil, false, err
	}
	t.arm = !opt.NoWatch
	return t, changed, nil
}

func ftSnapString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func ftSnapStamp(b []byte, st ftStamp) []byte {
	b = binary.AppendVarint(b, st.mtime)
	b = binary.AppendUvarint(b, st.ino)
	return binary.AppendVarint(b, st.size)
}

const (
	ftSnapRacy = 1 << iota
	ftSnapIgnore
	ftSnapIgnRacy
	ftSnapIgnRules
)

// ftSnapDir appends d and everything beneath it, in pre-order.
func ftSnapDir(b []byte, d *ftDir) []byte {
	b = ftSnapString(b, d.name)
	b = ftSnapStamp(b, d.stamp)
	var flags byte
	if d.racy || d.dirty || d.ignDirty {
		flags |= ftSnapRacy // to be listed again whatever its stamp
	}
	if d.hasIgnore {
		flags |= ftSnapIgnore
	}
	if d.ignRacy {
		flags |= ftSnapIgnRacy
	}
	if d.ign != nil && d.ignData != nil {
		flags |= ftSnapIgnRules
	}
	b = append(b, flags)
	if flags&ftSnapIgnRules != 0 {
		b = ftSnapStamp(b, d.ignStamp)
		b = binary.AppendUvarint(b, d.ignSum)
		b = ftSnapString(b, string(d.ignData))
	}
	b = binary.AppendUvarint(b, uint64(len(d.files)))
	for _, f := range d.files {
		name := f.Rel[strings.LastIndexByte(f.Rel, '/')+1:]
		b = ftSnapString(b, name)
		if f.Symlink {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
	}
	b = binary.AppendUvarint(b, uint64(len(d.subs)))
	for _, s := range d.subs {
		b = ftSnapDir(b, s)
	}
	return b
}

// ftSnapReader reads a snapshot, failing once and for good on anything
// malformed.
type ftSnapReader struct {
	b   []byte
	bad bool
}

func (r *ftSnapReader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.bad = true
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *ftSnapReader) varint() int64 {
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.bad = true
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *ftSnapReader) str() string {
	n := r.uvarint()
	if r.bad || n > uint64(len(r.b)) {
		r.bad = true
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}

func (r *ftSnapReader) byte1() byte {
	if len(r.b) == 0 {
		r.bad = true
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

func (r *ftSnapReader) stamp() ftStamp {
	return ftStamp{mtime: r.varint(), ino: r.uvarint(), size: r.varint()}
}

func ftSnapRead(snap []byte, key string) (*ftDir, error) {
	if !strings.HasPrefix(string(snap[:min(len(snap), len(ftSnapMagic))]), ftSnapMagic) {
		return nil, errSnapshot
	}
	r := &ftSnapReader{b: snap[len(ftSnapMagic):]}
	if r.str() != key || r.bad {
		return nil, errSnapshot
	}
	top := r.dir(nil, 0)
	if r.bad || len(r.b) != 0 || top == nil || top.name != "" {
		return nil, errSnapshot
	}
	return top, nil
}

// dir reads one folder and its subtree; depth bounds a hostile nesting.
func (r *ftSnapReader) dir(parent *ftDir, depth int) *ftDir {
	if depth > 4096 {
		r.bad = true
		return nil
	}
	d := &ftDir{name: r.str(), parent: parent, listed: true}
	if parent != nil {
		if d.name == "" || strings.ContainsRune(d.name, '/') {
			r.bad = true
			return nil
		}
		d.rel = d.name
		if parent.rel != "" {
			d.rel = parent.rel + "/" + d.name
		}
	}
	d.stamp = r.stamp()
	flags := r.byte1()
	d.racy = flags&ftSnapRacy != 0
	d.hasIgnore = flags&ftSnapIgnore != 0
	d.ignRacy = flags&ftSnapIgnRacy != 0
	if flags&ftSnapIgnRules != 0 {
		d.ignStamp = r.stamp()
		d.ignSum = r.uvarint()
		data := []byte(r.str())
		d.ign, d.ignData = ParseIgnoreFile(data), data
	}
	nf := r.uvarint()
	if r.bad || nf > uint64(len(r.b)) {
		r.bad = true
		return nil
	}
	d.files = make([]TreeFile, 0, nf)
	for range nf {
		name := r.str()
		link := r.byte1() == 1
		if r.bad || name == "" || strings.ContainsRune(name, '/') {
			r.bad = true
			return nil
		}
		rel := name
		if d.rel != "" {
			rel = d.rel + "/" + name
		}
		d.files = append(d.files, TreeFile{Rel: rel, Symlink: link, listed: true})
	}
	ns := r.uvarint()
	if r.bad || ns > uint64(len(r.b)) {
		r.bad = true
		return nil
	}
	d.subs = make([]*ftDir, 0, ns)
	for range ns {
		s := r.dir(d, depth+1)
		if r.bad {
			return nil
		}
		d.subs = append(d.subs, s)
	}
	return d
}
