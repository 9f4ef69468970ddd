package watch

// The filesystem watcher: writes made by other programs inside the active
// root become editor::changed events with cause "external"
// (docs/contract.md §5).
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
// rename. Writes the service made itself are journaled by the function
// that made them (editor::save, ...); the watcher reads the journal and
// drops the filesystem echo of those, so no write is reported twice. The
// service's writes lock (Service.Quiesce, editor/writes_lock.go) tells it
// when the journal is conclusive.
//
// This file holds the election loop, the status, the tunables and what
// the watcher needs of the service; the parts of one watched root are:
//
//	session.go   a session: its state and event loop
//	tree.go      walking the root and following folders
//	budget.go    which folders get one of the kernel's watches
//	batch.go     coalescing raw events into batches
//	classify.go  created, modified, deleted or moved
//	own.go       our own writes, from the journal
//	decide.go    ours or external, by the writes lock
//	cache.go     the content of open buffers, versions reported
//	report.go    the external events
//	files.go     the set of files known to exist
//	fence.go     fences, for tests

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/editord/editord/shell"
	"github.com/editord/editord/workspace"
)

// Service is what the watcher needs of the editor's service (editor's
// WatchHost): the jail and the shared record it watches through, the
// writes lock that tells the service's writes from others', and the
// journal its external events go to. Every path is absolute or
// root-relative as the service stores it (docs/contract.md §2).
type Service interface {
	// Jail is the jail every file is read and watched through.
	Jail() *shell.Jail
	// Store is the shared record: the active root, the buffers and
	// expanded folders, the change journal, the watcher election.
	Store() *workspace.Store
	// RootOf is the active root of rec as this process serves it (its own
	// Start root while the shared one is outside its jail).
	RootOf(rec *workspace.Record) (string, error)
	// Start is the root this process was started on (canonical).
	Start() string
	// MaxFileBytes bounds a file read for its content; ChangesKept is how
	// many events the journal keeps.
	MaxFileBytes() int64
	ChangesKept() int
	// Warn reports trouble to the person running the server.
	Warn(msg string)
	// Quiesce returns once every write of the service that began before
	// the call has journaled its events (the writes lock).
	Quiesce(ctx context.Context) error
	// GiveWay waits while a call is in progress, for at most what is left
	// of *budget (which it spends): background work yields to calls.
	GiveWay(ctx context.Context, budget *time.Duration)
	// ExternalEvent is the event of an external change of rel (kind
	// created, modified or deleted; a missing side is nil), with its
	// patch; ok is false when a side is not text (no patch then).
	ExternalEvent(root, rel, kind string, before, after []byte) (ev workspace.Event, ok bool)
	// Emit journals events, as the service journals its own.
	Emit(ctx context.Context, evs ...workspace.Event)
	// Version is the version of a content (docs/contract.md §3).
	Version(data []byte) string
	// HandOut keeps data as the content of version v in the version store,
	// so that a save guarded by v (an editor that followed the change
	// through its patch) can be merged three ways.
	HandOut(v string, data []byte)
}

