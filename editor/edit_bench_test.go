package editor

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"
)

// BenchmarkEditOneLine1MB changes one line in the middle of a 1 MB file
// with editor::edit (lock, read, replace, diff, atomic write, journal),
// and reports the median call. The reply's bytes are reported too: the
// patch and a few fields, whatever the file's size.
//
//	go test ./editor -run '^$' -bench EditOneLine1MB -benchtime 200x
func BenchmarkEditOneLine1MB(b *testing.B) {
	e := tcNew(b)
	var sb strings.Builder
	for i := 0; sb.Len() < 1<<20; i++ {
		fmt.Fprintf(&sb, "line %06d: the quick brown fox jumps over the lazy dog, again and again\n", i)
	}
	e.write("big.txt", sb.String())
	ctx := context.Background()
	texts := [2]string{"line 007000: the quick brown fox", "line 007000: the QUICK brown fox"}
	var took []time.Duration
	var replyBytes int
	b.ResetTimer()
	for i := range b.N {
		nt := texts[(i+1)%2]
		req := &EditRequest{Path: "big.txt", Edits: []TextEdit{{OldText: texts[i%2], NewText: &nt}}}
		start := time.Now()
		r, err := e.s.Edit(ctx, req)
		took = append(took, time.Since(start))
		if err != nil || !r.Applied {
			b.Fatalf("%v %+v", err, r)
		}
		replyBytes = len(r.Patch) + len(r.Path) + len(r.Version) + 80
	}
	b.StopTimer()
	sort.Slice(took, func(i, j int) bool { return took[i] < took[j] })
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(replyBytes), "reply-bytes")
}
