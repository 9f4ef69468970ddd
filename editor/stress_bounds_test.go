package editor

// Suite 7 of issue 6: resource bounds. A 10 GB sparse file, a file that
// grows while it is read, a folder with 200,000 entries (20,000 in the
// quick run), a 100 MB single-line file and a 1,000-level folder chain.
// Every call finishes within its limits, answering truncated or too_large
// where the whole will not fit, and allocates a bounded amount of memory
// (runtime.MemStats deltas here; cmd/editord/stress_bounds_test.go checks
// the peak RSS of the real binary).

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/editord/editord/shell"
)

// stMeasure runs fn and returns how long it took and how many bytes it
// allocated (TotalAlloc delta: an upper bound of what it held at once).
func stMeasure(fn func()) (time.Duration, uint64) {
	before := stAlloc()
	start := time.Now()
	fn()
	return time.Since(start), stAlloc() - before
}

const stMiB = 1 << 20

// goTestFileLog reports whether go test records opened files for its cache
// (it does unless caching is off, as with -count=1).
func goTestFileLog() bool {
	f := flag.Lookup("test.testlogfile")
	return f != nil && f.Value.String() != ""
}

// stBound fails unless a call stayed within its time and allocation limits.
func stBound(t *testing.T, what string, took time.Duration, alloc uint64, maxTook time.Duration, maxAlloc uint64) {
	t.Helper()
	t.Logf("%-40s %8.3fs %8.1f MiB allocated", what, took.Seconds(), float64(alloc)/stMiB)
	if took > maxTook {
		t.Errorf("%s took %v, over its limit %v", what, took, maxTook)
	}
	if alloc > maxAlloc && goTestFileLog() {
		// go test logs every file a cacheable test opens, and os.Root logs
		// each step of a path with the whole path so far: O(depth²) bytes
		// 1,000 folders down that the product never allocates.
		t.Logf("%s: allocation bound not checked: go test is logging opened files (run with -count=1)", what)
	} else if alloc > maxAlloc {
		t.Errorf("%s allocated %.1f MiB, over its bound %.1f MiB", what, float64(alloc)/stMiB, float64(maxAlloc)/stMiB)
	}
}

