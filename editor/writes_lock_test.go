package editor

// Tests of the writes lock (writes_lock.go): the watcher tells our writes from
// external ones by the lock, not by how soon the journal event follows.

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/editord/editord/workspace"
)

// A write of ours whose journal event comes long after its filesystem
// call (a loaded machine, a slow state dir) is still ours, and an external
// change seen meanwhile is decided only once our write is journaled.
func TestWatchSlowOwnWrite(t *testing.T) {
	t.Parallel()
	e := tcNew(t)
	e.write("ours.txt", "before\n")
	e.write("theirs.txt", "t1\n")
	e.open("ours.txt")
	twStart(t, e.s)
	twReady(t, e.s, e.root)
	ctx := context.Background()

	cur := twCursor(t, e.s)
	done, err := e.s.writing(ctx)
	if err != nil {
		t.Fatal(err)
	}
	twWriteRaw(t, e.abs("ours.txt"), "after\n")
	twWriteRaw(t, e.abs("theirs.txt"), "t2\n")
	// The batch is flushed, and its changes wait: nothing may be decided
	// while we write, however long that takes (the watcher used to give a
	// write of ours a grace period).
	twFlush(t, e.s)
	// Until the watcher has waited for it through a round with the gate
	// open and one with it shut, far past any grace period.
	base := e.s.quiesced.ranOut.Load()
	twUntil(t, "two rounds of waiting for our write", func() bool { return e.s.quiesced.ranOut.Load() >= base+2 })
	if evs := twSince(t, e.s, cur); len(evs) != 0 {
		done()
		t.Fatalf("decided while a write of ours was in flight:%s", twFmt(evs))
	}
	l := loc{abs: e.abs("ours.txt"), stored: "ours.txt"}
	e.s.emit(ctx, e.s.changeEvent(e.root, l, "editor::save", "modified", []byte("before\n"), []byte("after\n")))
	done()
	evs := twWait(t, e.s, cur, "modified ours.txt", "modified theirs.txt")
	twExactly(t, evs, "modified ours.txt editor::save", "modified theirs.txt external")
}

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
	twUntil(t, "the watcher to shut the gate", func() bool { return e.s.quiesced.gateShut.Load() > shut })
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

// Many writes of ours at once, from two processes, of every kind, while
// other programs write too: every write of ours is reported once, by its
// function, every external one once, as external, and nothing deadlocks.
// Several writers without pause would starve the watcher of the writes
// lock without its gate: the external writes would wait forever.
func TestWatchOwnWritesUnderLoad(t *testing.T) {
	t.Parallel()
	e := tcNew(t)
	twStart(t, e.s)
	twReady(t, e.s, e.root)
	other := e.service()
	ctx := context.Background()
	cur := twCursor(t, e.s)

	const workers, rounds = 4, 12
	var wg sync.WaitGroup
	stop := make(chan struct{})
	var saverWg sync.WaitGroup
	// Savers without pause, for the length of the test.
	for i := range 4 {
		svc := []*Service{e.s, other}[i%2]
		saverWg.Go(func() {
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				if _, err := svc.Save(ctx, &SaveRequest{Path: fmt.Sprintf("busy%d.txt", i), Content: fmt.Sprintf("%d\n", n), Force: true}); err != nil {
					t.Errorf("busy save: %v", err)
					return
				}
			}
		})
	}
	for w := range workers {
		svc := []*Service{e.s, other}[w%2]
		wg.Go(func() {
			for r := range rounds {
				p := fmt.Sprintf("w%d/r%d.txt", w, r)
				steps := []func() error{
					func() error {
						_, err := svc.Create(ctx, &CreateRequest{Path: p, Kind: "file", Content: "new\n"})
						return err
					},
					func() error {
						_, err := svc.Save(ctx, &SaveRequest{Path: p, Content: "saved\n", Force: true})
						return err
					},
					func() error {
						_, err := svc.Move(ctx, &MoveRequest{From: p, To: p + ".moved"})
						return err
					},
					func() error {
						_, err := svc.Delete(ctx, &DeleteRequest{Path: p + ".moved"})
						return err
					},
				}
				for i, step := range steps {
					if err := step(); err != nil {
						t.Errorf("%s step %d: %v", p, i, err)
						return
					}
				}
			}
		})
	}
	var want []string
	for i := range 5 {
		name := fmt.Sprintf("ext%d.txt", i)
		twWriteRaw(t, e.abs(name), "external\n")
		want = append(want, "created "+name)
		twFlush(t, e.s) // one batch each, while the savers are busy
	}
	// The external writes are reported while the savers are still busy.
	twWait(t, e.s, cur, want...)
	wg.Wait()
	close(stop)
	saverWg.Wait()
	twSettle(t, e.s)

	counts := map[string]int{}
	for _, ev := range twSince(t, e.s, cur) {
		if strings.HasPrefix(ev.Path, "busy") {
			if ev.Cause != "editor::save" {
				t.Errorf("a save of ours reported as %s:%s", ev.Cause, twFmt([]workspace.Event{ev}))
			}
			continue
		}
		counts[ev.Kind+" "+ev.Path+" "+ev.Cause]++
	}
	for w := range workers {
		for r := range rounds {
			p := fmt.Sprintf("w%d/r%d.txt", w, r)
			for _, k := range []string{"created " + p + " editor::create", "modified " + p + " editor::save",
				"moved " + p + ".moved editor::move", "deleted " + p + ".moved editor::delete"} {
				if counts[k] != 1 {
					t.Errorf("%q: %d events, want 1", k, counts[k])
				}
				delete(counts, k)
			}
		}
	}
	for i := range 5 {
		k := fmt.Sprintf("created ext%d.txt external", i)
		if counts[k] != 1 {
			t.Errorf("%q: %d events, want 1", k, counts[k])
		}
		delete(counts, k)
	}
	for k, n := range counts {
		t.Errorf("unexpected event %q (%d)", k, n)
	}
}
