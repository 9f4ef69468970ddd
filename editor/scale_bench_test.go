package editor

import (
	"context"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/editord/editord/workspace"
)

// Benchmarks of issue 12's per-buffer and per-event costs, in process (the
// side-by-side figures are in testdata/bench). Compare the sizes:
//
//	go test ./editor -run '^$' -bench 'Scale' -benchtime 200x -count 5

// benchOpenSave opens and saves one file, with others buffers already open
// and kept events already in the journal.
func benchOpenSave(b *testing.B, others, kept int) {
	e := tcNew(b, func(c *Config) { c.Limits.ChangesKept = max(kept, 1000) })
	ctx := context.Background()
	if others > 0 {
		if _, err := e.s.store.Update(ctx, func(r *workspace.Record) (bool, error) {
			ses := r.Session(e.root)
			for i := range others {
				ses.Upsert(workspace.Buffer{Path: fmt.Sprintf("other/f%05d.go", i), Version: "1-x", Language: "go"})
			}
			return true, nil
		}); err != nil {
			b.Fatal(err)
		}
	}
	if kept > 0 {
		evs := make([]workspace.Event, 0, 1000)
		patch := strings.Repeat("+line of a patch\n", 20)
		for n := 0; n < kept; n += len(evs) {
			evs = evs[:0]
			for i := range min(1000, kept-n) {
				evs = append(evs, workspace.Event{Root: e.root, Path: fmt.Sprintf("p%d.go", n+i), Kind: "modified", Cause: "editor::save", By: "bench", Patch: patch})
			}
			if _, err := e.s.store.Append(ctx, evs, e.cfg.Limits.ChangesKept); err != nil {
				b.Fatal(err)
			}
		}
	}
	e.write("a.go", "package a\n")
	b.ResetTimer()
	cpu0 := cpuTime()
	defer func() { b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/float64(b.N), "cpu-µs/op") }()
	for i := range b.N {
		o, err := e.s.Open(ctx, &OpenRequest{Path: "a.go"})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := e.s.Save(ctx, &SaveRequest{Path: "a.go", Content: fmt.Sprintf("package a\n// %d\n", i), ExpectedVersion: &o.Version}); err != nil {
			b.Fatal(err)
		}
		if _, err := e.s.Changes(ctx, &ChangesRequest{Since: fmt.Sprint(int64(kept + i))}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkScaleBuffers5(b *testing.B)    { benchOpenSave(b, 5, 0) }
func BenchmarkScaleBuffers5000(b *testing.B) { benchOpenSave(b, 5000, 0) }
func BenchmarkScaleKept0(b *testing.B)       { benchOpenSave(b, 0, 0) }
func BenchmarkScaleKept100k(b *testing.B)    { benchOpenSave(b, 0, 100_000) }

// cpuTime is the process's user and system CPU time so far: on a loaded
// machine a steadier measure of work than the wall clock.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkScaleSave1MiB: a guarded 1 MiB save, alternating two contents
// that differ in about a hundred places.
func BenchmarkScaleSave1MiB(b *testing.B) {
	e := tcNew(b)
	ctx := context.Background()
	var x, y strings.Builder
	for i := 0; x.Len() < 1<<20; i++ {
		l := fmt.Sprintf("%06d\tfunc handler%d(w http.ResponseWriter, r *http.Request) { serve(w, r, %d) }\n", i, i%977, i*7)
		x.WriteString(l)
		if i%211 == 0 {
			y.WriteString("// changed: ")
		}
		y.WriteString(l)
	}
	texts := []string{x.String(), y.String()}
	e.write("big.txt", texts[0])
	o, err := e.s.Open(ctx, &OpenRequest{Path: "big.txt"})
	if err != nil {
		b.Fatal(err)
	}
	v := o.Version
	b.ResetTimer()
	for i := range b.N {
		r, err := e.s.Save(ctx, &SaveRequest{Path: "big.txt", Content: texts[(i+1)%2], ExpectedVersion: &v})
		if err != nil || !r.Saved {
			b.Fatal(err, r)
		}
		v = r.Version
	}
}
