package workspace

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/editord/editord/shell"
)

// Store is the state dir: the record file, its lock, and the locks that
// serialize saves across processes.
type Store struct {
	dir  string
	jail *shell.Jail // rooted at the state dir: the record is reached through shell too
	warn func(string)
	// cache holds the last record parsed, keyed by its file's identity, so
	// a call that only reads the record costs one stat, not a parse.
	cache recordCache
	// appended is what this process knows of the journal's end after its
	// last append; jidx where earlier journal reads ended (journal*.go).
	appended appendState
	jidx     jindex
	// locksMade: the locks folder was found or made (lock).
	locksMade atomic.Bool
	// applies and appends batch concurrent changes (group.go).
	applies combiner[func(*Record) bool]
	appends combiner[appendReq]
	// versionsKept counts the version store's writes between prunes
	// (versions.go).
	versionsKept versionKeeping
	// stamp gives appended events their turn (SetStamper).
	stamp atomic.Pointer[Stamper]
}

const (
	recordFile = "workspace.json"
	recordLock = "workspace.lock"
	lockWait   = 10 * time.Second
)

// OpenStore opens (creating if needed) the state dir. warn receives
// messages about recoverable trouble, such as a corrupt record moved aside.
func OpenStore(dir string, warn func(string)) (*Store, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if err := shell.EnsureDir(abs); err != nil {
		return nil, fmt.Errorf("state dir %s: %w", abs, err)
	}
	j, err := shell.Open(shell.Config{Roots: []string{abs}})
	if err != nil {
		return nil, fmt.Errorf("state dir %s: %w", abs, err)
	}
	if warn == nil {
		warn = func(string) {}
	}
	return &Store{dir: j.Roots()[0], jail: j, warn: warn}, nil
}

// Dir is the canonical state dir.
func (s *Store) Dir() string { return s.dir }

// Close releases the state dir.
func (s *Store) Close() error { return s.jail.Close() }

func (s *Store) path(name string) string { return s.dir + "/" + name }

// Lock takes the named lock in the state dir (a file under locks/)
// exclusively, waiting at most lockWait.
func (s *Store) Lock(ctx context.Context, name string) (func(), error) {
	return s.lock(ctx, name, s.jail.Lock)
}

// LockShared takes the named lock shared (flock LOCK_SH): shared holders
// exclude only an exclusive holder of the same name, never each other.
func (s *Store) LockShared(ctx context.Context, name string) (func(), error) {
	return s.lock(ctx, name, s.jail.LockShared)
}

func (s *Store) lock(ctx context.Context, name string, take func(context.Context, string) (func(), error)) (func(), error) {
	if s.locksMade.Load() {
		// The folder was there: take the lock straight away, and make the
		// folder only when it is gone.
		ctx, cancel := context.WithTimeout(ctx, lockWait)
		unlock, err := take(ctx, s.path("locks/"+name))
		cancel()
		if err == nil || shell.CodeOf(err) != shell.CodeNotFound {
			return unlock, err
		}
		s.locksMade.Store(false)
	}
	if _, err := s.jail.Mkdir(s.path("locks"), false); err != nil {
		if shell.CodeOf(err) == shell.CodeNotFound {
			// The state dir itself is gone: this process holds it open, but
			// nothing can be created in a deleted folder.
			return nil, &shell.Error{Code: shell.CodeNotFound, Path: s.dir, Err: err,
				Message: fmt.Sprintf("the state dir %s was deleted while editord was running; reading goes on, but saves and the shared record (open buffers, expanded folders) need it: restart the editord processes that use it", s.dir)}
		}
		return nil, err
	}
	s.locksMade.Store(true)
	ctx, cancel := context.WithTimeout(ctx, lockWait)
	defer cancel()
	return take(ctx, s.path("locks/"+name))
}

// Load reads the record without locking: the file is only ever replaced
// whole, so a reader sees one complete version. A corrupt file is moved
// aside under the record lock, after checking that it is still the corrupt
// one: a concurrent Update may have replaced it with a good record in the
// meantime, and that record must not be moved aside.
func (s *Store) Load() *Record {
	rec, corrupt, err := s.read()
	switch {
	case err != nil:
		rec, what := s.fallback()
		s.warn(fmt.Sprintf("reading %s: %v; using %s", recordFile, err, what))
		return rec
	case corrupt == nil:
		return rec
	}
	if loadCorruptHook != nil {
		loadCorruptHook()
	}
	unlock, err := s.Lock(context.Background(), recordLock)
	if err != nil {
		rec, what := s.fallback()
		s.warn(fmt.Sprintf("%s: %v; using %s until it can be repaired: %v", recordFile, corrupt, what, err))
		return rec
	}
	defer unlock()
	rec, err = s.loadLocked()
	if err != nil {
		rec, what := s.fallback()
		s.warn(fmt.Sprintf("reading %s: %v; using %s", recordFile, err, what))
		return rec
	}
	return rec
}

