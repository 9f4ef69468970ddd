package workspace

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// newTestStore opens a store in a fresh (canonical) temp dir, collecting
// its warnings.
func newTestStore(t *testing.T) (*Store, *[]string) {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	warns := &[]string{}
	s, err := OpenStore(filepath.Join(dir, "state", "nested"), func(m string) {
		mu.Lock()
		*warns = append(*warns, m)
		mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, warns
}

func TestStoreRoundTrip(t *testing.T) {
	s, warns := newTestStore(t)
	ctx := context.Background()
	if fi, err := os.Stat(s.Dir()); err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
		t.Fatalf("state dir: %v %v", fi, err)
	}
	if r := s.Load(); r.ActiveRoot != "" || len(r.Sessions) != 0 || r.Format != recordFormat {
		t.Fatalf("empty store: %+v", r)
	}
	rec, err := s.Update(ctx, func(r *Record) (bool, error) {
		r.ActiveRoot = "/w"
		r.Session("/w").Upsert(Buffer{Path: "a.go", Version: "1-x", Mtime: 7, Language: "go"})
		r.Session("/w").Expand("src")
		return true, nil
	})
	if err != nil || rec.ActiveRoot != "/w" {
		t.Fatalf("update: %+v %v", rec, err)
	}
	// A second store on the same dir (another process) reads the same.
	s2, err := OpenStore(s.Dir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	got := s2.Load()
	if got.ActiveRoot != "/w" || len(got.Session("/w").Buffers) != 1 || got.Session("/w").Buffers[0] != (Buffer{Path: "a.go", Version: "1-x", Mtime: 7, Language: "go"}) || got.Session("/w").Expanded[0] != "src" {
		t.Fatalf("second store reads %+v", got)
	}
	fi, err := os.Stat(filepath.Join(s.Dir(), recordFile))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("record file mode: %v %v", fi, err)
	}
	// fn's error aborts without writing; "no change" writes nothing.
	before, _ := os.ReadFile(filepath.Join(s.Dir(), recordFile))
	if _, err := s.Update(ctx, func(r *Record) (bool, error) { r.ActiveRoot = "/lost"; return true, fmt.Errorf("no") }); err == nil {
		t.Error("fn's error was swallowed")
	}
	if _, err := s.Update(ctx, func(r *Record) (bool, error) { r.ActiveRoot = "/lost"; return false, nil }); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(filepath.Join(s.Dir(), recordFile))
	if string(before) != string(after) {
		t.Error("an aborted or unchanged update wrote the record")
	}
	if len(*warns) != 0 {
		t.Errorf("warnings: %v", *warns)
	}
}

func TestStoreUpdateConcurrent(t *testing.T) {
	s, _ := newTestStore(t)
	// Two Store values on one dir, as two processes would hold.
	s2, err := OpenStore(s.Dir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	const n = 50
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		st := s
		if i%2 == 1 {
			st = s2
		}
		wg.Go(func() {
			_, err := st.Update(context.Background(), func(r *Record) (bool, error) {
				return r.Session("/w").Upsert(Buffer{Path: fmt.Sprintf("f%02d.txt", i)}), nil
			})
			if err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	bs := s.Load().Session("/w").Buffers
	if len(bs) != n {
		t.Fatalf("%d buffers after %d concurrent updates", len(bs), n)
	}
	seen := map[string]bool{}
	for _, b := range bs {
		seen[b.Path] = true
	}
	for i := range n {
		if !seen[fmt.Sprintf("f%02d.txt", i)] {
			t.Errorf("lost f%02d.txt", i)
		}
	}
}

func TestStoreCorruptRecordMovedAside(t *testing.T) {
	tests := []struct {
		name    string
		content string
		viaLoad bool // found by Load rather than by Update
	}{
		{"not json", "{\"format\": 1, \"sessions\": {", true},
		{"not json, found by update", "garbage\x00\xff", false},
		{"wrong types", `{"format": 1, "active_root": 5}`, true},
		{"unknown format", `{"format": 99, "active_root": "/w", "sessions": {}}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, warns := newTestStore(t)
			rf := filepath.Join(s.Dir(), recordFile)
			if err := os.WriteFile(rf, []byte(tt.content), 0o600); err != nil {
				t.Fatal(err)
			}
			if tt.viaLoad {
				if r := s.Load(); r.ActiveRoot != "" || len(r.Sessions) != 0 {
					t.Fatalf("corrupt record loaded as %+v", r)
				}
			}
			rec, err := s.Update(context.Background(), func(r *Record) (bool, error) {
				if r.ActiveRoot != "" || len(r.Sessions) != 0 {
					t.Errorf("update started from %+v, not an empty record", r)
				}
				r.ActiveRoot = "/fresh"
				return true, nil
			})
			if err != nil || rec.ActiveRoot != "/fresh" {
				t.Fatalf("update after corruption: %+v %v", rec, err)
			}
			aside, _ := filepath.Glob(rf + ".corrupt-*")
			if len(aside) != 1 {
				t.Fatalf("want one file moved aside, got %v", aside)
			}
			if b, _ := os.ReadFile(aside[0]); string(b) != tt.content {
				t.Errorf("moved-aside file holds %q, want the old bytes %q", b, tt.content)
			}
			if len(*warns) != 1 || !strings.Contains((*warns)[0], filepath.Base(aside[0])) {
				t.Errorf("want one warning naming %s, got %v", filepath.Base(aside[0]), *warns)
			}
			if s.Load().ActiveRoot != "/fresh" {
				t.Error("the fresh record was not kept")
			}
		})
	}
}

// TestStoreCorruptRaceKeepsGoodRecord is the regression test for a reader
// that finds the record corrupt while, before it moves the file aside, a
// concurrent update has already replaced it with a good record: the good
// record must stay in place (it used to be moved aside, losing the update).
func TestStoreCorruptRaceKeepsGoodRecord(t *testing.T) {
	s, _ := newTestStore(t)
	other, err := OpenStore(s.Dir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	rf := filepath.Join(s.Dir(), recordFile)
	if err := os.WriteFile(rf, []byte("{torn"), 0o600); err != nil {
		t.Fatal(err)
	}
	loadCorruptHook = func() {
		if _, err := other.Update(context.Background(), func(r *Record) (bool, error) {
			r.ActiveRoot = "/kept"
			return true, nil
		}); err != nil {
			t.Error(err)
		}
	}
	defer func() { loadCorruptHook = nil }()
	if r := s.Load(); r.ActiveRoot != "/kept" {
		t.Errorf("Load returned %+v, want the concurrently written record", r)
	}
	loadCorruptHook = nil
	if r := other.Load(); r.ActiveRoot != "/kept" {
		t.Fatalf("the concurrent update was lost: %+v", r)
	}
	aside, _ := filepath.Glob(rf + ".corrupt-*")
	if len(aside) != 1 {
		t.Fatalf("moved aside: %v", aside)
	}
	if b, _ := os.ReadFile(aside[0]); string(b) != "{torn" {
		t.Errorf("moved aside %q, want the corrupt bytes", b)
	}
}

func TestStoreRecordIsJSON(t *testing.T) {
	s, _ := newTestStore(t)
	if _, err := s.Update(context.Background(), func(r *Record) (bool, error) {
		r.ActiveRoot = "/w"
		r.Session("/w")
		return true, nil
	}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(s.Dir(), recordFile))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil || m["format"] != float64(recordFormat) || m["active_root"] != "/w" {
		t.Fatalf("record file %s: %v", b, err)
	}
	// Empty lists are written as lists, never null; buffers live in their
	// own files (layout.go).
	if !strings.Contains(string(b), `"expanded":[]`) || strings.Contains(string(b), `"buffers"`) {
		t.Errorf("record file %s", b)
	}
	// No temp files are left in the state dir.
	ents, _ := os.ReadDir(s.Dir())
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("temp file left: %s", e.Name())
		}
	}
}

// TestStoreUpdateUnreadableRecord: when the record cannot be read (an I/O
// error, not corruption), Update fails instead of writing a fresh record
// over it; Load still answers with an empty record and a warning.
func TestStoreUpdateUnreadableRecord(t *testing.T) {
	s, warns := newTestStore(t)
	rf := filepath.Join(s.Dir(), recordFile)
	if err := syscall.Mkfifo(rf, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if _, err := s.Update(context.Background(), func(r *Record) (bool, error) {
		r.ActiveRoot = "/clobber"
		return true, nil
	}); err == nil {
		t.Fatal("Update wrote over a record it could not read")
	}
	if fi, err := os.Lstat(rf); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the unreadable record was replaced: %v %v", fi, err)
	}
	if r := s.Load(); r.ActiveRoot != "" || len(*warns) != 1 {
		t.Fatalf("Load: %+v, warnings %v", r, *warns)
	}
}
