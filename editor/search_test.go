package editor

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/editord/editord/shell"
)

func TestSearchFunction(t *testing.T) {
	s, root := fsService(t, map[string]string{
		"a.txt":             "alpha\nTODO: one\n",
		"a/b.txt":           "TODO two\r\nnothing\n",
		"a-b.txt":           "x TODO y TODO\n",
		".gitignore":        "ignored/\n",
		"ignored/x.txt":     "TODO\n",
		"node_modules/m.js": "TODO\n",
		".env":              "TODO secret\n",
		"bin.dat":           "\x00TODO\n",
		"vendor/v.go":       "TODO\n",
	})
	ctx := context.Background()
	r, err := s.Search(ctx, &SearchRequest{Pattern: "TODO", ExcludeGlob: []string{"vendor"}})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(r)
	want := `{"files":[` +
		`{"path":"a-b.txt","hits":[{"line":1,"column":3,"text":"x TODO y TODO","ranges":[[2,6],[9,13]]}]},` +
		`{"path":"a.txt","hits":[{"line":2,"column":1,"text":"TODO: one","ranges":[[0,4]]}]},` +
		`{"path":"a/b.txt","hits":[{"line":1,"column":1,"text":"TODO two","ranges":[[0,4]]}]}` +
		`],"total":3,"files_scanned":5,"truncated":false,"root":"` + s.start + `","skipped":[{"path":"bin.dat","reason":"binary: a NUL byte"}],"skipped_total":1}`
	if string(b) != want {
		t.Fatalf("got  %s\nwant %s", b, want)
	}

	raw, err := fsCall(t, s, "editor::search", `{"pattern": "todo|alpha", "ignore_case": true, "include_glob": ["a.txt"], "max_matches": 1}`)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"files":[{"path":"a.txt","hits":[{"line":1,"column":1,"text":"alpha","ranges":[[0,5]]}]}],"total":1,"files_scanned":1,"truncated":true,"root":"` + s.start + `","skipped":[],"skipped_total":0}`; string(raw) != want {
		t.Fatalf("through the catalog:\n got %s\nwant %s", raw, want)
	}
	for _, tc := range []struct{ args, want string }{
		{`{"pattern": "a("}`, "missing closing )"},
		{`{"pattern": ""}`, "empty"},
		{`{"pattern": "a", "max_matches": -2}`, "max_matches"},
		{`{"pattern": "a", "exclude_glob": ["!x"]}`, "include_glob"},
		{`{}`, "pattern"},
	} {
		if _, err := fsCall(t, s, "editor::search", tc.args); shell.CodeOf(err) != shell.CodeInvalidArgument || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want invalid_argument about %q", tc.args, err, tc.want)
		}
	}
	_ = root
}

// The same search gives the same bytes, whatever the number of cores.
func TestSearchFunctionDeterministic(t *testing.T) {
	files := map[string]string{}
	for i := 0; i < 120; i++ {
		files[fmt.Sprintf("d%d/f%03d.txt", i%5, i)] = strings.Repeat(fmt.Sprintf("needle %d\nhay\n", i), 1+i%4)
	}
	s, _ := fsService(t, files)
	var first string
	for _, procs := range []int{1, 8, 2} {
		prev := runtime.GOMAXPROCS(procs)
		raw, err := fsCall(t, s, "editor::search", `{"pattern": "needle \\d+", "max_matches": 77}`)
		runtime.GOMAXPROCS(prev)
		if err != nil {
			t.Fatal(err)
		}
		if first == "" {
			first = string(raw)
		} else if string(raw) != first {
			t.Fatalf("GOMAXPROCS %d gives different bytes", procs)
		}
	}
	var r SearchResponse
	json.Unmarshal([]byte(first), &r)
	if r.Total != 77 || !r.Truncated || r.FilesScanned >= 120 {
		t.Fatalf("total %d truncated %v scanned %d", r.Total, r.Truncated, r.FilesScanned)
	}
}

// Files over max_file_bytes are searched too, in pieces (issue 12; they
// used to be skipped silently).
func TestSearchLargeFilesToo(t *testing.T) {
	s, root := fsService(t, map[string]string{"small.txt": "needle\n"}, func(c *Config) { c.Limits.MaxFileBytes = 100 })
	os.WriteFile(filepath.Join(root, "large.txt"), []byte(strings.Repeat("needle\n", 100)), 0o644)
	r, err := s.Search(context.Background(), &SearchRequest{Pattern: "needle"})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Files) != 2 || r.Files[0].Path != "large.txt" || len(r.Files[0].Hits) != 100 || r.SkippedTotal != 0 {
		t.Fatalf("%+v", r.Files)
	}
}

// TestSearchOutputModes: output files lists matching files (rg -l), count
// counts matching lines per file (rg -c), context_lines adds the lines
// around each hit (rg -C) without repeating hits.
func TestSearchOutputModes(t *testing.T) {
	s, _ := fsService(t, map[string]string{
		"a.txt": "x\nhit 1\ny\nz\nhit 2\nw\n",
		"b.txt": "hit\r\nafter\r\n",
		"c.txt": "nothing\n",
	})
	ctx := context.Background()
	r, err := s.Search(ctx, &SearchRequest{Pattern: "hit", Output: "files"})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Files) != 2 || r.Files[0].Path != "a.txt" || len(r.Files[0].Hits) != 0 || r.Total != 2 || r.Truncated {
		t.Fatalf("files: %+v", r)
	}
	r, _ = s.Search(ctx, &SearchRequest{Pattern: "hit", Output: "files", MaxMatches: 1})
	if len(r.Files) != 1 || !r.Truncated {
		t.Fatalf("files, max 1: %+v", r)
	}
	r, _ = s.Search(ctx, &SearchRequest{Pattern: "hit", Output: "count"})
	if len(r.Files) != 2 || r.Files[0].Count != 2 || r.Files[1].Count != 1 || r.Total != 3 {
		t.Fatalf("count: %+v", r)
	}
	r, _ = s.Search(ctx, &SearchRequest{Pattern: "hit", ContextLines: 1})
	got := fmt.Sprint(r.Files[0].Context, r.Files[1].Context)
	if want := "[{1 x} {3 y} {4 z} {6 w}] [{2 after}]"; got != want {
		t.Fatalf("context: %s, want %s", got, want)
	}
	if _, err := s.Search(ctx, &SearchRequest{Pattern: "hit", Output: "json"}); shell.CodeOf(err) != shell.CodeInvalidArgument {
		t.Fatalf("output json: %v", err)
	}
}

// TestSearchContextOfLargeFiles: context_lines comes with the hits of a
// file over max_file_bytes and over max_read_bytes too (the search reads
// them in pieces; context used to be left out), CRLF and long lines cut as
// hits are.
func TestSearchContextOfLargeFiles(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 5000; i++ {
		switch i {
		case 4000:
			b.WriteString("needle\r\n")
		case 3999:
			b.WriteString(strings.Repeat("é", 400) + "\r\n") // 800 bytes: cut to 500 on a UTF-8 boundary
		default:
			fmt.Fprintf(&b, "line %d\r\n", i)
		}
	}
	b.WriteString("needle at the end")
	s, _ := fsService(t, map[string]string{"big.txt": b.String(), "small.txt": "a\nneedle\nb\n"}, func(c *Config) {
		c.Limits.MaxFileBytes = 1000
		c.Jail.MaxReadBytes = 10_000
	})
	r, err := s.Search(context.Background(), &SearchRequest{Pattern: "needle", ContextLines: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Files) != 2 || r.Files[0].Path != "big.txt" {
		t.Fatalf("%+v", r)
	}
	got := fmt.Sprint(r.Files[0].Context)
	want := fmt.Sprintf("[{3998 line 3998} {3999 %s} {4001 line 4001} {4002 line 4002} {4999 line 4999} {5000 line 5000}]", strings.Repeat("é", 250))
	if got != want {
		t.Fatalf("context of the large file:\n%s\nwant\n%s", got, want)
	}
	if got := fmt.Sprint(r.Files[1].Context); got != "[{1 a} {3 b}]" {
		t.Fatalf("context of the small file: %s", got)
	}
}
