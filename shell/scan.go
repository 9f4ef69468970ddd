package shell

import (
	"io"
	"io/fs"
	"path"
	"runtime"
	"sync"
	"sync/atomic"
)

// Scan is the parallel walk behind git status. Each folder is opened once
// and listed once (names and types straight from the directory), and the
// visitor stats or reads entries by name relative to that open folder, so
// a tree of N files costs about N fstatat calls plus a few calls per
// folder, spread over several goroutines. The visitor decides which
// subfolders to enter and hands each one a value of its choosing (the
// .gitignore rules in force there, say).
//
// Denied folders are never entered and editord's temp files never listed;
// a visitor asks Denied before reporting a file, and cannot read a denied
// one. Symlinks are never followed: a symlink to a folder is listed as a
// symlink, and folders are opened without following any link, so a scan
// never leaves its base.

// ScanEntry is one name in a scanned folder.
type ScanEntry struct {
	Name string
	// Type holds the type bits only: 0 for a regular file, fs.ModeDir,
	// fs.ModeSymlink, or fs.ModeIrregular for anything else.
	Type fs.FileMode
	stat *FileStat // when the listing had to stat it to learn its type
	cstr bool      // Name's bytes are followed by a NUL (a C string in place)
}

// ScanDir is one folder met by Scan. It is valid only during the visit.
// Entries holds every name but editord's temp files and denied folders;
// whether a file matches a deny glob is answered by Denied, and Open and
// Readlink refuse such files.
type ScanDir struct {
	Rel     string // relative to the scan's base, "/"-separated; "" for the base
	Entries []ScanEntry
	h       scanHandle // nil when the folder vanished before it was opened
	prefix  string     // the folder relative to its jail root, with a trailing "/"
	deny    *Patterns  // nil: none
}

// Denied reports whether Entries[i] matches a deny glob; such an entry must
// be left out of anything the visitor reports.
func (d *ScanDir) Denied(i int) bool {
	e := &d.Entries[i]
	return d.deniedName(e.Name, e.Type == fs.ModeDir)
}

func (d *ScanDir) deniedName(name string, isDir bool) bool {
	if d.deny == nil || name == ".git" {
		return false
	}
	m, ex := d.deny.Decide(d.prefix+name, isDir)
	return m && ex
}

// FileStat is the stat data git keeps for each index entry.
type FileStat struct {
	Mode                fs.FileMode
	Size                int64
	MtimeSec, MtimeNsec int64
	CtimeSec, CtimeNsec int64
	Dev, Ino            uint64
	UID, GID            uint32
}

// scanHandle is an open folder, per platform.
type scanHandle interface {
	list() ([]ScanEntry, error)
	lstat(name string) (FileStat, error)
	lstatEntry(e *ScanEntry) (FileStat, error) // an entry of list, without copying its name
	open(name string) (io.ReadCloser, error)
	readlink(name string) (string, error)
	hasChild(dir, name string) bool
	child(name string) (scanHandle, error) // open a subfolder, never through a symlink
	close()
}

// EntryStat describes Entries[i] (a symlink itself, not its target).
func (d *ScanDir) EntryStat(i int) (FileStat, error) {
	e := &d.Entries[i]
	if e.stat != nil {
		return *e.stat, nil
	}
	if d.h == nil {
		return FileStat{}, fs.ErrNotExist
	}
	return d.h.lstatEntry(e)
}

// Lstat describes the entry name of this folder.
func (d *ScanDir) Lstat(name string) (FileStat, error) {
	if d.h == nil || !scanPlainName(name) {
		return FileStat{}, fs.ErrNotExist
	}
	return d.h.lstat(name)
}

// Open opens the file name of this folder for reading (never through a
// symlink).
func (d *ScanDir) Open(name string) (io.ReadCloser, error) {
	if d.h == nil || !scanPlainName(name) {
		return nil, fs.ErrNotExist
	}
	if d.deniedName(name, false) {
		return nil, Errorf(CodeDenied, d.prefix+name, "%s matches a deny rule in the jail configuration", d.prefix+name)
	}
	return d.h.open(name)
}

// Readlink returns the target of the symlink name.
func (d *ScanDir) Readlink(name string) (string, error) {
	if d.h == nil || !scanPlainName(name) {
		return "", fs.ErrNotExist
	}
	if d.deniedName(name, false) {
		return "", Errorf(CodeDenied, d.prefix+name, "%s matches a deny rule in the jail configuration", d.prefix+name)
	}
	return d.h.readlink(name)
}

// HasChild reports whether the subfolder dir of this folder holds an entry
// called name (a nested repository's .git, say), without listing it.
func (d *ScanDir) HasChild(dir, name string) bool {
	return d.h != nil && scanPlainName(dir) && scanPlainName(name) && d.h.hasChild(dir, name)
}

