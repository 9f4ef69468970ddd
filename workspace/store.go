package workspace

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
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

// Lock takes the named lock in the state dir (a file under locks/).
func (s *Store) Lock(ctx context.Context, name string) (func(), error) {
	if _, err := s.jail.Mkdir(s.path("locks"), false); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, lockWait)
	defer cancel()
	return s.jail.Lock(ctx, s.path("locks/"+name))
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
		s.warn(fmt.Sprintf("reading %s: %v; using an empty record", recordFile, err))
		return newRecord()
	case corrupt == nil:
		return rec
	}
	if loadCorruptHook != nil {
		loadCorruptHook()
	}
	unlock, err := s.Lock(context.Background(), recordLock)
	if err != nil {
		s.warn(fmt.Sprintf("%s is corrupt (%v); using an empty record until it can be moved aside: %v", recordFile, corrupt, err))
		return newRecord()
	}
	defer unlock()
	rec, err = s.loadLocked()
	if err != nil {
		s.warn(fmt.Sprintf("reading %s: %v; using an empty record", recordFile, err))
		return newRecord()
	}
	return rec
}

// loadCorruptHook runs in Load between finding the record corrupt and
// taking the lock; tests use it to slip a concurrent update in.
var loadCorruptHook func()

// loadLocked reads the record with the record lock held, moving a corrupt
// file aside. An I/O error is returned rather than papered over with an
// empty record, so that Update never writes an empty record over a good one
// it merely failed to read.
func (s *Store) loadLocked() (*Record, error) {
	rec, corrupt, err := s.read()
	if err != nil {
		return nil, err
	}
	if corrupt != nil {
		s.quarantine(corrupt)
		return newRecord(), nil
	}
	return rec, nil
}

// read parses the record file. A missing file is an empty record; corrupt
// is set when the file exists but cannot be used.
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
			return newRecord(), nil, nil
		}
		return nil, nil, err
	}
	rec = newRecord()
	if err := json.Unmarshal(res.Data, rec); err != nil {
		return nil, err, nil
	}
	if rec.Format != recordFormat {
		return nil, fmt.Errorf("unknown format %d", rec.Format), nil
	}
	if rec.Sessions == nil {
		rec.Sessions = map[string]*Session{}
	}
	if statErr == nil {
		s.cache.put(key, rec)
	}
	return rec, nil, nil
}

// recordKey identifies one version of the record file. The file is only
// ever replaced by rename, so a new version has a new inode or mtime.
func (s *Store) recordKey() (fileKey, error) {
	in, err := s.jail.Stat(s.path(recordFile))
	if err != nil {
		return fileKey{}, err
	}
	return fileKey{ino: in.Ino, mtime: in.ModNano, size: in.Size}, nil
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
		return nil, fmt.Errorf("reading the workspace record: %w", err)
	}
	changed, err := fn(rec)
	if err != nil {
		return nil, err
	}
	if !changed {
		return rec, nil
	}
	data, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return nil, err
	}
	if _, err := s.jail.WriteFile(s.path(recordFile), append(data, '\n'), shell.WriteOptions{Perm: 0o600, NoSync: true}); err != nil {
		return nil, fmt.Errorf("writing the workspace record: %w", err)
	}
	if key, err := s.recordKey(); err == nil {
		s.cache.put(key, rec)
	}
	return rec, nil
}
