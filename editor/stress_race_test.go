package editor

// Suite 2 of issue 6: the symlink race, through the editor. While saves,
// opens, creates, moves, deletes and listings run in a loop, another
// goroutine swaps a folder inside the root for a symlink to the canary
// beside the jail and back, thousands of times. Whatever the interleaving,
// the canary stays byte for byte untouched and every refusal carries a
// code (shell/race_test.go runs the same race one layer down).

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/editord/editord/shell"
)

// stRaceCodes are the refusals a call may meet under the race: the link
// (outside_jail), the folder missing mid-swap (not_found), and the other
// workers' files. invalid_argument is not among them: a link swapped for a
// folder between lstat and readlink once came back as "invalid path:
// readlinkat: invalid argument" (shell.resolve now looks again).
var stRaceCodes = map[shell.Code]bool{
	shell.CodeOutsideJail:   true,
	shell.CodeNotFound:      true,
	shell.CodeExists:        true,
	shell.CodeNotEmpty:      true,
	shell.CodeNotADirectory: true,
	shell.CodeIsADirectory:  true,
}

func TestStressSymlinkRace(t *testing.T) {
	e := tcNew(t)
	// The canary holds the names the workers use, so an escape would
	// overwrite, list or remove them rather than only add files.
	for _, name := range []string{"f.txt", "g.txt", "c.txt", "d.txt", "new.txt"} {
		tcWriteFile(t, filepath.Join(e.canary, name), stCanaryMarker+" "+name+"\n", 0o644)
	}
	e.snap = tcSnapshot(t, e.canary)
	e.write("inner/dir/f.txt", "jail\n")
	dir := e.abs("inner/dir")
	spare := e.abs("inner/dir.real")

	rounds := stN(1000, 20000)
	deadline := time.Now().Add(time.Duration(stN(20, 300)) * time.Second)
	ctx := context.Background()

	var stop atomic.Bool
	var ops, okOps atomic.Int64
	var bad sync.Map      // code -> example error
	var codes sync.Map    // code -> *atomic.Int64
	var examples sync.Map // code -> one refusal
	note := func(id string, err error) {
		ops.Add(1)
		if err == nil {
			okOps.Add(1)
			return
		}
		c, _ := codes.LoadOrStore(tcCode(err), new(atomic.Int64))
		c.(*atomic.Int64).Add(1)
		examples.LoadOrStore(tcCode(err), id+": "+err.Error())
		code := tcCode(err)
		// os.Root itself reports ELOOP when a name that was a symlink at
		// open(O_NOFOLLOW) is a folder again at readlink (its checkSymlink
		// returns the open's error): transient, safe, and said so.
		stdlibRace := code == shell.CodeInvalidArgument && strings.Contains(err.Error(), "a link being replaced while it was followed")
		if !stRaceCodes[code] && !stdlibRace {
			bad.LoadOrStore(code, fmt.Sprintf("%s: %v", id, err))
		}
	}
	var wg sync.WaitGroup
	// Writers and readers of inner/dir/f.txt.
	wg.Go(func() {
		for i := 0; !stop.Load(); i++ {
			_, err := e.s.Save(ctx, &SaveRequest{Path: "inner/dir/f.txt", Content: fmt.Sprintf("pwned %d\n", i), Force: true})
			note("save force", err)
			o, err := e.s.Open(ctx, &OpenRequest{Path: "inner/dir/f.txt"})
			note("open", err)
			if err == nil {
				_, err = e.s.Save(ctx, &SaveRequest{Path: "inner/dir/f.txt", Content: o.Content + "x\n", ExpectedVersion: &o.Version})
				note("save guarded", err)
			}
		}
	})
	// Creation, moves and deletes of names the canary also holds.
	wg.Go(func() {
		for i := 0; !stop.Load(); i++ {
			switch i % 5 {
			case 0:
				_, err := e.s.Save(ctx, &SaveRequest{Path: "inner/dir/new.txt", Content: "pwned\n"})
				note("save create", err)
			case 1:
				_, err := e.s.Create(ctx, &CreateRequest{Path: "inner/dir/c.txt", Kind: "file", Content: "pwned\n"})
				note("create", err)
			case 2:
				_, err := e.s.Move(ctx, &MoveRequest{From: "inner/dir/c.txt", To: "inner/dir/d.txt", Overwrite: true})
				note("move", err)
			case 3:
				_, err := e.s.Delete(ctx, &DeleteRequest{Path: "inner/dir/d.txt"})
				note("delete", err)
			case 4:
				_, err := e.s.Delete(ctx, &DeleteRequest{Path: "inner/dir/new.txt"})
				note("delete", err)
			}
		}
	})
	// Listings.
	wg.Go(func() {
		for !stop.Load() {
			_, err := e.s.Tree(ctx, &TreeRequest{Path: "inner/dir", MaxDepth: 2})
			note("tree", err)
			_, err = e.s.Create(ctx, &CreateRequest{Path: "inner/dir/sub", Kind: "folder"})
			note("create folder", err)
			_, err = e.s.Delete(ctx, &DeleteRequest{Path: "inner/dir/sub", Recursive: true})
			note("delete folder", err)
		}
	})

	// settle lets the workers finish a call with the link in place;
	// settleReal waits for a call to succeed with the real folder back
	// (refusals are quick and successful saves are not, so without it
	// nearly every call would meet the link).
	settle := func() {
		start, until := ops.Load(), time.Now().Add(300*time.Microsecond)
		for ops.Load() == start && time.Now().Before(until) {
			runtime.Gosched()
		}
	}
	settleReal := func() {
		start, until := okOps.Load(), time.Now().Add(3*time.Millisecond)
		for okOps.Load() == start && time.Now().Before(until) {
			runtime.Gosched()
		}
	}
	// clear removes whatever a worker made at dir meanwhile (a save or a
	// move creates missing parents, so a real inner/dir may reappear).
	swap := func(op func() error) {
		for range 100 {
			err := op()
			if err == nil {
				return
			}
			if !os.IsExist(err) {
				t.Fatal(err)
			}
			os.RemoveAll(dir)
		}
		t.Fatal("could not swap the folder")
	}
	n := 0
	for ; n < rounds && time.Now().Before(deadline); n++ {
		if err := os.Rename(dir, spare); err != nil {
			t.Fatal(err)
		}
		swap(func() error { return os.Symlink(e.canary, dir) })
		settle()
		if err := os.Remove(dir); err != nil {
			t.Fatal(err)
		}
		swap(func() error { return os.Rename(spare, dir) })
		settleReal()
		if n%100 == 0 {
			e.checkCanary()
			if t.Failed() {
				break
			}
		}
	}
	stop.Store(true)
	wg.Wait()
	e.checkCanary()
	bad.Range(func(k, v any) bool {
		t.Errorf("a call under the race was refused with %q: %s", k, v)
		return true
	})
	refusals := map[any]int64{}
	codes.Range(func(k, v any) bool { refusals[k] = v.(*atomic.Int64).Load(); return true })
	t.Logf("%d swaps, %d calls (%d succeeded; refusals %v)", n, ops.Load(), okOps.Load(), refusals)
	examples.Range(func(k, v any) bool { t.Logf("  e.g. %s", v); return true })
	if n < min(rounds, 200) || okOps.Load() == 0 {
		t.Fatalf("the race did not run: %d swaps, %d successful calls", n, okOps.Load())
	}
	// The record holds nothing outside the jail.
	v, err := e.s.WorkspaceGet(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := stToJSON(t, v)
	for _, p := range stJSONPaths(g) {
		if !stInside(p, e.root) {
			t.Errorf("the record names %q, outside the jail", p)
		}
	}
}
