package watch

import (
	"context"
	"testing"

	"github.com/editord/editord/editor"
)

// A change another program makes while an agent is at work joins the
// agent's turn, flagged external, and its revert undoes it too.
func TestTurnsExternalJoinsTurnAtWork(t *testing.T) {
	e := tcNew(t)
	e.write("a.txt", "a\n")
	e.write("b.txt", "one\ntwo\n")
	e.open("b.txt") // the watcher knows its content: the external event has a patch
	twStart(t, e.s)
	twReady(t, e.s, e.root)
	agent := editor.WithCaller(context.Background(), editor.NewCaller("agent#1"))
	if r, err := e.s.Save(agent, &editor.SaveRequest{Path: "a.txt", Content: "a agent\n", Force: true}); err != nil || !r.Saved {
		t.Fatalf("save: %+v %v", r, err)
	}
	cur := twCursor(t, e.s)
	twWriteRaw(t, e.abs("b.txt"), "one\ntwo\nthree by sed\n")
	evs := twWait(t, e.s, cur, "modified b.txt")
	ev := twFind(t, evs, "modified", "b.txt")
	h, err := e.s.History(context.Background(), &editor.HistoryRequest{By: "agent#1"})
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Turns) != 1 || ev.Turn != h.Turns[0].Turn || ev.By != "external" || !h.Turns[0].External {
		t.Fatalf("external event %+v, agent's turns %+v", ev, h.Turns)
	}
	d, err := e.s.History(context.Background(), &editor.HistoryRequest{Turn: ev.Turn})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Files) != 2 || !d.Files[1].External || d.Files[1].Path != "b.txt" {
		t.Fatalf("detail: %+v", d.Files)
	}
	person := editor.WithCaller(context.Background(), editor.NewCaller("person#2"))
	if _, err := e.s.Revert(person, &editor.RevertRequest{Turn: ev.Turn}); err != nil {
		t.Fatal(err)
	}
	if e.read("a.txt") != "a\n" || e.read("b.txt") != "one\ntwo\n" {
		t.Fatalf("after revert: %q %q", e.read("a.txt"), e.read("b.txt"))
	}
}
