package editor

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/editord/editord/diff"
	"github.com/editord/editord/shell"
	"github.com/editord/editord/workspace"
)

type SaveRequest struct {
	Path            string  `json:"path" desc:"File path, root-relative or absolute."`
	Content         string  `json:"content" desc:"The whole new content, written byte for byte."`
	ExpectedVersion *string `json:"expected_version,omitempty" desc:"The version you read; a later change is merged, or a conflict if it overlaps."`
	ExpectedMtime   *int64  `json:"expected_mtime,omitempty" desc:"Mtime guard (Unix seconds) if no expected_version."`
	Force           bool    `json:"force,omitempty" default:"false" desc:"Overwrite with no guard (a deliberate clobber)."`
	Strict          bool    `json:"strict,omitempty" default:"false" desc:"No merge: any later change conflicts."`
}

type SaveResponse struct {
	Path          string  `json:"path" desc:"The file, in stored form (root-relative)."`
	Saved         bool    `json:"saved" desc:"True when the content is now on disk."`
	Conflict      bool    `json:"conflict" desc:"True when nothing was written because the file changed since the guard's version; see conflict_patch."`
	Created       bool    `json:"created" desc:"True when the file did not exist and was created."`
	Version       string  `json:"version" desc:"On success the new content's version (use it as the next expected_version); on conflict the disk's version."`
	Mtime         int64   `json:"mtime" desc:"On success the new mtime; on conflict the disk's mtime. Unix seconds."`
	Added         int     `json:"added" desc:"Lines added relative to what was on disk."`
	Removed       int     `json:"removed" desc:"Lines removed relative to what was on disk."`
	DiskVersion   *string `json:"disk_version,omitempty" desc:"On conflict: the version on disk now."`
	DiskMtime     *int64  `json:"disk_mtime,omitempty" desc:"On conflict: the mtime on disk now, Unix seconds."`
	ConflictPatch *string `json:"conflict_patch,omitempty" desc:"On conflict: unified diff from the content on disk now to the content you sent. Reconcile, then save again with disk_version."`
	ThreeWay
	Root string `json:"root" desc:"The workspace root the call used: relative paths are relative to it."`
}

func init() {
	define("editor::save",
		"Write a whole file (prefer editor::edit to change one). "+
			"Guard it with expected_version (from editor::open, save or edit): a later change that does not overlap is merged (merged: true); "+
			"one that does is conflict: true, nothing written: reconcile, retry; never force it. Unguarded, only a new file is written.",
		destructive, (*Service).Save)
}

// errSlippedIn marks a write that landed between our check and our rename.
var errSlippedIn = errors.New("the file changed while saving")

// saveLockName spreads saves over 256 lock files by path, so saves to
// different files rarely wait on each other while saves to one file are
// serialized across every process on the state dir.
func saveLockName(abs string) string {
	h := fnv.New32a()
	h.Write([]byte(abs))
	return fmt.Sprintf("save-%02x.lock", h.Sum32()&0xff)
}

// saveLock is the lock a save of l takes. It is keyed by the file's real
// path, so that saves naming one file differently (through a symlink to it,
// or through a symlinked folder) still exclude each other; a missing file is
// keyed by its real folder and its name, which is what its real path will be.
func (s *Service) saveLock(l loc) string { return saveLockName(s.realTarget(l)) }

// realTarget is the real path l's file has or will have.
func (s *Service) realTarget(l loc) string {
	if p, err := s.jail.Realpath(l.abs); err == nil {
		return p
	} else if d, err := s.jail.Realpath(filepath.Dir(l.abs)); err == nil {
		return filepath.Join(d, filepath.Base(l.abs))
	}
	return l.abs
}

// folderLockWait bounds the wait for a folder's save lock, as
// workspace's lockWait bounds the state dir's locks.
const folderLockWait = 10 * time.Second

