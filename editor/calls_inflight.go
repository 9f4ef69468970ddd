package editor

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// callCount is the calls in progress, which background work gives way
// to: on two cores, the watcher's first walk of a 240k-file tree took half
// the CPU from a first search made meanwhile, and a status warmed at
// start doubled the time of a first status.
type callCount struct {
	n  atomic.Int64
	mu sync.Mutex
	// stop ends the background work that stops for a call (untilACall).
	stop []context.CancelFunc
}

func (c *callCount) begin() {
	c.n.Add(1)
	c.mu.Lock()
	stop := c.stop
	c.stop = nil
	c.mu.Unlock()
	for _, f := range stop {
		f()
	}
}

func (c *callCount) end() { c.n.Add(-1) }

// untilACall is a context for background work that is worth doing only
// while no call needs the CPU: it ends when the next call begins (or ctx
// ends). The work it warms is the call's to redo.
func (s *Service) untilACall(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	c := &s.calls
	c.mu.Lock()
	c.stop = append(c.stop, cancel)
	c.mu.Unlock()
	if c.n.Load() > 0 {
		cancel() // one is in progress already
	}
	return ctx, cancel
}

// giveWay waits while a call is in progress, for at most what is left of
// *budget (which it spends), or until ctx ends. Background work calls it
// between steps; the budget bounds how late it can be made.
func (s *Service) giveWay(ctx context.Context, budget *time.Duration) {
	const step = 5 * time.Millisecond
	for *budget > 0 && s.calls.n.Load() > 0 && ctx.Err() == nil {
		sleep(ctx, step)
		*budget -= step
	}
}

// sleep waits for d, or until ctx ends.
func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}
