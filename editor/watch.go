package editor

// The filesystem watcher: writes made by other programs inside the active
// root become editor::changed events with cause "external" (CONTRACT.md §5).
//
// One process per state dir runs it, elected with a lock file in the state
// dir (workspace.Store.Elect); the others wait and take over when the
// holder exits, however it exits. The elected process watches the active
// root folder by folder (inotify is not recursive), within the kernel's
// watch budget, the folders of open buffers and expanded folders first.
//
// Raw events are coalesced into batches (a burst, an editor's
// write-temp-and-rename, a git checkout), then each path is classified by
// what was there before the batch and what is there now: created,
// modified, deleted, or moved when the kernel paired the two halves of a
// rename. Writes this service made itself are journaled by the function
// that made them (editor::save, ...); the watcher reads the journal and
// drops the filesystem echo of those, so no write is reported twice. The
// writes lock (writing.go) tells it when the journal is conclusive.
//
// This file holds the election loop, the status and the tunables; the
// parts of one watched root are in watch_*.go:
//
//	watch_session.go   a session: its state and event loop
//	watch_tree.go      walking the root and following folders
//	watch_budget.go    which folders get one of the kernel's watches
//	watch_batch.go     coalescing raw events into batches
//	watch_classify.go  created, modified, deleted or moved
//	watch_own.go       our own writes, from the journal
//	watch_decide.go    ours or external, by the writes lock
//	watch_cache.go     the content of open buffers, versions reported
//	watch_report.go    the external events
//
// writing.go holds the writes lock that every write of this service
// takes, which watch_decide.go relies on.

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/editord/editord/workspace"
)

// Tunables of the watcher.
const (
	// watchQuiet: a batch is processed once no event came for this long...
	watchQuiet = 60 * time.Millisecond
	// watchMaxDelay: ...or at the latest this long after its first event,
	// so a file written without pause is still reported.
	watchMaxDelay = 400 * time.Millisecond
	// watchFinishWait bounds the wait for the writes lock (writing.go)
	// when a session ends with changes still undecided.
	watchFinishWait = 2 * time.Second
	// ownKeep is how long a journal event of ours is kept for matching,
	// once every change seen before it was read has been decided.
	ownKeep = 10 * time.Second
	// watchCacheBytes bounds the content kept for open buffers.
	watchCacheBytes = 64 << 20
	// watchRecordPoll is how often the record is checked for a new active
	// root, buffers or expanded folders.
	watchRecordPoll = 100 * time.Millisecond
	// watchStandPoll is how often a watcher of its own root in place of the
	// shared one looks for a process that stands to watch the shared one.
	watchStandPoll = time.Second
	// watchTick drives batching.
	watchTick = 15 * time.Millisecond
	// defaultInotifyBudget is assumed when the kernel's limit is unknown.
	defaultInotifyBudget = 8192
	// recentCap bounds the versions remembered for changed paths.
	recentCap = 100_000
)

// WatcherStatus describes this process's part in watching the workspace.
type WatcherStatus struct {
	Elected   bool   `json:"elected" desc:"True when this process holds the watcher lock of the state dir and runs the watcher."`
	Root      string `json:"root" desc:"The root being watched (empty when not elected)."`
	Watched   int    `json:"watched" desc:"Folders watched."`
	Uncovered int    `json:"uncovered" desc:"Folders of the root (not ignored by .gitignore, not noise folders) left unwatched because the inotify budget is spent; external changes in them are not reported."`
	Limit     int    `json:"limit" desc:"Most folders this watcher will watch: the inotify budget minus headroom for other programs."`
}

// watchState is the watcher's view shared with WatcherStatus: the
// watcher's goroutine writes it, any goroutine reads it.
type watchState struct {
	mu    sync.Mutex
	st    WatcherStatus
	limit int // when > 0, overrides the budget-derived folder limit (tests)
	// fence, when set, is the name prefix of the fences that alone flush
	// batches; fenceFlushed and fenceSettled count the fences flushed and
	// fully decided (tests, watch_fence.go).
	fence                      string
	fenceFlushed, fenceSettled uint64
	// held are the open buffers whose content the session holds (tests:
	// an external change to one is journaled with its patch).
	held map[string]bool
}

func (ws *watchState) noteHeld(p string, on bool) {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if ws.held == nil {
		ws.held = map[string]bool{}
	}
	if on {
		ws.held[p] = true
	} else {
		delete(ws.held, p)
	}
}

func (ws *watchState) clearHeld() {
	ws.mu.Lock()
	ws.held = nil
	ws.mu.Unlock()
}