// lockSave takes the locks a write of l holds from its check of the disk
// to its rename (editor::save, and editor::edit), so that two guarded
// writers of one file can never both pass the check:
//
//   - the save lock of the state dir (saveLock), which serializes the
//     processes sharing the record, and whose waits time out with a
//     message naming the state dir;
//   - an flock on the file's real folder (shell.Jail.LockDir), which
//     serializes writers of the file whatever state dir they use: two
//     processes on nested roots (--root /p and --root /p/sub), or given
//     different --state-dir, both lock the one folder inode. Writes to
//     other files of the folder wait for it too, so a save holds it only
//     for the moments of its check and its rename (fileLock.releaseFolder):
//     the content is written and fsynced before, the folder fsynced after.
//
// A file that does not exist yet is locked by its nearest existing
// folder; its creation is exclusive anyway (link(2)). A folder that cannot
// be opened (no read permission) leaves only the state dir's lock.
// Lock order (writes_lock.go): writes, the state dir's save lock, the folder,
// then the record.
func (s *Service) lockSave(ctx context.Context, l loc) (unlockDir, unlockState func(), err error) {
	real := s.realTarget(l)
	unlockState, err = s.store.Lock(ctx, saveLockName(real))
	if err != nil {
		return nil, nil, err
	}
	dir := filepath.Dir(real)
	wctx, cancel := context.WithTimeout(ctx, folderLockWait)
	defer cancel()
	for {
		unlockDir, err := s.jail.LockDir(wctx, dir)
		switch code := shell.CodeOf(err); {
		case err == nil:
			return unlockDir, unlockState, nil
		case code == shell.CodeTimeout:
			unlockState()
			return nil, nil, shell.Errorf(shell.CodeTimeout, l.stored, "could not lock the folder of %s within %s: another program (an editord on another state dir?) is stuck saving in it; nothing was written", display(l.stored), folderLockWait)
		case code == shell.CodeNotFound && s.jail.Contains(filepath.Dir(dir)) && filepath.Dir(dir) != dir:
			dir = filepath.Dir(dir) // not made yet: its nearest existing folder
		default:
			return func() {}, unlockState, nil
		}
	}
}

// fileLock is what a write of one file holds (lockFile).
type fileLock struct {
	folder func() // the flock on the file's folder, until releaseFolder
	rest   func() // the state dir's save lock and the writes lock
}

// releaseFolder lets go of the folder's flock once the new content is in
// place: what is left of the write (its event, the record) is serialized
// with other writers of the file by the state dir's save lock, which a
// writer through another state dir does not need to wait for.
func (f *fileLock) releaseFolder() {
	if f.folder != nil {
		f.folder()
		f.folder = nil
	}
}

// unlock lets go of everything; it may be called more than once.
func (f *fileLock) unlock() {
	f.releaseFolder()
	if f.rest != nil {
		f.rest()
		f.rest = nil
	}
}

// lockFile takes what a write of l holds from its first look at the disk
// to its journaled event: the shared writes lock, then l's save lock
// (writes_lock.go's lock order). editor::save and editor::edit both take it,
// so they exclude each other on one file across every process.
func (s *Service) lockFile(ctx context.Context, l loc) (*fileLock, error) {
	done, err := s.writing(ctx)
	if err != nil {
		return nil, err
	}
	folder, state, err := s.lockSave(ctx, l)
	if err != nil {
		done()
		return nil, err
	}
	return &fileLock{folder: folder, rest: func() { state(); done() }}, nil
}

// saving is one save or edit in progress: its locks and the new content
// on its way to the disk (a shell.Pending, prepared before the locks for
// a save of an existing file, else under them).
type saving struct {
	lk       *fileLock
	pre      *shell.Pending
	finished chan struct{} // closed when pre's Finish, begun after the commit, is done
	version  string        // Version of the content, when already known
	guess    *guessedDiff  // the change event's diff, begun before the disk was read
	early    chan diskRead // the disk as read before the locks, for the first check
}

// diskRead is a readDisk's result.
type diskRead struct {
	d   disk
	err error
}

// disk is what the save's check goes by: for a large file, the first time,
// what was read while the content was being written beside it (early; a
// writer that lands after that read fails the re-check before the rename,
// and the save is checked again under the locks); otherwise the disk now.
func (sv *saving) disk(s *Service, l loc) (d disk, early bool, err error) {
	if sv.early != nil {
		r := <-sv.early
		sv.early = nil
		return r.d, true, r.err
	}
	d, err = s.readDisk(l)
	return d, false, err
}

