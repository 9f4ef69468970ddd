package watch

// One watched root: the state of a session of the watcher (what is
// watched, known, batched and waiting) and the loop that feeds it events
// until the active root changes or the watcher stops. watcher.go elects the
// process and starts sessions; the other files of the package are its parts.

import (
	"context"
	"fmt"
	"hash/maphash"
	"strings"
	"time"

	"github.com/editord/editord/shell"
	"github.com/editord/editord/workspace"
)

type session struct {
	s     Service
	ws    *Watcher
	own   *ownTracker
	root  string
	w     *shell.Watcher
	limit int
	// state is the state dir's root-relative path when it lies inside the
	// root ("" otherwise): its files change with every event, so watching
	// it would feed the journal to itself.
	state string

	watched   map[string]bool // folders watched (root-relative, "" the root)
	order     []string        // watched folders in the order added
	prio      map[string]bool // folders of buffers and expanded folders
	dirs      map[string]bool // folders of the root seen by walks (not ignored)
	unwatched map[string]bool // folders in dirs that the budget left out
	known     *fileSet        // files known to exist
	// ghosts are names that were created and gone again when their batch
	// was processed (temp files); the remove event may come in the next
	// batch, and must not read as the delete of a file that existed.
	ghosts   map[string]time.Time
	warnedAt int // unwatched count last warned about

	buffers    map[string]bool
	opened     map[string]string // buffer → the version the record has for it
	cache      map[string][]byte
	cacheBytes int
	recent     map[string]string // path → version last accounted for
	recTok     int64
	recSig     uint64 // sessionSig of the record last loaded

	pend      map[string]*pending
	firstPend time.Time
	lastPend  time.Time
	rootGone  bool
	overflow  bool
	// handover: the session ended because this process watches its own
	// root in place of the shared one, and one that can watch the shared
	// one stands for the election (watcher.go).
	handover  bool
	lastStand time.Time

	// ctx ends with the session; it bounds the wait for the writes lock.
	ctx    context.Context
	cancel context.CancelFunc
	// waiting are classified changes not yet known to be ours or external,
	// in the order seen, until the writes lock says the journal is
	// conclusive for them (decide.go).
	waiting []*candidate
	// waitingPaths counts the changes in waiting per path they touch.
	waitingPaths map[string]int
	// quiet delivers the result of the wait for the writes lock in flight
	// (nil when none is), which covers the first covers of waiting.
	quiet     chan error
	covers    int
	lockWarns int // waits for the writes lock that failed in a row

	// Fences (tests, fence.go): the name prefix, a fence seen and
	// not yet flushed, the changes ever queued and decided, and the
	// fences flushed with what they queued.
	fence           string
	fenceHit        bool
	runs            runWindow // editor::run jobs (run.go)
	queued, decided uint64
	marks           []fenceMark
}

func newSession(s Service, ws *Watcher, own *ownTracker, root string) (*session, error) {
	w, err := s.Jail().NewWatcher()
	if err != nil {
		return nil, err
	}
	ses := &session{
		s: s, ws: ws, own: own, root: root, w: w,
		watched: map[string]bool{}, prio: map[string]bool{}, dirs: map[string]bool{},
		unwatched: map[string]bool{}, known: newFileSet(), ghosts: map[string]time.Time{},
		buffers: map[string]bool{}, cache: map[string][]byte{}, recent: map[string]string{},
		pend: map[string]*pending{}, waitingPaths: map[string]int{},
	}
	ses.ctx, ses.cancel = context.WithCancel(context.Background())
	own.onOwn = ses.follow
	ws.clearHeld()
	budget, ok := shell.InotifyBudget()
	if !ok {
		budget = defaultInotifyBudget
	}
	ses.limit = max(budget-max(budget/4, 512), 64)
	ws.mu.Lock()
	if ws.limit > 0 {
		ses.limit = ws.limit
	}
	ses.fence = ws.fence
	ws.mu.Unlock()
	if r, ok := ses.rel(s.Store().Dir()); ok {
		if r == "" {
			w.Close()
			return nil, fmt.Errorf("the state dir is the workspace root; put it elsewhere")
		}
		ses.state = r
	}
	if err := ses.start(); err != nil {
		w.Close()
		return nil, err
	}
	return ses, nil
}

func (ses *session) abs(rel string) string {
	if rel == "" {
		return ses.root
	}
	return ses.root + "/" + rel
}

// rel is the root-relative form of an absolute path; ok is false outside
// the root.
func (ses *session) rel(abs string) (string, bool) {
	switch {
	case abs == ses.root:
		return "", true
	case strings.HasPrefix(abs, ses.root+"/"):
		return abs[len(ses.root)+1:], true
	case ses.root == "/":
		return strings.TrimPrefix(abs, "/"), true
	}
	return "", false
}

