package editor

import (
	"context"
	"sync/atomic"
	"time"
)

// callCount is the calls in progress, which the watcher's walks of the
// tree give way to: on two cores, its first walk of a 240k-file tree
// took half the CPU from a first search made meanwhile.
type callCount struct{ n atomic.Int64 }

func (c *callCount) begin() { c.n.Add(1) }
func (c *callCount) end()   { c.n.Add(-1) }

// giveWay waits while a call is in progress, for at most what is left of
// *budget (which it spends), or until ctx ends. Background work calls it
// between steps; the budget bounds how late it can be made.
func (s *Service) giveWay(ctx context.Context, budget *time.Duration) {
	const step = 5 * time.Millisecond
	for *budget > 0 && s.calls.n.Load() > 0 && ctx.Err() == nil {
		s.sleep(ctx, step)
		*budget -= step
	}
}