// guessedDiff is a diff against the bytes this process last knew of the
// file, computed while the new content is written and synced: when the
// disk still holds them (the usual case: the file was opened or saved
// here), the event's diff of a large file is ready when the rename is done
// instead of beginning then.
type guessedDiff struct {
	before []byte
	result diff.Result
	ready  chan struct{} // closed once result is set (a retried write may read it again)
}

// finish begins the committed write's Finish (the folder's fsync) while
// the save goes on with its record and event; done waits for it.
func (sv *saving) finish() {
	p := sv.pre
	sv.pre, sv.finished = nil, make(chan struct{})
	go func() {
		defer close(sv.finished)
		p.Finish()
	}()
}

// done lets go of the locks, then completes the write (the folder's fsync,
// shell.Pending.Finish) or removes a temp file never used. Deferred by
// the function that took the locks, so the caller hears of the save only
// once it is durable.
func (sv *saving) done() {
	if sv.lk != nil {
		sv.lk.unlock()
	}
	if sv.pre != nil {
		sv.pre.Finish()
		sv.pre = nil
	}
	if sv.finished != nil {
		<-sv.finished
	}
}

// isText reports whether content may be written as text: no NUL byte
// anywhere and valid UTF-8 (docs/contract.md §3).
func isText(content []byte) bool {
	return bytes.IndexByte(content, 0) < 0 && utf8.Valid(content)
}

func (s *Service) Save(ctx context.Context, req *SaveRequest) (*SaveResponse, error) {
	root, l, err := s.writeTarget(ctx, req.Path, "path")
	if err != nil {
		return nil, err
	}
	if err := fileOnly(l); err != nil {
		return nil, err
	}
	content := bytesView(req.Content) // the decoded request's own
	if !isText(content) {
		return nil, shell.Errorf(shell.CodeBinary, l.stored, "the content for %s has a NUL byte or invalid UTF-8; editor::save writes text only", display(l.stored))
	}
	// Write and fsync the new content beside the file before taking any
	// lock, so that saves of other files in the folder (which wait for its
	// lock) do not wait for this fsync too. It is used only if, under the
	// locks, the file is still the one it was prepared against (writeAs);
	// anything unusual (a new file, a refusal) goes the plain way there.
	sv := &saving{}
	defer sv.done()
	// The content's version is hashed meanwhile (a millisecond a MiB,
	// hidden behind the fsync).
	hashed := make(chan string, 1)
	if len(content) >= memoMin {
		go func() { hashed <- Version(content) }()
		sv.early = make(chan diskRead, 1)
		go func() {
			d, err := s.readDisk(l)
			sv.early <- diskRead{d, err}
		}()
		if before, ok := s.versions.known(l.abs); ok {
			g := &guessedDiff{before: before, ready: make(chan struct{})}
			sv.guess = g
			go func() {
				g.result = s.changeDiff(l, "modified", before, content)
				close(g.ready)
			}()
		}
	} else {
		hashed <- Version(content)
	}
	if pre, err := s.jail.PrepareReplace(l.abs, content, shell.WriteOptions{}); err == nil {
		sv.pre = pre
	}
	sv.version = <-hashed
	if preparedHook != nil {
		preparedHook(sv)
	}
	s.awaitReported(ctx, root, l, deref(req.ExpectedVersion))
	lk, err := s.lockFile(ctx, l)
	if err != nil {
		return nil, err
	}
	sv.lk = lk

	retries := 3
	if sv.early != nil {
		retries++ // the first check, on the early read, is not one under the locks
	}
	for attempt := 0; ; attempt++ {
		resp, err := s.saveLocked(ctx, sv, root, l, content, req)
		if resp != nil {
			resp.Root = root
		}
		if !errors.Is(err, errSlippedIn) {
			return resp, err
		}
		if attempt < retries {
			continue // re-evaluate against what is on disk now: that yields the conflict
		}
		// Other writers keep landing between our check and our rename (a
		// forced save re-checks and tries again): answer with a conflict
		// against the disk as it is now. Never an uncoded error, which a
		// client would see as internal, and never a clobber.
		cur, rerr := s.readDisk(l)
		if rerr != nil {
			return nil, rerr
		}
		if !cur.exists {
			return nil, shell.Errorf(shell.CodeNotFound, l.stored, "%s keeps being created and removed by another program while saving; re-open it and save again", display(l.stored))
		}
		resp = s.conflict(l, cur, content)
		resp.Root = root
		return resp, nil
	}
}

