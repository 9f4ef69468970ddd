package shell

// FileTree: the list of every file under a folder, walked in parallel and
// kept fresh cheaply, for editor::find and editor::search.
//
// Why it exists. Walk is fine for a listing, but find and search are on the
// hot path of every agent turn and must not re-walk a 60,000-file tree per
// call, nor serve a stale list. A FileTree remembers every folder it listed
// and learns what changed in one of two ways:
//
//   - Watch mode (Linux): each listed folder carries an inotify watch for
//     entries created, deleted or moved and for files closed after writing
//     (a .gitignore edited in place). The kernel queues an event before the
//     call that made the change returns, and Refresh drains the queue
//     synchronously, so a change made before Refresh began is always seen:
//     no polling, no window. Refresh then re-lists only the folders that
//     had events (opening just their ancestors to get there). When nothing
//     changed it costs one read of the event queue and a re-check of the
//     base folder.
//   - Sweep mode (elsewhere, when inotify is unavailable or out of watches,
//     and after the event queue overflowed): Refresh re-stats every folder
//     (openat+fstat+close, spread over all cores) and re-lists those whose
//     stamp (mtime, inode, size) moved: creating, deleting or renaming an
//     entry always changes its folder's mtime. A stamp younger than
//     ftRacyWindow when it was read is not trusted, as git does with its
//     index, because a change in the same tick of the file system's coarse
//     clock keeps the mtime: such a folder is re-listed next time.
//
// Either way a .gitignore whose content changed re-lists its whole subtree,
// since its rules apply to everything beneath it.
//
// Safety. Every folder is opened relative to its parent's descriptor with
// O_NOFOLLOW on a single name that came from the parent's listing, so a walk
// never follows a symbolic link and cannot leave the base folder, even when
// the tree changes under it (the guarantee os.Root gives). Watches are added
// through /proc/self/fd of the folder already opened, never by path. The
// base itself is resolved through the jail (deny globs, symlinks inside the
// jail) on every Refresh. Deny-glob matches, editord's temp files and .git
// folders are never listed; symlinks are listed (Symlink set), never
// followed.

import (
	"hash/fnv"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// ftRacyWindow is how old a stamp must be (relative to when it was read) to
// be trusted; it covers the coarse kernel clock and 1-2 s file systems.
const ftRacyWindow = 2 * time.Second

// FileTreeOptions selects what a FileTree leaves out, like WalkOptions.
type FileTreeOptions struct {
	Gitignore bool // honour .gitignore files (nested ones too)
	Noise     bool // skip the configured noise folders
	// Parents are rules that apply from folders at or above the base (a
	// repository's info/exclude and the .gitignore files between the
	// repository's top and the base), lowest precedence first.
	Parents []ParentRules
	// NoWatch keeps the tree in sweep mode (for tests of that mode).
	NoWatch bool
}

// ParentRules is a rule list read from a folder at or above a FileTree's base.
type ParentRules struct {
	Below string // path from the rules' folder down to the base; "" when it is the base
	Rules *Patterns
}

// TreeFile is one non-folder entry of a FileTree.
type TreeFile struct {
	Rel     string // relative to the tree's base, "/"-separated
	Symlink bool   // a symbolic link (never followed); otherwise a file, FIFO, socket...
	listed  bool   // came from a listing, which applied the deny globs
}

// FileTree is a cached listing of every file under a folder. Refresh brings
// it up to date; Files returns the current list. Safe for concurrent use.
// Close releases its watches.
type FileTree struct {
	j     *Jail
	abs   string
	opt   FileTreeOptions
	mu    sync.Mutex
	top   *ftDir
	watch *ftWatcher // nil in sweep mode
	arm   bool       // start watching at the next Refresh
	sweep bool       // the next Refresh must sweep (events were lost)
	list  atomic.Pointer[[]TreeFile]
	gen   atomic.Uint64
	dirs  atomic.Int64
}

// ftStamp identifies one state of a folder or file.
type ftStamp struct {
	mtime int64 // Unix nanoseconds
	ino   uint64
	size  int64
}

// ftDir is one remembered folder.
type ftDir struct {
	name   string
	rel    string // base-relative, "" for the base
	parent *ftDir
	stamp  ftStamp
	racy   bool // stamp too young to vouch for the listing
	listed bool

	hasIgnore bool // a regular .gitignore was listed
	ignStamp  ftStamp
	ignRacy   bool
	ignSum    uint64 // FNV-1a of the .gitignore's bytes
	ign       *Patterns
	ignData   []byte // the .gitignore's bytes (kept for snapshots)

	// Watch mode: set from events (under FileTree.mu, outside walks).
	wd         atomic.Int32 // watch descriptor; 0: none
	gone       atomic.Bool  // dropped from the tree
	dirty      bool         // entries changed: re-list
	ignDirty   bool         // the .gitignore may have changed: re-read
	dirtyBelow bool         // some folder beneath is dirty

	files []TreeFile // sorted by name
	subs  []*ftDir   // sorted by name + "/"
}

// ftEnt is one raw directory entry.
type ftEnt struct {
	name string
	typ  byte // ftTypeDir, ftTypeReg, ftTypeLink, ftTypeOther
}

const (
	ftTypeOther byte = iota
	ftTypeDir
	ftTypeReg
	ftTypeLink
)

// ftLevel is one rule list in force during a walk.
type ftLevel struct {
	depth int      // segments in the base-relative folder of a .gitignore inside the tree
	below []string // for rules from above the base: path from their folder to the base
	above bool
	p     *Patterns
}

// NewFileTree walks abs (a folder inside the jail) and returns its tree.
func (j *Jail) NewFileTree(abs string, opt FileTreeOptions) (*FileTree, error) {
	t := &FileTree{j: j, abs: abs, opt: opt}
	if _, err := t.Refresh(); err != nil {
		return nil, err
	}
	// Watches are armed on the second Refresh: a tree used once (one
	// `editord call`) never pays for them. That Refresh sweeps, so a change
	// between the walk and the watches is caught by the stamps.
	t.arm = !opt.NoWatch
	return t, nil
}

// Close releases the tree's watches; the tree goes on working in sweep mode.
func (t *FileTree) Close() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.arm = false
	if t.watch != nil {
		t.watch.close()
		t.watch = nil
	}
}

