package workspace

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"
)

// Concurrent Applies of one process, and Updates of another process on
// the same state dir, lose nothing: every buffer opened by anyone is in
// the record afterwards, each at its last version.
func TestApplyConcurrentLosesNothing(t *testing.T) {
	s, _ := newTestStore(t)
	other, err := OpenStore(s.Dir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	ctx := context.Background()
	const writers, each = 8, 25
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for k := range each {
				b := Buffer{Path: fmt.Sprintf("w%d", w), Version: fmt.Sprintf("%d-x", k)}
				if err := s.Apply(ctx, func(r *Record) bool { return r.Session("/w").Upsert(b) }); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Go(func() {
		for k := range each {
			if _, err := other.Update(ctx, func(r *Record) (bool, error) {
				return r.Session("/w").Upsert(Buffer{Path: fmt.Sprintf("o%d", k), Version: "1-o"}), nil
			}); err != nil {
				t.Error(err)
			}
		}
	})
	wg.Wait()
	fresh, err := OpenStore(s.Dir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	got := map[string]string{}
	for _, b := range fresh.Load().Session("/w").Buffers {
		got[b.Path] = b.Version
	}
	for w := range writers {
		if v := got[fmt.Sprintf("w%d", w)]; v != fmt.Sprintf("%d-x", each-1) {
			t.Errorf("w%d at %q, want its last version", w, v)
		}
	}
	for k := range each {
		if _, ok := got[fmt.Sprintf("o%d", k)]; !ok {
			t.Errorf("o%d (the other process's) lost", k)
		}
	}
}

// A batch's failure reaches every caller in it, and the callers after it
// get a batch of their own.
func TestCombinerSharesResult(t *testing.T) {
	var c combiner[int]
	started, release := make(chan struct{}), make(chan struct{})
	var batches [][]int
	var mu sync.Mutex
	run := func(b []int, _ time.Time) error {
		mu.Lock()
		batches = append(batches, append([]int(nil), b...))
		mu.Unlock()
		if b[0] == 0 {
			close(started)
			<-release
			return nil
		}
		return errors.New("batch failed")
	}
	first := make(chan error)
	go func() { first <- c.do(0, run) }()
	<-started
	// Queue three while the first batch runs: they form the next one.
	errs := make(chan error, 3)
	for i := 1; i <= 3; i++ {
		go func() { errs <- c.do(i, run) }()
	}
	for {
		c.mu.Lock()
		n := len(c.queue)
		c.mu.Unlock()
		if n == 3 {
			break
		}
		runtime.Gosched()
	}
	close(release)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if err := <-errs; err == nil || err.Error() != "batch failed" {
			t.Errorf("a caller of the failed batch got %v", err)
		}
	}
	if len(batches) != 2 || len(batches[1]) != 3 {
		t.Errorf("batches %v, want [[0] [three queued]]", batches)
	}
}

// Concurrent grouped appends number every event once, each caller's
// events consecutively and in its order.
func TestAppendGroupedNumbersEachOnce(t *testing.T) {
	s, _ := newTestStore(t)
	ctx := context.Background()
	const callers, each = 8, 20
	var wg sync.WaitGroup
	seqs := make([][]int64, callers)
	for c := range callers {
		wg.Go(func() {
			for k := range each {
				evs := []Event{{Path: fmt.Sprintf("c%d/%d/a", c, k), Kind: "modified"}, {Path: fmt.Sprintf("c%d/%d/b", c, k), Kind: "modified"}}
				if err := s.AppendGrouped(ctx, evs, 10000); err != nil {
					t.Error(err)
					return
				}
				if evs[1].Seq != evs[0].Seq+1 {
					t.Errorf("one caller's events numbered %d, %d", evs[0].Seq, evs[1].Seq)
				}
				seqs[c] = append(seqs[c], evs[0].Seq, evs[1].Seq)
			}
		})
	}
	wg.Wait()
	seen := map[int64]bool{}
	for _, ss := range seqs {
		for _, q := range ss {
			if seen[q] {
				t.Fatalf("seq %d given twice", q)
			}
			seen[q] = true
		}
	}
	p, err := s.Read(Query{Limit: 10000})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Events) != callers*each*2 {
		t.Fatalf("%d events in the journal, want %d", len(p.Events), callers*each*2)
	}
	for _, ev := range p.Events {
		if !seen[ev.Seq] {
			t.Errorf("journal seq %d was never returned", ev.Seq)
		}
	}
}