// preparedHook runs in a save between writing its content beside the
// file and taking the locks; tests use it to change the file there.
var preparedHook func(*saving)

// slippedInHook runs in a save's last check, just before the rename; tests
// use it to make another writer land there.
var slippedInHook func()

// disk is what a save found at its path.
type disk struct {
	exists  bool
	data    []byte
	version string
	mtime   int64
	info    shell.Info
}

func (s *Service) readDisk(l loc) (disk, error) {
	d, err := s.readDiskBytes(l)
	if err == nil && d.exists {
		d.version = s.versions.of(l.abs, d.data)
	}
	return d, err
}

// readDiskBytes is readDisk without the version.
func (s *Service) readDiskBytes(l loc) (disk, error) {
	res, err := s.jail.ReadFile(l.abs, 0)
	if err != nil {
		if shell.CodeOf(err) == shell.CodeNotFound {
			return disk{}, nil
		}
		return disk{}, err
	}
	if res.Truncated {
		return disk{}, shell.Errorf(shell.CodeTooLarge, l.stored, "%s is %d bytes on disk, over max_read_bytes; it cannot be checked or saved through the editor", display(l.stored), res.Info.Size)
	}
	return disk{exists: true, data: res.Data, mtime: res.Info.ModTime, info: res.Info}, nil
}

func (s *Service) saveLocked(ctx context.Context, sv *saving, root string, l loc, content []byte, req *SaveRequest) (*SaveResponse, error) {
	cur, early, err := sv.disk(s, l)
	if early && (err != nil || !cur.exists || !isText(cur.data) || !guardPasses(req, cur)) {
		// Anything but a plain overwrite is decided on the disk as it is
		// under the locks (a conflict names the version there).
		return nil, errSlippedIn
	}
	if err != nil {
		return nil, err
	}
	guarded := req.ExpectedVersion != nil || req.ExpectedMtime != nil
	if !cur.exists {
		if guarded {
			return nil, shell.Errorf(shell.CodeNotFound, l.stored, "%s does not exist any more; re-open it, or create it by saving without expected_version/expected_mtime", display(l.stored))
		}
		return s.write(ctx, sv, root, l, cur, content, true)
	}
	if !isText(cur.data) {
		return nil, shell.Errorf(shell.CodeBinary, l.stored, "%s is binary on disk (NUL byte or invalid UTF-8); editor::save will not overwrite it", display(l.stored))
	}
	notice := s.draftNotice(ctx, root, l)
	if s.holdsForDraft(notice) {
		s.handOut(cur.version, cur.data)
		return &SaveResponse{Path: l.stored, Version: cur.version, Mtime: cur.mtime, ThreeWay: ThreeWay{Held: true, Draft: notice}}, nil
	}
	var resp *SaveResponse
	if !guardPasses(req, cur) {
		resp, err = s.saveStale(ctx, sv, root, l, cur, content, req)
	} else {
		resp, err = s.write(ctx, sv, root, l, cur, content, false)
	}
	if resp != nil {
		resp.Draft = notice
	}
	return resp, err
}

