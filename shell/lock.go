package shell

import (
	"context"
	"time"

	"github.com/gofrs/flock"
)

// Lock takes an exclusive advisory lock (flock) on the file abs inside the
// jail, creating it if needed, and waits until it is free or ctx ends. The
// lock belongs to the open file, so it serializes goroutines of one process
// as well as separate processes, and the kernel drops it if the holder dies.
func (j *Jail) Lock(ctx context.Context, abs string) (unlock func(), err error) {
	fl, err := j.flockFor(abs)
	if err != nil {
		return nil, err
	}
	ok, err := fl.TryLockContext(ctx, 2*time.Millisecond)
	if err != nil || !ok {
		if err == nil {
			err = ctx.Err()
		}
		return nil, Errorf(CodeTimeout, abs, "could not take the lock %s: %v (is another editord process stuck?)", abs, err)
	}
	return func() { fl.Unlock() }, nil
}

// TryLock takes the lock only if it is free right now.
func (j *Jail) TryLock(abs string) (unlock func(), ok bool, err error) {
	fl, err := j.flockFor(abs)
	if err != nil {
		return nil, false, err
	}
	ok, err = fl.TryLock()
	if err != nil || !ok {
		return nil, false, err
	}
	return func() { fl.Unlock() }, true, nil
}

func (j *Jail) flockFor(abs string) (*flock.Flock, error) {
	t, err := j.prepare(abs, true, true)
	if err != nil {
		return nil, err
	}
	return flock.New(t.realAbs()), nil
}