func scanPlainName(name string) bool {
	if name == "" || name == "." || name == ".." {
		return false
	}
	for i := 0; i < len(name); i++ {
		if name[i] == '/' || name[i] == 0 {
			return false
		}
	}
	return true
}

// ScanNext names a subfolder to enter and the value its visit receives.
type ScanNext[T any] struct {
	Name string
	Data T
}

// Scan visits the folder abs (inside the jail) and then every subfolder the
// visitor returns, on up to workers goroutines (0: a default suited to
// I/O-bound work). Visits run concurrently, so visit must be safe for that;
// each folder is visited once. A folder that cannot be opened or listed
// (gone meanwhile) is visited with no entries. The error is the base's,
// when it cannot be opened.
func Scan[T any](j *Jail, abs string, workers int, data T, visit func(d *ScanDir, data T) []ScanNext[T]) error {
	t, err := j.prepare(abs, true, false)
	if err != nil {
		return err
	}
	base, err := openScanBase(t)
	if err != nil {
		return AsError(err, t.abs)
	}
	defer base.close()
	if workers <= 0 {
		workers = min(max(8, 4*runtime.GOMAXPROCS(0)), 32)
	}
	s := &scanner[T]{j: j, base: base, jailRel: relOrEmpty(t.rel), visit: visit}
	s.cond = sync.NewCond(&s.mu)
	s.queue = append(s.queue, scanJob[T]{rel: "", data: data})
	s.pending = 1
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.work()
		}()
	}
	wg.Wait()
	return nil
}

// scanJob is a folder waiting for its visit. Its parent opens it (one
// openat of one name, cheaper than resolving the whole path again) while
// fewer than scanMaxOpen folders wait open; beyond that a job holds no
// descriptor and the folder is opened from the base when its turn comes,
// so a wide tree cannot exhaust descriptors.
type scanJob[T any] struct {
	rel  string
	h    scanHandle // nil: open from the base
	data T
}

const scanMaxOpen = 256

type scanner[T any] struct {
	j       *Jail
	base    scanBase
	jailRel string
	visit   func(d *ScanDir, data T) []ScanNext[T]

	mu      sync.Mutex
	cond    *sync.Cond
	queue   []scanJob[T]
	pending int          // jobs queued or running
	open    atomic.Int32 // queued jobs holding a descriptor
}

func (s *scanner[T]) work() {
	for {
		s.mu.Lock()
		for len(s.queue) == 0 && s.pending > 0 {
			s.cond.Wait()
		}
		if s.pending == 0 {
			s.mu.Unlock()
			return
		}
		job := s.queue[len(s.queue)-1]
		s.queue = s.queue[:len(s.queue)-1]
		s.mu.Unlock()

		next := s.run(job)

		s.mu.Lock()
		s.queue = append(s.queue, next...)
		s.pending += len(next) - 1
		switch {
		case s.pending == 0:
			s.cond.Broadcast() // done: release every worker
		case len(next) == 1:
			s.cond.Signal()
		case len(next) > 1:
			s.cond.Broadcast()
		}
		s.mu.Unlock()
	}
}

// run visits one folder and returns the subfolders the visitor asked for.
func (s *scanner[T]) run(job scanJob[T]) []scanJob[T] {
	d := &ScanDir{Rel: job.rel}
	h, err := job.h, error(nil)
	if h != nil {
		s.open.Add(-1)
	} else {
		h, err = s.base.openDir(job.rel)
	}
	if err == nil {
		defer h.close()
		d.h = h
		ents, _ := h.list()
		d.Entries = ents[:0]
		d.prefix = path.Join(s.jailRel, job.rel)
		if d.prefix != "" {
			d.prefix += "/"
		}
		d.deny = s.j.deny
		if d.deny.Len() == 0 {
			d.deny = nil
		}
		for _, e := range ents {
			if IsTempName(e.Name) {
				continue
			}
			// Folders are checked now (a denied one is never entered);
			// files when the visitor asks (Denied), which on a large
			// tree is a small share of them.
			if e.Type == fs.ModeDir && d.deniedName(e.Name, true) {
				continue
			}
			d.Entries = append(d.Entries, e)
		}
	}
	subs := s.visit(d, job.data)
	out := make([]scanJob[T], 0, len(subs))
	for _, n := range subs {
		if !scanPlainName(n.Name) || d.deniedName(n.Name, true) {
			continue
		}
		rel := n.Name
		if job.rel != "" {
			rel = job.rel + "/" + n.Name
		}
		job := scanJob[T]{rel: rel, data: n.Data}
		if d.h != nil && s.open.Load() < scanMaxOpen {
			if ch, err := d.h.child(n.Name); err == nil {
				s.open.Add(1)
				job.h = ch
			}
		}
		out = append(out, job)
	}
	return out
}
