package editor

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A large save's event diff is begun against the bytes this process last
// knew of the file; when another program changed the file since, the
// event still shows what the save changed on disk (B -> C), not what it
// changed since the open (A -> C).
func TestSaveEventAfterOutsideChange(t *testing.T) {
	e := tcNew(t)
	ctx := context.Background()
	lines := make([]string, 3000)
	for i := range lines {
		lines[i] = fmt.Sprintf("line %d of a file large enough for the version memo", i)
	}
	text := func(change map[int]string) string {
		out := append([]string(nil), lines...)
		for i, l := range change {
			out[i] = l
		}
		return strings.Join(out, "\n") + "\n"
	}
	a, b, c := text(nil), text(map[int]string{10: "changed outside"}), text(map[int]string{2000: "changed by the save"})
	if len(a) < memoMin {
		t.Fatalf("%d bytes: under the memo's %d", len(a), memoMin)
	}
	abs := filepath.Join(e.root, "big.txt")
	if err := os.WriteFile(abs, []byte(a), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := e.s.Open(ctx, &OpenRequest{Path: "big.txt"}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(abs, []byte(b), 0o644); err != nil {
		t.Fatal(err)
	}
	resp, err := e.s.Save(ctx, &SaveRequest{Path: "big.txt", Content: c, Force: true})
	if err != nil || !resp.Saved {
		t.Fatalf("%+v %v", resp, err)
	}
	if resp.Added != 2 || resp.Removed != 2 {
		t.Fatalf("save reports +%d -%d, want +2 -2 (the outside change undone, and its own)", resp.Added, resp.Removed)
	}
	ch, err := e.s.Changes(ctx, &ChangesRequest{Path: "big.txt"})
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, ev := range ch.Changes {
		if ev.Cause != "editor::save" {
			continue
		}
		found = true
		if !strings.Contains(ev.Patch, "-changed outside\n") || !strings.Contains(ev.Patch, "+changed by the save\n") {
			t.Fatalf("event patch:\n%s", ev.Patch)
		}
	}
	if !found {
		t.Fatalf("no save event in %+v", ch.Changes)
	}
	// The guess is right the next time: the memo holds what was saved.
	d := text(map[int]string{2000: "changed by the save", 2500: "again"})
	resp, err = e.s.Save(ctx, &SaveRequest{Path: "big.txt", Content: d, ExpectedVersion: &resp.Version})
	if err != nil || !resp.Saved || resp.Added != 1 || resp.Removed != 1 {
		t.Fatalf("second save: %+v %v", resp, err)
	}
}

// A large save checks the disk as read while its content was being written
// beside the file; a change landing after that read is caught before the
// rename and the save is decided again under the locks: a conflict names
// the version on disk then, and a guard written for that version passes.
func TestSaveLargeChangedAfterEarlyRead(t *testing.T) {
	e := tcNew(t)
	ctx := context.Background()
	big := func(tag string) string { return strings.Repeat(tag+" a line of a large file\n", 4000) }
	a, b := big("a"), big("b")
	abs := filepath.Join(e.root, "big.txt")
	for _, tc := range []struct {
		expected string
		saved    bool
	}{{Version([]byte(a)), false}, {Version([]byte(b)), true}} {
		if err := os.WriteFile(abs, []byte(a), 0o644); err != nil {
			t.Fatal(err)
		}
		preparedHook = func(sv *saving) {
			r := <-sv.early // the early read is done; put it back for the save
			sv.early <- r
			if err := os.WriteFile(abs, []byte(b), 0o644); err != nil {
				t.Error(err)
			}
		}
		resp, err := e.s.Save(ctx, &SaveRequest{Path: "big.txt", Content: big("c"), ExpectedVersion: &tc.expected})
		preparedHook = nil
		if err != nil {
			t.Fatal(err)
		}
		got, _ := os.ReadFile(abs)
		switch {
		case resp.Saved != tc.saved:
			t.Fatalf("expected %s: saved %v, want %v", tc.expected, resp.Saved, tc.saved)
		case !tc.saved && (resp.DiskVersion == nil || *resp.DiskVersion != Version([]byte(b)) || string(got) != b):
			t.Fatalf("conflict names %v, want the version written after the early read", resp.DiskVersion)
		case tc.saved && string(got) != big("c"):
			t.Fatal("the save did not land")
		}
	}
}
