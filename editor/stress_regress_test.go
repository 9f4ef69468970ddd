package editor

// Regression tests for the product bugs the stress suites of issue 6 found
// below the editor (in shell), kept here with the suites that found them.

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/editord/editord/shell"
)

// A write whose folder is a FIFO used to block forever: os.Root.OpenRoot
// opens its last component without O_DIRECTORY, and opening a FIFO for
// reading waits for a writer. Found by the jail fuzzer ("fifo/x").
func TestStressRegressWriteUnderFIFO(t *testing.T) {
	e := tcNew(t)
	if err := syscall.Mkfifo(e.abs("fifo"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	ctx := context.Background()
	done := make(chan error, 4)
	go func() {
		_, err := e.s.jail.WriteFile(e.abs("fifo/x"), []byte("x"), shell.WriteOptions{})
		done <- err
	}()
	go func() {
		_, err := e.s.Create(ctx, &CreateRequest{Path: "fifo/x", Kind: "file"})
		done <- err
	}()
	go func() {
		_, err := e.s.Save(ctx, &SaveRequest{Path: "fifo/x/y", Content: "x"})
		done <- err
	}()
	go func() {
		_, err := e.s.Tree(ctx, &TreeRequest{Path: "fifo"})
		done <- err
	}()
	for range 4 {
		select {
		case err := <-done:
			if c := tcCode(err); c != shell.CodeNotADirectory && c != shell.CodeExists && c != shell.CodeInvalidArgument {
				t.Errorf("a path under a FIFO: %v (%s)", err, c)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("a call on a path under a FIFO blocked")
		}
	}
}

// Patterns.Excludes now feeds anchored rules one segment at a time instead
// of matching every ancestor from scratch (O(n) instead of O(n²) for a path
// n folders deep). It must still agree with the definition: rel is
// excluded when it or any folder above it is excluded by Decide.
func TestStressRegressExcludesAgreesWithDecide(t *testing.T) {
	pool := []string{"a", "b", "secrets", "x.env", ".env", "node_modules", "ab", "é"}
	pats := []string{"*", "**", "a", "b/", "/a", "a/b", "a/**", "**/a", "**/secrets/**", "a/**/b", "**/**", "a*", "!a", "!b/",
		"!**/b", "*.env", "!x.env", "/a/*", "a/*/b", "**/b/**", "\\!a", "a?", "[ab]", "/**", "**/", "secrets"}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		var lines []string
		for range 1 + rng.IntN(5) {
			lines = append(lines, pats[rng.IntN(len(pats))])
		}
		p := shell.ParsePatterns(lines)
		var segs []string
		for range 1 + rng.IntN(7) {
			segs = append(segs, pool[rng.IntN(len(pool))])
		}
		rel := strings.Join(segs, "/")
		isDir := rng.IntN(2) == 0
		want := false
		for i := 1; i <= len(segs) && !want; i++ {
			d := isDir || i < len(segs)
			if m, ex := p.Decide(strings.Join(segs[:i], "/"), d); m && ex {
				want = true
			}
		}
		if got := p.Excludes(rel, isDir); got != want {
			t.Fatalf("patterns %q, path %q (dir %v): Excludes %v, by definition %v", lines, rel, isDir, got, want)
		}
	}
}

// A symlink swapped for a folder between lstat and readlink used to come
// back as "invalid path: readlinkat: invalid argument" (invalid_argument);
// shell.resolve now looks again. TestStressSymlinkRace runs the race; this
// checks the plain case of a deep path through links still resolves.
func TestStressRegressDeepLinkedPath(t *testing.T) {
	e := tcNew(t)
	e.write("real/f.txt", "f\n")
	rel := "real"
	for i := range 30 {
		name := "l" + strings.Repeat("x", i)
		e.symlink(rel, name)
		rel = name
	}
	o, err := e.s.Open(context.Background(), &OpenRequest{Path: rel + "/f.txt"})
	if err != nil || o.Content != "f\n" {
		t.Fatalf("open through 30 links: %v", err)
	}
	if _, err := os.Stat(filepath.Join(e.root, rel, "f.txt")); err != nil {
		t.Fatal(err)
	}
}

// A forced save whose file another writer keeps changing between the
// last check and the rename used to give up with the bare error "the file
// changed while saving" (internal to a client) after its retries. Found by
// the long symlink race. It is a conflict now, and nothing is clobbered.
func TestStressRegressSlippedInEveryTime(t *testing.T) {
	e := tcNew(t)
	e.write("f.txt", "v0\n")
	n := 0
	slippedInHook = func() {
		n++
		tcWriteFile(t, e.abs("f.txt"), fmt.Sprintf("other writer %d\n", n), 0o644)
	}
	defer func() { slippedInHook = nil }()
	r, err := e.s.Save(context.Background(), &SaveRequest{Path: "f.txt", Content: "ours\n", Force: true})
	if err != nil {
		t.Fatalf("a save that keeps being overtaken: %v (code %s), want a conflict", err, tcCode(err))
	}
	if !r.Conflict || r.Saved || r.DiskVersion == nil || *r.DiskVersion != Version([]byte(e.read("f.txt"))) {
		t.Fatalf("want a conflict against the disk: %+v", r)
	}
	if got := e.read("f.txt"); got == "ours\n" {
		t.Fatal("clobbered")
	}
	if n < 2 {
		t.Fatalf("the hook ran %d times", n)
	}
}