// Watching reports whether changes are learnt from events (watch mode).
func (t *FileTree) Watching() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.watch != nil
}

// Base is the absolute folder the tree lists.
func (t *FileTree) Base() string { return t.abs }

// Files is the current list in byte order of Rel (a.txt before a/b.txt).
// The slice is shared and must not be modified; Refresh never changes a
// slice it has handed out.
func (t *FileTree) Files() []TreeFile {
	if p := t.list.Load(); p != nil {
		return *p
	}
	return nil
}

// Gen increases every time Refresh changes the list.
func (t *FileTree) Gen() uint64 { return t.gen.Load() }

// Dirs is how many folders the tree remembers.
func (t *FileTree) Dirs() int { return int(t.dirs.Load()) }

// Refresh brings the tree up to date (see the file comment) and reports
// whether the file list changed.
func (t *FileTree) Refresh() (changed bool, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	tg, err := t.j.prepare(t.abs, true, false)
	if err != nil {
		return false, err
	}
	base, st, err := ftOpenBase(tg)
	if err != nil {
		return false, err
	}
	defer base.close()
	if t.top == nil || t.top.stamp.ino != st.ino {
		if t.top != nil && t.watch != nil {
			t.watch.removeTree(t.top)
		}
		t.top = &ftDir{}
	}
	if t.arm && t.top.listed {
		t.arm = false
		if t.watch = ftNewWatcher(); t.watch != nil {
			runtime.AddCleanup(t, func(w *ftWatcher) { w.close() }, t.watch)
		}
		t.sweep = true
	}
	sweep := t.watch == nil || t.sweep || !t.top.listed
	if !sweep {
		overflow, err := t.watch.drain()
		switch {
		case err != nil:
			t.watch.close()
			t.watch, sweep = nil, true
		case overflow:
			sweep = true
		case !t.top.dirty && !t.top.ignDirty && !t.top.dirtyBelow && t.list.Load() != nil:
			return false, nil // nothing happened
		}
	}
	jrel := relOrEmpty(tg.rel)
	var levels []ftLevel
	for _, p := range t.opt.Parents {
		if p.Below == "" {
			levels = append(levels, ftLevel{p: p.Rules})
		} else {
			levels = append(levels, ftLevel{below: strings.Split(p.Below, "/"), above: true, p: p.Rules})
		}
	}
	var jsegs []string
	if jrel != "" {
		jsegs = strings.Split(jrel, "/")
	}
	w := &ftWalker{t: t, jrel: jrel, jsegs: jsegs, sweep: sweep, watch: t.watch, sem: make(chan struct{}, runtime.GOMAXPROCS(0)*2)}
	w.visit(base, t.top, st, levels, false)
	w.wg.Wait()
	t.sweep = false
	if t.watch != nil && (w.watchFailed.Load() || t.watch.orphaned()) {
		// Out of watches, or a folder lost its watch to another: events can
		// no longer be trusted to cover the tree.
		t.watch.close()
		t.watch = nil
	}
	if w.sweep {
		t.dirs.Store(w.dirs.Load())
	}
	if w.changed.Load() || t.list.Load() == nil {
		list := make([]TreeFile, 0, ftCount(t.top))
		list = ftFlatten(t.top, list)
		t.list.Store(&list)
		t.gen.Add(1)
		if !w.sweep {
			t.dirs.Store(int64(ftCountDirs(t.top)))
		}
		return true, nil
	}
	return false, nil
}