// saveStale is a save whose guard is not the disk's version: merged with
// the disk when expected_version's content is known and the changes do
// not overlap (merge.go), else a conflict.
func (s *Service) saveStale(ctx context.Context, sv *saving, root string, l loc, cur disk, content []byte, req *SaveRequest) (*SaveResponse, error) {
	var m *staleMerge
	if req.ExpectedVersion != nil && *req.ExpectedVersion != "" && !req.Strict {
		m = s.mergeStale(*req.ExpectedVersion, content, cur.data)
	}
	if m == nil {
		return s.conflict(l, cur, content), nil
	}
	if len(m.conflicts) > 0 {
		resp := s.conflict(l, cur, content)
		resp.ThreeWay = s.overlapInfo(l, m, content, cur.data)
		return resp, nil
	}
	// A normal guarded write of the merged bytes against the disk version
	// they were merged with. What was prepared beside the file holds the
	// caller's content, not these bytes; a retry (a writer slipped in)
	// merges again from the start.
	if sv.pre != nil {
		sv.pre.Abort()
		sv.pre = nil
	}
	mine := sv.version
	sv.version, sv.guess = Version(m.merged), nil
	resp, err := s.write(ctx, sv, root, l, cur, m.merged, false)
	sv.version = mine
	if err != nil {
		if sv.pre != nil {
			sv.pre.Abort()
			sv.pre = nil
		}
		return nil, err
	}
	resp.ThreeWay = s.mergedInfo(l, m, content)
	return resp, nil
}

// guardPasses reports whether req may replace cur: its expected version
// or mtime is cur's, or it is forced.
func guardPasses(req *SaveRequest, cur disk) bool {
	switch {
	case req.ExpectedVersion != nil:
		return *req.ExpectedVersion != "" && *req.ExpectedVersion == cur.version
	case req.ExpectedMtime != nil:
		return *req.ExpectedMtime == cur.mtime
	default:
		return req.Force
	}
}

func (s *Service) conflict(l loc, cur disk, content []byte) *SaveResponse {
	d := diff.Unified(string(cur.data), string(content), diff.Options{
		Path: diffPath(l), Context: s.cfg.Limits.DiffContextLines, MaxChangedBytes: s.cfg.Limits.MaxDiffBytes,
	})
	patch := d.Patch
	if d.Truncated {
		patch = ""
	}
	v, m := cur.version, cur.mtime
	s.handOut(v, cur.data) // disk_version may guard the next try
	return &SaveResponse{
		Path: l.stored, Conflict: true, Version: v, Mtime: m,
		Added: d.Added, Removed: d.Removed,
		DiskVersion: &v, DiskMtime: &m, ConflictPatch: &patch,
	}
}

// write replaces the file, re-checking the disk just before the rename so a
// writer that slipped in after our check (another program, which does not
// take our lock) turns the save into a conflict rather than a clobber.
func (s *Service) write(ctx context.Context, sv *saving, root string, l loc, cur disk, content []byte, create bool) (*SaveResponse, error) {
	return s.writeAs(ctx, sv, root, l, cur, content, create, causeOf(ctx, "editor::save"), nil)
}

