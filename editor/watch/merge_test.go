package watch

import (
	"context"
	"strings"
	"testing"

	"github.com/editord/editord/editor"
)

const twMergeBase = "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\n"

// An external change an editor follows through the event's patch hands
// out its version like an open does: a save guarded by it merges.
func TestStaleSaveMergesOverAWatchedVersion(t *testing.T) {
	e := tcNew(t)
	e.write("a.txt", twMergeBase)
	e.open("a.txt")
	twStart(t, e.s)
	twReady(t, e.s, e.root)
	cur := twCursor(t, e.s)
	twWriteRaw(t, e.abs("a.txt"), strings.Replace(twMergeBase, "one", "ONE", 1))
	ev := twFind(t, twWait(t, e.s, cur, "modified a.txt"), "modified", "a.txt")
	if ev.Version == nil || ev.Patch == "" {
		t.Fatalf("%+v", ev)
	}
	// Another change the editor has not seen yet, then its save.
	twWriteRaw(t, e.abs("a.txt"), strings.Replace(strings.Replace(twMergeBase, "one", "ONE", 1), "eight", "EIGHT", 1))
	r, err := e.s.Save(context.Background(), &editor.SaveRequest{Path: "a.txt", Content: strings.Replace(strings.Replace(twMergeBase, "one", "ONE", 1), "four", "FOUR", 1), ExpectedVersion: ev.Version})
	if err != nil || !r.Merged {
		t.Fatalf("%+v %v", r, err)
	}
	if got := e.read("a.txt"); got != "ONE\ntwo\nthree\nFOUR\nfive\nsix\nseven\nEIGHT\n" {
		t.Fatalf("disk %q", got)
	}
}
