package editor

// The writes lock: how the watcher tells our own writes from external ones
// without guessing from timing.
//
// Every function that changes files in the workspace (editor::save,
// create, delete and move, and the git functions that touch working files)
// journals its own event, with its real patch. The watcher must not report
// the filesystem echo of such a write again as "external". Matching the
// echo against the journal works only if the journal event is already
// there when the watcher looks, and the write's filesystem call comes
// before its journal append: a watcher that looks in between would take
// our write for someone else's.
//
// So every write of ours holds locks/writes.lock in the state dir SHARED
// (flock LOCK_SH, Service.writing) from before its first filesystem call
// until after its event is journaled (Service.emit). Writes of this
// process and of every other process on the state dir share it and never
// wait for each other. Before the watcher decides that a batch it saw is
// external, it takes the same lock EXCLUSIVELY for an instant
// (Service.quiesce). Every write of ours that made an event of the batch
// had started before the watcher took the lock, so the exclusive lock is
// granted only once each of them has journaled its event (or died: the
// kernel drops a dead holder's flock). The journal, read after that, is
// conclusive for the whole batch, however loaded the machine is: no grace
// period, no "probably ours".
//
// flock has no fairness: a shared request is granted while an exclusive
// one waits, so writes of ours that overlap without a gap (several agents
// saving at once) would starve the watcher, and an external change would
// never be reported (measured: none within 10 s under four busy savers).
// A second lock, locks/writes-gate.lock, restores the turn. It is a
// turnstile: a write takes it shared and lets go at once (a few
// microseconds, so it never starves the watcher in turn), then takes
// writes.lock. The watcher takes the gate exclusively while it waits for
// writes.lock, so writes that come meanwhile queue at the gate, and the
// ones already past it drain. It shuts the gate only after a first wait
// without it, and for a bounded time (see quiesce), so a write waits at
// the gate for at most quiesceGateMax.
//
// Lock order, which makes a deadlock impossible: writes (shared; the gate
// is passed before it and not held) -> the save lock (save-xx.lock, then
// the flock on the file's folder, see lockSave) or git.lock -> the record
// lock -> the journal lock. The watcher takes
// writes-gate then writes (exclusive) holding no other lock, and lets go
// of both at once. A write must not start another write while it holds
// writes (nested writing): the inner one would wait at the gate for a
// watcher that waits for the outer one, until the watcher opens it again.

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/editord/editord/shell"
)

const (
	// writesLock and writesGate are the lock files, under the state dir's
	// locks/.
	writesLock = "writes.lock"
	writesGate = "writes-gate.lock"
	// quiesceTry is how long the watcher first waits for the writes lock
	// without holding anybody back; quiesceGate how long it then waits
	// with the gate shut. Further rounds double, up to quiesceGateMax,
	// until quiesceWait.
	quiesceTry     = 50 * time.Millisecond
	quiesceGate    = 250 * time.Millisecond
	quiesceGateMax = 2 * time.Second
	quiesceWait    = 10 * time.Second
)

// writing marks a write of this service in progress until done is called;
// see the top of this file. Call it before the first filesystem call of
// the write and call done after s.emit has journaled the write's events
// (defer done() right after taking it does that when emit happens before
// return). It is taken before any other lock of the state dir (the save
// lock, git.lock, the record lock), never while holding one, and never
// twice in one call chain. done may be called more than once.
//
// A function that changes working files through gitops (stash, sync)
// wraps its worktree changes the same way:
//
//	done, err := s.writing(ctx)
//	if err != nil {
//		return nil, err
//	}
//	defer done()
//	unlock, err := s.store.Lock(ctx, gitLockName) // after writing: lock order
//	...
//	ev.flush() // s.emit, before done runs
//
// A write that does not hold it is reported by the watcher as external
// (its own journal event aside: twice).
func (s *Service) writing(ctx context.Context) (done func(), err error) {
	// Through the gate: it is shut only while the watcher waits.
	gate, err := s.store.LockShared(ctx, writesGate)
	if err != nil {
		return nil, err
	}
	gate()
	return s.store.LockShared(ctx, writesLock)
}

// quiesce returns once no write of ours that began before the call is in
// flight: it takes the writes lock exclusively and lets go at once. After
// it, the journal holds the event of every such write.
//
// It waits in rounds. First without holding anybody back (quiesceTry):
// most often there is a moment with no write of ours in flight. Then with
// the gate shut (quiesceGate): writes in flight drain, new ones queue.
// Writes that outlast that (a large git stash, a slow disk under load)
// are waited for in further rounds, gate open then shut, each as long as
// the last shut one and doubling up to quiesceGateMax, so that new writes
// are held back at most half the time, for at most quiesceGateMax at once.
// After quiesceWait it gives up with a timeout error; the caller may try
// again.
func (s *Service) quiesce(ctx context.Context) error {
	deadline := time.Now().Add(quiesceWait)
	open, shut := quiesceTry, quiesceGate
	for {
		err := s.waitWrites(ctx, open, false)
		if !isTimeout(ctx, err) {
			return err
		}
		if err = s.waitWrites(ctx, shut, true); !isTimeout(ctx, err) || time.Now().After(deadline) {
			return err
		}
		open, shut = shut, min(2*shut, quiesceGateMax)
	}
}

// quiesceSeen is what tests see of quiesce, to wait on instead of
// sleeping: how many times the gate was shut.
type quiesceSeen struct{ gateShut atomic.Uint64 }

// waitWrites waits at most d for the writes lock, with the gate shut
// meanwhile when gate is set.
func (s *Service) waitWrites(ctx context.Context, d time.Duration, gate bool) error {
	if gate {
		shut, err := s.store.Lock(ctx, writesGate)
		if err != nil {
			return err
		}
		s.quiesced.gateShut.Add(1)
		defer shut()
	}
	wctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	unlock, err := s.store.Lock(wctx, writesLock)
	if err != nil {
		return err
	}
	unlock()
	return nil
}

// isTimeout reports whether err is a lock wait that ran out while ctx
// still lives.
func isTimeout(ctx context.Context, err error) bool {
	return err != nil && ctx.Err() == nil && shell.CodeOf(err) == shell.CodeTimeout
}