// ftListings counts folder listings made by FileTree walks (tests see
// what a snapshot spared).
var ftListings atomic.Int64

type ftWalker struct {
	t           *FileTree
	jrel        string   // the base relative to its jail root
	jsegs       []string // the same, split
	sweep       bool     // stat every folder (else: follow the dirty marks)
	watch       *ftWatcher
	sem         chan struct{}
	wg          sync.WaitGroup
	changed     atomic.Bool
	watchFailed atomic.Bool
	dirs        atomic.Int64
}

// visit brings d (open as fd, whose fresh stamp is st) and its subtree up to
// date. force re-lists it whatever its stamp says (rules above it changed).
func (w *ftWalker) visit(fd ftFD, d *ftDir, st ftStamp, levels []ftLevel, force bool) {
	w.dirs.Add(1)
	now := time.Now().UnixNano()
	if w.watch != nil && d.wd.Load() == 0 {
		// Watch before listing: a change after the listing is then an event.
		if !w.watch.add(fd, d) {
			w.watchFailed.Store(true)
		}
	}
	var relist bool
	if w.sweep {
		relist = force || !d.listed || d.racy || d.dirty || st != d.stamp
	} else {
		relist = force || !d.listed || d.dirty
	}
	var ents []ftEnt
	if relist {
		var err error
		ftListings.Add(1)
		ents, err = fd.list()
		if err != nil {
			if d.listed && (len(d.files) > 0 || len(d.subs) > 0) {
				w.changed.Store(true)
			}
			w.drop(d.subs)
			d.files, d.subs, d.listed, d.hasIgnore, d.ign, d.ignData = nil, nil, true, false, nil, nil
			d.dirty, d.ignDirty, d.dirtyBelow = false, false, false
			return
		}
		d.hasIgnore = false
		for _, e := range ents {
			if e.name == ".gitignore" && e.typ == ftTypeReg {
				d.hasIgnore = true
			}
		}
	}
	d.stamp, d.racy = st, st.mtime > now-int64(ftRacyWindow)

	// The folder's own .gitignore: re-read when it may have changed, and
	// when its rules did change, re-list everything beneath.
	if w.t.opt.Gitignore {
		old := d.ign
		switch {
		case !d.hasIgnore:
			d.ign, d.ignData, d.ignStamp, d.ignSum, d.ignRacy = nil, nil, ftStamp{}, 0, false
		case !w.sweep && !relist && !d.ignDirty && d.ign != nil:
			// Watch mode, no event about it: unchanged.
		default:
			ist, err := fd.lstat(".gitignore")
			if err != nil {
				d.ign, d.ignData, d.ignStamp, d.ignSum, d.ignRacy = nil, nil, ftStamp{}, 0, false
				break
			}
			if d.ign != nil && !d.ignRacy && !d.ignDirty && ist == d.ignStamp {
				break
			}
			data, _ := fd.readSmall(".gitignore", 1<<20)
			h := fnv.New64a()
			h.Write(data)
			sum := h.Sum64()
			if d.ign == nil || sum != d.ignSum {
				d.ign, d.ignData = ParseIgnoreFile(data), data
			}
			d.ignStamp, d.ignSum, d.ignRacy = ist, sum, ist.mtime > now-int64(ftRacyWindow)
		}
		if old != d.ign {
			force = true
			if !relist {
				relist = true
				var err error
				if ents, err = fd.list(); err != nil {
					ents = nil
				}
			}
		}
		if d.ign != nil {
			depth := 0
			if d.rel != "" {
				depth = strings.Count(d.rel, "/") + 1
			}
			levels = append(levels[:len(levels):len(levels)], ftLevel{depth: depth, p: d.ign})
		}
	}

	if relist && w.relist(d, ents, levels) {
		w.changed.Store(true)
	}
	d.listed, d.dirty, d.ignDirty = true, false, false

	kept := d.subs[:0]
	var dropped []*ftDir
	for _, sub := range d.subs {
		if !w.sweep && !force && sub.listed && sub.wd.Load() != 0 && !sub.dirty && !sub.ignDirty && !sub.dirtyBelow {
			kept = append(kept, sub) // watch mode: nothing happened in there
			continue
		}
		cfd, cst, err := fd.openDir(sub.name)
		if err != nil {
			// Vanished or replaced by a non-folder since it was listed.
			if len(sub.files) > 0 || len(sub.subs) > 0 {
				w.changed.Store(true)
			}
			dropped = append(dropped, sub)
			continue
		}
		if sub.listed && cst.ino != sub.stamp.ino {
			// Another folder under the same name: start it afresh.
			w.drop([]*ftDir{sub})
			sub = &ftDir{name: sub.name, rel: sub.rel, parent: d}
			w.changed.Store(true)
		}
		kept = append(kept, sub)
		select {
		case w.sem <- struct{}{}:
			w.wg.Add(1)
			go func(sub *ftDir, cfd ftFD, cst ftStamp) {
				defer w.wg.Done()
				defer func() { <-w.sem }()
				w.visit(cfd, sub, cst, levels, force)
				cfd.close()
			}(sub, cfd, cst)
		default:
			w.visit(cfd, sub, cst, levels, force)
			cfd.close()
		}
	}
	for i := len(kept); i < len(d.subs); i++ {
		d.subs[i] = nil
	}
	d.subs = kept
	d.dirtyBelow = false
	w.drop(dropped)
}

