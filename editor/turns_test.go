package editor

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// tnCtx is a call context of the writer by.
func tnCtx(by string) context.Context {
	return WithCaller(context.Background(), NewCaller(by))
}

// tnSave saves content at rel as by, guarded by the version on disk.
func (e *tcEnv) tnSave(by, rel, content string) *SaveResponse {
	e.t.Helper()
	req := &SaveRequest{Path: rel, Content: content}
	if e.exists(rel) {
		v := Version([]byte(e.read(rel)))
		req.ExpectedVersion = &v
	}
	r, err := e.s.Save(tnCtx(by), req)
	if err != nil || !r.Saved {
		e.t.Fatalf("save %s as %s: %v %+v", rel, by, err, r)
	}
	return r
}

func (e *tcEnv) tnHistory(req *HistoryRequest) *HistoryResponse {
	e.t.Helper()
	r, err := e.s.History(context.Background(), req)
	if err != nil {
		e.t.Fatalf("history %+v: %v", req, err)
	}
	return r
}

func (e *tcEnv) tnRevert(by string, req *RevertRequest) *RevertResponse {
	e.t.Helper()
	r, err := e.s.Revert(tnCtx(by), req)
	if err != nil {
		e.t.Fatalf("revert %+v: %v", req, err)
	}
	return r
}

// Every change event names its turn; one writer's changes within the idle
// gap share one, another writer's are another.
func TestTurnsEventsCarryTurns(t *testing.T) {
	e := tcNew(t)
	e.tnSave("agent#1", "a.txt", "one\n")
	e.tnSave("agent#1", "b.txt", "two\n")
	e.tnSave("person#2", "c.txt", "three\n")
	ch, err := e.s.Changes(context.Background(), &ChangesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ch.Changes) != 3 {
		t.Fatalf("events: %+v", ch.Changes)
	}
	a, b, c := ch.Changes[0].Turn, ch.Changes[1].Turn, ch.Changes[2].Turn
	if a == "" || a != b || c == a || c == "" {
		t.Fatalf("turns %q %q %q: want the agent's two in one, the person's in another", a, b, c)
	}
	h := e.tnHistory(&HistoryRequest{})
	if len(h.Turns) != 2 || h.Turns[0].Turn != c || h.Turns[1].Turn != a || h.Turns[1].Files != 2 {
		t.Fatalf("history: %+v", h.Turns)
	}
	if h := e.tnHistory(&HistoryRequest{By: "agent"}); len(h.Turns) != 1 || h.Turns[0].By != "agent#1" {
		t.Fatalf("history by agent: %+v", h.Turns)
	}
}

// An idle gap and an explicit begin both start a new turn.
func TestTurnsBoundaries(t *testing.T) {
	e := tcNew(t, func(c *Config) { c.Turns.IdleMS = 60_000 })
	clock := int64(1_000_000)
	e.s.turns.Now = func() time.Time { return time.UnixMilli(clock) }
	e.tnSave("agent#1", "a.txt", "1\n")
	clock += 59_000
	e.tnSave("agent#1", "a.txt", "2\n")
	clock += 61_000
	e.tnSave("agent#1", "a.txt", "3\n")
	if _, err := e.s.Turn(tnCtx("agent#1"), &TurnRequest{Action: "begin", Title: "fix it"}); err != nil {
		t.Fatal(err)
	}
	e.tnSave("agent#1", "a.txt", "4\n")
	h := e.tnHistory(&HistoryRequest{})
	if len(h.Turns) != 3 || h.Turns[0].Title != "fix it" || !h.Turns[0].Explicit || h.Turns[1].Changes != 1 || h.Turns[2].Changes != 2 {
		t.Fatalf("history: %+v", h.Turns)
	}
	r, err := e.s.Turn(tnCtx("agent#1"), &TurnRequest{Action: "end"})
	if err != nil || r.Turn == nil || r.Turn.Open {
		t.Fatalf("end: %+v %v", r, err)
	}
}

// Undo an agent's turn: its hunk goes, the person's later edit elsewhere
// in the file stays byte for byte; a hunk the person changed is refused
// with its three sides.
func TestTurnsRevertThreeWay(t *testing.T) {
	e := tcNew(t)
	base := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\nn\n"
	e.write("f.txt", base)
	agent := strings.Replace(strings.Replace(base, "b\n", "B agent\n", 1), "l\n", "L agent\n", 1)
	e.tnSave("agent#1", "f.txt", agent)
	person := strings.Replace(strings.Replace(agent, "L agent\n", "L person\n", 1), "g\n", "G person\n", 1)
	e.tnSave("person#2", "f.txt", person)
	h := e.tnHistory(&HistoryRequest{By: "agent#1", Limit: 1})
	id := h.Turns[0].Turn
	d := e.tnHistory(&HistoryRequest{Turn: id})
	if len(d.Files) != 1 || len(d.Files[0].Hunks) != 2 || d.Files[0].Hunks[0].Status != "stands" || d.Files[0].Hunks[1].Status != "changed" {
		t.Fatalf("detail: %+v", d.Files)
	}
	if got := d.Files[0].Hunks[1].ChangedBy; len(got) != 1 || got[0] != "person#2" {
		t.Fatalf("changed_by %v", got)
	}
	dry := e.tnRevert("agent#1", &RevertRequest{Turn: id, DryRun: true})
	if !strings.Contains(dry.Patch, "-B agent\n+b\n") || e.read("f.txt") != person {
		t.Fatalf("dry run: %+v", dry)
	}
	r := e.tnRevert("agent#1", &RevertRequest{Turn: id})
	want := strings.Replace(person, "B agent\n", "b\n", 1)
	if got := e.read("f.txt"); got != want {
		t.Fatalf("after revert:\n%s\nwant:\n%s", got, want)
	}
	if len(r.Refused) != 1 || r.Refused[0].Hunk != 2 || r.Refused[0].AsMade == "" || !strings.Contains(r.Refused[0].AsNow, "L person") || !strings.Contains(r.Refused[0].AsWas, "l\n") {
		t.Fatalf("refused: %+v", r.Refused)
	}
	if r.Turn == "" || len(r.Undone) != 1 || len(r.Undone[0].Hunks) != 1 || r.Undone[0].Hunks[0] != 1 {
		t.Fatalf("revert: %+v", r)
	}
	// The revert is a turn: reverting it brings the agent's hunk back.
	e.tnRevert("person#2", &RevertRequest{Turn: r.Turn})
	if got := e.read("f.txt"); got != person {
		t.Fatalf("after reverting the revert:\n%s\nwant:\n%s", got, person)
	}
	d = e.tnHistory(&HistoryRequest{Turn: id})
	if d.Turns[0].RevertedIn[0] != r.Turn {
		t.Fatalf("reverted_in: %+v", d.Turns[0])
	}
}

