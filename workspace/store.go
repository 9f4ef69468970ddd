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
// whole, so a reader sees one complete version.
func (s *Store) Load() *Record {
	res, err := s.jail.ReadFile(s.path(recordFile), 0)
	if err != nil {
		if shell.CodeOf(err) != shell.CodeNotFound {
			s.warn(fmt.Sprintf("reading %s: %v; starting from an empty record", recordFile, err))
		}
		return newRecord()
	}
	rec := newRecord()
	if err := json.Unmarshal(res.Data, rec); err != nil || rec.Format != recordFormat {
		if err == nil {
			err = fmt.Errorf("unknown format %d", rec.Format)
		}
		s.quarantine(err)
		return newRecord()
	}
	if rec.Sessions == nil {
		rec.Sessions = map[string]*Session{}
	}
	return rec
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
	rec := s.Load()
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
	return rec, nil
}