// View runs fn on the current record without copying it, for a caller
// that only reads a little of it (the active root, one buffer): with
// thousands of buffers a copy per call would cost more than the call. fn
// must neither change the record nor keep it.
func (s *Store) View(fn func(*Record)) {
	if key, err := s.recordKey(); err == nil {
		if sn := s.cache.snapshot(); sn != nil && sn.key == key {
			fn(sn.rec) // a snapshot's record is never changed once kept
			return
		}
	}
	fn(s.Load())
}

// fallback is what Load answers with when the record cannot be read: the
// last good record this process knew (so the open buffers stay visible),
// else an empty one.
func (s *Store) fallback() (*Record, string) {
	if last := s.cache.last(); last != nil {
		return last, "the last record this process read"
	}
	return newRecord(), "an empty record"
}

// loadCorruptHook runs in Load between finding the record corrupt and
// taking the lock; tests use it to slip a concurrent update in.
var loadCorruptHook func()

// errVanished is the "corruption" of a record file deleted while this
// process was running.
var errVanished = errors.New("the record file was deleted while editord was running")

// loadLocked reads the record with the record lock held, moving a corrupt
// file aside. An I/O error is returned rather than papered over with an
// empty record, so that Update never writes an empty record over a good one
// it merely failed to read.
//
// A record that is corrupt or was deleted is replaced by the last good one
// this process read or wrote, if any, so that the open buffers it knows of
// are not lost; only a process that never saw a good record starts empty.
func (s *Store) loadLocked() (*Record, error) {
	rec, corrupt, err := s.read()
	if err != nil {
		return nil, err
	}
	if corrupt == nil {
		return rec, nil
	}
	if corrupt != errVanished {
		s.quarantine(corrupt)
	}
	last := s.cache.last()
	if last == nil {
		return newRecord(), nil
	}
	if err := s.write(last); err != nil {
		s.warn(fmt.Sprintf("could not restore %s from memory: %v", recordFile, err))
	} else {
		s.warn(fmt.Sprintf("%s restored from this process's last good copy (%d open buffers kept)", recordFile, last.countBuffers()))
	}
	return last, nil
}

func (r *Record) countBuffers() int {
	n := 0
	for _, ses := range r.Sessions {
		if ses != nil {
			n += len(ses.Buffers)
		}
	}
	return n
}

// read parses the record: the core file and, for what changed since this
// process last knew it, the buffer files (layout.go). A missing core is an
// empty record; corrupt is set when it exists but cannot be used.
func (s *Store) read() (rec *Record, corrupt, err error) {
	key, statErr := s.recordKey()
	if statErr == nil {
		if rec := s.cache.get(key); rec != nil {
			return rec, nil, nil
		}
	}
	res, err := s.jail.ReadFile(s.path(recordFile), 0)
	if err != nil {
		if shell.CodeOf(err) == shell.CodeNotFound {
			if s.cache.last() != nil {
				// Deleted while we were running: Load and Update put back
				// the record this process last knew rather than forget
				// every open buffer.
				return nil, errVanished, nil
			}
			// No record (a new state dir, or one a person reset by
			// deleting the record with no editord running): empty, and the
			// first write removes any buffer files left (layout.go).
			return newRecord(), nil, nil
		}
		return nil, nil, err
	}
	d, corrupt := decodeCore(res.Data)
	if corrupt != nil {
		return nil, corrupt, nil
	}
	sn := &snapshot{key: key, format: d.Format, rec: d.Record, gen: d.Gen, recentFrom: d.RecentFrom, recent: d.Recent}
	if d.Format == recordFormat {
		sn.orders = s.loadBuffers(d, s.cache.snapshot())
	} else {
		sn.orders = map[string][]int64{}
		for root, ses := range d.Sessions {
			d.Session(root)
			sn.orders[root] = assignOrders(ses.Buffers, nil)
		}
	}
	if statErr == nil {
		s.cache.put(sn)
	}
	return d.Record, nil, nil
}

