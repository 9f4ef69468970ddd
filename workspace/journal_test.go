package workspace

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func ev(path string) Event {
	return Event{Root: "/w", Path: path, Kind: "modified", Cause: "editor::save", Patch: "p\n"}
}

func appendN(t *testing.T, s *Store, n, keep int, prefix string) {
	t.Helper()
	for i := range n {
		if _, err := s.Append(context.Background(), []Event{ev(fmt.Sprintf("%s%d", prefix, i))}, keep); err != nil {
			t.Fatal(err)
		}
	}
}

func seqs(evs []Event) []int64 {
	out := make([]int64, len(evs))
	for i, e := range evs {
		out[i] = e.Seq
	}
	return out
}

func TestJournalAppendSince(t *testing.T) {
	s, _ := newTestStore(t)
	ctx := context.Background()
	evs, next, reset, err := s.Since(0)
	if err != nil || len(evs) != 0 || next != 0 || reset || evs == nil {
		t.Fatalf("no journal: %v %d %v %v", evs, next, reset, err)
	}
	got, err := s.Append(ctx, []Event{ev("a"), ev("b")}, 100)
	if err != nil || len(got) != 2 || got[0].Seq != 1 || got[1].Seq != 2 {
		t.Fatalf("append: %+v %v", got, err)
	}
	if got, err := s.Append(ctx, nil, 100); err != nil || len(got) != 0 {
		t.Fatalf("empty append: %v %v", got, err)
	}
	got, _ = s.Append(ctx, []Event{ev("c")}, 100)
	if got[0].Seq != 3 {
		t.Fatalf("third event seq %d", got[0].Seq)
	}
	tests := []struct {
		cursor int64
		seqs   []int64
		reset  bool
	}{
		{0, []int64{1, 2, 3}, false},
		{1, []int64{2, 3}, false},
		{3, []int64{}, false},
		{7, []int64{1, 2, 3}, true}, // the journal restarted below the cursor
	}
	for _, tt := range tests {
		evs, next, reset, err := s.Since(tt.cursor)
		if err != nil || fmt.Sprint(seqs(evs)) != fmt.Sprint(tt.seqs) || next != 3 || reset != tt.reset {
			t.Errorf("Since(%d) = %v next %d reset %v %v; want %v next 3 reset %v", tt.cursor, seqs(evs), next, reset, err, tt.seqs, tt.reset)
		}
	}
	evs, _, _, _ = s.Since(0)
	if evs[1].Path != "b" || evs[1].Cause != "editor::save" || evs[1].Patch != "p\n" {
		t.Errorf("event read back %+v", evs[1])
	}
	// The journal deleted: a cursor from before is reset.
	if err := os.Remove(filepath.Join(s.Dir(), journalFile)); err != nil {
		t.Fatal(err)
	}
	if evs, next, reset, err := s.Since(3); err != nil || len(evs) != 0 || next != 0 || !reset {
		t.Fatalf("deleted journal: %v %d %v %v", evs, next, reset, err)
	}
	if evs, _, reset, _ := s.Since(0); len(evs) != 0 || reset {
		t.Fatalf("deleted journal from 0: %v %v", evs, reset)
	}
}

