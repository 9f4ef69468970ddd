package workspace

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// countingReader counts the bytes read through it.
type countingReader struct {
	r *bytes.Reader
	n atomic.Int64
}

func (c *countingReader) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.n.Add(int64(n))
	return n, err
}

// journalBytes builds a journal of n events, each with a patch of about
// patch bytes, the way Append writes it.
func journalBytes(t *testing.T, n, patch int) []byte {
	t.Helper()
	var b bytes.Buffer
	for i := 1; i <= n; i++ {
		e := ev(fmt.Sprintf("dir%d/f%d.txt", i%7, i))
		e.Seq = int64(i)
		e.Patch = strings.Repeat("x", patch) + "\n"
		line, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// TestJournalReadFromTailReadsLittle: reading after a recent cursor reads
// a bounded number of bytes whatever the journal holds (issue 12: every
// change re-read the whole journal).
func TestJournalReadFromTailReadsLittle(t *testing.T) {
	s, _ := newTestStore(t)
	data := journalBytes(t, 20000, 200) // ~5 MB
	for _, cursor := range []int64{19999, 19000, 10000, 3} {
		c := &countingReader{r: bytes.NewReader(data)}
		s.jidx = jindex{} // no help from earlier reads
		p, err := s.readFrom(&jfile{r: c, size: int64(len(data))}, 1, Query{Since: cursor, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Events) != min(10, int(20000-cursor)) || p.Events[0].Seq != cursor+1 {
			t.Fatalf("Since %d: %v", cursor, seqs(p.Events))
		}
		if c.n.Load() > 600<<10 {
			t.Errorf("Since %d (limit 10) read %d bytes of a %d-byte journal", cursor, c.n.Load(), len(data))
		}
	}
}

// TestJournalLocateMatchesScan: the binary search finds the same events as
// reading everything, for every cursor, with garbage, torn lines and a
// duplicate in the file.
func TestJournalLocateMatchesScan(t *testing.T) {
	s, _ := newTestStore(t)
	data := journalBytes(t, 3000, 60)
	lines := bytes.SplitAfter(data, []byte("\n"))
	var b bytes.Buffer
	r := rand.New(rand.NewPCG(1, 2))
	for i, l := range lines {
		b.Write(l)
		switch r.IntN(40) {
		case 0:
			b.WriteString("garbage line\n")
		case 1:
			b.Write(l[:len(l)/2]) // a torn line, then a fresh one
			b.WriteByte('\n')
		case 2:
			if i > 0 {
				b.Write(l) // a duplicate
			}
		}
	}
	data = b.Bytes()
	for cursor := int64(0); cursor <= 3001; cursor += 1 + int64(r.IntN(7)) {
		s.jidx = jindex{}
		p, err := s.readFrom(&jfile{r: bytes.NewReader(data), size: int64(len(data))}, 1, Query{Since: cursor, Limit: 3})
		if err != nil {
			t.Fatal(err)
		}
		want := max(3000-cursor, 0)
		if cursor > 3000 {
			want = 3000 // restarted below the cursor: all of it
		}
		if int64(len(p.Events)+p.More) != want || (p.More == 0 && p.Next != 3000) {
			t.Fatalf("Since %d: %d events + %d more, next %d, want %d", cursor, len(p.Events), p.More, p.Next, want)
		}
		for i, e := range p.Events {
			if e.Seq != int64(3000)-want+1+int64(i) {
				t.Fatalf("Since %d: seqs %v", cursor, seqs(p.Events)[:min(10, len(p.Events))])
			}
		}
	}
}

// TestJournalReadPaged: limit pages through the journal, more counts what
// is left, and path keeps the events at or beneath it (a move from it
// included).
func TestJournalReadPaged(t *testing.T) {
	s, _ := newTestStore(t)
	ctx := context.Background()
	for i := range 25 {
		e := ev(fmt.Sprintf("f%d", i))
		if i%5 == 0 {
			e.Path = fmt.Sprintf("src/a%d.go", i)
		}
		if _, err := s.Append(ctx, []Event{e}, 1000); err != nil {
			t.Fatal(err)
		}
	}
	from := "src/old.go"
	mv := ev("lib/new.go")
	mv.Kind, mv.From = "moved", &from
	s.Append(ctx, []Event{mv, ev("srcx/no.go")}, 1000)

	var got []int64
	cursor, pages := int64(0), 0
	for {
		p, err := s.Read(Query{Since: cursor, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		pages++
		got = append(got, seqs(p.Events)...)
		if want := max(27-int(cursor)-10, 0); p.More != want {
			t.Errorf("page from %d: more %d, want %d", cursor, p.More, want)
		}
		cursor = p.Next
		if p.More == 0 {
			break
		}
	}
	if len(got) != 27 || pages != 3 || got[26] != 27 || cursor != 27 {
		t.Fatalf("paged: %v in %d pages, cursor %d", got, pages, cursor)
	}
	p, _ := s.Read(Query{Root: "/w", Path: "src", Limit: 3})
	if fmt.Sprint(seqs(p.Events)) != "[1 6 11]" || p.More != 3 || p.Next != 11 {
		t.Fatalf("path src, limit 3: %v more %d next %d", seqs(p.Events), p.More, p.Next)
	}
	p, _ = s.Read(Query{Root: "/w", Path: "src", Since: p.Next, Limit: 3})
	if fmt.Sprint(seqs(p.Events)) != "[16 21 26]" || p.More != 0 || p.Next != 27 {
		t.Fatalf("path src, second page: %v more %d next %d", seqs(p.Events), p.More, p.Next)
	}
	if p, _ := s.Read(Query{Root: "/other", Path: "src"}); len(p.Events) != 0 {
		t.Fatalf("another root's events: %v", seqs(p.Events))
	}
}

// TestFollowerReadsOnlyNew: a follower returns each event once, across
// appends by another store, a torn line, a compaction and a journal
// deleted and started again.
func TestFollowerReadsOnlyNew(t *testing.T) {
	s, _ := newTestStore(t)
	other, err := OpenStore(s.Dir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	appendN(t, s, 5, 8, "old")
	f := s.NewFollower()
	poll := func() []int64 {
		t.Helper()
		evs, _, err := f.Poll()
		if err != nil {
			t.Fatal(err)
		}
		return seqs(evs)
	}
	if got := poll(); len(got) != 0 {
		t.Fatalf("a new follower read old events %v", got)
	}
	appendN(t, other, 2, 8, "a") // 6, 7
	if got := fmt.Sprint(poll()); got != "[6 7]" {
		t.Fatalf("after two appends: %s", got)
	}
	jf := filepath.Join(s.Dir(), journalFile)
	fh, _ := os.OpenFile(jf, os.O_WRONLY|os.O_APPEND, 0)
	fh.WriteString(`{"seq":8,"time":"x","pa`)
	fh.Close()
	if got := poll(); len(got) != 0 {
		t.Fatalf("a torn line read as %v", got)
	}
	appendN(t, s, 3, 8, "b") // 8, 9, 10: crosses the compaction at 8
	if got := fmt.Sprint(poll()); got != "[8 9 10]" {
		t.Fatalf("across a torn line and a compaction: %s", got)
	}
	appendN(t, s, 1, 8, "c")
	if got := fmt.Sprint(poll()); got != "[11]" {
		t.Fatalf("after the compaction: %s", got)
	}
	os.Remove(jf)
	if got := poll(); len(got) != 0 {
		t.Fatalf("deleted journal: %v", got)
	}
	appendN(t, s, 2, 8, "d") // 1, 2 of a new journal
	if got := fmt.Sprint(poll()); got != "[1 2]" {
		t.Fatalf("a journal started again: %s", got)
	}
	// Events dropped before the follower read them are reported lost.
	appendN(t, s, 20, 4, "e")
	evs, lost, _ := f.Poll()
	if !lost || len(evs) == 0 || evs[len(evs)-1].Seq != 22 {
		t.Fatalf("after compactions it missed: lost %v, %v", lost, seqs(evs))
	}
}

// A follower made before the journal existed expects its first event:
// when compactions dropped events before its first poll, it says so.
func TestFollowerOnNoJournalReportsLoss(t *testing.T) {
	s, _ := newTestStore(t)
	f := s.NewFollower()
	appendN(t, s, 10, 3, "a") // compacted at 3, 6 and 9
	evs, lost, err := f.Poll()
	if err != nil || !lost || len(evs) == 0 || evs[0].Seq == 1 {
		t.Fatalf("lost %v, %v, %v", lost, seqs(evs), err)
	}
	g := s.NewFollower()
	appendN(t, s, 2, 100, "b")
	if evs, lost, _ := g.Poll(); lost || fmt.Sprint(seqs(evs)) != "[11 12]" {
		t.Fatalf("a follower begun on a journal: lost %v, %v", lost, seqs(evs))
	}
}

// TestJournalCompactionKeepsWholeEvents: compaction keeps the last keep
// whole events and drops garbage among them.
func TestJournalCompactionKeepsWholeEvents(t *testing.T) {
	s, _ := newTestStore(t)
	appendN(t, s, 6, 10, "a")
	jf := filepath.Join(s.Dir(), journalFile)
	fh, _ := os.OpenFile(jf, os.O_WRONLY|os.O_APPEND, 0)
	fh.WriteString("garbage\n")
	fh.Close()
	appendN(t, s, 6, 10, "b") // 7..12, compacting at 10 down to 10 events
	data, _ := os.ReadFile(jf)
	if bytes.Contains(data, []byte("garbage")) {
		t.Errorf("garbage kept by the compaction")
	}
	p, _ := s.Read(Query{})
	if len(p.Events) < 10 || p.Next != 12 || p.Events[0].Seq != 12-int64(len(p.Events))+1 {
		t.Fatalf("after compaction: %v next %d", seqs(p.Events), p.Next)
	}
}

// A compaction replaces the journal with a new file, and the file system
// may give it the inode number of the one the follower last read (seen
// once under load: the follower then read on from its old offset in the
// new file and missed that events were dropped). The new file is made here
// in place, so its inode is certainly the old one: the follower must
// notice the sequence does not run on and report the loss.
func TestFollowerNoticesAJournalReplacedUnderTheSameInode(t *testing.T) {
	s, _ := newTestStore(t)
	appendN(t, s, 3, 0, "old")
	f := s.NewFollower()
	if evs, _, err := f.Poll(); err != nil || len(evs) != 0 {
		t.Fatalf("a new follower read %v (%v)", seqs(evs), err)
	}
	appendN(t, s, 2, 0, "a") // 4, 5
	if evs, _, _ := f.Poll(); fmt.Sprint(seqs(evs)) != "[4 5]" {
		t.Fatalf("after two appends: %v", seqs(evs))
	}
	// What a compaction that kept 10..22 of a longer run would leave: a
	// file longer than the follower's offset.
	other, _ := newTestStore(t)
	appendN(t, other, 22, 0, "x")
	data, err := os.ReadFile(filepath.Join(other.Dir(), journalFile))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	kept := strings.Join(lines[9:22], "")
	jf := filepath.Join(s.Dir(), journalFile)
	if err := os.WriteFile(jf, []byte(kept), 0o644); err != nil { // truncates: same inode
		t.Fatal(err)
	}
	evs, lost, err := f.Poll()
	if err != nil || !lost || len(evs) != 13 || evs[0].Seq != 10 || evs[12].Seq != 22 {
		t.Fatalf("a journal replaced under the same inode: lost %v, %v (%v)", lost, seqs(evs), err)
	}
}

// TestJournalIndexKnowsTheFile: an offset remembered for one journal file
// is not used for another that has the same inode number (a compaction's
// new file can reuse it) but starts at another seq.
func TestJournalIndexKnowsTheFile(t *testing.T) {
	s, _ := newTestStore(t)
	old := journalBytes(t, 50, 20)
	p, err := s.readFrom(&jfile{r: bytes.NewReader(old), size: int64(len(old))}, 7, Query{Since: 0})
	if err != nil || p.Next != 50 {
		t.Fatal(p.Next, err)
	}
	// A "compacted" file, same inode number 7, holding seqs 41..60: the
	// offset remembered for cursor 50 in the old file means nothing here.
	var b bytes.Buffer
	for _, l := range bytes.SplitAfter(journalBytes(t, 60, 400), []byte("\n"))[40:] {
		b.Write(l)
	}
	now := b.Bytes()
	p, err = s.readFrom(&jfile{r: bytes.NewReader(now), size: int64(len(now))}, 7, Query{Since: 50})
	if err != nil || len(p.Events) != 10 || p.Events[0].Seq != 51 {
		t.Fatalf("after a compaction that kept the inode: %v %v", seqs(p.Events), err)
	}
}