// Creates, deletes (bytes and mode) and moves are undone.
func TestTurnsRevertCreateDeleteMove(t *testing.T) {
	e := tcNew(t)
	e.writeMode("tool.sh", "#!/bin/sh\necho hi\n", 0o750)
	e.write("old.txt", "moved\n")
	ctx := tnCtx("agent#1")
	if _, err := e.s.Create(ctx, &CreateRequest{Path: "new.txt", Kind: "file", Content: "new\n"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.s.Delete(ctx, &DeleteRequest{Path: "tool.sh"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.s.Move(ctx, &MoveRequest{From: "old.txt", To: "sub/new-name.txt"}); err != nil {
		t.Fatal(err)
	}
	id := e.tnHistory(&HistoryRequest{Limit: 1}).Turns[0].Turn
	r := e.tnRevert("person#2", &RevertRequest{Turn: id})
	if len(r.Refused) != 0 || len(r.Undone) != 3 {
		t.Fatalf("revert: %+v", r)
	}
	if e.exists("new.txt") || e.exists("sub/new-name.txt") || e.read("old.txt") != "moved\n" || e.read("tool.sh") != "#!/bin/sh\necho hi\n" {
		t.Fatal("not undone")
	}
	fi, err := os.Stat(e.abs("tool.sh"))
	if err != nil || fi.Mode().Perm() != 0o750 {
		t.Fatalf("mode of the file brought back: %v %v", fi.Mode(), err)
	}
	// A folder deleted whole comes back file by file.
	e.write("dir/a.txt", "a\n")
	e.writeMode("dir/sub/b.key.txt", "b\n", 0o600)
	if _, err := e.s.Delete(tnCtx("agent#3"), &DeleteRequest{Path: "dir", Recursive: true}); err != nil {
		t.Fatal(err)
	}
	id = e.tnHistory(&HistoryRequest{By: "agent#3"}).Turns[0].Turn
	d := e.tnHistory(&HistoryRequest{Turn: id})
	if len(d.Files) != 2 || d.Files[0].Path != "dir/a.txt" || d.Files[1].Kind != "deleted" {
		t.Fatalf("the deleted folder's turn: %+v", d.Files)
	}
	r = e.tnRevert("person#2", &RevertRequest{Turn: id})
	if len(r.Refused) != 0 || e.read("dir/a.txt") != "a\n" || e.read("dir/sub/b.key.txt") != "b\n" {
		t.Fatalf("the folder's files after the revert: %+v", r)
	}
	if fi, err := os.Stat(e.abs("dir/sub/b.key.txt")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode of a folder's file brought back: %v %v", fi.Mode(), err)
	}
}

// A changed hunk names the writers whose changes touched it, not every
// later writer of the file; a change nobody recorded is "external".
func TestTurnsChangedByWhoTouchedIt(t *testing.T) {
	e := tcNew(t)
	var b strings.Builder
	for i := range 40 {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	base := b.String()
	e.write("f.txt", base)
	agent := strings.Replace(strings.Replace(base, "line 5\n", "line 5 agent\n", 1), "line 30\n", "line 30 agent\n", 1)
	e.tnSave("agent#1", "f.txt", agent)
	id := e.tnHistory(&HistoryRequest{}).Turns[0].Turn
	person := strings.Replace(agent, "line 5 agent\n", "line 5 person\n", 1)
	e.tnSave("person#2", "f.txt", person)
	other := strings.Replace(person, "line 18\n", "line 18 other\n", 1)
	e.tnSave("other#3", "f.txt", other)
	tcWriteFile(t, e.abs("f.txt"), strings.Replace(other, "line 30 agent\n", "line 30 sed\n", 1), 0o644)
	d := e.tnHistory(&HistoryRequest{Turn: id})
	hs := d.Files[0].Hunks
	if len(hs) != 2 || hs[0].Status != "changed" || hs[1].Status != "changed" {
		t.Fatalf("hunks: %+v", hs)
	}
	if got := strings.Join(hs[0].ChangedBy, ","); got != "person#2" {
		t.Fatalf("hunk 1 changed by %q, want person#2 alone", got)
	}
	if got := strings.Join(hs[1].ChangedBy, ","); got != "external" {
		t.Fatalf("hunk 2 changed by %q, want external (a write nobody recorded)", got)
	}
}
