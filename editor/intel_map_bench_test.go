package editor

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/editord/editord/editor/lsp"
)

// BenchmarkSymbolAnswerMapping maps a workspace symbol answer on the
// kubernetes corpus of the lsp bench (testdata/k8s_symbol_answer.tsv: 100
// definitions in 100 files, from a 2 KB file to the 4 MB generated
// openapi one, as gopls answers a query such as "ObjectMeta"): decoding
// the answer as the connection does, then each location to editord's
// line and column. It is editord's own share of a new query; gopls's
// search is the rest.
//
//	EDITORD_K8S=/path/to/kubernetes go test ./editor -run '^$' -bench SymbolAnswerMapping
func BenchmarkSymbolAnswerMapping(b *testing.B) {
	root := os.Getenv("EDITORD_K8S")
	if root == "" {
		root = filepath.Join(lspRepo(b), ".bench", "lsp", "kubernetes")
	}
	root, err := filepath.EvalSymlinks(root)
	if err != nil {
		b.Skipf("no kubernetes corpus (%v); run BENCH_ONLY=lsp make bench once, or set EDITORD_K8S", err)
	}
	data, err := os.ReadFile(filepath.Join("testdata", "k8s_symbol_answer.tsv"))
	if err != nil {
		b.Fatal(err)
	}
	var raw []map[string]any
	for _, ln := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		f := strings.Split(ln, "\t")
		line, _ := strconv.Atoi(f[1])
		char, _ := strconv.Atoi(f[2])
		r := lsp.Range{Start: lsp.Position{Line: line, Character: char}, End: lsp.Position{Line: line, Character: char + len(f[3])}}
		raw = append(raw, map[string]any{"name": f[3], "kind": 12, "containerName": filepath.Dir(f[0]),
			"location": lsp.Location{URI: lsp.URI(filepath.Join(root, f[0])), Range: r}})
	}
	answer, err := json.Marshal(raw)
	if err != nil {
		b.Fatal(err)
	}
	s, err := New(DefaultConfig(), Options{Root: root, StateDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	srv := &lsp.Server{}
	// first: files no answer pointed into before (the line cache emptied
	// each time); again: files an earlier answer pointed into, unchanged.
	for _, again := range []bool{false, true} {
		b.Run(map[bool]string{false: "first", true: "again"}[again], func(b *testing.B) {
			for range b.N {
				if !again {
					s.lines = lineCache{}
				}
				var got []lsp.SymbolInformation
				if err := json.Unmarshal(answer, &got); err != nil {
					b.Fatal(err)
				}
				a := s.texts(srv, root).symbols(got)
				if len(a.symbols) != len(raw) || a.outside != 0 {
					b.Fatalf("mapped %d of %d (%d outside)", len(a.symbols), len(raw), a.outside)
				}
			}
		})
	}
}
