package pagetest

// The page's own work per frame, from a Chrome trace: on a shared machine
// a frame's wall time counts every other process the scheduler ran in
// between, so a long frame does not say the page was slow. The renderer's
// main thread's CPU time (each task's thread duration, tdur) between two
// animation frames is what the page itself cost that frame.

import (
	"context"
	"encoding/json"
	"slices"
	"sync"

	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"
)

type traceEvent struct {
	Name string  `json:"name"`
	Ph   string  `json:"ph"`
	Ts   float64 `json:"ts"`   // µs
	Dur  float64 `json:"dur"`  // µs, wall
	TDur float64 `json:"tdur"` // µs, the thread's CPU
	Pid  int64   `json:"pid"`
	Tid  int64   `json:"tid"`
	Args struct {
		Name string `json:"name"`
	} `json:"args"`
}

// frameWork is the renderer main thread's work in each frame of a trace:
// CPU and wall time of the tasks it ran, in ms, frame by frame.
type frameWork struct {
	CPU, Wall []float64
}

// traceFrames runs do while Chrome traces the page's timeline, and splits
// the main thread's tasks into frames at each requestAnimationFrame.
func (e *env) traceFrames(do func()) frameWork {
	e.t.Helper()
	var (
		mu   sync.Mutex
		evs  []traceEvent
		done = make(chan struct{})
		once sync.Once
	)
	ctx, cancel := context.WithCancel(e.ctx)
	defer cancel()
	chromedp.ListenTarget(ctx, func(ev any) {
		switch x := ev.(type) {
		case *tracing.EventDataCollected:
			mu.Lock()
			for _, raw := range x.Value {
				var te traceEvent
				if json.Unmarshal(raw, &te) == nil && (te.Ph == "X" || te.Ph == "M") {
					evs = append(evs, te)
				}
			}
			mu.Unlock()
		case *tracing.EventTracingComplete:
			once.Do(func() { close(done) })
		}
	})
	e.run(chromedp.ActionFunc(func(ctx context.Context) error {
		return tracing.Start().WithTransferMode(tracing.TransferModeReportEvents).
			WithTraceConfig(&tracing.TraceConfig{IncludedCategories: []string{"devtools.timeline", "disabled-by-default-devtools.timeline", "__metadata"}}).Do(ctx)
	}))
	do()
	e.run(chromedp.ActionFunc(func(ctx context.Context) error { return tracing.End().Do(ctx) }))
	<-done
	mu.Lock()
	defer mu.Unlock()

	// The page's main thread: the renderer main thread that ran the
	// animation frames.
	mains := map[[2]int64]bool{}
	for _, x := range evs {
		if x.Ph == "M" && x.Name == "thread_name" && x.Args.Name == "CrRendererMain" {
			mains[[2]int64{x.Pid, x.Tid}] = true
		}
	}
	rafs := map[[2]int64][]float64{}
	for _, x := range evs {
		if k := [2]int64{x.Pid, x.Tid}; x.Name == "FireAnimationFrame" && mains[k] {
			rafs[k] = append(rafs[k], x.Ts)
		}
	}
	var main [2]int64
	for k, v := range rafs {
		if len(v) > len(rafs[main]) {
			main = k
		}
	}
	frames := rafs[main]
	var tasks []traceEvent
	for _, x := range evs {
		if x.Pid == main[0] && x.Tid == main[1] && x.Name == "RunTask" {
			tasks = append(tasks, x)
		}
	}
	if len(frames) < 2 || len(tasks) == 0 {
		e.t.Fatalf("the trace holds %d animation frames and %d tasks of the page's main thread", len(frames), len(tasks))
	}
	slices.Sort(frames)
	slices.SortFunc(tasks, func(a, b traceEvent) int { return int(a.Ts - b.Ts) })
	var w frameWork
	k := 0
	for i := 0; i+1 < len(frames); i++ {
		for k < len(tasks) && tasks[k].Ts < frames[i] {
			k++
		}
		cpu, wall := 0.0, 0.0
		for ; k < len(tasks) && tasks[k].Ts < frames[i+1]; k++ {
			cpu += tasks[k].TDur / 1000
			wall += tasks[k].Dur / 1000
		}
		w.CPU = append(w.CPU, cpu)
		w.Wall = append(w.Wall, wall)
	}
	return w
}