// drop forgets folders that left the tree, with their watches.
func (w *ftWalker) drop(subs []*ftDir) {
	for _, s := range subs {
		if w.watch != nil {
			w.watch.removeTree(s)
		} else {
			ftMarkGone(s)
		}
	}
}

// ftMarkDirty marks d for re-listing and its ancestors for a visit.
func ftMarkDirty(d *ftDir) {
	d.dirty = true
	ftMarkAbove(d.parent)
}

func ftMarkAbove(p *ftDir) {
	for ; p != nil && !p.dirtyBelow; p = p.parent {
		p.dirtyBelow = true
	}
}

func ftMarkGone(d *ftDir) {
	d.gone.Store(true)
	for _, s := range d.subs {
		ftMarkGone(s)
	}
}

// relist rebuilds d's files and sub-folders from a fresh listing, keeping
// the remembered sub-folders that are still there. It reports whether the
// set of entries changed.
func (w *ftWalker) relist(d *ftDir, ents []ftEnt, levels []ftLevel) bool {
	old := make(map[string]*ftDir, len(d.subs))
	for _, s := range d.subs {
		old[s.name] = s
	}
	var files []TreeFile
	var subs []*ftDir
	noise := w.t.opt.Noise
	// Every rule list gets the entry's path as segments, split once: the
	// folder's segments plus the name, in scratch slices.
	var dsegs []string
	if d.rel != "" {
		dsegs = strings.Split(d.rel, "/")
	}
	segs := append(make([]string, 0, len(dsegs)+1), dsegs...)
	jsegs := append(make([]string, 0, len(w.jsegs)+len(dsegs)+1), w.jsegs...)
	jsegs = append(jsegs, dsegs...)
	var scratch []string
	for _, e := range ents {
		name := e.name
		if IsTempName(name) {
			continue
		}
		isDir := e.typ == ftTypeDir
		if isDir && (name == ".git" || (noise && w.t.j.noise[name])) {
			continue
		}
		segs = append(segs[:len(dsegs)], name)
		if w.t.j.deny.Len() > 0 {
			jsegs = append(jsegs[:len(w.jsegs)+len(dsegs)], name)
			if m, ex := w.t.j.deny.decideSegs(jsegs, isDir); m && ex {
				continue
			}
		}
		if ftIgnored(levels, segs, isDir, &scratch) {
			continue
		}
		rel := name
		if d.rel != "" {
			rel = d.rel + "/" + name
		}
		if isDir {
			s := old[name]
			if s == nil {
				s = &ftDir{name: name, rel: rel, parent: d}
			} else {
				delete(old, name)
			}
			subs = append(subs, s)
			continue
		}
		files = append(files, TreeFile{Rel: rel, Symlink: e.typ == ftTypeLink, listed: true})
	}
	sort.Slice(files, func(a, b int) bool { return files[a].Rel < files[b].Rel })
	sort.Slice(subs, func(a, b int) bool { return ftDirLess(subs[a].name, subs[b].name) })
	same := len(files) == len(d.files) && len(subs) == len(d.subs)
	if same {
		for i := range files {
			if files[i] != d.files[i] {
				same = false
				break
			}
		}
	}
	if same {
		for i := range subs {
			if subs[i] != d.subs[i] {
				same = false
				break
			}
		}
	}
	if same {
		files = d.files // keep the old slice (and its strings)
	}
	for _, s := range old {
		w.drop([]*ftDir{s}) // no longer listed (removed, now ignored, ...)
	}
	d.files, d.subs = files, subs
	return !same
}