func TestStressBoundsSparse10GB(t *testing.T) {
	e := tcNew(t)
	ctx := context.Background()
	// Text at the start, then 10 GB of hole: open must stop at
	// max_file_bytes without reading (or allocating) the rest.
	p := e.abs("huge.log")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	head := strings.Repeat("a log line that goes on and on\n", 100_000) // 3.1 MB
	f.WriteString(head)
	if err := f.Truncate(10 << 30); err != nil {
		t.Skipf("cannot make a sparse 10 GB file here: %v", err)
	}
	f.Close()
	e.write("small.log", "a log line that fits\n")
	// A hole all the way: zeros are NUL bytes, so it is binary.
	z, _ := os.Create(e.abs("zeros.bin"))
	z.Truncate(10 << 30)
	z.Close()

	limit := e.cfg.Limits.MaxFileBytes
	var o *OpenResponse
	took, alloc := stMeasure(func() { o, err = e.s.Open(ctx, &OpenRequest{Path: "huge.log"}) })
	if err != nil {
		t.Fatal(err)
	}
	if !o.Truncated || int64(len(o.Content)) > limit || o.Size != 10<<30 || !strings.HasPrefix(head, o.Content) {
		t.Errorf("open of a 10 GB file: truncated %v, %d bytes, size %d", o.Truncated, len(o.Content), o.Size)
	}
	stBound(t, "open 10 GB sparse", took, alloc, 20*time.Second, 6*uint64(limit)+8*stMiB)

	took, alloc = stMeasure(func() { _, err = e.s.Open(ctx, &OpenRequest{Path: "zeros.bin"}) })
	tcWantCode(t, err, shell.CodeBinary)
	stBound(t, "open 10 GB of zeros", took, alloc, 20*time.Second, 6*uint64(limit)+8*stMiB)

	// Saving over it: the disk copy cannot be checked whole, so too_large,
	// after reading at most max_read_bytes.
	took, alloc = stMeasure(func() {
		_, err = e.s.Save(ctx, &SaveRequest{Path: "huge.log", Content: "x\n", ExpectedVersion: &o.Version})
	})
	tcWantCode(t, err, shell.CodeTooLarge)
	stBound(t, "save over 10 GB sparse", took, alloc, 20*time.Second, 3*uint64(e.cfg.Jail.MaxReadBytes)+8*stMiB)

	if f, ok := Lookup("editor::search"); ok {
		var resp any
		took, alloc = stMeasure(func() { resp, err = f.Call(ctx, e.s, []byte(`{"pattern": "log line", "literal": true}`)) })
		if err != nil {
			t.Fatal(err)
		}
		// Files of any size are searched (issue 12), in bounded memory and
		// time: the text head's hits are found, and the search stops at the
		// first NUL of the hole, naming the file in skipped.
		if _, raw := stToJSON(t, resp); !strings.Contains(raw, `"path":"huge.log","hits":[{"line":1,`) || !strings.Contains(raw, `"truncated":true`) {
			t.Errorf("search in a file over max_file_bytes: %.300s", raw)
		}
		stBound(t, "search in 10 GB sparse", took, alloc, 20*time.Second, 32*stMiB)
		took, alloc = stMeasure(func() { resp, err = f.Call(ctx, e.s, []byte(`{"pattern": "fits", "literal": true}`)) })
		if err != nil {
			t.Fatal(err)
		}
		if _, raw := stToJSON(t, resp); !strings.Contains(raw, `"skipped":[{"path":"huge.log","reason":"binary`) || !strings.Contains(raw, "small.log") {
			t.Errorf("search beside a file over max_file_bytes: %.300s", raw)
		}
		stBound(t, "search beside 10 GB sparse", took, alloc, 20*time.Second, 32*stMiB)
	}
	took, alloc = stMeasure(func() { _, err = e.s.Tree(ctx, &TreeRequest{}) })
	if err != nil {
		t.Fatal(err)
	}
	stBound(t, "tree beside 10 GB sparse", took, alloc, 5*time.Second, 4*stMiB)
	took, alloc = stMeasure(func() { _, err = e.s.Move(ctx, &MoveRequest{From: "huge.log", To: "moved/huge.log"}) })
	if err != nil {
		t.Fatal(err)
	}
	stBound(t, "move 10 GB sparse", took, alloc, 20*time.Second, 6*uint64(limit)+8*stMiB)
	took, alloc = stMeasure(func() { _, err = e.s.Delete(ctx, &DeleteRequest{Path: "moved/huge.log"}) })
	if err != nil {
		t.Fatal(err)
	}
	stBound(t, "delete 10 GB sparse", took, alloc, 20*time.Second, 6*uint64(limit)+8*stMiB)
}