func TestParseCursor(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"", 0, true}, {"0", 0, true}, {"42", 42, true},
		{"-1", 0, false}, {"abc", 0, false}, {"1.5", 0, false}, {" 3", 0, false},
	}
	for _, tt := range tests {
		got, ok := ParseCursor(tt.in)
		if ok != tt.ok || (ok && got != tt.want) {
			t.Errorf("ParseCursor(%q) = %d %v, want %d %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestJournalTornLastLine(t *testing.T) {
	s, _ := newTestStore(t)
	appendN(t, s, 3, 100, "e")
	jf := filepath.Join(s.Dir(), journalFile)
	// A writer died mid-line.
	f, err := os.OpenFile(jf, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"seq":4,"time":"2025-01-01T00:00:00Z","root":"/w","pa`)
	f.Close()
	evs, next, reset, err := s.Since(0)
	if err != nil || len(evs) != 3 || next != 3 || reset {
		t.Fatalf("with a torn tail: %v next %d reset %v %v", seqs(evs), next, reset, err)
	}
	got, err := s.Append(context.Background(), []Event{ev("after")}, 100)
	if err != nil || got[0].Seq != 4 {
		t.Fatalf("append after a torn line: %+v %v", got, err)
	}
	data, _ := os.ReadFile(jf)
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) != 5 || !strings.HasPrefix(lines[4], `{"seq":4,`) || !strings.HasSuffix(lines[3], `"pa`) {
		t.Fatalf("the next append did not start a fresh line:\n%s", data)
	}
	evs, next, _, _ = s.Since(3)
	if len(evs) != 1 || evs[0].Path != "after" || next != 4 {
		t.Fatalf("after the torn line: %+v %d", evs, next)
	}
}

func TestJournalCompaction(t *testing.T) {
	const keep = 5
	s, _ := newTestStore(t)
	appendN(t, s, 23, keep, "e")
	evs, next, reset, err := s.Since(0)
	if err != nil || next != 23 || reset {
		t.Fatalf("Since(0): next %d reset %v %v", next, reset, err)
	}
	// At least the last keep events, at most 2*keep, consecutive, ending at 23.
	if len(evs) < keep || len(evs) > 2*keep {
		t.Fatalf("journal holds %d events, want %d to %d", len(evs), keep, 2*keep)
	}
	for i, e := range evs {
		if want := int64(23 - len(evs) + 1 + i); e.Seq != want {
			t.Fatalf("seqs %v are not consecutive up to 23", seqs(evs))
		}
		if e.Path != fmt.Sprintf("e%d", e.Seq-1) {
			t.Errorf("event %d holds %s", e.Seq, e.Path)
		}
	}
	data, _ := os.ReadFile(filepath.Join(s.Dir(), journalFile))
	if n := bytes.Count(data, []byte("\n")); n != len(evs) {
		t.Errorf("journal file has %d lines for %d events", n, len(evs))
	}
	// Since across compaction: a cursor inside what is kept sees only newer
	// events without reset; one older than the oldest kept is reset.
	first := evs[0].Seq
	tests := []struct {
		cursor int64
		n      int
		reset  bool
	}{
		{first - 1, len(evs), false},
		{first, len(evs) - 1, false},
		{first - 2, len(evs), true},
		{1, len(evs), true},
		{22, 1, false},
	}
	for _, tt := range tests {
		evs, next, reset, err := s.Since(tt.cursor)
		if err != nil || len(evs) != tt.n || reset != tt.reset || next != 23 {
			t.Errorf("Since(%d): %v reset %v next %d; want %d events reset %v", tt.cursor, seqs(evs), reset, next, tt.n, tt.reset)
		}
	}
	// A cursor taken before a compaction, read after it.
	cur := int64(23)
	appendN(t, s, 4, keep, "f") // 24..27, crossing the compaction at 25
	evs, next, reset, _ = s.Since(cur)
	if fmt.Sprint(seqs(evs)) != "[24 25 26 27]" || next != 27 || reset {
		t.Fatalf("across a compaction: %v next %d reset %v", seqs(evs), next, reset)
	}
}

func TestJournalConcurrentAppend(t *testing.T) {
	s, _ := newTestStore(t)
	s2, err := OpenStore(s.Dir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	var wg sync.WaitGroup
	for i := range 40 {
		st := s
		if i%2 == 1 {
			st = s2
		}
		wg.Go(func() {
			if _, err := st.Append(context.Background(), []Event{ev(fmt.Sprint(i)), ev(fmt.Sprint(i))}, 1000); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	evs, next, _, err := s.Since(0)
	if err != nil || len(evs) != 80 || next != 80 {
		t.Fatalf("%d events, next %d, %v", len(evs), next, err)
	}
	for i, e := range evs {
		if e.Seq != int64(i+1) {
			t.Fatalf("seqs %v", seqs(evs))
		}
		// Events of one Append stay together.
		if i%2 == 1 && evs[i-1].Path != e.Path {
			t.Errorf("events %d and %d of one append were split", i, i+1)
		}
	}
}

// TestJournalDuplicateAfterCrash: a line repeated (a crash between a
// compaction's write and its rename can leave one) is read once.
func TestJournalDuplicateAfterCrash(t *testing.T) {
	s, _ := newTestStore(t)
	appendN(t, s, 3, 100, "e")
	jf := filepath.Join(s.Dir(), journalFile)
	data, _ := os.ReadFile(jf)
	lines := strings.SplitAfter(string(data), "\n")
	os.WriteFile(jf, []byte(lines[0]+lines[1]+lines[1]+lines[2]), 0o600)
	evs, next, _, _ := s.Since(0)
	if fmt.Sprint(seqs(evs)) != "[1 2 3]" || next != 3 {
		t.Fatalf("%v next %d", seqs(evs), next)
	}
}
