package shell

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"
	"sync"
	"syscall"
	"time"
)

// WriteOptions tunes WriteFile.
type WriteOptions struct {
	// Perm is the mode of a file that did not exist; an existing file keeps
	// its own mode. Zero means 0644.
	Perm fs.FileMode
	// Parents creates missing parent folders.
	Parents bool
	// Exclusive refuses with exists when anything is already at the path.
	Exclusive bool
	// Before runs after the new content is durable in the temp file and just
	// before it replaces the old file. An error from it aborts the write and
	// nothing changes; this is where a caller re-checks the disk under its
	// own lock so that a writer slipping in between is caught.
	Before func() error
	// NoSync skips the fsyncs, for state that is cheap to lose on power
	// failure (the rename still makes a crash of the process harmless).
	NoSync bool
}

const tempMarker = ".editord-"

// IsTempName reports whether name is one of editord's in-flight temp files,
// which listings hide.
func IsTempName(name string) bool {
	return strings.HasPrefix(name, ".") && strings.Contains(name, tempMarker) && strings.HasSuffix(name, ".tmp")
}

// WriteFile replaces abs with data atomically: a temp file in the same
// folder is written, fsynced and given the old file's mode, renamed over the
// target, and the folder is fsynced. A crash at any point leaves either the
// old file or the new one, never a mix. A symlink is written through to its
// target (the link survives). Hard links to the old file keep the old
// content, as with any rename-based save (vim's default too).
func (j *Jail) WriteFile(abs string, data []byte, opt WriteOptions) (Info, error) {
	p, err := j.PrepareWrite(abs, data, opt)
	if err != nil {
		return Info{}, err
	}
	defer p.Abort()
	info, err := p.Commit(opt.Before)
	if err != nil {
		return Info{}, err
	}
	p.Finish()
	return info, nil
}

// Pending is new content for a file, written to a temp file beside it (and
// made durable there unless NoSync), waiting to take the file's place.
// PrepareReplace makes one; Commit puts it in place; Finish completes the
// write's durability; Abort, which may always be deferred, removes the temp
// file of one never committed.
//
// It splits a save so that its slow parts run outside the caller's locks:
// writing and fsyncing the content before them (PrepareReplace), only the
// check and the rename under them (Commit), and the folder's fsync after
// them (Finish), before the caller reports the save as done.
type Pending struct {
	d     *os.Root
	src   *os.File // the old file, open since the prepare
	tmp   string
	base  string
	abs   string
	dir   string // the folder's path, for the sweep of stale temp files
	excl  bool
	sync  bool
	info  Info // of the temp file, which becomes the file
	old   Info // of the old file when prepared (Ino, Mode); zero when none
	state int  // 0 prepared, 1 committed, 2 finished or aborted
}

// PrepareReplace writes data to a temp file beside the existing file abs
// (through symlinks, as WriteFile), with the file's mode, owner and
// extended attributes, fsynced unless opt.NoSync. The file must exist:
// creating a file goes through WriteFile. opt.Parents, Exclusive and
// Before do not apply; the caller checks the disk before Commit.
func (j *Jail) PrepareReplace(abs string, data []byte, opt WriteOptions) (*Pending, error) {
	opt.Parents, opt.Exclusive, opt.Before = false, false, nil
	p, err := j.PrepareWrite(abs, data, opt)
	if err != nil {
		return nil, err
	}
	if p.src == nil {
		p.Abort()
		return nil, Errorf(CodeNotFound, p.abs, "%s does not exist; PrepareReplace replaces an existing file", p.abs)
	}
	return p, nil
}

// Replaces reports whether p would still replace the file described by
// cur (as a read of it just now found it): the same inode with the same
// mode as when p was prepared, so that p carries that file's mode, owner
// and attributes. When it is false the caller aborts p and writes afresh.
func (p *Pending) Replaces(cur Info) bool {
	return p.state == 0 && p.old.Ino != 0 && cur.Ino == p.old.Ino && cur.Mode == p.old.Mode
}