// TestStressBoundsGrowing: a file appended to (and cut back) while it is
// opened over and over. Every open is self-consistent: the version is the
// version of the bytes returned, never more than max_file_bytes, and a
// whole (untruncated) read reports the size it read.
func TestStressBoundsGrowing(t *testing.T) {
	const limit = 256 << 10
	e := tcNew(t, func(c *Config) { c.Limits.MaxFileBytes = limit })
	ctx := context.Background()
	e.write("grow.log", "")
	p := e.abs("grow.log")
	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Go(func() {
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Error(err)
			return
		}
		defer f.Close()
		chunk := []byte(strings.Repeat("grow grow grow é\n", 1024) + "1234567") // 18 KiB
		for i := 0; !stop.Load(); i++ {
			f.Write(chunk[:len(chunk)-i%7]) // lines of every length
			if fi, _ := f.Stat(); fi.Size() > 4*limit {
				f.Truncate(0) // and shrinks
			}
		}
	})
	rounds := stN(80, 3000)
	truncated, whole, binary := 0, 0, 0
	var maxAlloc uint64
	for range rounds {
		time.Sleep(time.Millisecond) // let the file move on between opens
		var o *OpenResponse
		var err error
		_, alloc := stMeasure(func() { o, err = e.s.Open(ctx, &OpenRequest{Path: "grow.log"}) })
		maxAlloc = max(maxAlloc, alloc)
		if err != nil {
			// A read that meets a write half done can end mid-character:
			// invalid UTF-8 for that instant, so binary is a fair answer.
			if tcCode(err) == shell.CodeBinary {
				binary++
				continue
			}
			t.Fatalf("open while growing: %v", err)
		}
		if len(o.Content) > limit || o.Version != Version([]byte(o.Content)) || !utf8.ValidString(o.Content) {
			t.Fatalf("inconsistent open: %d bytes, version %s", len(o.Content), o.Version)
		}
		if o.Truncated {
			truncated++
		} else {
			whole++
			if o.Size != int64(len(o.Content)) {
				t.Fatalf("a whole read says size %d for %d bytes", o.Size, len(o.Content))
			}
		}
	}
	stop.Store(true)
	wg.Wait()
	t.Logf("%d opens while the file grew: %d whole, %d truncated, %d binary (cut mid-character); at most %.1f MiB allocated by one",
		rounds, whole, truncated, binary, float64(maxAlloc)/stMiB)
	if whole == 0 || truncated == 0 {
		t.Errorf("the opens did not meet both a whole and a truncated file")
	}
	if maxAlloc > 8*limit+2*stMiB {
		t.Errorf("one open allocated %.1f MiB for a %d KiB limit", float64(maxAlloc)/stMiB, limit>>10)
	}
}

