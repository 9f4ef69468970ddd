package pagetest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// An agent's editor_edit (another process) to text visible in a tab that
// holds the person's unsaved edits, to the edited text on screen, merged
// into theirs (make bench-page): p50 and p99 over 100 edits, and the call
// alone beside them (the rest is delivery: the journal, the HTTP server's
// notification, the page's rebase and paint).
func BenchmarkPageAgentEditToDirtyTab(b *testing.B) {
	lines := []string{"the person types here: "}
	for i := range 30 {
		lines = append(lines, fmt.Sprintf("line %02d of a file both are working on", i))
	}
	e := newEnv(b, map[string]string{"both.txt": strings.Join(lines, "\n") + "\n"}, opts{})
	a := e.agent("bench-agent")
	a.call("editor_open", map[string]any{"path": "both.txt"})
	e.click("tab", "both.txt")
	e.waitEditor("line 29", "both.txt")
	e.focusEditor()
	e.typeText("unsaved")
	waitFor(b, "the person's draft", func() bool { return a.dirty("both.txt") })
	e.js(waitTextJS, nil)
	e.watchDialogs()
	const edits = 100
	var lat, calls []time.Duration
	old := "line 20 of a file both are working on"
	for b.Loop() {
		lat = lat[:0]
		for i := range edits {
			marker := fmt.Sprintf("agent-%d-%d", time.Now().UnixNano(), i)
			done := make(chan error, 1)
			t0 := time.Now()
			go func(old string) {
				_, err := a.try("editor_edit", map[string]any{"path": "both.txt", "edits": []map[string]any{{"old_text": old, "new_text": marker}}})
				calls = append(calls, time.Since(t0))
				done <- err
			}(old)
			var ok bool
			e.run(chromedp.Evaluate(fmt.Sprintf(`window.__waitText(%q)`, marker), &ok, awaitPromise))
			lat = append(lat, time.Since(t0))
			if err := <-done; err != nil {
				b.Fatal(err)
			}
			old = marker
		}
	}
	var text string
	e.js(`[...document.querySelectorAll("#editor-pane .cm-line")].map(l => l.textContent).join("\n")`, &text)
	if !strings.HasPrefix(text, "unsaved") || !strings.Contains(text, old) {
		b.Fatalf("the person's edits or the agent's last edit are not on screen:\n%s", text)
	}
	e.noDialogs()
	b.ReportMetric(ms(percentile(lat, 0.5)), "p50-ms")
	b.ReportMetric(ms(percentile(lat, 0.99)), "p99-ms")
	b.Logf("agent edit -> text in a dirty tab over %d edits: p50 %.1f ms, p99 %.1f ms, max %.1f ms (the editor_edit call alone: p50 %.1f ms, p99 %.1f ms)",
		edits, ms(percentile(lat, 0.5)), ms(percentile(lat, 0.99)), ms(percentile(lat, 1)), ms(percentile(calls, 0.5)), ms(percentile(calls, 0.99)))
}
