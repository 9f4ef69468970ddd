package editor

// Issue 19 item 6: every change of every writer reaches the journal, with
// its patch, in order. The watcher keeps the content of open buffers and
// follows our own writes' patches; a write of ours to a file changed a
// moment ago by another program waits until that change is journaled
// (external_order.go).

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/editord/editord/diff"
	"github.com/editord/editord/workspace"
)

// twEventsOf is the journal's events for p, oldest first.
func twEventsOf(t testing.TB, s *Service, root, p string) []workspace.Event {
	t.Helper()
	page, err := s.store.Read(workspace.Query{Root: root, Path: p})
	if err != nil {
		t.Fatal(err)
	}
	var out []workspace.Event
	for _, ev := range page.Events {
		if ev.Path == p {
			out = append(out, ev)
		}
	}
	return out
}

// twAwaitJournaled waits until the journal's last event for p has the
// version of p's content on disk.
func twAwaitJournaled(t testing.TB, e *tcEnv, p string) []workspace.Event {
	t.Helper()
	want := Version([]byte(e.read(p)))
	deadline := time.Now().Add(twPatience)
	for {
		evs := twEventsOf(t, e.s, e.root, p)
		if n := len(evs); n > 0 && evs[n-1].Version != nil && *evs[n-1].Version == want {
			return evs
		}
		if time.Now().After(deadline) {
			t.Fatalf("the journal never reached %s's content on disk (%s); its events:\n%s", p, want, twDescribe(evs))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// twAwaitHeld waits until the watcher holds p's content.
func twAwaitHeld(t testing.TB, s *Service, p string) {
	t.Helper()
	deadline := time.Now().Add(twPatience)
	for !s.watchHolds(p) {
		if time.Now().After(deadline) {
			t.Fatalf("the watcher never held the content of the open buffer %s", p)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func twDescribe(evs []workspace.Event) string {
	var b strings.Builder
	for _, ev := range evs {
		v := "-"
		if ev.Version != nil {
			v = *ev.Version
		}
		fmt.Fprintf(&b, "  seq %d %s %s %s %s +%d -%d patch %d bytes truncated %v\n", ev.Seq, ev.By, ev.Kind, ev.Path, v, ev.Added, ev.Removed, len(ev.Patch), ev.Truncated)
	}
	return b.String()
}

// twReplay applies the events' patches to from, in order, and checks each
// lands on its event's version.
func twReplay(evs []workspace.Event, from string) (string, error) {
	cur := from
	for _, ev := range evs {
		if ev.Truncated || ev.Version == nil || (ev.Patch == "" && ev.Kind != "created") {
			return "", fmt.Errorf("seq %d (%s %s by %s) carries no whole patch", ev.Seq, ev.Kind, ev.Path, ev.By)
		}
		next, err := diff.Apply(cur, ev.Patch)
		if err != nil {
			return "", fmt.Errorf("seq %d (%s by %s) does not apply to the content before it: %v", ev.Seq, ev.Kind, ev.By, err)
		}
		if Version([]byte(next)) != *ev.Version {
			return "", fmt.Errorf("seq %d (%s by %s) gives %s, its event says %s", ev.Seq, ev.Kind, ev.By, Version([]byte(next)), *ev.Version)
		}
		cur = next
	}
	return cur, nil
}

// sed -i on an open buffer, seen by a watcher that started after an
// earlier external change to it (another process, or a root switched
// back): the record still has the version the buffer was opened at, and
// the watcher did not keep the file, so the change was journaled as
// "external modified +0 -0" with no patch.
func TestWatchSedOnOpenBufferAfterRestartHasPatch(t *testing.T) {
	if _, err := exec.LookPath("sed"); err != nil {
		t.Skip("no sed")
	}
	e := tcNew(t)
	e.write("f.txt", "one\ntwo\nthree\n")
	e.open("f.txt")
	stop := twStartTimed(t, e.s)
	twAwaitHeld(t, e.s, "f.txt")
	sed := func(expr string) {
		t.Helper()
		if out, err := exec.Command("sed", "-i", expr, e.abs("f.txt")).CombinedOutput(); err != nil {
			t.Fatalf("sed: %v %s", err, out)
		}
	}
	sed("s/two/TWO/")
	twAwaitJournaled(t, e, "f.txt")
	stop()

	// Another process takes the watcher over.
	s2 := e.service()
	twStartTimed(t, s2)
	twAwaitHeld(t, s2, "f.txt")
	sed("s/three/THREE/")
	evs := twAwaitJournaled(t, e, "f.txt")
	last := evs[len(evs)-1]
	if last.Cause != "external" || last.Added != 1 || last.Removed != 1 || !strings.Contains(last.Patch, "+THREE") {
		t.Fatalf("sed on an open buffer after the watcher restarted: %s", twDescribe(evs))
	}
	if got, err := twReplay(evs, "one\ntwo\nthree\n"); err != nil || got != e.read("f.txt") {
		t.Fatalf("replay: %q, %v\n%s", got, err, twDescribe(evs))
	}
}

// A program writes an open buffer and an agent's guarded save (against
// the version it now reads) follows within a millisecond: the watcher saw
// both in one batch, and the external change never reached the journal.
func TestWatchExternalThenGuardedSaveBothJournaled(t *testing.T) {
	e := tcNew(t)
	ctx := context.Background()
	if _, err := e.s.Save(ctx, &SaveRequest{Path: "f.txt", Content: "a\nb\nc\n"}); err != nil {
		t.Fatal(err)
	}
	twStartTimed(t, e.s)
	twAwaitHeld(t, e.s, "f.txt")
	ext := "a\nB (external)\nc\n"
	e.write("f.txt", ext)
	res, err := e.s.Save(ctx, &SaveRequest{Path: "f.txt", Content: ext + "d (agent)\n", ExpectedVersion: tcPtr(Version([]byte(ext)))})
	if err != nil || !res.Saved {
		t.Fatalf("guarded save: %+v, %v", res, err)
	}
	evs := twAwaitJournaled(t, e, "f.txt")
	if len(evs) != 3 || evs[1].Cause != "external" || !strings.Contains(evs[1].Patch, "+B (external)") || evs[2].Cause != "editor::save" {
		t.Fatalf("want created, external, save in that order:\n%s", twDescribe(evs))
	}
	if got, err := twReplay(evs, ""); err != nil || got != e.read("f.txt") {
		t.Fatalf("replay: %q, %v\n%s", got, err, twDescribe(evs))
	}
}

// A guarded save and an external write a moment after it come as one
// batch: the external change's patch starts where the save's ended.
func TestWatchGuardedSaveThenExternalPatchFollowsIt(t *testing.T) {
	e := tcNew(t)
	ctx := context.Background()
	res, err := e.s.Save(ctx, &SaveRequest{Path: "f.txt", Content: "a\nb\nc\n"})
	if err != nil {
		t.Fatal(err)
	}
	twStartTimed(t, e.s)
	twAwaitHeld(t, e.s, "f.txt")
	if _, err := e.s.Save(ctx, &SaveRequest{Path: "f.txt", Content: "a\nb (agent)\nc\n", ExpectedVersion: &res.Version}); err != nil {
		t.Fatal(err)
	}
	e.write("f.txt", "a\nb (agent)\nc (external)\n")
	evs := twAwaitJournaled(t, e, "f.txt")
	if got, err := twReplay(evs, ""); err != nil || got != e.read("f.txt") {
		t.Fatalf("replay: %q, %v\n%s", got, err, twDescribe(evs))
	}
}

// The property: random interleavings of external writes (in place, and
// by rename as sed -i does) and guarded saves, without pause; replaying
// the journal's patches from nothing gives the file's final bytes, every
// event carries its whole patch, and every external change is there.
func TestStressJournalReplaysInterleavedWriters(t *testing.T) {
	cases, steps := stN(12, 60), stN(10, 25)
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d: %d cases of %d steps", seed, cases, steps)
	r := rand.New(rand.NewPCG(seed, 19))
	e := tcNew(t)
	twStartTimed(t, e.s)
	ctx := context.Background()
	lines := []string{"alpha", "beta", "gamma", "delta", "epsilon", "zeta"}
	content := func() string {
		var b strings.Builder
		for range 2 + r.IntN(6) {
			b.WriteString(lines[r.IntN(len(lines))])
			if r.IntN(4) == 0 {
				fmt.Fprintf(&b, " %d", r.IntN(100))
			}
			b.WriteByte('\n')
		}
		return b.String()
	}
	externals := 0
	for c := range cases {
		p := fmt.Sprintf("f%d.txt", c)
		first := content()
		if _, err := e.s.Save(ctx, &SaveRequest{Path: p, Content: first}); err != nil {
			t.Fatal(err)
		}
		twAwaitHeld(t, e.s, p)
		cur := first
		var trace []string
		for range steps {
			next := content()
			switch r.IntN(3) {
			case 0:
				tcWriteFile(t, e.abs(p), next, 0o644)
				trace = append(trace, "external in place")
				externals++
			case 1:
				tmp := filepath.Join(e.root, fmt.Sprintf(".sed%d", r.Uint32()))
				tcWriteFile(t, tmp, next, 0o644)
				if err := os.Rename(tmp, e.abs(p)); err != nil {
					t.Fatal(err)
				}
				trace = append(trace, "external by rename")
				externals++
			default:
				res, err := e.s.Save(ctx, &SaveRequest{Path: p, Content: next, ExpectedVersion: tcPtr(Version([]byte(cur)))})
				if err != nil || !res.Saved {
					t.Fatalf("case %d: guarded save against the version on disk: %+v, %v", c, res, err)
				}
				trace = append(trace, "guarded save")
			}
			cur = next
		}
		evs := twAwaitJournaled(t, e, p)
		got, err := twReplay(evs, "")
		if err != nil || got != cur {
			t.Fatalf("case %d (seed %d), steps %v: replaying the journal gives %q, %v; the file is %q\n%s", c, seed, trace, got, err, cur, twDescribe(evs))
		}
		e.s.BuffersClose(ctx, &BuffersCloseRequest{Path: p})
	}
	t.Logf("%d cases, %d steps each (%d external writes): every replay gave the file", cases, steps, externals)
}
