package shell

// TreeReader: reading the files of a FileTree with as few system calls as
// the OS allows, for content search. DenyChecker: deny globs for many paths
// below one folder.

import (
	"bytes"
	"strings"
	"sync"
)

// TreeSkip says why TreeReader.Read returned no content.
type TreeSkip int

const (
	TreeReadOK     TreeSkip = iota
	TreeBinary              // a NUL byte in the first 8 KiB
	TreeTooLarge            // over the size limit
	TreeNotRegular          // a folder, symlink, FIFO, socket or device
)

// TreeReader reads files of a FileTree with as few system calls as the OS
// allows (openat on the file's folder, fstat, read, close), reusing one
// buffer and keeping the folders of the last path open. One per goroutine;
// Close it when done.
type TreeReader struct {
	j     *Jail
	abs   string // the tree's base
	jrel  string
	base  ftFD
	cur   string      // the folder the stack ends in
	stack []ftOpenDir // open folders from the base down to cur
	buf   []byte
}

type ftOpenDir struct {
	name   string
	fd     ftFD
	denied bool // the folder (or one above it) matches a deny glob
}

// NewReader opens the tree's base for reading.
func (t *FileTree) NewReader() (*TreeReader, error) {
	tg, err := t.j.prepare(t.abs, true, false)
	if err != nil {
		return nil, err
	}
	base, _, err := ftOpenBase(tg)
	if err != nil {
		return nil, err
	}
	rd := &TreeReader{j: t.j, abs: t.abs, jrel: relOrEmpty(tg.rel), base: base}
	if b, ok := readBufs.Get().(*[]byte); ok {
		rd.buf = *b
	}
	return rd, nil
}

// readBufs keeps readers' buffers (ftKeepMax at most) from one search to
// the next.
var readBufs sync.Pool

// Close releases the open folders, and the buffer: what Read returned is
// not to be used after Close.
func (r *TreeReader) Close() {
	for _, d := range r.stack {
		d.fd.close()
	}
	r.stack, r.cur = nil, ""
	r.base.close()
	if b := r.buf; b != nil {
		r.buf = nil
		readBufs.Put(&b)
	}
}

// Read returns the content of rel (relative to the tree's base) in a buffer
// that the next Read reuses. Files over max bytes are skipped unread
// (TreeTooLarge); with sniff, a file with a NUL byte in its first 8 KiB is
// skipped (TreeBinary). Symbolic links are not followed (TreeNotRegular). A
// file that vanished is a not_found error; a denied one, denied.
func (r *TreeReader) Read(rel string, max int64, sniff bool) ([]byte, TreeSkip, error) {
	return r.read(rel, false, max, sniff)
}

// ReadFile is Read for an entry of the tree's list, whose deny globs the
// listing already applied (the jail's rules never change).
func (r *TreeReader) ReadFile(f TreeFile, max int64, sniff bool) ([]byte, TreeSkip, error) {
	return r.read(f.Rel, f.listed, max, sniff)
}

func (r *TreeReader) read(rel string, checked bool, max int64, sniff bool) ([]byte, TreeSkip, error) {
	if checked || (ftPlainRel(rel) && !r.deniedRel(rel)) {
		if data, skip, err, ok := r.base.readBeneath(rel, &r.buf, max, sniff); ok {
			if err != nil {
				return nil, skip, AsError(err, rel)
			}
			return data, skip, nil
		}
	}
	fd, name, err := r.locate(rel, checked)
	if err != nil {
		return nil, TreeNotRegular, err
	}
	data, skip, err := fd.readFile(name, &r.buf, max, sniff)
	if err != nil {
		return nil, skip, AsError(err, rel)
	}
	return data, skip, nil
}

// Open opens the file rel (relative to the tree's base) for reading at
// offsets, through the jail: for a file too large to read whole, which
// content search reads in pieces.
func (r *TreeReader) Open(rel string) (*ReadHandle, error) {
	return r.j.OpenAt(r.abs + "/" + rel)
}

// Exists reports whether rel (relative to the tree's base) is present, as
// lstat sees it (a dangling symlink exists). Denied paths do not.
func (r *TreeReader) Exists(rel string) bool {
	fd, name, err := r.locate(rel, false)
	if err != nil {
		return false
	}
	_, err = fd.lstat(name)
	return err == nil
}

// ftPlainRel reports a relative path of plain names: no "", ".", ".." or
// ".git" segment.
func ftPlainRel(rel string) bool {
	if rel == "" {
		return false
	}
	for rel != "" {
		s, rest, _ := strings.Cut(rel, "/")
		if s == "" || s == "." || s == ".." || s == ".git" {
			return false
		}
		rel = rest
	}
	return true
}

// deniedRel checks a path (relative to the base) against the deny globs,
// folders above it included.
func (r *TreeReader) deniedRel(rel string) bool {
	if r.j.deny.Len() == 0 {
		return false
	}
	jr := rel
	if r.jrel != "" {
		jr = r.jrel + "/" + rel
	}
	return r.j.deny.Excludes(jr, false)
}

// locate opens rel's folder and applies the deny globs: the folders' answers
// are kept with the open folders, so a file costs one rule check.
func (r *TreeReader) locate(rel string, checked bool) (ftFD, string, error) {
	dir, name := "", rel
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		dir, name = rel[:i], rel[i+1:]
	}
	if name == "" || name == "." || name == ".." {
		return ftNoFD, "", Errorf(CodeInvalidArgument, rel, "%s is not a file name", rel)
	}
	fd, denied, err := r.folder(dir)
	if err != nil {
		return ftNoFD, "", AsError(err, rel)
	}
	if !denied && !checked && r.j.deny.Len() > 0 {
		jr := rel
		if r.jrel != "" {
			jr = r.jrel + "/" + rel
		}
		m, ex := r.j.deny.Decide(jr, false)
		denied = m && ex
	}
	if denied {
		return ftNoFD, "", Errorf(CodeDenied, rel, "%s matches a deny rule in the jail configuration", rel)
	}
	return fd, name, nil
}

