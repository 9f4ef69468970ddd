package workspace

import (
	"context"
	"testing"
	"time"
)

// Shared holders of a named lock hold it together and keep an exclusive
// taker out; the exclusive holder keeps shared takers out.
func TestStoreLockShared(t *testing.T) {
	s, _ := newTestStore(t)
	ctx := context.Background()
	u1, err := s.LockShared(ctx, "w.lock")
	if err != nil {
		t.Fatal(err)
	}
	u2, err := s.LockShared(ctx, "w.lock")
	if err != nil {
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(ctx, 30*time.Millisecond)
	if u, err := s.Lock(short, "w.lock"); err == nil {
		u()
		t.Fatal("exclusive lock taken while shared holders hold it")
	}
	cancel()
	u1()
	u2()
	u3, err := s.Lock(ctx, "w.lock")
	if err != nil {
		t.Fatal(err)
	}
	short, cancel = context.WithTimeout(ctx, 30*time.Millisecond)
	if u, err := s.LockShared(short, "w.lock"); err == nil {
		u()
		t.Fatal("shared lock taken while an exclusive holder holds it")
	}
	cancel()
	u3()
}

// JournalChanged changes with every append and every compaction, and only
// then.
func TestJournalChanged(t *testing.T) {
	s, _ := newTestStore(t)
	ctx := context.Background()
	tok := s.JournalChanged()
	if tok != (JournalToken{}) {
		t.Fatalf("token of a missing journal: %+v", tok)
	}
	seen := map[JournalToken]bool{tok: true}
	for i := range 12 {
		if _, err := s.Append(ctx, []Event{{Path: "f", Kind: "modified", Cause: "external"}}, 5); err != nil {
			t.Fatal(err)
		}
		tok = s.JournalChanged()
		if seen[tok] {
			t.Fatalf("append %d: the token did not change", i)
		}
		seen[tok] = true
		if again := s.JournalChanged(); again != tok {
			t.Fatalf("append %d: the token changed without a write", i)
		}
	}
}