// writeAs is write for the function cause; ev, when not nil, is the change
// event the caller already computed for cur -> content (editor::edit has
// its patch in hand), so the file is not diffed twice. sv holds the
// locks, which it lets go of in part once the content is in place, and
// the write, which sv.done completes.
func (s *Service) writeAs(ctx context.Context, sv *saving, root string, l loc, cur disk, content []byte, create bool, cause string, ev *workspace.Event) (*SaveResponse, error) {
	if int64(len(content)) > s.cfg.Limits.MaxFileBytes {
		// As editor::open: a file over max_file_bytes never becomes a
		// buffer (the user's editor could not hold it whole); one already
		// open is refreshed.
		ctx = refreshOnly(ctx)
	}
	v := sv.version
	if v == "" {
		v = Version(content)
	}
	resp := &SaveResponse{Path: l.stored, Saved: true, Created: create, Version: v}
	if !create && cur.version == resp.Version {
		// Same bytes: nothing to write, and no change event to send.
		resp.Mtime = cur.mtime
		s.handOut(resp.Version, content)
		return resp, s.remember(ctx, root, workspace.Buffer{Path: l.stored, Version: resp.Version, Mtime: cur.mtime, Language: Language(l.stored)})
	}
	if sv.pre != nil && (create || !sv.pre.Replaces(cur.info)) {
		// Prepared against another file (replaced or re-moded since), or
		// the file is gone: write afresh.
		sv.pre.Abort()
		sv.pre = nil
	}
	if sv.pre == nil {
		p, err := s.jail.PrepareWrite(l.abs, content, shell.WriteOptions{Parents: create, Exclusive: create, Perm: permOf(ctx)})
		if err != nil {
			return nil, err
		}
		sv.pre = p
	}
	kind := "modified"
	if create {
		kind = "created"
	}
	// The change event's diff is computed while the content is put in
	// place (the rename, the re-check, the folder's fsync): for a 1 MiB
	// file it is a millisecond, as long as the rest. A save that does not
	// happen drops it.
	var diffed chan workspace.Event
	if ev == nil {
		diffed = make(chan workspace.Event, 1)
		g := sv.guess
		go func() {
			if g != nil && !create && bytes.Equal(g.before, cur.data) {
				<-g.ready
				diffed <- s.changeEventOf(root, l, cause, kind, cur.data, content, g.result, resp.Version)
				return
			}
			diffed <- s.changeEvent(root, l, cause, kind, cur.data, content, resp.Version)
		}()
	}
	info, err := sv.pre.Commit(func() error {
		if slippedInHook != nil {
			slippedInHook()
		}
		// The same bytes as checked, compared (not hashed again).
		same, err := s.stillOnDisk(l, cur)
		if err != nil {
			return err
		}
		if !same {
			return errSlippedIn
		}
		return nil
	})
	if err != nil {
		if errors.Is(err, errSlippedIn) && !create {
			// Keep the temp file: the retry writes the same content.
			return nil, err
		}
		sv.pre.Abort()
		sv.pre = nil
		if create && shell.CodeOf(err) == shell.CodeExists {
			return nil, errSlippedIn
		}
		return nil, err
	}
	sv.lk.releaseFolder()
	sv.finish()
	s.versions.put(l.abs, content, resp.Version)
	// The new version is handed out in the reply: its content is kept
	// (versions.go) while the record and the event are written.
	kept := make(chan struct{})
	go func() {
		defer close(kept)
		s.handOut(resp.Version, content)
	}()
	defer func() { <-kept }()
	resp.Mtime = info.ModTime
	// The content is on disk now: a record that cannot be updated (a stuck
	// lock, a broken state dir) is reported, but must not turn a save that
	// happened into an error, or the caller would lose the new version and
	// believe nothing was written. It is written while the event's diff is
	// still being computed.
	if err := s.remember(ctx, root, workspace.Buffer{Path: l.stored, Version: resp.Version, Mtime: resp.Mtime, Language: Language(l.stored)}); err != nil {
		s.warn(fmt.Sprintf("%s was saved, but its buffer could not be recorded: %v", display(l.stored), err))
	}
	if ev == nil {
		e := <-diffed
		ev = &e
	}
	resp.Added, resp.Removed = ev.Added, ev.Removed
	s.emit(ctx, *ev)
	return resp, nil
}

// stillOnDisk reports whether l still holds exactly what cur found there
// (or is still missing), comparing piece by piece: the file is not held a
// second time beside the one being written (a 50 MB file's edit held it
// three times).
func (s *Service) stillOnDisk(l loc, cur disk) (bool, error) {
	rc, _, err := s.jail.OpenRead(l.abs)
	if err != nil {
		if shell.CodeOf(err) == shell.CodeNotFound {
			return !cur.exists, nil
		}
		return false, err
	}
	defer rc.Close()
	if !cur.exists {
		return false, nil
	}
	want := cur.data
	buf := make([]byte, min(len(want)+1, 1<<20))
	for {
		n, err := io.ReadFull(rc, buf)
		if n > len(want) || !bytes.Equal(buf[:n], want[:n]) {
			return false, nil
		}
		want = want[n:]
		switch {
		case err == io.EOF || err == io.ErrUnexpectedEOF:
			return len(want) == 0, nil
		case err != nil:
			return false, shell.AsError(err, l.abs)
		}
	}
}

// diffPath is the name a patch about l carries in its headers.
func diffPath(l loc) string {
	if p := strings.TrimPrefix(l.stored, "/"); p != "" {
		return p
	}
	return "file"
}