// PrepareWrite is the first half of WriteFile: the temp file written
// (and fsynced unless opt.NoSync) beside abs, with the old file's mode,
// owner and attributes when there is one; parents made when opt.Parents.
// Commit (given opt.Before's job) puts it in place; opt.Before is unused.
func (j *Jail) PrepareWrite(abs string, data []byte, opt WriteOptions) (*Pending, error) {
	t, err := j.prepare(abs, true, true)
	if err != nil {
		return nil, err
	}
	if j.maxWrite > 0 && int64(len(data)) > j.maxWrite {
		return nil, Errorf(CodeTooLarge, t.abs, "%s: content is %d bytes, over the jail's max_write_bytes of %d", t.abs, len(data), j.maxWrite)
	}
	if t.rel == "." {
		return nil, Errorf(CodeIsADirectory, t.abs, "%s is a folder", t.abs)
	}
	if t.link {
		if _, err := t.r.root.Lstat(t.rel); err != nil {
			return nil, Errorf(CodeNotFound, t.abs, "%s is a symlink to a missing file; fix the link or write to another path", t.abs)
		}
	}
	dir, base := path.Dir(t.rel), path.Base(t.rel)
	if opt.Parents && dir != "." {
		if err := mkdirParents(t.r.root, dir, t.abs); err != nil {
			return nil, err
		}
	}
	d, err := openDirRoot(t.r.root, dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, Errorf(CodeNotFound, t.abs, "the folder of %s does not exist; create it first (editor::create kind folder) or save without a guard", t.abs)
		}
		return nil, AsError(err, t.abs)
	}
	p := &Pending{d: d, base: base, abs: t.abs, dir: t.r.path + "/" + dir, excl: opt.Exclusive, sync: !opt.NoSync}
	ok := false
	defer func() {
		if !ok {
			p.Abort()
		}
	}()

	perm := opt.Perm
	if perm == 0 {
		perm = 0o644
	}
	var uid, gid = -1, -1
	old, statErr := d.Lstat(base)
	switch {
	case statErr == nil && opt.Exclusive:
		return nil, Errorf(CodeExists, t.abs, "%s already exists; editor::create never overwrites (use editor::save)", t.abs)
	case statErr == nil && old.IsDir():
		return nil, Errorf(CodeIsADirectory, t.abs, "%s is a folder; pass a file path", t.abs)
	case statErr == nil:
		perm = old.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
		if st, ok := old.Sys().(*syscall.Stat_t); ok {
			uid, gid = int(st.Uid), int(st.Gid)
		}
		if p.src, err = d.OpenFile(base, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0); err != nil {
			return nil, AsError(err, t.abs)
		}
		p.old = infoOf(old)
	case !errors.Is(statErr, fs.ErrNotExist):
		return nil, AsError(statErr, t.abs)
	}

	// A save writes a temp file beside the target and renames it over (or,
	// to create, links it and removes the temp name). A folder whose
	// entries can be added but never removed (chattr +a) lets the temp file
	// be made and then keeps it forever: refuse before making anything.
	if appendOnly, immutable := folderFlags(d); appendOnly || immutable {
		flag := "append-only (chattr +a): names can be added to it but never removed or replaced"
		if immutable {
			flag = "immutable (chattr +i): nothing in it can be added, removed or replaced"
		}
		return nil, Errorf(CodeDenied, t.abs, "%s cannot be saved: its folder %s is %s, and a save replaces the file through a temp file there. Nothing was written; clear the flag (chattr -a / -i) to save it", t.abs, path.Dir(t.abs), flag)
	}
	tmp, f, err := createTemp(d, base)
	if err != nil {
		return nil, writeError(err, t.abs)
	}
	p.tmp = tmp
	info, err := writeAll(f, p.src, data, perm, uid, gid, !opt.NoSync)
	if err != nil {
		var xe *xattrError
		if errors.As(err, &xe) && !errors.Is(err, syscall.ENOSPC) && !errors.Is(err, syscall.EDQUOT) {
			return nil, &Error{Code: CodeDenied, Path: t.abs, Err: err, Message: fmt.Sprintf(
				"%s: %s, so saving it would drop it; nothing was written and the file is as it was. "+
					"Save as a user allowed to set it, or remove it from the file first if it is not needed (setfattr -x, setfacl -b)", t.abs, xe)}
		}
		return nil, writeError(err, t.abs)
	}
	info.Name = base
	p.info = info
	ok = true
	return p, nil
}

