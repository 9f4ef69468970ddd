package search

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/editord/editord/shell"
)

func doSearch(t *testing.T, e *Engine, root string, opt SearchOptions) *SearchResult {
	t.Helper()
	if opt.MaxMatches == 0 {
		opt.MaxMatches = 100_000
	}
	if opt.MaxFileBytes == 0 {
		opt.MaxFileBytes = 2_000_000
	}
	res, err := e.Search(context.Background(), root, opt)
	if err != nil {
		t.Fatalf("search %q: %v", opt.Pattern, err)
	}
	return res
}

// manyFiles writes n files in nested folders, each with a few hits.
func manyFiles(t *testing.T, n int) string {
	t.Helper()
	root := tempRoot(t)
	rng := rand.New(rand.NewPCG(1, 2))
	files := map[string]string{}
	for i := 0; i < n; i++ {
		var b strings.Builder
		for l := 0; l < 5+rng.IntN(40); l++ {
			if rng.IntN(7) == 0 {
				fmt.Fprintf(&b, "line %d has a needle_%d here and needle again\n", l, rng.IntN(100))
			} else {
				fmt.Fprintf(&b, "plain text %d\n", l)
			}
		}
		files[fmt.Sprintf("d%d/e%d/f%03d.txt", i%7, i%3, i)] = b.String()
	}
	writeTree(t, root, files)
	return root
}

