package editor

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/editord/editord/editor/turns"
)

// Turns live in the state dir: another process sees them, stamps its own
// writes into the same turn, and a restart keeps them; the log is
// rewritten down to turns.kept.
func TestTurnsSharedAndKept(t *testing.T) {
	e := tcNew(t, func(c *Config) { c.Turns.Kept = 5 })
	other := e.service()
	if _, err := e.s.Turn(tnCtx("cli"), &TurnRequest{Action: "begin", Title: "task"}); err != nil {
		t.Fatal(err)
	}
	e.tnSave("cli", "a.txt", "1\n")
	if _, err := other.Save(tnCtx("cli"), &SaveRequest{Path: "b.txt", Content: "2\n"}); err != nil {
		t.Fatal(err)
	}
	h, err := other.History(context.Background(), &HistoryRequest{})
	if err != nil || len(h.Turns) != 1 || h.Turns[0].Files != 2 || h.Turns[0].Title != "task" {
		t.Fatalf("one turn over two processes: %+v %v", h, err)
	}
	first := h.Turns[0].Turn
	for i := range 20 {
		e.tnSave("w#"+string(rune('a'+i)), "c.txt", strings.Repeat("x\n", i+1))
	}
	log := filepath.Join(e.state, "turns", "log.jsonl")
	fi, err := os.Stat(log)
	if err != nil {
		t.Fatal(err)
	}
	again := e.service()
	h, err = again.History(context.Background(), &HistoryRequest{Limit: 100})
	if err != nil || len(h.Turns) != 5 || h.More != 0 {
		t.Fatalf("after a restart, the last 5 turns: %+v %v", h.Turns, err)
	}
	if _, err := again.History(context.Background(), &HistoryRequest{Turn: first}); err == nil {
		t.Fatalf("turn %s is past turns.kept but still shown", first)
	}
	lines := strings.Count(string(tcRead(t, log)), "\n")
	if lines > 2*(5+8)+2 { // rewritten once turns.kept+8 turns are in it

		t.Fatalf("the log holds %d lines (%d bytes) for 5 turns kept: not rewritten", lines, fi.Size())
	}
	// Ids go on from the last, never reused.
	e.tnSave("new#1", "d.txt", "d\n")
	h, _ = again.History(context.Background(), &HistoryRequest{Limit: 1})
	if n, _ := turnsParse(h.Turns[0].Turn); n <= 21 {
		t.Fatalf("a new turn's id %s", h.Turns[0].Turn)
	}
}

func tcRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The contents kept are bounded: the oldest turns lose theirs first, and
// their detail says so.
func TestTurnsContentsTrimmed(t *testing.T) {
	e := tcNew(t, func(c *Config) { c.Turns.KeepBytes = 64 << 10 })
	big := strings.Repeat("a line of some length, to fill the store\n", 400) // 16 KiB
	for i := range 8 {
		e.tnSave("w#"+string(rune('a'+i)), "f.txt", big+strings.Repeat("+\n", i))
	}
	h := e.tnHistory(&HistoryRequest{Limit: 10})
	old := e.tnHistory(&HistoryRequest{Turn: h.Turns[len(h.Turns)-1].Turn})
	if old.Files[0].Note == "" || old.Files[0].Status != "unknown" {
		t.Fatalf("the oldest turn's file: %+v", old.Files[0])
	}
	r := e.tnRevert("person#1", &RevertRequest{Turn: h.Turns[len(h.Turns)-1].Turn})
	if len(r.Refused) != 1 || len(r.Undone) != 0 {
		t.Fatalf("revert of a turn whose contents are gone: %+v", r)
	}
	newest := e.tnHistory(&HistoryRequest{Turn: h.Turns[0].Turn})
	if newest.Files[0].Note != "" || newest.Files[0].Hunks[0].Status != "stands" {
		t.Fatalf("the newest turn's file: %+v", newest.Files[0])
	}
	n := 0
	ents, _ := os.ReadDir(filepath.Join(e.state, "turns", "packs"))
	for _, en := range ents {
		fi, _ := en.Info()
		n += int(fi.Size())
	}
	if n == 0 || n > 64<<10+len(big)*2 {
		t.Fatalf("the contents hold %d bytes in %d packs, over turns.keep_bytes", n, len(ents))
	}
}

// Keep marks hunks reviewed; a turn is reviewed once every file is kept
// or undone, and leaves the unreviewed listing.
func TestTurnsKeepAndReview(t *testing.T) {
	e := tcNew(t)
	base := strings.Repeat("line\n", 30)
	e.write("f.txt", base)
	e.write("g.txt", "g\n")
	lines := strings.SplitAfter(base, "\n")
	lines[2], lines[25] = "two\n", "twenty-five\n"
	e.tnSave("agent#1", "f.txt", strings.Join(lines, ""))
	e.tnSave("agent#1", "g.txt", "g agent\n")
	id := e.tnHistory(&HistoryRequest{}).Turns[0].Turn
	if h := e.tnHistory(&HistoryRequest{Unreviewed: true, NotBy: "person"}); len(h.Turns) != 1 {
		t.Fatalf("unreviewed: %+v", h.Turns)
	}
	ctx := tnCtx("person#2")
	if _, err := e.s.Turn(ctx, &TurnRequest{Action: "keep", Turn: id, Path: "f.txt", Hunks: []int{1}}); err != nil {
		t.Fatal(err)
	}
	e.tnRevert("person#2", &RevertRequest{Turn: id, Path: "f.txt", Hunks: []int{2}})
	if got := e.read("f.txt"); !strings.Contains(got, "two\n") || strings.Contains(got, "twenty-five") {
		t.Fatalf("f.txt after undoing hunk 2: %q", got)
	}
	d := e.tnHistory(&HistoryRequest{Turn: id})
	f := d.Files[0]
	if !f.Hunks[0].Kept || f.Hunks[1].Status != "undone" || f.Hunks[1].RevertedIn == "" || !f.Reviewed || d.Turns[0].Reviewed {
		t.Fatalf("after keep and undo: %+v %+v", d.Turns[0], f)
	}
	r, err := e.s.Turn(ctx, &TurnRequest{Action: "keep", Turn: id})
	if err != nil || !r.Turn.Reviewed {
		t.Fatalf("keep all: %+v %v", r, err)
	}
	if h := e.tnHistory(&HistoryRequest{Unreviewed: true}); len(h.Turns) != 1 || h.Turns[0].By != "person#2" {
		t.Fatalf("unreviewed after keeping: %+v", h.Turns) // the revert's own turn is left
	}
	if _, err := e.s.Turn(ctx, &TurnRequest{Action: "keep", Turn: id, Path: "f.txt", Hunks: []int{9}}); err == nil {
		t.Fatal("a hunk the file does not have was kept")
	}
}

