package watch

// Deciding whether a classified change is ours or external. A change the
// journal already explains is dropped at once. The others wait until the
// writes lock (editor/writes_lock.go) has been taken after they were seen, which
// makes the journal conclusive for them; they are then matched once more,
// and what is still unexplained is reported. The wait runs on its own
// goroutine, so the event loop goes on batching meanwhile, and changes
// are decided in the order they were seen.

import (
	"context"
	"fmt"
	"time"

	"github.com/editord/editord/shell"
	"github.com/editord/editord/workspace"
)

// decide drops the echo of our own writes that the journal already holds
// and queues the rest for the writes lock.
func (ses *session) decide(cands []*candidate) {
	for _, c := range cands {
		// A change to a path that an older change still waits for waits
		// behind it, even when the journal explains it already: changes to
		// one path are accounted in the order seen. Otherwise the older
		// one, decided last, would leave its content as the path's last
		// known, and the next change to it would be reported against that
		// (a wrong patch) or not recognized as seen.
		if ses.waitsFor(c) || !ses.isOwn(c) {
			ses.wait(c)
		}
	}
	if ses.quiet == nil && len(ses.waiting) > 0 {
		ses.quiesce()
	}
}

// quiesce starts a wait for the writes lock on behalf of every change
// waiting now; changes queued meanwhile wait for the next one.
func (ses *session) quiesce() {
	ch := make(chan error, 1)
	ses.quiet, ses.covers = ch, len(ses.waiting)
	go func() {
		err := ses.s.Quiesce(ses.ctx)
		if err != nil && shell.CodeOf(err) != shell.CodeTimeout {
			sleep(ses.ctx, time.Second) // trouble with the state dir: do not spin
		}
		ch <- err
	}()
}

// settle takes the outcome of the wait for the writes lock: on success the
// changes it covers are decided, else the wait starts again.
func (ses *session) settle(err error) {
	ses.quiet = nil
	if err != nil {
		if ses.ctx.Err() != nil {
			return // the session is ending: finish decides what waits
		}
		if ses.lockWarns++; ses.lockWarns == 1 {
			ses.s.Warn(fmt.Sprintf("watcher: %d changes wait for %s, which writes of this service hold: %v; they are reported once those end", len(ses.waiting), writesLock, err))
		}
		ses.quiesce()
		return
	}
	ses.lockWarns = 0
	due := ses.waiting[:ses.covers:ses.covers]
	ses.waiting = ses.waiting[ses.covers:]
	ses.unwait(due)
	ses.conclude(due)
	if len(ses.waiting) > 0 {
		ses.quiesce()
	}
}

// settleAll decides every change still waiting when the session ends. The
// wait for the writes lock is bounded by watchFinishWait; past it the
// changes are reported anyway, since the next watcher will not see them.
func (ses *session) settleAll() {
	ses.cancel() // a wait in flight ends; this one replaces it
	if len(ses.waiting) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), watchFinishWait)
	err := ses.s.Quiesce(ctx)
	cancel()
	if err != nil {
		ses.s.Warn(fmt.Sprintf("watcher: stopping; %d changes are decided without %s (%v): a write of this service still in flight may be reported as external", len(ses.waiting), writesLock, err))
	}
	due := ses.waiting
	ses.waiting = nil
	ses.unwait(due)
	ses.conclude(due)
}

// wait queues c for the writes lock.
func (ses *session) wait(c *candidate) {
	ses.queued++
	ses.waiting = append(ses.waiting, c)
	for _, p := range c.paths() {
		ses.waitingPaths[p]++
	}
}

// unwait takes cands, leaving the queue, off the paths waited for.
func (ses *session) unwait(cands []*candidate) {
	ses.decided += uint64(len(cands))
	for _, c := range cands {
		for _, p := range c.paths() {
			if ses.waitingPaths[p]--; ses.waitingPaths[p] <= 0 {
				delete(ses.waitingPaths, p)
			}
		}
	}
}

// waitsFor reports whether a change still waiting touches a path c does.
func (ses *session) waitsFor(c *candidate) bool {
	for _, p := range c.paths() {
		if ses.waitingPaths[p] > 0 {
			return true
		}
	}
	return false
}

// paths are the paths a change touches: its own, and a move's source.
func (c *candidate) paths() []string {
	if c.from != "" && c.from != c.rel {
		return []string{c.rel, c.from}
	}
	return []string{c.rel}
}

// conclude reports the changes that the journal, read now, does not
// explain. It is called after the writes lock was taken later than the
// changes were seen.
// They are taken in the order seen, ours and external alike, so that each
// is accounted (and an external one's patch computed) after the changes
// to its path that came before it.
func (ses *session) conclude(cands []*candidate) {
	ses.syncOwn()
	var evs []workspace.Event
	for _, c := range cands {
		if ses.isOwn(c) {
			continue
		}
		if ev, ok := ses.external(c); ok {
			evs = append(evs, ev)
		}
	}
	if len(evs) > 0 {
		ses.s.Emit(context.Background(), evs...)
	}
}

// isOwn reports (and accounts for) a change that is the echo of our write.
func (ses *session) isOwn(c *candidate) bool {
	if !ses.own.match(ses.root, c) && !ses.runOwns(c) {
		return false
	}
	ses.account(c)
	return true
}

// writesLock names the service's writes lock (editor/writes_lock.go) in
// warnings.
const writesLock = "writes.lock"
