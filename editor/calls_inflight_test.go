package editor

import (
	"context"
	"encoding/json"
	"testing"
	"time"
)

// Background work that stops for a call (a status warmed at start) ends
// when the next call begins, and at once when one is in progress.
func TestUntilACallEndsWhenACallBegins(t *testing.T) {
	e := tcNew(t)
	ctx, cancel := e.s.untilACall(context.Background())
	defer cancel()
	select {
	case <-ctx.Done():
		t.Fatal("ended with no call")
	case <-time.After(50 * time.Millisecond):
	}
	f, _ := Lookup("editor::workspace::get")
	if _, err := f.Call(context.Background(), e.s, json.RawMessage(`{}`)); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("a call began and the background work was not told to stop")
	}
	e.s.calls.begin()
	defer e.s.calls.end()
	late, cancel2 := e.s.untilACall(context.Background())
	defer cancel2()
	if late.Err() == nil {
		t.Fatal("begun while a call was in progress, and not ended")
	}
}

// A status whose context ended (the warmed status a call interrupts) is
// an error, never a result from a walk cut short; the next one is whole.
// gitops' TestScanWorktreeStopsWhenItsContextEnds checks the walk stops.
func TestGitStatusStopsWhenItsContextEnds(t *testing.T) {
	e := tcNew(t)
	for i := range 50 {
		e.write("d/"+string(rune('a'+i%26))+"/f.txt", "x\n")
	}
	fsGit(t, e.root, "init", "-q")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.s.GitStatus(ctx, &GitStatusRequest{}); err == nil {
		t.Fatal("a status with its context ended finished anyway")
	}
	if _, err := e.s.GitStatus(context.Background(), &GitStatusRequest{}); err != nil {
		t.Fatal(err)
	}
}
