package editor

// External changes come first in the journal (issue 19 item 6).
//
// The watcher reports a change made by another program (sed -i, an editor)
// a moment after it happens: it batches the filesystem's events for 60 ms
// and takes the writes lock (writing.go) before deciding. A write of ours
// that lands on the changed file within that moment used to fold the
// change into its own: the watcher's batch held both, the content it read
// was ours, and the external change was never journaled; the write's event
// was a patch from content the journal had never shown. Replaying the
// journal's patches no longer gave the file.
//
// So a write of a file whose content on disk is not the one the service
// last knew (the version its buffer was opened or saved at, or the
// version of the journal's last event for it) first waits, holding no
// lock, until the watcher has journaled that content, with its patch from
// the content it held. Then the write's own event follows it. The wait is
// bounded (awaitReportedFor): a file whose folder the watcher does not
// cover is written after it, as before; with no watcher at all (no
// process holds its election) there is no wait.

import (
	"context"
	"time"

	"github.com/editord/editord/workspace"
)

// awaitReportedFor bounds the wait; the watcher needs its batching delay
// and a moment (watchQuiet, then the writes lock) on an idle machine.
var awaitReportedFor = 5 * time.Second

// awaitReported returns once the content of l on disk is one the service
// knows, or awaitReportedFor has passed. It is called before a write of l
// takes its locks; the write's guard (expected_version, the edit's
// anchors) still decides on the disk as it is under them. expected is the
// write's expected version ("" for none): when the service knows it, the
// disk is either that (nothing to wait for) or the write is a conflict,
// so the disk is not read.
func (s *Service) awaitReported(ctx context.Context, root string, l loc, expected string) {
	if l.stored == "" || l.stored[0] == '/' {
		return // outside the root: no watcher reports it
	}
	known, ok := s.knownVersion(root, l.stored)
	if !ok || (expected != "" && known(expected)) {
		return // nothing to compare with (the watcher has no patch to give either), or nothing to wait for
	}
	cur, ok := s.diskVersion(l)
	if !ok || known(cur) {
		return
	}
	if release, free, err := s.store.TryElect(workspace.WatcherElection); err == nil && free {
		release()
		return // no watcher runs: nobody would report it
	}
	follow := s.store.NewFollower()
	deadline := time.NewTimer(awaitReportedFor)
	defer deadline.Stop()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-deadline.C:
			return
		case <-tick.C:
		}
		evs, _, err := follow.Poll()
		if err != nil {
			return
		}
		news := false
		for _, ev := range evs {
			if ev.Root == root && ev.Path == l.stored {
				news = true
				if ev.Version != nil && *ev.Version == cur {
					return
				}
			}
		}
		if news {
			// The file may have changed again meanwhile: wait for its
			// content now.
			if cur, ok = s.diskVersion(l); !ok {
				return
			}
		}
	}
}

// knownVersion says which versions of p the service knows as its content:
// the version of its buffer (as opened or last saved), and the version of
// the journal's last event for it. ok is false when there is neither.
func (s *Service) knownVersion(root, p string) (known func(v string) bool, ok bool) {
	buf := ""
	if se := s.store.Load().Sessions[root]; se != nil {
		for _, b := range se.Buffers {
			if b.Path == p {
				buf = b.Version
				break
			}
		}
	}
	journaled, jok := "", false
	lookup := func() {
		if jok {
			return
		}
		jok = true
		page, err := s.store.Read(workspace.Query{Root: root, Path: p})
		if err != nil {
			return
		}
		for _, ev := range page.Events {
			if ev.Path == p && ev.Version != nil && ev.Kind != "deleted" {
				journaled = *ev.Version
			} else if ev.Path == p || (ev.From != nil && *ev.From == p) {
				journaled = ""
			}
		}
	}
	known = func(v string) bool {
		if v == buf && buf != "" {
			return true
		}
		lookup()
		return v == journaled && journaled != ""
	}
	if buf != "" {
		return known, true
	}
	lookup()
	return known, journaled != ""
}

// diskVersion is the version of l's content on disk; ok is false when it
// cannot be read whole within max_file_bytes (the watcher holds no such
// content, so there is no patch to wait for).
func (s *Service) diskVersion(l loc) (string, bool) {
	res, err := s.jail.ReadFile(l.abs, s.cfg.Limits.MaxFileBytes)
	if err != nil || res.Truncated {
		return "", false
	}
	return s.versions.of(l.abs, res.Data), true
}

// deref is *p, or "" for nil.
func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
