package workspace

import (
	"context"
	"time"
)

// WatcherElection is the election that picks the one process per state dir
// that runs the filesystem watcher (CONTRACT.md §5).
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
