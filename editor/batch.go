package editor

// A batch is a write of several files that happens whole or not at all as
// far as a guard can tell: every file is locked, every file's version is
// checked against the one the caller planned on, and only when all of them
// match is anything written (editor::rename). The files' events are
// journaled together, by one caller, in one append.
//
// Locks: the writes lock once (writes_lock.go), then every file's state dir
// save lock in name order, then every file's folder flock in path order:
// the order a single save takes them in (lockSave), so a batch and saves,
// and two batches, never wait on each other in a circle. Two files may
// share a save lock (256 of them, by hash) or a folder: each is taken once.
//
// What is left to chance is a program outside editord writing one of the
// files between the check and its rename (it takes none of our locks): each
// rename re-checks its file, and if one finds it changed, the files already
// renamed are put back as they were (their events journaled too, since the
// disk did change twice) and the batch reports the conflict.

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/editord/editord/shell"
	"github.com/editord/editord/workspace"
)

// batchFile is one file of a batch: its new content, to be written only if
// the disk is still at version want.
type batchFile struct {
	l    loc
	want string
	next []byte
}

// batchResult is what became of a batch.
type batchResult struct {
	// conflicts are the files not at the version planned on (nothing was
	// written when there is one), stored form, with the version on disk
	// ("" for a missing file).
	conflicts map[string]string
	// versions are the files' new versions, when written.
	versions map[string]string
	mtimes   map[string]int64
	events   []workspace.Event
}

// writeBatch writes files as one batch; see the top of this file.
func (s *Service) writeBatch(ctx context.Context, root, cause string, files []batchFile) (*batchResult, error) {
	done, err := s.writing(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	unlock, err := s.lockBatch(ctx, files)
	if err != nil {
		return nil, err
	}
	res := &batchResult{conflicts: map[string]string{}, versions: map[string]string{}, mtimes: map[string]int64{}}
	cur := make([]disk, len(files))
	for i, f := range files {
		d, err := s.readDisk(f.l)
		if err != nil {
			unlock()
			return nil, err
		}
		if !d.exists || d.version != f.want {
			res.conflicts[f.l.stored] = d.version
		}
		if d.exists && !isText(d.data) {
			unlock()
			return nil, shell.Errorf(shell.CodeBinary, f.l.stored, "%s is binary on disk; nothing was written", display(f.l.stored))
		}
		cur[i] = d
	}
	if len(res.conflicts) > 0 {
		unlock()
		return res, nil
	}
	// Every new content written and synced beside its file first: a
	// refusal (too large, a read-only folder) stops the batch before any
	// file changed.
	pend := make([]*shell.Pending, len(files))
	abort := func() {
		for _, p := range pend {
			if p != nil {
				p.Abort()
			}
		}
	}
	for i, f := range files {
		p, err := s.jail.PrepareReplace(f.l.abs, f.next, shell.WriteOptions{})
		if err != nil {
			abort()
			unlock()
			return nil, err
		}
		pend[i] = p
	}
	committed := 0
	for i, f := range files {
		info, err := pend[i].Commit(func() error {
			same, err := s.stillOnDisk(f.l, cur[i])
			if err == nil && !same {
				err = errSlippedIn
			}
			return err
		})
		if err != nil {
			// Another program wrote f since the check: put back what this
			// batch already renamed, then report.
			evs := s.undoBatch(ctx, root, cause, files[:committed], cur[:committed], pend[:committed])
			abort()
			unlock()
			if len(evs) > 0 {
				s.emit(ctx, evs...)
			}
			if errors.Is(err, errSlippedIn) {
				d, _ := s.readDisk(f.l)
				res.conflicts[f.l.stored] = d.version
				return res, nil
			}
			return nil, err
		}
		committed++
		res.mtimes[f.l.stored] = info.ModTime
	}
	unlock()
	for _, p := range pend {
		p.Finish()
	}
	wctx := refreshOnly(ctx)
	for i, f := range files {
		ev := s.changeEvent(root, f.l, cause, "modified", cur[i].data, f.next)
		v := *ev.Version
		res.versions[f.l.stored] = v
		s.versions.put(f.l.abs, f.next, v)
		res.events = append(res.events, ev)
		if err := s.remember(wctx, root, workspace.Buffer{Path: f.l.stored, Version: v, Mtime: res.mtimes[f.l.stored], Language: Language(f.l.stored)}); err != nil {
			s.warn(fmt.Sprintf("%s was written, but its buffer could not be refreshed: %v", display(f.l.stored), err))
		}
	}
	s.emit(ctx, res.events...)
	return res, nil
}

// undoBatch puts files (renamed by this batch to their new content) back
// to what they held, each only if it still holds what the batch wrote, and
// returns the events of both changes of each file put back.
func (s *Service) undoBatch(ctx context.Context, root, cause string, files []batchFile, was []disk, pend []*shell.Pending) []workspace.Event {
	var evs []workspace.Event
	for i, f := range files {
		pend[i].Finish()
		now := disk{exists: true, data: f.next}
		p, err := s.jail.PrepareReplace(f.l.abs, was[i].data, shell.WriteOptions{})
		if err != nil {
			s.warn(fmt.Sprintf("%s: could not put it back after a conflict: %v", display(f.l.stored), err))
			evs = append(evs, s.changeEvent(root, f.l, cause, "modified", was[i].data, f.next))
			continue
		}
		_, err = p.Commit(func() error {
			same, err := s.stillOnDisk(f.l, now)
			if err == nil && !same {
				err = errSlippedIn
			}
			return err
		})
		if err != nil {
			p.Abort()
			s.warn(fmt.Sprintf("%s: could not put it back after a conflict: %v", display(f.l.stored), err))
			evs = append(evs, s.changeEvent(root, f.l, cause, "modified", was[i].data, f.next))
			continue
		}
		p.Finish()
		evs = append(evs, s.changeEvent(root, f.l, cause, "modified", was[i].data, f.next),
			s.changeEvent(root, f.l, cause, "modified", f.next, was[i].data))
	}
	return evs
}

// lockBatch takes the save locks and folder locks of files, each once, in
// order.
func (s *Service) lockBatch(ctx context.Context, files []batchFile) (unlock func(), err error) {
	var names, dirs []string
	for _, f := range files {
		real := s.realTarget(f.l)
		names = append(names, saveLockName(real))
		dirs = append(dirs, filepath.Dir(real))
	}
	slices.Sort(names)
	slices.Sort(dirs)
	var held []func()
	unlock = func() {
		for i := len(held) - 1; i >= 0; i-- {
			held[i]()
		}
		held = nil
	}
	for _, n := range slices.Compact(names) {
		u, err := s.store.Lock(ctx, n)
		if err != nil {
			unlock()
			return nil, err
		}
		held = append(held, u)
	}
	wctx, cancel := context.WithTimeout(ctx, folderLockWait)
	defer cancel()
	for _, d := range slices.Compact(dirs) {
		u, err := s.jail.LockDir(wctx, d)
		if err != nil {
			unlock()
			if shell.CodeOf(err) == shell.CodeTimeout {
				return nil, shell.Errorf(shell.CodeTimeout, d, "could not lock the folder %s within %s: another program is stuck saving in it; nothing was written", d, folderLockWait)
			}
			return nil, err
		}
		held = append(held, u)
	}
	return unlock, nil
}