// Tunables of the watcher.
const (
	// watchQuiet: a batch is processed once no event came for this long...
	watchQuiet = 60 * time.Millisecond
	// watchMaxDelay: ...or at the latest this long after its first event,
	// so a file written without pause is still reported.
	watchMaxDelay = 400 * time.Millisecond
	// watchFinishWait bounds the wait for the writes lock (editor/writes_lock.go)
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

// Status describes this process's part in watching the workspace.
type Status struct {
	Elected   bool   `json:"elected" desc:"True when this process holds the watcher lock of the state dir and runs the watcher."`
	Root      string `json:"root" desc:"The root being watched (empty when not elected)."`
	Watched   int    `json:"watched" desc:"Folders watched."`
	Uncovered int    `json:"uncovered" desc:"Folders of the root (not ignored by .gitignore, not noise folders) left unwatched because the inotify budget is spent; external changes in them are not reported."`
	Limit     int    `json:"limit" desc:"Most folders this watcher will watch: the inotify budget minus headroom for other programs."`
}

// Watcher is the filesystem watcher of one process: Run elects it and
// watches; any goroutine reads its Status.
type Watcher struct {
	mu    sync.Mutex
	st    Status
	limit int // when > 0, overrides the budget-derived folder limit (tests)
	// fence, when set, is the name prefix of the fences that alone flush
	// batches; fenceFlushed and fenceSettled count the fences flushed and
	// fully decided (tests, fence.go).
	fence                      string
	fenceFlushed, fenceSettled uint64
	// lost counts the elections this process tried and lost (tests wait
	// on it to know it tried).
	lost uint64
	// held are the open buffers whose content the session holds (tests:
	// an external change to one is journaled with its patch).
	held map[string]bool
}

// New is a watcher that has not run yet.
func New() *Watcher { return &Watcher{} }

func (ws *Watcher) noteHeld(p string, on bool) {
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

func (ws *Watcher) clearHeld() {
	ws.mu.Lock()
	ws.held = nil
	ws.mu.Unlock()
}

// Holds reports whether the watcher holds the content of the open buffer
// p (root-relative), so that its next external change gets a patch.
func (ws *Watcher) Holds(p string) bool {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	return ws.held[p]
}

func (ws *Watcher) set(st Status) {
	ws.mu.Lock()
	ws.st = st
	ws.mu.Unlock()
}

// Status reports whether this process runs the watcher and how much of
// the root it covers.
func (ws *Watcher) Status() Status {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	return ws.st
}

// SetLimit caps the folders the watcher adds (tests of the budget).
func (ws *Watcher) SetLimit(n int) {
	ws.mu.Lock()
	ws.limit = n
	ws.mu.Unlock()
}

// Run runs the filesystem watcher of svc's state dir until ctx ends: it
// waits to be elected (one process per state dir holds the lock; the
// others retry every workspace.ElectionRetry), then watches the active root
// and follows it when editor::workspace::open repoints it. Trouble is
// reported through svc.Warn; Run itself never fails. Call it once per
// Watcher, and end ctx (waiting for Run to return) before closing svc.
func (ws *Watcher) Run(ctx context.Context, svc Service) {
	for ctx.Err() == nil {
		release, err := ws.elect(ctx, svc)
		if err != nil {
			return
		}
		ws.set(Status{Elected: true})
		handover := ws.watchElected(ctx, svc)
		ws.set(Status{})
		release()
		if handover {
			// Leave the election to the process that can watch the
			// shared root; stand again if it does not take it.
			sleep(ctx, watchHandoverWait)
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
func canWatchActive(svc Service) bool {
	ok := true
	svc.Store().View(func(rec *workspace.Record) { ok = rec.ActiveRoot == "" || svc.Jail().Contains(rec.ActiveRoot) })
	return ok
}

// activeRoot is the active root as svc serves it.
func activeRoot(svc Service) (string, error) {
	var r string
	var err error
	svc.Store().View(func(rec *workspace.Record) { r, err = svc.RootOf(rec) })
	return r, err
}

// elect waits until this process holds the watcher election, standing for
// it meanwhile whenever it could watch the active root.
func (ws *Watcher) elect(ctx context.Context, svc Service) (release func(), err error) {
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
		release, ok, err := svc.Store().TryElect(workspace.WatcherElection)
		if !ok {
			ws.mu.Lock()
			ws.lost++
			ws.mu.Unlock()
		}
		switch {
		case ok:
			return release, nil
		case err != nil && !warned:
			svc.Warn("election " + workspace.WatcherElection + ": " + err.Error() + "; retrying")
			warned = true
		}
		switch able := canWatchActive(svc); {
		case able && stand == nil:
			if r, ok, _ := svc.Store().Stand(workspace.WatcherElection); ok {
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
func (ws *Watcher) watchElected(ctx context.Context, svc Service) (handover bool) {
	own := newOwnTracker(svc.Store())
	lastWarn := ""
	for ctx.Err() == nil {
		if !canWatchActive(svc) && svc.Store().Challenged(workspace.WatcherElection) {
			return true
		}
		root, err := activeRoot(svc)
		var ses *session
		if err == nil {
			ses, err = newSession(svc, ws, own, root)
		}
		if err != nil {
			if msg := fmt.Sprintf("watcher: cannot watch %s: %v; retrying every second", root, err); msg != lastWarn {
				svc.Warn(msg)
				lastWarn = msg
			}
			sleep(ctx, time.Second)
			continue
		}
		lastWarn = ""
		ses.run(ctx)
		ses.close()
		ws.set(Status{Elected: true})
		if ses.handover {
			return true
		}
	}
	return false
}

func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}
