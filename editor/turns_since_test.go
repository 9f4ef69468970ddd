package editor

import (
	"slices"
	"testing"
	"time"
)

// "What I did in the last five minutes" (the page's undo of a person's
// recent work): history by a client's name and since a span lists that
// client's turns, all its sessions, whose last change is within the span,
// counted back from the turns' own clock; a turn begun before the span and
// still written in it is listed whole. until bounds the other end.
func TestTurnsHistorySinceSpan(t *testing.T) {
	e := tcNew(t, func(c *Config) { c.Turns.IdleMS = 60_000 })
	start := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	clock := start
	e.s.turns.Now = func() time.Time { return clock }
	at := func(min, sec int) { clock = start.Add(time.Duration(min)*time.Minute + time.Duration(sec)*time.Second) }
	save := func(by, path, content string) string {
		t.Helper()
		e.tnSave(by, path, content)
		return e.tnHistory(&HistoryRequest{By: by, Limit: 1}).Turns[0].Turn
	}
	at(0, 0)
	old := save("page#1", "a.txt", "1\n") // 10 minutes before "now"
	at(2, 0)
	save("agent#9", "b.txt", "agent\n")
	at(4, 30)
	across := save("page#1", "a.txt", "2\n") // begun before the span…
	at(5, 20)
	if again := save("page#1", "c.txt", "3\n"); again != across { // …and still written in it
		t.Fatalf("a change 50 s after the last is turn %s, not %s", again, across)
	}
	at(7, 0)
	other := save("page#2", "d.txt", "4\n") // another session of the page
	at(8, 0)
	save("agent#9", "a.txt", "agent\n")
	at(10, 0)
	if old == "" || across == "" || other == "" || old == across || across == other {
		t.Fatalf("turns %q %q %q", old, across, other)
	}
	ids := func(r *HistoryResponse) []string {
		var out []string
		for _, s := range r.Turns {
			out = append(out, s.Turn)
		}
		return out
	}
	if got := ids(e.tnHistory(&HistoryRequest{By: "page", Since: "5m"})); !slices.Equal(got, []string{other, across}) {
		t.Fatalf("the page's turns of the last 5 minutes: %v, want %v", got, []string{other, across})
	}
	if got := ids(e.tnHistory(&HistoryRequest{By: "page", Since: "15m"})); !slices.Equal(got, []string{other, across, old}) {
		t.Fatalf("the page's turns of the last 15 minutes: %v", got)
	}
	if got := ids(e.tnHistory(&HistoryRequest{By: "page#1", Since: start.Add(4 * time.Minute).Format(time.RFC3339)})); !slices.Equal(got, []string{across}) {
		t.Fatalf("session page#1 since 12:04: %v", got)
	}
	if got := ids(e.tnHistory(&HistoryRequest{By: "page", Since: "9m", Until: "4m"})); !slices.Equal(got, []string{across}) {
		t.Fatalf("the page's turns between 9 and 4 minutes ago: %v", got)
	}
	if got := ids(e.tnHistory(&HistoryRequest{By: "page", Until: "4m"})); !slices.Equal(got, []string{across, old}) {
		t.Fatalf("the page's turns begun 4 minutes ago or before: %v", got)
	}
	if _, err := e.s.History(tnCtx("x"), &HistoryRequest{Since: "five minutes"}); err == nil {
		t.Fatal("since 'five minutes' was taken")
	}
}
