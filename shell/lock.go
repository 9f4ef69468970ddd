package shell

import (
	"context"
	"errors"
	"os"
	"sync"
	"syscall"
)

// Lock takes an exclusive advisory lock (flock) on the file abs inside the
// jail, creating it (mode 0600) if needed, and waits until it is free or
// ctx ends (timeout). The lock belongs to the open file, so it serializes
// goroutines of one process as well as separate processes, and the kernel
// drops it if the holder dies.
//
// The lock file is opened through os.Root like every other path, so a
// folder swapped for a symlink mid-call cannot make it land outside the
// jail.
func (j *Jail) Lock(ctx context.Context, abs string) (unlock func(), err error) {
	return j.lock(ctx, abs, syscall.LOCK_EX)
}

// LockShared takes a shared advisory lock (flock LOCK_SH) on the file abs,
// as Lock does an exclusive one: any number of shared holders, in this
// process or others, hold it together, and none while someone holds it
// exclusively. A shared request is not queued behind a waiting exclusive
// one (flock has no fairness), so an exclusive taker waits for a moment
// with no shared holder.
func (j *Jail) LockShared(ctx context.Context, abs string) (unlock func(), err error) {
	return j.lock(ctx, abs, syscall.LOCK_SH)
}

// LockDir takes an exclusive flock on the folder abs itself (through
// symlinks inside the jail), waiting until it is free or ctx ends.
//
// It is the lock that keeps writers of one file apart whatever state dir
// they use (docs/contract.md §3): every process that can see the file can open
// its folder, and the folder's inode is the same however the folder is
// named (a symlink, a bind mount, the paths of two nested roots), so the
// lock needs no shared place to live and no naming scheme to agree on. The
// lock is on the folder rather than the file because a save replaces the
// file (a new inode after each rename, so a lock on the old one would not
// stop the next writer) and a file being created does not exist yet; the
// folder outlives both. The kernel drops it when the holder dies, and flock
// locks belong to the open file description, so two goroutines of one
// process exclude each other as two processes do. Other programs do not
// flock folders, so nothing else waits on it.
func (j *Jail) LockDir(ctx context.Context, abs string) (unlock func(), err error) {
	t, err := j.resolve(abs, true)
	if err != nil {
		return nil, err
	}
	d, err := openDirRoot(t.r.root, t.rel)
	if err != nil {
		return nil, AsError(err, t.abs)
	}
	f, err := d.OpenFile(".", os.O_RDONLY|syscall.O_DIRECTORY, 0)
	d.Close()
	if err != nil {
		return nil, AsError(err, t.abs)
	}
	return flockFile(ctx, f, abs, syscall.LOCK_EX)
}

// lock takes the flock how (LOCK_EX or LOCK_SH) on abs for Lock and
// LockShared.
func (j *Jail) lock(ctx context.Context, abs string, how int) (unlock func(), err error) {
	f, err := j.openLockFile(abs)
	if err != nil {
		return nil, err
	}
	return flockFile(ctx, f, abs, how)
}

// flockFile takes the flock how on the open file f (named abs in
// messages), waiting until ctx ends; f is closed on failure and by unlock.
func flockFile(ctx context.Context, f *os.File, abs string, how int) (unlock func(), err error) {
	if ok, err := tryFlock(f, how); err != nil {
		f.Close()
		return nil, AsError(err, abs)
	} else if ok {
		return releaser(f), nil
	}
	if ctx.Err() != nil {
		f.Close()
		return nil, lockWaitErr(ctx, abs)
	}
	// Contended: block in the kernel (which wakes us the moment the holder
	// lets go, unlike polling) on a goroutine, so that ctx can still end
	// the wait. A lock taken after we gave up is dropped by closing the file.
	got := make(chan error, 1)
	go func() { got <- flockWait(f, how) }()
	select {
	case err := <-got:
		if err != nil {
			f.Close()
			return nil, AsError(err, abs)
		}
		return releaser(f), nil
	case <-ctx.Done():
		go func() {
			<-got
			f.Close()
		}()
		return nil, lockWaitErr(ctx, abs)
	}
}

// lockWaitErr says why a wait for the lock abs ended: it ran out of time
// (someone holds the lock too long), or the call was cancelled, which
// says nothing about the holder.
func lockWaitErr(ctx context.Context, abs string) error {
	if errors.Is(ctx.Err(), context.Canceled) {
		return Errorf(CodeTimeout, abs, "the call was cancelled (its client left, or the server is ending) while it waited for the lock %s", abs)
	}
	return Errorf(CodeTimeout, abs, "could not take the lock %s: %v (is another editord process stuck holding it?)", abs, ctx.Err())
}

// TryLock takes the lock only if it is free right now: ok is false (and err
// nil) when someone else holds it.
func (j *Jail) TryLock(abs string) (unlock func(), ok bool, err error) {
	f, err := j.openLockFile(abs)
	if err != nil {
		return nil, false, err
	}
	ok, err = tryFlock(f, syscall.LOCK_EX)
	if err != nil || !ok {
		f.Close()
		if err != nil {
			return nil, false, AsError(err, abs)
		}
		return nil, false, nil
	}
	return releaser(f), true, nil
}

// openLockFile opens (creating) the lock file abs through the jail. It must
// be a regular file: a folder is is_a_directory, and a FIFO is refused
// rather than blocking the open.
func (j *Jail) openLockFile(abs string) (*os.File, error) {
	t, err := j.prepare(abs, true, true)
	if err != nil {
		return nil, err
	}
	if t.rel == "." {
		return nil, Errorf(CodeIsADirectory, t.abs, "%s is a folder; a lock is a file", t.abs)
	}
	f, err := t.r.root.OpenFile(t.rel, os.O_RDONLY|os.O_CREATE|syscall.O_NONBLOCK, 0o600)
	if err != nil {
		return nil, AsError(err, t.abs)
	}
	fi, err := f.Stat()
	switch {
	case err != nil:
		f.Close()
		return nil, AsError(err, t.abs)
	case fi.IsDir():
		f.Close()
		return nil, Errorf(CodeIsADirectory, t.abs, "%s is a folder; a lock is a file", t.abs)
	case !fi.Mode().IsRegular():
		f.Close()
		return nil, Errorf(CodeInvalidArgument, t.abs, "%s is not a regular file (device, socket or pipe); a lock is a file", t.abs)
	}
	return f, nil
}

func tryFlock(f *os.File, how int) (bool, error) {
	for {
		err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
		switch err {
		case nil:
			return true, nil
		case syscall.EWOULDBLOCK:
			return false, nil
		case syscall.EINTR:
			continue
		}
		return false, err
	}
}

func flockWait(f *os.File, how int) error {
	for {
		err := syscall.Flock(int(f.Fd()), how)
		if err != syscall.EINTR {
			return err
		}
	}
}

// releaser unlocks and closes f, once however often it is called.
func releaser(f *os.File) func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
			f.Close()
		})
	}
}
