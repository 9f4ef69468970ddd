package workspace

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func openElectionStore(t *testing.T, dir string) *Store {
	t.Helper()
	s, err := OpenStore(dir, func(m string) { t.Logf("warn: %s", m) })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestTryElectExclusive(t *testing.T) {
	dir := t.TempDir()
	a, b := openElectionStore(t, dir), openElectionStore(t, dir)
	relA, ok, err := a.TryElect(WatcherElection)
	if err != nil || !ok {
		t.Fatalf("first TryElect = %v, %v", ok, err)
	}
	if _, ok, err := b.TryElect(WatcherElection); err != nil || ok {
		t.Fatalf("second TryElect while held = %v, %v", ok, err)
	}
	// Another name is another election.
	relO, ok, err := b.TryElect("other")
	if err != nil || !ok {
		t.Fatalf("TryElect(other) = %v, %v", ok, err)
	}
	relO()
	relA()
	relA() // releasing twice is harmless
	relB, ok, err := b.TryElect(WatcherElection)
	if err != nil || !ok {
		t.Fatalf("TryElect after release = %v, %v", ok, err)
	}
	relB()
}

// Many contenders: at every moment at most one holds the election, and
// each gets it in turn as holders step down.
func TestElectOneAtATime(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var holders, maxHolders, terms atomic.Int32
	var wg sync.WaitGroup
	for range 4 {
		s := openElectionStore(t, dir)
		wg.Add(1)
		go func() {
			defer wg.Done()
			release, err := s.Elect(ctx, WatcherElection, 10*time.Millisecond)
			if err != nil {
				t.Errorf("Elect: %v", err)
				return
			}
			n := holders.Add(1)
			for {
				m := maxHolders.Load()
				if n <= m || maxHolders.CompareAndSwap(m, n) {
					break
				}
			}
			time.Sleep(30 * time.Millisecond)
			holders.Add(-1)
			terms.Add(1)
			release()
		}()
	}
	wg.Wait()
	if maxHolders.Load() != 1 || terms.Load() != 4 {
		t.Fatalf("max holders %d, terms %d; want 1 and 4", maxHolders.Load(), terms.Load())
	}
}

func TestElectGivesUpWithContext(t *testing.T) {
	dir := t.TempDir()
	a, b := openElectionStore(t, dir), openElectionStore(t, dir)
	rel, err := a.Elect(context.Background(), WatcherElection, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer rel()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := b.Elect(ctx, WatcherElection, 20*time.Millisecond); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Elect while held = %v, want the context's error", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Fatalf("Elect took %v to give up", d)
	}
	// Takeover: the waiter gets it within a retry of the release.
	ctx2, cancel2 := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel2()
	got := make(chan time.Time, 1)
	go func() {
		r, err := b.Elect(ctx2, WatcherElection, 0)
		if err == nil {
			got <- time.Now()
			r()
		}
		close(got)
	}()
	time.Sleep(50 * time.Millisecond)
	released := time.Now()
	rel()
	at, ok := <-got
	if !ok {
		t.Fatal("waiter never elected")
	}
	if d := at.Sub(released); d > ElectionRetry+500*time.Millisecond {
		t.Fatalf("takeover took %v", d)
	}
}

// TestStandAndChallenged: a holder is challenged exactly while some
// process stands for the election; standing is shared, so several may.
func TestStandAndChallenged(t *testing.T) {
	dir := t.TempDir()
	holder, a, b := openElectionStore(t, dir), openElectionStore(t, dir), openElectionStore(t, dir)
	if holder.Challenged(WatcherElection) {
		t.Fatal("challenged with nobody standing")
	}
	relA, ok, err := a.Stand(WatcherElection)
	if err != nil || !ok {
		t.Fatalf("Stand = %v, %v", ok, err)
	}
	relB, ok, err := b.Stand(WatcherElection)
	if err != nil || !ok {
		t.Fatalf("a second Stand = %v, %v", ok, err)
	}
	if !holder.Challenged(WatcherElection) {
		t.Fatal("not challenged while two stand")
	}
	relA()
	if !holder.Challenged(WatcherElection) {
		t.Fatal("not challenged while one stands")
	}
	relB()
	if holder.Challenged(WatcherElection) {
		t.Fatal("challenged after everyone sat down")
	}
}
