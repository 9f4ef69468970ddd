package workspace

import (
	"context"
	"sync"
	"time"
)

// Group commit. Every change to the record and every journal append is a
// read-modify-write under a lock of the state dir, so concurrent callers
// of one process (the clients of one HTTP server) queue for it, and each
// pays the lock, the read and the write (for the record, a new core file
// and a buffer file: two new inodes, which cost more on a busy file system
// than the bytes in them). Instead, callers that arrive while one is busy
// are served together by the next one to go: one lock, one read, one
// write for the whole batch, each caller's change applied in the order
// they came, each told the batch's result. A caller never waits longer
// than for its own turn at the lock: the batch it joins is the next one,
// and a batch gives up on the lock when its oldest caller has waited
// lockWait in all (a stuck lock fails each caller once, not once per
// batch queued ahead of it).
//
// Other processes are not batched with: the lock still serializes them,
// and every guarantee of a single read-modify-write holds for a batch.

// combiner runs batches of requests one at a time: the caller that finds
// no batch running runs one with everything queued, then hands the turn
// to the first caller that queued meanwhile.
type combiner[R any] struct {
	mu      sync.Mutex
	queue   []*groupReq[R]
	running bool
}

type groupReq[R any] struct {
	req  R
	at   time.Time // when it was queued
	done chan groupDone
}

type groupDone struct {
	err  error
	lead bool // run the next batch
}

// do queues req and returns once a batch holding it ran (err is the
// batch's). run runs one batch, in queue order; since is when its oldest
// request was queued.
func (c *combiner[R]) do(req R, run func(batch []R, since time.Time) error) error {
	me := &groupReq[R]{req: req, at: time.Now(), done: make(chan groupDone, 1)}
	c.mu.Lock()
	c.queue = append(c.queue, me)
	if c.running {
		c.mu.Unlock()
		if d := <-me.done; !d.lead {
			return d.err
		}
		c.mu.Lock()
	}
	c.running = true
	batch := c.queue
	c.queue = nil
	c.mu.Unlock()

	reqs := make([]R, len(batch))
	for i, r := range batch {
		reqs[i] = r.req
	}
	err := run(reqs, batch[0].at)

	c.mu.Lock()
	var next *groupReq[R]
	if len(c.queue) > 0 {
		next = c.queue[0]
	} else {
		c.running = false
	}
	c.mu.Unlock()
	for _, r := range batch {
		if r != me {
			r.done <- groupDone{err: err}
		}
	}
	if next != nil {
		next.done <- groupDone{lead: true}
	}
	return err
}

// Apply changes the record with fn under the record lock, as Update does,
// for a change that cannot fail (fn reports whether it changed anything).
// Concurrent Applies of this process share one read-modify-write (see
// above); fn runs on the record as the changes queued before it left it.
// The wait for the lock is not cut short by ctx: a change queued may be
// applied with others'.
func (s *Store) Apply(ctx context.Context, fn func(*Record) bool) error {
	return s.applies.do(fn, func(fns []func(*Record) bool, since time.Time) error {
		ctx, cancel := context.WithDeadline(context.WithoutCancel(ctx), since.Add(lockWait))
		defer cancel()
		_, err := s.Update(ctx, func(r *Record) (bool, error) {
			changed := false
			for _, fn := range fns {
				if fn(r) {
					changed = true
				}
			}
			return changed, nil
		})
		return err
	})
}

// appendReq is one caller's events for the journal, numbered in place by
// the batch that appends them.
type appendReq struct {
	evs  []Event
	keep int
}

// AppendGrouped is Append for concurrent callers of this process: their
// events share one append (see above), each caller's in the order given,
// callers in the order they came. The events are numbered in place.
func (s *Store) AppendGrouped(ctx context.Context, evs []Event, keep int) error {
	if len(evs) == 0 {
		return nil
	}
	return s.appends.do(appendReq{evs, keep}, func(reqs []appendReq, since time.Time) error {
		ctx, cancel := context.WithDeadline(context.WithoutCancel(ctx), since.Add(lockWait))
		defer cancel()
		if len(reqs) == 1 {
			_, err := s.Append(ctx, reqs[0].evs, reqs[0].keep)
			return err
		}
		var all []Event
		keep := 0
		for _, r := range reqs {
			all = append(all, r.evs...)
			keep = max(keep, r.keep)
		}
		numbered, err := s.Append(ctx, all, keep)
		if err != nil {
			return err
		}
		i := 0
		for _, r := range reqs {
			i += copy(r.evs, numbered[i:i+len(r.evs)])
		}
		return nil
	})
}
