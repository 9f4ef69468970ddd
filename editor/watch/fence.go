package watch

// Fences, for tests: a watcher given a fence name flushes its batch only
// when a file of that name appears in the root (an editord temp name, so a
// watcher without one ignores it), never on its timers. The writes a test
// makes before its fence are then one batch however loaded the machine is
// (the timers would split a burst that a descheduled writer spread over
// more than watchQuiet), and the test learns when every change of the
// batch has been decided, instead of sleeping and hoping.

import (
	"path"
	"strings"
)

// fenceMark: the changes queued by the time fence seq was flushed.
type fenceMark struct {
	seq   uint64
	queue uint64
}

// SetFence makes the watcher flush on fences named prefix… (a temp name:
// ".editord-…") from its next session on.
func (ws *Watcher) SetFence(prefix string) {
	ws.mu.Lock()
	ws.fence = prefix
	ws.mu.Unlock()
}

// Fences reports how many fences the watcher has flushed, and how many of
// those have every change decided (reported or recognized as ours).
func (ws *Watcher) Fences() (flushed, settled uint64) {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	return ws.fenceFlushed, ws.fenceSettled
}

// ElectionsLost reports how many times the watcher tried the election and
// lost it.
func (ws *Watcher) ElectionsLost() uint64 {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	return ws.lost
}

// isFence reports whether rel is a fence of this session.
func (ses *session) isFence(rel string) bool {
	return ses.fence != "" && !strings.Contains(rel, "/") && strings.HasPrefix(path.Base(rel), ses.fence)
}

// fenced flushes the batch at a fence and notes what it queued.
func (ses *session) fenced() {
	if !ses.fenceHit {
		return
	}
	ses.fenceHit = false
	ses.flush()
	ses.ws.mu.Lock()
	ses.ws.fenceFlushed++
	seq := ses.ws.fenceFlushed
	ses.ws.mu.Unlock()
	ses.marks = append(ses.marks, fenceMark{seq: seq, queue: ses.queued})
}

// fenceSettle publishes the fences whose changes are all decided.
func (ses *session) fenceSettle() {
	n := 0
	for n < len(ses.marks) && ses.decided >= ses.marks[n].queue {
		n++
	}
	if n == 0 {
		return
	}
	ses.ws.mu.Lock()
	ses.ws.fenceSettled = ses.marks[n-1].seq
	ses.ws.mu.Unlock()
	ses.marks = ses.marks[n:]
}