func searchJSON(t *testing.T, e *Engine, root string, opt SearchOptions) string {
	t.Helper()
	b, err := json.Marshal(doSearch(t, e, root, opt))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestSearchDeterministic(t *testing.T) {
	root := manyFiles(t, 400)
	e := New(openJail(t, root, testDeny, testNoise))
	for _, opt := range []SearchOptions{
		{Pattern: "needle"},
		{Pattern: "needle", MaxMatches: 37},
		{Pattern: `needle_\d+`, MaxMatches: 500},
		{Pattern: "NEEDLE", MatchOptions: MatchOptions{IgnoreCase: true}, MaxMatches: 1},
	} {
		first := searchJSON(t, e, root, opt)
		if again := searchJSON(t, e, root, opt); again != first {
			t.Fatalf("%+v: two runs differ", opt)
		}
		for _, procs := range []int{1, 8, 3} {
			prev := runtime.GOMAXPROCS(procs)
			got := searchJSON(t, New(openJail(t, root, testDeny, testNoise)), root, opt)
			runtime.GOMAXPROCS(prev)
			if got != first {
				t.Fatalf("%+v: GOMAXPROCS %d gives different bytes", opt, procs)
			}
		}
	}
}

func TestSearchOrderAndEarlyStop(t *testing.T) {
	root := manyFiles(t, 300)
	e := New(openJail(t, root, testDeny, testNoise))
	full := doSearch(t, e, root, SearchOptions{Pattern: "needle"})
	if full.Truncated || full.FilesScanned != 300 {
		t.Fatalf("full search: truncated %v, scanned %d", full.Truncated, full.FilesScanned)
	}
	var flat []string
	prev := ""
	for _, f := range full.Files {
		if f.Path <= prev {
			t.Fatalf("files out of order: %q after %q", f.Path, prev)
		}
		prev = f.Path
		for k, h := range f.Hits {
			if k > 0 && h.Line <= f.Hits[k-1].Line {
				t.Fatalf("%s: hits out of line order", f.Path)
			}
			flat = append(flat, fmt.Sprintf("%s:%d", f.Path, h.Line))
		}
	}
	if full.Total != len(flat) {
		t.Fatalf("total %d, %d hits listed", full.Total, len(flat))
	}
	for _, max := range []int{1, 5, 50, len(flat) - 1, len(flat), len(flat) + 1} {
		res := doSearch(t, e, root, SearchOptions{Pattern: "needle", MaxMatches: max})
		var got []string
		for _, f := range res.Files {
			if len(f.Hits) == 0 {
				t.Fatalf("max %d: a file without hits is listed", max)
			}
			for _, h := range f.Hits {
				got = append(got, fmt.Sprintf("%s:%d", f.Path, h.Line))
			}
		}
		want := flat[:min(max, len(flat))]
		if !reflect.DeepEqual(got, want) || res.Total != len(want) || res.Truncated != (max < len(flat)) {
			t.Fatalf("max %d: total %d truncated %v, first hits differ from the full search's", max, res.Total, res.Truncated)
		}
		if max < len(flat)/2 && res.FilesScanned >= 300 {
			t.Fatalf("max %d: scanned %d files, the search did not stop early", max, res.FilesScanned)
		}
	}
}

func TestSearchSkips(t *testing.T) {
	root := tempRoot(t)
	writeTree(t, root, map[string]string{
		"text.txt":           "needle\n",
		"binary.bin":         "\x00needle\n",
		"late-nul.txt":       strings.Repeat("x\n", 5000) + "needle\x00\n",
		"big.txt":            strings.Repeat("needle\n", 2000),
		"ignored.log":        "needle\n",
		".gitignore":         "*.log\n",
		"node_modules/a.js":  "needle\n",
		".env":               "needle\n",
		"sub/secrets/s.txt":  "needle\n",
		"sub/.hidden/ok.txt": "needle\n",
	})
	os.Symlink("text.txt", filepath.Join(root, "link.txt"))
	e := New(openJail(t, root, testDeny, testNoise))
	res := doSearch(t, e, root, SearchOptions{Pattern: "needle", MaxFileBytes: 12000})
	var got []string
	for _, f := range res.Files {
		got = append(got, f.Path)
	}
	// A file over MaxFileBytes is searched in pieces; a binary one is
	// skipped and named.
	want := []string{"big.txt", "late-nul.txt", "sub/.hidden/ok.txt", "text.txt"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("searched %q, want %q", got, want)
	}
	if len(res.Files[0].Hits) != 2000 || res.SkippedTotal != 1 || res.Skipped[0] != (Skipped{"binary.bin", SkipBinary}) {
		t.Fatalf("big.txt hits %d, skipped %d %+v", len(res.Files[0].Hits), res.SkippedTotal, res.Skipped)
	}
}

// A file that vanishes between the listing and its reading is skipped.
func TestSearchVanishedFile(t *testing.T) {
	root := manyFiles(t, 50)
	j := openJail(t, root, testDeny, testNoise)
	tree, err := j.NewFileTree(root, shell.FileTreeOptions{Gitignore: true, Noise: true})
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	files := tree.Files()
	gone := files[len(files)/2]
	if err := os.Remove(filepath.Join(root, gone.Rel)); err != nil {
		t.Fatal(err)
	}
	m, _ := Compile("needle", MatchOptions{})
	res, err := grep(context.Background(), tree, files, m, 100_000, 1<<20, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Files {
		if f.Path == gone.Rel {
			t.Fatal("a vanished file has hits")
		}
	}
	if res.FilesScanned != len(files) {
		t.Fatalf("scanned %d of %d", res.FilesScanned, len(files))
	}
}

func TestSearchCancelled(t *testing.T) {
	root := manyFiles(t, 100)
	e := New(openJail(t, root, testDeny, testNoise))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.Search(ctx, root, SearchOptions{Pattern: "needle", MaxMatches: 10, MaxFileBytes: 1 << 20}); err == nil {
		t.Fatal("a cancelled search succeeded")
	}
}

func TestSearchHitsAndGlobs(t *testing.T) {
	root := tempRoot(t)
	writeTree(t, root, map[string]string{
		"a.go":            "package a\n\nfunc Id(width int) { id := width }\n",
		"a_test.go":       "func TestId() { id() }\r\n",
		"vendor/v.go":     "id\n",
		"docs/readme.md":  "The ID is an id.\n",
		"src/deep/x/y.ts": "const id = 1; // id\n",
	})
	e := New(openJail(t, root, testDeny, testNoise))
	res := doSearch(t, e, root, SearchOptions{Pattern: "id", MatchOptions: MatchOptions{WholeWord: true, IgnoreCase: true},
		Include: []string{"*.go", "src/**/*.ts", "docs"}, Exclude: []string{"vendor", "*_test.go"}})
	b, _ := json.Marshal(res)
	want := `{"Files":[` +
		`{"Path":"a.go","Hits":[{"Line":3,"Column":6,"Text":"func Id(width int) { id := width }","Ranges":[[5,7],[21,23]]}]},` +
		`{"Path":"docs/readme.md","Hits":[{"Line":1,"Column":5,"Text":"The ID is an id.","Ranges":[[4,6],[13,15]]}]},` +
		`{"Path":"src/deep/x/y.ts","Hits":[{"Line":1,"Column":7,"Text":"const id = 1; // id","Ranges":[[6,8],[17,19]]}]}` +
		`],"Total":3,"FilesScanned":3,"Truncated":false,"Skipped":[],"SkippedTotal":0}`
	if string(b) != want {
		t.Fatalf("got  %s\nwant %s", b, want)
	}
	if _, err := e.Search(context.Background(), root, SearchOptions{Pattern: "a(", MaxMatches: 5}); shell.CodeOf(err) != shell.CodeInvalidArgument ||
		!strings.Contains(err.Error(), "missing closing )") {
		t.Fatalf("bad pattern: %v", err)
	}
}

// Search reads nothing it does not need: the literal scan must not
// allocate per line (guards the fast path).
func TestScanAllocations(t *testing.T) {
	data := bytes.Repeat([]byte("plain text without the thing we want\n"), 2000)
	m, _ := Compile("needle", MatchOptions{})
	sc := scanner{m: m}
	if n := testing.AllocsPerRun(20, func() { sc.scan(data, 100, nil) }); n > 0 {
		t.Fatalf("%v allocations scanning a file without hits", n)
	}
}