// recordKey identifies one version of the record file. The file is only
// ever replaced by rename, so a new version has a new inode or mtime.
func (s *Store) recordKey() (fileKey, error) { return s.keyOf(recordFile) }

// keyOf identifies one version of the state dir's file name.
func (s *Store) keyOf(name string) (fileKey, error) {
	in, err := s.jail.StatFile(s.path(name))
	if err != nil {
		return fileKey{}, err
	}
	return keyOfInfo(in), nil
}

func keyOfInfo(in shell.Info) fileKey {
	return fileKey{ino: in.Ino, mtime: in.ModNano, size: in.Size}
}

// quarantine moves a corrupt record aside (never deleting it) so a person
// can inspect it, and lets the service go on with an empty record.
func (s *Store) quarantine(cause error) {
	aside := fmt.Sprintf("%s.corrupt-%s", recordFile, time.Now().UTC().Format("20060102T150405.000000000"))
	if err := s.jail.Rename(s.path(recordFile), s.path(aside), false); err != nil {
		s.warn(fmt.Sprintf("%s is corrupt (%v) and could not be moved aside: %v", recordFile, cause, err))
		return
	}
	s.warn(fmt.Sprintf("%s was corrupt (%v); moved to %s and started an empty record", recordFile, cause, aside))
}

// Update runs fn on the current record under the record lock and writes the
// result back when fn reports a change. The record returned is the one in
// force afterwards.
func (s *Store) Update(ctx context.Context, fn func(*Record) (changed bool, err error)) (*Record, error) {
	unlock, err := s.Lock(ctx, recordLock)
	if err != nil {
		return nil, err
	}
	defer unlock()
	rec, err := s.loadLocked()
	if err != nil {
		return nil, s.recordError("read", err)
	}
	changed, err := fn(rec)
	if err != nil {
		return nil, err
	}
	if !changed {
		return rec, nil
	}
	if err := s.write(rec); err != nil {
		return nil, err
	}
	return rec, nil
}

// write replaces the record with rec; called with the record lock held.
// It writes the buffer files that changed since the record this process
// read or wrote last (all of them when that is not the record on disk),
// then the core (layout.go).
func (s *Store) write(rec *Record) error {
	base := s.cache.snapshot()
	if base != nil {
		if k, err := s.recordKey(); err != nil || k != base.key {
			base = nil
		}
	}
	writes, orders, full := plan(base, rec)
	undo, err := s.writeBuffers(writes, full, rec)
	if err != nil {
		return s.recordError("written", err)
	}
	sn := &snapshot{format: recordFormat, rec: rec, orders: orders}
	if full {
		// Readers that knew an earlier record read every buffer file.
		sn.gen = time.Now().UnixNano()
		if last := s.cache.snapshot(); last != nil && last.gen >= sn.gen {
			sn.gen = last.gen + 1
		}
		sn.recentFrom, sn.recent = sn.gen+1, []bufChange{}
	} else {
		sn.gen = base.gen + 1
		sn.recent, sn.recentFrom = nextRecent(base.recent, base.recentFrom, sn.gen, writes)
	}
	// One line: it is rewritten on every change of the record.
	data, err := json.Marshal(diskRecord{Record: core(rec), Gen: sn.gen, RecentFrom: sn.recentFrom, Recent: sn.recent})
	if err != nil {
		undo()
		return err
	}
	// Without fsync: see shell.Jail.ReplaceFile on the state dir's durability.
	var info shell.Info
	if coreWriteHook != nil {
		err = coreWriteHook()
	}
	if err == nil {
		info, err = s.jail.ReplaceFile(s.path(recordFile), append(data, '\n'), false)
	}
	if err != nil {
		undo()
		return s.recordError("written", err)
	}
	sn.key = keyOfInfo(info)
	s.cache.put(sn)
	return nil
}

// coreWriteHook, when set, runs before the core file is written; an error
// from it fails the write there (tests of the buffer files' undo).
var coreWriteHook func() error

// recordError says what went wrong with the record file in words a person
// can act on, keeping the code of the cause.
func (s *Store) recordError(what string, err error) error {
	e := shell.AsError(err, s.path(recordFile))
	return &shell.Error{Code: e.Code, Path: s.path(recordFile), Err: err,
		Message: fmt.Sprintf("the shared workspace record %s could not be %s (%s); the files themselves are untouched, but open buffers and expanded folders cannot be recorded until the state dir %s is fixed",
			s.path(recordFile), what, e.Message, s.dir)}
}