// folder returns an open descriptor of dir and whether it is denied,
// reusing the open folders that dir shares with the previous one.
func (r *TreeReader) folder(dir string) (ftFD, bool, error) {
	if dir == r.cur && (dir == "" || len(r.stack) > 0) {
		if len(r.stack) == 0 {
			return r.base, false, nil
		}
		top := r.stack[len(r.stack)-1]
		return top.fd, top.denied, nil
	}
	// Keep the open folders dir shares with cur.
	keep, i := 0, 0
	for keep < len(r.stack) && i < len(dir) {
		name := r.stack[keep].name
		if !strings.HasPrefix(dir[i:], name) || (i+len(name) < len(dir) && dir[i+len(name)] != '/') {
			break
		}
		i += len(name) + 1
		keep++
	}
	for k := len(r.stack) - 1; k >= keep; k-- {
		r.stack[k].fd.close()
	}
	r.stack = r.stack[:keep]
	r.cur = ""
	rest := ""
	if i < len(dir) {
		rest = dir[i:]
	}
	for rest != "" {
		s, tail, _ := strings.Cut(rest, "/")
		rest = tail
		if s == "" || s == "." || s == ".." || s == ".git" {
			return ftNoFD, false, Errorf(CodeInvalidArgument, dir, "%s is not a plain relative folder", dir)
		}
		parent, denied := r.base, false
		if len(r.stack) > 0 {
			top := r.stack[len(r.stack)-1]
			parent, denied = top.fd, top.denied
		}
		fd, _, err := parent.openDir(s)
		if err != nil {
			return ftNoFD, false, err
		}
		if !denied && r.j.deny.Len() > 0 {
			jr := dir[:len(dir)-len(rest)]
			jr = strings.TrimSuffix(jr, "/")
			if r.jrel != "" {
				jr = r.jrel + "/" + jr
			}
			m, ex := r.j.deny.Decide(jr, true)
			denied = m && ex
		}
		r.stack = append(r.stack, ftOpenDir{name: s, fd: fd, denied: denied})
	}
	r.cur = dir
	if len(r.stack) == 0 {
		return r.base, false, nil
	}
	top := r.stack[len(r.stack)-1]
	return top.fd, top.denied, nil
}

// ftSniffLen is how much of a file the binary sniff looks at, as git and
// ripgrep do.
const ftSniffLen = 8192

// ftHasNUL reports a NUL byte in the sniffed prefix of data.
func ftHasNUL(data []byte) bool {
	if len(data) > ftSniffLen {
		data = data[:ftSniffLen]
	}
	return bytes.IndexByte(data, 0) >= 0
}

// ftGrow returns (*buf)[:n], growing the reused buffer when needed. A
// file over ftKeepMax gets a buffer of its own, used once: a reader kept
// the largest file's size doubled (4 MB for a 2 MB file) for as long as
// it lived.
func ftGrow(buf *[]byte, n int) []byte {
	if n > ftKeepMax {
		return make([]byte, n)
	}
	if cap(*buf) < n {
		c := min(max(n, 2*cap(*buf), 64<<10), ftKeepMax)
		*buf = make([]byte, c)
	}
	return (*buf)[:n]
}

const ftKeepMax = 1 << 20

// DenyChecker answers "is this path denied?" for many paths below one
// folder (git's index, say), deciding each folder once. Not safe for
// concurrent use.
type DenyChecker struct {
	j       *Jail
	prefix  string // the base relative to its jail root, with a trailing "/" ("" for a root)
	inJail  bool
	dirs    map[string]bool
	segs    map[string][]string // a folder's segments from the jail root (never changed)
	scratch []string
}

// NewDenyChecker prepares deny checks for paths relative to base.
func (j *Jail) NewDenyChecker(base string) *DenyChecker {
	d := &DenyChecker{j: j, dirs: map[string]bool{"": false}, segs: map[string][]string{"": nil}}
	if _, rel, err := j.locate(base); err == nil {
		d.inJail = true
		if rel != "." {
			d.prefix = rel + "/"
			d.dirs[""] = j.denied(rel, true)
			d.segs[""] = splitPath(rel)
		}
	}
	return d
}

// Denied reports whether rel (relative to the base) matches a deny glob, or
// lies in a folder that does. Paths outside the jail are denied. Each
// folder's segments are split once (git's index names 240,000 paths in a
// few thousand folders).
func (d *DenyChecker) Denied(rel string, isDir bool) bool {
	if !d.inJail {
		return true
	}
	if d.j.deny.Len() == 0 {
		return false
	}
	if rel == "" {
		return d.dirs[""]
	}
	dir, name := "", rel
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		dir, name = rel[:i], rel[i+1:]
	}
	if d.dirDenied(dir) {
		return true
	}
	d.scratch = append(append(d.scratch[:0], d.segs[dir]...), name)
	m, ex := d.j.deny.decideSegs(d.scratch, isDir)
	return m && ex
}

func (d *DenyChecker) dirDenied(dir string) bool {
	if v, ok := d.dirs[dir]; ok {
		return v
	}
	parent, name := "", dir
	if i := strings.LastIndexByte(dir, '/'); i >= 0 {
		parent, name = dir[:i], dir[i+1:]
	}
	v := d.dirDenied(parent)
	ps := d.segs[parent]
	segs := append(ps[:len(ps):len(ps)], name)
	d.segs[dir] = segs
	if !v {
		m, ex := d.j.deny.decideSegs(segs, true)
		v = m && ex
	}
	d.dirs[dir] = v
	return v
}