// watchHolds reports whether the watcher holds the content of the open
// buffer p (root-relative), so that its next external change gets a patch.
func (s *Service) watchHolds(p string) bool {
	s.watch.mu.Lock()
	defer s.watch.mu.Unlock()
	return s.watch.held[p]
}

func (ws *watchState) set(st WatcherStatus) {
	ws.mu.Lock()
	ws.st = st
	ws.mu.Unlock()
}

// WatcherStatus reports whether this process runs the watcher and how much
// of the root it covers.
func (s *Service) WatcherStatus() WatcherStatus {
	s.watch.mu.Lock()
	defer s.watch.mu.Unlock()
	return s.watch.st
}

// setWatchLimit caps the folders the watcher adds (tests of the budget).
func (s *Service) setWatchLimit(n int) {
	s.watch.mu.Lock()
	s.watch.limit = n
	s.watch.mu.Unlock()
}

// RunWatcher runs the filesystem watcher of the state dir until ctx ends:
// it waits to be elected (one process per state dir holds the lock; the
// others retry every workspace.ElectionRetry), then watches the active root
// and follows it when editor::workspace::open repoints it. Trouble is
// reported through Options.Warn; RunWatcher itself never fails. Call it
// once per Service, and end ctx (waiting for RunWatcher to return) before
// Close.
func (s *Service) RunWatcher(ctx context.Context) {
	ws := s.watch
	for ctx.Err() == nil {
		release, err := s.electWatcher(ctx)
		if err != nil {
			return
		}
		ws.set(WatcherStatus{Elected: true})
		handover := s.watchElected(ctx, ws)
		ws.set(WatcherStatus{})
		release()
		if handover {
			// Leave the election to the process that can watch the
			// shared root; stand again if it does not take it.
			s.sleep(ctx, watchHandoverWait)
		}
	}
}

// Nested roots share one record (processes on --root /p and --root /p/sub
// of one repository): the one on /p/sub serves its own root while /p is
// active, and if it held the watcher it would watch /p/sub alone, so
// changes elsewhere in /p would go unreported. A process that waits for
// the election while its jail holds the active root stands for it
// (workspace.Store.Stand); an elected process that cannot watch the active
// root (it watches its own --root instead) hands the watcher over to such a
// challenger, and keeps it when there is none.

// watchHandoverWait is how long a process that handed the watcher over
// stays out of the election, so that the challenger takes it.
const watchHandoverWait = 2 * time.Second

// canWatchActive reports whether this process's jail holds the shared
// active root (or there is none yet): it would watch that root if elected.
func (s *Service) canWatchActive() bool {
	ok := true
	s.store.View(func(rec *workspace.Record) { ok = rec.ActiveRoot == "" || s.jail.Contains(rec.ActiveRoot) })
	return ok
}

// electWatcher waits until this process holds the watcher election,
// standing for it meanwhile whenever it could watch the active root.
func (s *Service) electWatcher(ctx context.Context) (release func(), err error) {
	var stand func()
	defer func() {
		if stand != nil {
			stand()
		}
	}()
	t := time.NewTicker(workspace.ElectionRetry)
	defer t.Stop()
	warned := false
	for {
		release, ok, err := s.store.TryElect(workspace.WatcherElection)
		switch {
		case ok:
			return release, nil
		case err != nil && !warned:
			s.warn("election " + workspace.WatcherElection + ": " + err.Error() + "; retrying")
			warned = true
		}
		switch able := s.canWatchActive(); {
		case able && stand == nil:
			if r, ok, _ := s.store.Stand(workspace.WatcherElection); ok {
				stand = r
			}
		case !able && stand != nil:
			stand()
			stand = nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-t.C:
		}
	}
}

// watchElected watches the active root, session after session, while this
// process holds the election. It returns true when it ended to hand the
// watcher over to a process that can watch the active root.
func (s *Service) watchElected(ctx context.Context, ws *watchState) (handover bool) {
	own := newOwnTracker(s.store)
	lastWarn := ""
	for ctx.Err() == nil {
		if !s.canWatchActive() && s.store.Challenged(workspace.WatcherElection) {
			return true
		}
		root, err := s.root()
		var ses *watchSession
		if err == nil {
			ses, err = s.newWatchSession(ws, own, root)
		}
		if err != nil {
			if msg := fmt.Sprintf("watcher: cannot watch %s: %v; retrying every second", root, err); msg != lastWarn {
				s.warn(msg)
				lastWarn = msg
			}
			s.sleep(ctx, time.Second)
			continue
		}
		lastWarn = ""
		ses.run(ctx)
		ses.close()
		ws.set(WatcherStatus{Elected: true})
		if ses.handover {
			return true
		}
	}
	return false
}

func (s *Service) sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}