func TestStressBoundsWideFolder(t *testing.T) {
	n := stN(20_000, 200_000)
	e := tcNew(t)
	ctx := context.Background()
	dir := e.abs("wide")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	for i := range n {
		f, err := os.OpenFile(filepath.Join(dir, fmt.Sprintf("file-%07d.txt", i)), os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		if i%1000 == 0 {
			f.WriteString("needle\n")
		}
		f.Close()
	}
	t.Logf("made %d files in %v", n, time.Since(start).Round(time.Millisecond))

	var tr *TreeResponse
	var err error
	took, alloc := stMeasure(func() { tr, err = e.s.Tree(ctx, &TreeRequest{Path: "wide", MaxDepth: 1}) })
	if err != nil {
		t.Fatal(err)
	}
	if !tr.Truncated || len(tr.Entries) > treeCap || len(tr.Entries) == 0 || tr.Entries[0].Name != "file-0000000.txt" {
		t.Errorf("tree of %d entries: truncated %v, %d entries", n, tr.Truncated, len(tr.Entries))
	}
	stBound(t, fmt.Sprintf("tree of a %d-entry folder", n), took, alloc, 30*time.Second, uint64(n)*300+16*stMiB)
	took, alloc = stMeasure(func() { tr, err = e.s.Tree(ctx, &TreeRequest{}) })
	if err != nil || !tr.Truncated {
		t.Errorf("tree of the root: %v, truncated %v", err, tr.Truncated)
	}
	stBound(t, "tree of the root above it", took, alloc, 30*time.Second, uint64(n)*300+16*stMiB)
	if f, ok := Lookup("editor::find"); ok {
		took, alloc = stMeasure(func() { _, err = f.Call(ctx, e.s, []byte(`{"query": "file-0019999"}`)) })
		if err != nil {
			t.Fatal(err)
		}
		stBound(t, "find among them", took, alloc, 30*time.Second, uint64(n)*600+32*stMiB)
	}
	if f, ok := Lookup("editor::search"); ok {
		var resp any
		took, alloc = stMeasure(func() {
			resp, err = f.Call(ctx, e.s, []byte(`{"pattern": "needle", "literal": true, "max_matches": 5}`))
		})
		if err != nil {
			t.Fatal(err)
		}
		if g, _ := stToJSON(t, resp); g.(map[string]any)["truncated"] != true {
			t.Errorf("search with max_matches 5 over %d hits: not truncated", n/1000)
		}
		stBound(t, "search among them", took, alloc, 60*time.Second, uint64(n)*600+64*stMiB)
	}
	took, alloc = stMeasure(func() { _, err = e.s.Delete(ctx, &DeleteRequest{Path: "wide", Recursive: true}) })
	if err != nil {
		t.Fatal(err)
	}
	stBound(t, "delete the folder", took, alloc, 60*time.Second, uint64(n)*300+16*stMiB)
}

func TestStressBoundsOneLine100MB(t *testing.T) {
	e := tcNew(t)
	ctx := context.Background()
	p := e.abs("one.line")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	// Two-byte characters, so the cut at max_file_bytes can fall inside
	// one; and the needle only at the very end.
	block := bytes.Repeat([]byte("é"), 512<<10) // 1 MiB
	for range 100 {
		f.Write(block)
	}
	f.WriteString("needle-at-the-end")
	f.Close()
	e.write("small.txt", "a needle\n")

	var o *OpenResponse
	took, alloc := stMeasure(func() { o, err = e.s.Open(ctx, &OpenRequest{Path: "one.line"}) })
	if err != nil {
		t.Fatal(err)
	}
	limit := e.cfg.Limits.MaxFileBytes
	if !o.Truncated || int64(len(o.Content)) > limit || !utf8.ValidString(o.Content) || o.EOL != "none" {
		t.Errorf("open of a 100 MB line: truncated %v, %d bytes, valid %v", o.Truncated, len(o.Content), utf8.ValidString(o.Content))
	}
	stBound(t, "open a 100 MB line", took, alloc, 20*time.Second, 6*uint64(limit)+8*stMiB)
	took, alloc = stMeasure(func() { _, err = e.s.Save(ctx, &SaveRequest{Path: "one.line", Content: "x", Force: true}) })
	tcWantCode(t, err, shell.CodeTooLarge)
	stBound(t, "save over a 100 MB line", took, alloc, 20*time.Second, 3*uint64(e.cfg.Jail.MaxReadBytes)+8*stMiB)
	if f, ok := Lookup("editor::search"); ok {
		var resp any
		took, alloc = stMeasure(func() { resp, err = f.Call(ctx, e.s, []byte(`{"pattern": "needle"}`)) })
		if err != nil {
			t.Fatal(err)
		}
		// Files of any size are searched (issue 12), in bounded memory: a
		// 100 MB line is more than a search holds, so the file is named in
		// skipped with the reason, never silently left out.
		if _, raw := stToJSON(t, resp); !strings.Contains(raw, `"skipped":[{"path":"one.line","reason":"a line longer than`) || !strings.Contains(raw, "small.txt") {
			t.Errorf("search beside a file over max_file_bytes: %.300s", raw)
		}
		stBound(t, "search beside a 100 MB line", took, alloc, 20*time.Second, 32*stMiB)
	}
	// Under max_file_bytes but one long line: search returns the line cut
	// to 500 bytes.
	e.write("long.line", strings.Repeat("é", 900_000)+"needle")
	if f, ok := Lookup("editor::search"); ok {
		var resp any
		took, alloc = stMeasure(func() { resp, err = f.Call(ctx, e.s, []byte(`{"pattern": "needle"}`)) })
		if err != nil {
			t.Fatal(err)
		}
		g, raw := stToJSON(t, resp)
		if g.(map[string]any)["total"] != float64(2) || len(raw) > 4096 {
			t.Errorf("search of a 1.8 MB line: %.300s (%d bytes)", raw, len(raw))
		}
		stBound(t, "search a 1.8 MB line", took, alloc, 20*time.Second, 32*stMiB)
	}
}

func TestStressBoundsDeepChain(t *testing.T) {
	const depth = 1000
	e := tcNew(t)
	ctx := context.Background()
	rel := strings.Repeat("d/", depth-1) + "d"
	if err := os.MkdirAll(e.abs(rel), 0o755); err != nil {
		t.Fatal(err)
	}
	e.write(rel+"/bottom.txt", "bottom\n")
	// Each call on a path 1,000 folders deep costs O(depth) lookups; a
	// generous limit per call catches a return of the O(depth²) resolution
	// (seconds per call, before shell.resolve kept its folder open).
	limit := 20 * time.Second
	var err error
	var o *OpenResponse
	took, alloc := stMeasure(func() { o, err = e.s.Open(ctx, &OpenRequest{Path: rel + "/bottom.txt"}) })
	if err != nil || o.Content != "bottom\n" {
		t.Fatalf("open at depth %d: %v", depth, err)
	}
	stBound(t, "open at depth 1000", took, alloc, limit, 16*stMiB)
	took, alloc = stMeasure(func() {
		_, err = e.s.Save(ctx, &SaveRequest{Path: rel + "/bottom.txt", Content: "saved\n", ExpectedVersion: &o.Version})
	})
	if err != nil || e.read(rel+"/bottom.txt") != "saved\n" {
		t.Fatalf("save at depth %d: %v", depth, err)
	}
	stBound(t, "save at depth 1000", took, alloc, limit, 16*stMiB)
	took, alloc = stMeasure(func() {
		_, err = e.s.Create(ctx, &CreateRequest{Path: rel + "/new/deeper/file.txt", Kind: "file", Content: "n\n"})
	})
	if err != nil {
		t.Fatal(err)
	}
	stBound(t, "create at depth 1000", took, alloc, limit, 16*stMiB)
	var tr *TreeResponse
	took, alloc = stMeasure(func() { tr, err = e.s.Tree(ctx, &TreeRequest{MaxDepth: depth + 5, MaxEntries: treeCap}) })
	if err != nil {
		t.Fatal(err)
	}
	levels := 0
	for ents := tr.Entries; len(ents) > 0; ents = ents[0].Children {
		levels++
	}
	if levels < depth {
		t.Errorf("tree with max_depth %d went %d levels deep", depth+5, levels)
	}
	stBound(t, "tree of the whole chain", took, alloc, 2*limit, 128*stMiB)
	took, alloc = stMeasure(func() { _, err = e.s.Tree(ctx, &TreeRequest{Path: rel, Expand: []string{rel}}) })
	if err != nil {
		t.Fatal(err)
	}
	stBound(t, "tree and expand at depth 1000", took, alloc, limit, 16*stMiB)
	took, alloc = stMeasure(func() { _, err = e.s.Move(ctx, &MoveRequest{From: "d", To: "e"}) })
	if err != nil {
		t.Fatal(err)
	}
	stBound(t, "move the top of the chain", took, alloc, limit, 16*stMiB)
	moved := "e" + strings.TrimPrefix(rel, "d")
	if b := e.buffers(e.s); len(b) != 1 || b[0] != moved+"/bottom.txt" {
		t.Errorf("the buffer at depth 1000 was not remapped: %.80v", b)
	}
	if f, ok := Lookup("editor::find"); ok {
		took, alloc = stMeasure(func() { _, err = f.Call(ctx, e.s, []byte(`{"query": "bottom"}`)) })
		if err != nil {
			t.Fatal(err)
		}
		stBound(t, "find in the chain", took, alloc, limit, 64*stMiB)
	}
	if f, ok := Lookup("editor::search"); ok {
		took, alloc = stMeasure(func() { _, err = f.Call(ctx, e.s, []byte(`{"pattern": "saved"}`)) })
		if err != nil {
			t.Fatal(err)
		}
		stBound(t, "search in the chain", took, alloc, limit, 64*stMiB)
	}
	took, alloc = stMeasure(func() { _, err = e.s.Delete(ctx, &DeleteRequest{Path: "e", Recursive: true}) })
	if err != nil {
		t.Fatal(err)
	}
	stBound(t, "delete the chain", took, alloc, limit, 64*stMiB)
	if e.exists("e") || len(e.buffers(e.s)) != 0 {
		t.Error("the chain or its buffer survived the delete")
	}
}