// ftDirLess orders folder names as name+"/", so that a pre-order traversal
// is in byte order of the full path.
func ftDirLess(a, b string) bool {
	n := min(len(a), len(b))
	if c := strings.Compare(a[:n], b[:n]); c != 0 {
		return c < 0
	}
	// One is a prefix of the other: compare the next byte, "/" for the shorter.
	switch {
	case len(a) == len(b):
		return false
	case len(a) < len(b):
		return '/' < b[n]
	default:
		return a[n] < '/'
	}
}

// ftFileBeforeDir reports whether the file named f sorts before the folder
// named d's contents (d + "/...").
func ftFileBeforeDir(f, d string) bool {
	n := min(len(f), len(d))
	if c := strings.Compare(f[:n], d[:n]); c != 0 {
		return c < 0
	}
	if len(f) <= len(d) {
		return true // f is a prefix of d: shorter, or equal to d and then f < d+"/"
	}
	return f[n] < '/'
}

func ftCountDirs(d *ftDir) int {
	n := 1
	for _, s := range d.subs {
		n += ftCountDirs(s)
	}
	return n
}

func ftCount(d *ftDir) int {
	n := len(d.files)
	for _, s := range d.subs {
		n += ftCount(s)
	}
	return n
}

// ftFlatten appends d's files in byte order of path.
func ftFlatten(d *ftDir, out []TreeFile) []TreeFile {
	fi, si := 0, 0
	base := len(d.rel) + 1
	if d.rel == "" {
		base = 0
	}
	for fi < len(d.files) || si < len(d.subs) {
		if si == len(d.subs) || (fi < len(d.files) && ftFileBeforeDir(d.files[fi].Rel[base:], d.subs[si].name)) {
			out = append(out, d.files[fi])
			fi++
			continue
		}
		out = ftFlatten(d.subs[si], out)
		si++
	}
	return out
}

// ftIgnored applies the gitignore levels deepest first: the nearest rule
// list that has an opinion decides. segs is the base-relative path.
func ftIgnored(levels []ftLevel, segs []string, isDir bool, scratch *[]string) bool {
	for i := len(levels) - 1; i >= 0; i-- {
		l := &levels[i]
		sub := segs[l.depth:]
		if l.above {
			*scratch = append(append((*scratch)[:0], l.below...), segs...)
			sub = *scratch
		}
		if m, ex := l.p.decideSegs(sub, isDir); m {
			return ex
		}
	}
	return false
}
