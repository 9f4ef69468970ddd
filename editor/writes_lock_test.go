package editor

// Tests of the writes lock (writes_lock.go), the service's side of how the
// watcher tells our writes from external ones: by the lock, not by how
// soon the journal event follows. The watcher's side, that it decides
// nothing until the lock is taken, is tested in editor/watch.

import (
	"context"
	"testing"
	"time"
)

// Writes of ours never wait for each other, nor for long for the watcher.
func TestWritingShared(t *testing.T) {
	t.Parallel()
	e := tcNew(t)
	other := e.service()
	ctx := context.Background()
	d1, err := e.s.writing(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer d1()
	write := func() error { // a write of another process, in and out
		done, err := other.writing(ctx)
		if err == nil {
			done()
		}
		return err
	}
	twWithin(t, "a second write, while the first is in flight", twAsync(write))
	// The watcher waits for d1; a new write meanwhile is held back at the
	// gate for a bounded time at most (quiesceGate, doubling), not until
	// d1 ends.
	shut := e.s.quiesced.gateShut.Load()
	quiet := twAsync(func() error { return e.s.quiesce(ctx) })
	for deadline := time.Now().Add(30 * time.Second); e.s.quiesced.gateShut.Load() == shut; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("quiesce never shut the gate")
		}
	}
	twWithin(t, "a write while the watcher waits for another one", twAsync(write))
	select {
	case err := <-quiet:
		t.Fatalf("quiesce returned while a write was in flight: %v", err)
	default:
	}
	d1()
	twWithin(t, "quiesce once the writes ended", quiet)
}

// twAsync runs fn on its own goroutine; its error comes on the channel.
func twAsync(fn func() error) <-chan error {
	ch := make(chan error, 1)
	go func() { ch <- fn() }()
	return ch
}

// twWithin fails unless what succeeds (nil on ch) within 5 seconds.
func twWithin(t *testing.T, what string, ch <-chan error) {
	t.Helper()
	select {
	case err := <-ch:
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("%s: still waiting after 5s", what)
	}
}
