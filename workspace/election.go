package workspace

import (
	"context"
	"time"
)

// WatcherElection is the election that picks the one process per state dir
// that runs the filesystem watcher (docs/contract.md §5).
const WatcherElection = "watcher"

// ElectionRetry is how often a process that is not elected tries again.
const ElectionRetry = 250 * time.Millisecond

// TryElect takes the election name (the lock file locks/<name>.lock in the
// state dir) if no other holder has it right now. The holder keeps it until
// it calls release, or until it dies: the lock is an flock, which the kernel
// drops with the last file descriptor, even after kill -9.
func (s *Store) TryElect(name string) (release func(), ok bool, err error) {
	if _, err := s.jail.Mkdir(s.path("locks"), false); err != nil {
		return nil, false, err
	}
	return s.jail.TryLock(s.path("locks/" + name + ".lock"))
}

// Elect waits until this process holds the election name, trying every
// retry (ElectionRetry when zero), and returns the release function. It
// returns ctx's error when ctx ends first. Polling rather than a blocking
// flock keeps no thread parked in the kernel after the caller gives up, and
// bounds a takeover after the holder exits to one retry interval.
//
// An error other than ctx's (the state dir unwritable, say) is reported
// through the Store's warn once and retried: an election never gives up
// while ctx lives.
func (s *Store) Elect(ctx context.Context, name string, retry time.Duration) (release func(), err error) {
	if retry <= 0 {
		retry = ElectionRetry
	}
	t := time.NewTicker(retry)
	defer t.Stop()
	warned := false
	for {
		release, ok, err := s.TryElect(name)
		switch {
		case ok:
			return release, nil
		case err != nil && !warned:
			s.warn("election " + name + ": " + err.Error() + "; retrying")
			warned = true
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-t.C:
		}
	}
}

// Standing for an election: a process that waits for one and would make a
// better holder than the current one (the watcher: one whose jail holds the
// shared active root, while the holder's does not) says so by holding the
// lock file locks/<name>.able shared. The holder asks Challenged, and hands
// over when it is. Shared flocks need no cleanup: the kernel drops them
// with the process.

// Stand holds name's standing lock shared if it is free of an exclusive
// holder right now (a holder checking for challengers holds it only for a
// moment): ok is false, and nothing is held, otherwise.
func (s *Store) Stand(name string) (release func(), ok bool, err error) {
	if _, err := s.jail.Mkdir(s.path("locks"), false); err != nil {
		return nil, false, err
	}
	done, cancel := context.WithCancel(context.Background())
	cancel() // try once, never wait
	release, err = s.jail.LockShared(done, s.path("locks/"+name+".able"))
	if err != nil {
		return nil, false, nil
	}
	return release, true, nil
}

// Challenged reports whether a process stands for the election name (holds
// its standing lock): the holder of the election should then hand it over.
func (s *Store) Challenged(name string) bool {
	return s.held(s.path("locks/" + name + ".able"))
}

// held reports whether someone holds the lock file abs (shared or not):
// whether taking it exclusively now would fail.
func (s *Store) held(abs string) bool {
	release, ok, err := s.jail.TryLock(abs)
	if err != nil {
		return false
	}
	if ok {
		release()
		return false
	}
	return true
}