// Commit runs before (when not nil; an error from it aborts the write and
// nothing changes: this is where a caller re-checks the disk under its own
// lock), then puts the new content in place: renamed over the file, or for
// an exclusive write linked (so it fails if anything appeared at the path
// meanwhile). It returns the file's new Info. Call Finish once the caller's
// locks are released.
func (p *Pending) Commit(before func() error) (Info, error) {
	if p.state != 0 {
		return Info{}, Errorf(CodeInternal, p.abs, "%s: the pending write was already committed or aborted", p.abs)
	}
	if before != nil {
		if err := before(); err != nil {
			return Info{}, err
		}
	}
	if p.excl {
		// link(2) fails if the name exists, which makes creation exclusive
		// even against another process racing us.
		if err := p.d.Link(p.tmp, p.base); err != nil {
			return Info{}, writeError(err, p.abs)
		}
		p.d.Remove(p.tmp)
	} else if err := p.d.Rename(p.tmp, p.base); err != nil {
		return Info{}, writeError(err, p.abs)
	}
	p.state = 1
	return p.info, nil
}

// Finish completes a committed write: the folder is fsynced (unless
// NoSync), so that the rename is durable, and the old file, held open
// since the prepare, is let go. Closing it frees the replaced file's
// blocks, which on ext4 waits for the file system's journal: that and
// the fsync are why Finish is separate from Commit, to be called after the
// caller's locks are released. Concurrent Finishes of writes in one
// folder share an fsync when they can (syncDirShared).
func (p *Pending) Finish() {
	if p.state != 1 {
		p.Abort()
		return
	}
	p.state = 2
	if p.sync {
		syncDirShared(p.d, p.dir)
	}
	p.close()
	sweepStaleTemps(p.d, p.dir)
	p.d.Close()
}

// Abort removes the temp file of a write not committed and releases what
// the prepare held; after Commit it does what Finish does not need to.
// It may be called any number of times.
func (p *Pending) Abort() {
	switch p.state {
	case 0:
		if p.tmp != "" {
			p.d.Remove(p.tmp)
		}
	case 1:
		// Committed but never finished: at least sync and let go.
		p.Finish()
		return
	case 2:
		return
	}
	p.state = 2
	p.close()
	p.d.Close()
}

func (p *Pending) close() {
	if p.src != nil {
		p.src.Close()
		p.src = nil
	}
}

// writeError classifies a failure of the write itself. A full disk gets
// the next step, and the assurance that matters: the temp file is removed
// (WriteFile's deferred cleanup) and the file is as it was.
func writeError(err error, abs string) error {
	if errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) {
		return &Error{Code: CodeNoSpace, Path: abs, Err: err, Message: fmt.Sprintf(
			"%s was not saved: %s. Nothing was written: the file is intact (or still absent). Free space on the file system holding %s (or raise the quota there), then save again",
			abs, noSpaceCause(err), path.Dir(abs))}
	}
	return AsError(err, abs)
}

// A writer killed between creating its temp file and renaming it (SIGKILL,
// a crash, power loss) leaves the temp file behind (3 of 5 SIGKILLs of a
// multi-file replace did). Listings hide such files; the next successful
// write in the same folder removes those older than staleTempAge, which no
// live writer's temp file is (a save writes its temp file and renames it
// within moments), and so does a walk that asks for it (WalkOptions
// SweepTemps: the watcher's first walk of the root, when a server starts).
// One process looks at a folder at most once every sweepEvery, so a save
// in a folder of 200,000 entries does not list it every time.
const (
	staleTempAge = 3 * time.Minute
	sweepEvery   = staleTempAge
	sweepsKept   = 4096
)

// sweepTemp removes name from the folder d if it is an editord temp file
// (by its exact shape) older than staleTempAge.
func sweepTemp(d *os.Root, name string, now time.Time) {
	if !isOwnTempName(path.Base(name)) {
		return
	}
	fi, err := d.Lstat(name)
	if err != nil || !fi.Mode().IsRegular() || now.Sub(fi.ModTime()) < staleTempAge {
		return
	}
	d.Remove(name)
}

var sweeps struct {
	sync.Mutex
	last map[string]time.Time // folder (real path) -> last sweep
}

// sweepStaleTemps removes editord's own stale temp files from the folder d
// (key names it). It reads the folder in batches, so memory stays small
// however many entries it has, and touches only regular files whose names
// have exactly the shape createTemp gives them.
func sweepStaleTemps(d *os.Root, key string) {
	now := time.Now()
	sweeps.Lock()
	if sweeps.last == nil || len(sweeps.last) >= sweepsKept {
		sweeps.last = map[string]time.Time{}
	}
	if at, ok := sweeps.last[key]; ok && now.Sub(at) < sweepEvery {
		sweeps.Unlock()
		return
	}
	sweeps.last[key] = now
	sweeps.Unlock()
	f, err := d.OpenFile(".", os.O_RDONLY|syscall.O_DIRECTORY, 0)
	if err != nil {
		return
	}
	defer f.Close()
	for {
		names, err := f.Readdirnames(1024)
		for _, name := range names {
			sweepTemp(d, name, now)
		}
		if err != nil {
			return
		}
	}
}

