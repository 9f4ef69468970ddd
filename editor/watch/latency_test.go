package watch

// How long an external write takes to become an editor::changed event, with
// the service idle and with saves of ours running meanwhile (which the
// watcher must tell apart from the external write), and how long those
// saves take. A benchmark, not a test: timing never decides a test.
//
//	go test ./editor -run '^$' -bench WatchLatency -benchtime 40x

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/editord/editord/editor"
	"github.com/editord/editord/workspace"
)

func BenchmarkWatchLatency(b *testing.B) {
	for _, savers := range []int{0, 4} {
		b.Run(fmt.Sprintf("savers=%d", savers), func(b *testing.B) {
			e := tcNew(b, func(c *editor.Config) { c.Limits.ChangesKept = 200 })
			e.write("ext.txt", "0\n")
			e.open("ext.txt")
			twStartTimed(b, e.s)
			twReady(b, e.s, e.root)

			// Our own saves, from this process and another one on the
			// state dir, without pause until the benchmark ends.
			ctx, stop := context.WithCancel(context.Background())
			var mu sync.Mutex
			var saves []time.Duration // how long each save took
			var wg sync.WaitGroup
			b.Cleanup(func() { stop(); wg.Wait() }) // before the services close
			for i := range savers {
				svc := e.s
				if i%2 == 1 {
					svc = e.service()
				}
				wg.Go(func() {
					for n := 0; ctx.Err() == nil; n++ {
						start := time.Now()
						if _, err := svc.Save(ctx, &editor.SaveRequest{Path: fmt.Sprintf("own%d.txt", i), Content: fmt.Sprintf("%d\n", n), Force: true}); err != nil && ctx.Err() == nil {
							b.Errorf("save: %v", err)
							return
						}
						mu.Lock()
						saves = append(saves, time.Since(start))
						mu.Unlock()
					}
				})
			}
			first := twCursor(b, e.s)

			lat := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := range b.N {
				cur := twCursor(b, e.s)
				want := fmt.Sprintf("%d\n", i+1)
				start := time.Now()
				twWriteRaw(b, e.abs("ext.txt"), want)
				for !twSeen(b, e.s, cur, "ext.txt", editor.Version([]byte(want))) {
					if time.Since(start) > 10*time.Second {
						b.Fatalf("write %d: no event after 10s", i)
					}
					time.Sleep(time.Millisecond)
				}
				lat = append(lat, time.Since(start))
			}
			b.StopTimer()
			stop()
			wg.Wait()

			// Every save of ours is journaled by editor::save only. A
			// last external write is decided after every change seen
			// before it, so once it is reported the journal is complete.
			end := twCursor(b, e.s)
			twWriteRaw(b, e.abs("ext.txt"), "end\n")
			for start := time.Now(); !twSeen(b, e.s, end, "ext.txt", editor.Version([]byte("end\n"))); time.Sleep(time.Millisecond) {
				if time.Since(start) > twPatience {
					b.Fatal("the last external write was never reported")
				}
			}
			for _, ev := range twSince(b, e.s, first) {
				if ev.Cause == "external" && ev.Path != "ext.txt" {
					b.Errorf("our own save reported as external: %s", twFmt([]workspace.Event{ev}))
				}
			}
			b.ReportMetric(twPct(lat, 0.5), "p50-ms")
			b.ReportMetric(twPct(lat, 0.9), "p90-ms")
			b.ReportMetric(twPct(lat, 1), "max-ms")
			if len(saves) > 0 {
				b.ReportMetric(twPct(saves, 0.5), "save-p50-ms")
				b.ReportMetric(twPct(saves, 0.99), "save-p99-ms")
				b.ReportMetric(twPct(saves, 1), "save-max-ms")
			}
			b.ReportMetric(0, "ns/op")
		})
	}
}

// twSeen reports whether an external event for rel with version v came
// after cursor.
func twSeen(t testing.TB, s *svc, cursor, rel, v string) bool {
	for _, ev := range twSince(t, s, cursor) {
		if ev.Path == rel && ev.Cause == "external" && ev.Version != nil && *ev.Version == v {
			return true
		}
	}
	return false
}

// twPct is the p-th percentile of ds (sorted in place), in milliseconds.
func twPct(ds []time.Duration, p float64) float64 {
	slices.Sort(ds)
	return float64(ds[int(p*float64(len(ds)-1))]) / float64(time.Millisecond)
}
