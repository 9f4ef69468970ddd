package gosym

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// BenchmarkQueryCorpus indexes the Go files of the lsp bench's kubernetes
// (.bench/lsp/kubernetes, or $EDITORD_K8S) and ranks a new query per
// iteration. It reports the build's time and the index's heap; make
// bench's lsp rows measure the same through editord.
//
//	go test ./editor/gosym -run '^$' -bench QueryCorpus
func BenchmarkQueryCorpus(b *testing.B) {
	root := os.Getenv("EDITORD_K8S")
	if root == "" {
		root = filepath.Join("..", "..", ".bench", "lsp", "kubernetes")
	}
	root, err := filepath.EvalSymlinks(root)
	if err != nil {
		b.Skipf("no kubernetes corpus (%v); run BENCH_ONLY=lsp make bench once, or set EDITORD_K8S", err)
	}
	var rels []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() && rel != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "vendor" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if !d.IsDir() && Indexed(filepath.ToSlash(rel)) {
			rels = append(rels, filepath.ToSlash(rel))
		}
		return nil
	})
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	t0 := time.Now()
	x := New()
	x.SetAll(rels, func(rel string) ([]byte, bool) {
		data, err := os.ReadFile(filepath.Join(root, rel))
		return data, err == nil
	})
	x.prepared()
	build := time.Since(t0)
	runtime.GC()
	runtime.ReadMemStats(&m1)
	n := 0
	for _, f := range x.files {
		n += len(f.decls)
	}
	b.Logf("%d files, %d declarations: built in %v, heap +%.1f MiB", len(rels), n, build, float64(m1.HeapAlloc-m0.HeapAlloc)/(1<<20))
	queries := []string{"DeepHashObject", "ObjectMeta", "Reconcile", "podWorkers", "NewForConfig",
		"HandleCrash", "ListWatch", "ParseQuantity", "RESTMapper", "GetControllerOf"}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ms, total := x.Query(queries[i%len(queries)], 200)
		if i < len(queries) {
			top := ""
			if len(ms) > 0 {
				top = ms[0].Package + "." + ms[0].Name + " " + ms[0].Path
			}
			b.Logf("%s: %d matches, first %s", queries[i%len(queries)], total, top)
		}
	}
}