// isOwnTempName is IsTempName made strict for deleting: "." + a name +
// ".editord-" + 12 lowercase hex digits + ".tmp", as createTemp makes them.
func isOwnTempName(name string) bool {
	if !IsTempName(name) {
		return false
	}
	stem := strings.TrimSuffix(name, ".tmp")
	i := strings.LastIndex(stem, tempMarker)
	if i < 1 {
		return false
	}
	hexPart := stem[i+len(tempMarker):]
	if len(hexPart) != 12 {
		return false
	}
	for _, c := range hexPart {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

func createTemp(d *os.Root, base string) (string, *os.File, error) {
	for range 10 {
		var b [6]byte
		rand.Read(b[:])
		name := "." + truncateName(base) + tempMarker + hex.EncodeToString(b[:]) + ".tmp"
		f, err := d.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			return name, f, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return "", nil, err
		}
	}
	return "", nil, errors.New("could not create a temp file")
}

// truncateName keeps temp names within NAME_MAX for long base names.
func truncateName(base string) string {
	if len(base) > 200 {
		return base[:200]
	}
	return base
}

// writeAll fills the temp file f and gives it the old file's owner, mode
// and, from src when there was an old file, its extended attributes and
// ACL.
func writeAll(f, src *os.File, data []byte, perm fs.FileMode, uid, gid int, sync bool) (Info, error) {
	_, err := f.Write(data)
	if err == nil && uid >= 0 {
		// Best effort: keeping the owner only works for a privileged process
		// or when the owner is already us.
		f.Chown(uid, gid)
	}
	if err == nil {
		// After chown: chown clears setuid/setgid bits.
		err = f.Chmod(perm)
	}
	if err == nil && src != nil {
		// After chown and chmod: chown clears file capabilities, chmod
		// rewrites an ACL's mask.
		err = copyXattrs(src, f)
	}
	if err == nil && sync {
		err = f.Sync()
	}
	var info Info
	if err == nil {
		// The temp file's own stat is the file's once renamed: a rename
		// changes neither its inode nor its mtime.
		var fi fs.FileInfo
		if fi, err = f.Stat(); err == nil {
			info = infoOf(fi)
		}
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return info, err
}

// dirSyncs lets concurrent fsyncs of one folder share: a write that
// needs its rename durable waits for an fsync of the folder that began
// after its rename, and one fsync serves every rename made before it
// began (an fsync of a folder makes every change to its entries durable,
// whichever file descriptor made them). Keyed by the folder's path in its
// jail: two names for one folder only share less.
var dirSyncs struct {
	sync.Mutex
	m map[string]*dirSync
}

type dirSync struct {
	ticket  uint64 // renames that asked for a sync
	done    uint64 // every ticket up to done is durable
	running bool
	users   int
	cond    *sync.Cond
}

// syncDirShared fsyncs the folder d (named key), or waits for an fsync of
// it that another writer began after this call began.
func syncDirShared(d *os.Root, key string) {
	dirSyncs.Lock()
	defer dirSyncs.Unlock()
	if dirSyncs.m == nil {
		dirSyncs.m = map[string]*dirSync{}
	}
	s := dirSyncs.m[key]
	if s == nil {
		s = &dirSync{cond: sync.NewCond(&dirSyncs.Mutex)}
		dirSyncs.m[key] = s
	}
	s.users++
	s.ticket++
	mine := s.ticket
	for s.done < mine {
		if s.running {
			s.cond.Wait()
			continue
		}
		s.running = true
		upTo := s.ticket // every rename that took a ticket so far is done
		dirSyncs.Unlock()
		syncDir(d)
		dirSyncs.Lock()
		s.running, s.done = false, upTo
		s.cond.Broadcast()
	}
	if s.users--; s.users == 0 {
		delete(dirSyncs.m, key)
	}
}

func syncDir(d *os.Root) {
	if f, err := d.Open("."); err == nil {
		f.Sync()
		f.Close()
	}
}