// Writes of the git functions land in a turn and revert like any other.
func TestTurnsGitWriteReverted(t *testing.T) {
	g := gtNew(t, "")
	g.write("a.txt", "committed\n")
	g.commitAll("one")
	ctx := tnCtx("agent#1")
	v := Version([]byte("committed\n"))
	if _, err := g.s.Save(ctx, &SaveRequest{Path: "a.txt", Content: "agent's work\n", ExpectedVersion: &v}); err != nil {
		t.Fatal(err)
	}
	if _, err := g.s.GitStash(tnCtx("person#2"), &GitStashRequest{Action: "push"}); err != nil {
		t.Fatal(err)
	}
	if g.read("a.txt") != "committed\n" {
		t.Fatal("stash did not clean the file")
	}
	h, err := g.s.History(context.Background(), &HistoryRequest{By: "person#2", Limit: 1})
	if err != nil || len(h.Turns) != 1 {
		t.Fatalf("the stash's turn: %+v %v", h, err)
	}
	if _, err := g.s.Revert(ctx, &RevertRequest{Turn: h.Turns[0].Turn}); err != nil {
		t.Fatal(err)
	}
	if got := g.read("a.txt"); got != "agent's work\n" {
		t.Fatalf("after reverting the stash's turn: %q", got)
	}
}

func turnsParse(id string) (int64, bool) { return turns.ParseID(id) }

// Writers of two processes at once, beginning turns as they go: every
// event names a turn the log holds, and the turns hold every event once.
func TestTurnsConcurrentProcesses(t *testing.T) {
	e := tcNew(t)
	procs := []*Service{e.s, e.service()}
	var wg sync.WaitGroup
	for p, s := range procs {
		for g := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				by := fmt.Sprintf("w%d#%d", p, g)
				ctx := tnCtx(by)
				for i := range 25 {
					if i%7 == 0 {
						if _, err := s.Turn(ctx, &TurnRequest{Action: "begin"}); err != nil {
							t.Error(err)
							return
						}
					}
					if _, err := s.Save(ctx, &SaveRequest{Path: fmt.Sprintf("%s-%d.txt", by, i%3), Content: fmt.Sprintf("%d\n", i), Force: true}); err != nil {
						t.Error(err)
						return
					}
				}
			}()
		}
	}
	wg.Wait()
	evs, _, _, err := e.s.Store().Since(0)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 2*4*25 {
		t.Fatalf("%d events", len(evs))
	}
	fresh := e.service()
	h, err := fresh.History(context.Background(), &HistoryRequest{Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	byTurn := map[string]int{}
	for _, s := range h.Turns {
		byTurn[s.Turn] = s.Changes
	}
	count := map[string]int{}
	for _, ev := range evs {
		if _, ok := byTurn[ev.Turn]; !ok {
			t.Fatalf("event %d names turn %q, which the log does not hold", ev.Seq, ev.Turn)
		}
		count[ev.Turn]++
	}
	for id, n := range byTurn {
		if count[id] != n {
			t.Fatalf("turn %s counts %d changes, the journal %d", id, n, count[id])
		}
	}
}

// A folder of more files than a delete keeps comes back in part, and its
// turn says so.
func TestTurnsBigFolderDeleteKeptInPart(t *testing.T) {
	e := tcNew(t)
	for i := range folderKeepFiles + 20 {
		e.write(fmt.Sprintf("big/f%04d.txt", i), fmt.Sprintf("%d\n", i))
	}
	if _, err := e.s.Delete(tnCtx("agent#1"), &DeleteRequest{Path: "big", Recursive: true}); err != nil {
		t.Fatal(err)
	}
	id := e.tnHistory(&HistoryRequest{}).Turns[0].Turn
	d := e.tnHistory(&HistoryRequest{Turn: id})
	var folder *turns.File
	for i := range d.Files {
		if d.Files[i].Path == "big" {
			folder = &d.Files[i]
		}
	}
	if len(d.Files) != folderKeepFiles+1 || folder == nil || folder.Note == "" {
		t.Fatalf("%d files in the turn, the folder %+v", len(d.Files), folder)
	}
	r := e.tnRevert("person#2", &RevertRequest{Turn: id})
	ents, _ := os.ReadDir(e.abs("big"))
	if len(r.Undone) != folderKeepFiles || len(ents) != folderKeepFiles || len(r.Refused) != 1 {
		t.Fatalf("revert: %d undone, %d refused; %d files back", len(r.Undone), len(r.Refused), len(ents))
	}
}
