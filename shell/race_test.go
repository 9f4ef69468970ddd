package shell

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// One goroutine works on inner/dir/... through the jail while another
// swaps inner/dir between a real folder and a symlink to the canary beside
// the jail. Whatever interleaving happens, the canary stays byte for byte
// untouched: resolution is only advisory, the I/O itself goes through
// os.Root.
func TestSymlinkSwapRace(t *testing.T) {
	f := newFixture(t)
	f.file("inner/dir/f.txt", "jail\n")
	// The canary holds the names the worker uses, so an escape would
	// overwrite or remove them, not only add files.
	mustWrite(t, filepath.Join(f.canary, "f.txt"), "canary f\n", 0o644)
	mustWrite(t, filepath.Join(f.canary, "g.txt"), "canary g\n", 0o644)
	if err := os.Mkdir(filepath.Join(f.canary, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	f.seal()

	dir := f.abs("inner/dir")
	spare := f.abs("inner/dir.real")
	rounds := 2000
	if testing.Short() {
		rounds = 300
	}
	deadline := time.Now().Add(3 * time.Second)

	var stop atomic.Bool
	var ops, okOps atomic.Int64
	var wg sync.WaitGroup
	worker := func(seed int) {
		defer wg.Done()
		p := func(rel string) string { return dir + "/" + rel }
		for i := seed; !stop.Load(); i++ {
			var err error
			switch i % 12 {
			case 0, 6:
				_, err = f.j.WriteFile(p("f.txt"), []byte("pwned\n"), WriteOptions{NoSync: true})
			case 1, 7:
				_, err = f.j.ReadFile(p("f.txt"), 0)
			case 2:
				_, err = f.j.WriteFile(p("g.txt"), []byte("pwned\n"), WriteOptions{Exclusive: true, NoSync: true})
			case 3:
				err = f.j.Rename(p("g.txt"), p("h.txt"), true)
			case 4:
				err = f.j.Remove(p("h.txt"), false)
			case 5:
				if _, err = f.j.Mkdir(p("sub/x"), false); err == nil {
					err = f.j.Remove(p("sub/x"), false)
				}
			case 8:
				err = f.j.AppendFile(p("f.txt"), []byte("more\n"))
			case 9:
				_, err = f.j.ReadDir(dir)
			case 10:
				err = f.j.Walk(dir, WalkOptions{}, func(WalkEntry) error { return nil })
			case 11:
				var unlock func()
				lock := f.j.Lock
				if i%24 == 23 {
					lock = f.j.LockShared
				}
				ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
				unlock, err = lock(ctx, p("l.lock"))
				cancel()
				if err == nil {
					unlock()
				}
			}
			ops.Add(1)
			if err == nil {
				okOps.Add(1)
			}
		}
	}
	wg.Add(1)
	go worker(0)

	// settle lets the worker finish an operation in the current state
	// (real folder or link), so both states see traffic.
	settle := func() {
		start, until := ops.Load(), time.Now().Add(200*time.Microsecond)
		for ops.Load() == start && time.Now().Before(until) {
			runtime.Gosched()
		}
	}
	n := 0
	for ; n < rounds && time.Now().Before(deadline); n++ {
		// real folder -> link to the canary -> real folder
		// A worker's Rename creates the parents of its target, so a real
		// inner/dir may reappear at any moment; clear it away (RemoveAll on
		// the link removes the link only).
		if err := os.Rename(dir, spare); err != nil {
			t.Fatal(err)
		}
		retry(t, func() error { return os.Symlink(f.canary, dir) }, dir)
		if n%2 == 0 {
			settle()
		}
		if err := os.Remove(dir); err != nil {
			t.Fatal(err)
		}
		retry(t, func() error { return os.Rename(spare, dir) }, dir)
		if n%2 == 1 {
			settle()
		}
	}
	stop.Store(true)
	wg.Wait()
	f.checkCanary()
	if _, err := os.Stat("/etc/editord-test"); err == nil {
		t.Fatal("a file appeared in /etc")
	}
	for _, name := range []string{"f.txt", "g.txt", "sub"} {
		if _, err := os.Stat(filepath.Join(f.canary, name)); err != nil {
			t.Fatalf("canary %s: %v", name, err)
		}
	}
	t.Logf("%d swaps, %d operations (%d succeeded)", n, ops.Load(), okOps.Load())
	if n < 200 || okOps.Load() == 0 {
		t.Fatalf("the race did not run: %d swaps, %d successful operations", n, okOps.Load())
	}
}

// retry runs op, clearing away what a worker made at inTheWay when op
// finds it there.
func retry(t *testing.T, op func() error, inTheWay string) {
	t.Helper()
	for range 100 {
		err := op()
		if err == nil {
			return
		}
		if !os.IsExist(err) {
			t.Fatal(err)
		}
		os.RemoveAll(inTheWay)
	}
	t.Fatal("could not swap the folder")
}