func (ses *session) status() {
	ses.ws.set(Status{Elected: true, Root: ses.root, Watched: len(ses.watched), Uncovered: len(ses.unwatched), Limit: ses.limit})
}

// run processes events until ctx ends, the active root changes or the root
// goes away.
func (ses *session) run(ctx context.Context) {
	defer context.AfterFunc(ctx, ses.cancel)()
	tick := time.NewTicker(watchTick)
	defer tick.Stop()
	lastRec := time.Now()
	events := ses.w.Events()
	for {
		select {
		case <-ctx.Done():
			ses.finish()
			return
		case ev, ok := <-events:
			if !ok {
				ses.finish()
				return
			}
			ses.onEvent(ev)
			continue
		case err := <-ses.w.Errors():
			if err == shell.ErrWatchOverflow {
				ses.overflow = true
			} else {
				ses.s.Warn(fmt.Sprintf("watcher: %v", err))
			}
		case err := <-ses.quiet:
			ses.settle(err)
		case <-tick.C:
		}
		now := time.Now()
		ses.syncOwn()
		if ses.overflow {
			ses.overflow = false
			ses.s.Warn(fmt.Sprintf("watcher: the kernel dropped events under %s; rescanning", ses.root))
			ses.rescan()
			ses.flush()
		} else if ses.fence != "" {
			ses.fenced()
		} else if len(ses.pend) > 0 && (now.Sub(ses.lastPend) >= watchQuiet || now.Sub(ses.firstPend) >= watchMaxDelay) {
			ses.flush()
		}
		ses.fenceSettle()
		if ses.rootGone {
			ses.finish()
			return
		}
		if now.Sub(lastRec) >= watchRecordPoll {
			lastRec = now
			if !ses.pollRecord() {
				ses.finish()
				return
			}
			if ses.root == ses.s.Start() && now.Sub(ses.lastStand) >= watchStandPoll {
				ses.lastStand = now
				if !canWatchActive(ses.s) && ses.s.Store().Challenged(workspace.WatcherElection) {
					ses.handover = true
					ses.finish()
					return
				}
			}
			if len(ses.pend) == 0 && len(ses.waiting) == 0 {
				ses.own.prune(now)
			}
		}
	}
}

// syncOwn reads our new journal events, and warns when some were dropped
// from the journal before the watcher could read them.
func (ses *session) syncOwn() {
	if ses.own.sync() {
		ses.s.Warn(fmt.Sprintf("watcher: the change journal dropped events before the watcher read them (changes_kept %d is small for this rate of writes); "+
			"the echo of some writes of this service may be reported as external", ses.s.ChangesKept()))
	}
}

// finish decides what is still batched or waiting before the session
// ends: those are real changes, and the next watcher will not see them.
func (ses *session) finish() {
	if len(ses.pend) > 0 {
		ses.flush()
	}
	ses.settleAll()
}

func (ses *session) close() {
	ses.cancel()
	ses.w.Close()
}

// pollRecord follows the record: false when the active root moved away.
func (ses *session) pollRecord() bool {
	tok := ses.s.Store().RecordChanged()
	if tok == ses.recTok {
		return true
	}
	ses.recTok = tok
	rec := ses.s.Store().Load()
	if root, _ := ses.s.RootOf(rec); root != ses.root {
		return false
	}
	// A save changes only a buffer's version: the open paths and expanded
	// folders, all that the session reads here, are the same, and with
	// thousands of buffers reloading them on every save would cost more
	// than the save.
	if sig := sessionSig(rec, ses.root); sig != ses.recSig || sig == 0 {
		ses.recSig = sig
		ses.loadSession(rec)
		ses.ensurePrio()
		ses.loadCache()
	}
	ses.status()
	return true
}

// sigSeed keys sessionSig for the life of the process.
var sigSeed = maphash.MakeSeed()

// sessionSig identifies the open buffers' paths and the expanded folders of
// root in rec (not the buffers' versions); 0 when there is no session.
func sessionSig(rec *workspace.Record, root string) uint64 {
	se := rec.Sessions[root]
	if se == nil {
		return 0
	}
	var h maphash.Hash
	h.SetSeed(sigSeed)
	for _, b := range se.Buffers {
		h.WriteString(b.Path)
		h.WriteByte(0)
	}
	h.WriteByte(1)
	for _, e := range se.Expanded {
		h.WriteString(e)
		h.WriteByte(0)
	}
	return h.Sum64() | 1
}

// skip reports paths the watcher never looks at: .git (git's own files)
// and the state dir.
func (ses *session) skip(rel string) bool {
	return shell.UnderDotGit(rel) || (ses.state != "" && workspace.Within(rel, ses.state))
}
