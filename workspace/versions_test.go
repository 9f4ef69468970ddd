package workspace

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func versionFiles(t *testing.T, s *Store) map[string]int64 {
	t.Helper()
	ents, err := os.ReadDir(filepath.Join(s.Dir(), versionsDir))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int64{}
	for _, e := range ents {
		fi, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = fi.Size()
	}
	return out
}

// The store never holds more than its bounds, in entries or in bytes, and
// gives back exactly what it was given.
func TestVersionStoreBounded(t *testing.T) {
	s, _ := newTestStore(t)
	lim := VersionLimits{Count: 4, Bytes: 1 << 20}
	for i := range 40 {
		s.KeepVersion(fmt.Sprintf("%x-%016x", i, i), []byte(fmt.Sprint("content ", i)), lim)
		if n := len(versionFiles(t, s)); n > lim.Count {
			t.Fatalf("after %d keeps: %d entries, over %d", i+1, n, lim.Count)
		}
	}
	if data, ok := s.VersionContent(fmt.Sprintf("%x-%016x", 39, 39)); !ok || string(data) != "content 39" {
		t.Fatalf("%q %v", data, ok)
	}
	if _, ok := s.VersionContent(fmt.Sprintf("%x-%016x", 0, 0)); ok {
		t.Fatal("the oldest entry was kept past the bound")
	}
	lim = VersionLimits{Count: 1000, Bytes: 800}
	for i := range 30 {
		s.KeepVersion(fmt.Sprintf("b-%016x", i), []byte(strings.Repeat("x", 100)), lim)
		var total int64
		for _, n := range versionFiles(t, s) {
			total += n
		}
		if total > lim.Bytes {
			t.Fatalf("after %d keeps: %d bytes, over %d", i+1, total, lim.Bytes)
		}
	}
	// One content over an eighth of the bytes is not kept at all.
	s.KeepVersion("c-0000000000000000", []byte(strings.Repeat("x", 101)), lim)
	if _, ok := s.VersionContent("c-0000000000000000"); ok {
		t.Fatal("a content over bytes/8 was kept")
	}
}

// Handing a version out again makes it recent: eviction takes the least
// recently handed out.
func TestVersionStoreEvictsLeastRecentlyUsed(t *testing.T) {
	s, _ := newTestStore(t)
	lim := VersionLimits{Count: 3, Bytes: 1 << 20}
	names := []string{"1-000000000000000a", "1-000000000000000b", "1-000000000000000c"}
	for i, v := range names {
		s.KeepVersion(v, []byte{'a' + byte(i)}, lim)
		old := time.Now().Add(time.Duration(i-10) * time.Minute) // a oldest
		if err := os.Chtimes(filepath.Join(s.Dir(), versionsDir, v), old, old); err != nil {
			t.Fatal(err)
		}
	}
	if !s.TouchVersion(names[0]) { // a is handed out again
		t.Fatal("a is not held")
	}
	s.KeepVersion("1-000000000000000d", []byte("d"), lim)
	got := versionFiles(t, s)
	if _, ok := got[names[1]]; ok || len(got) != 3 {
		t.Fatalf("kept %v; b, the least recently used, should be gone", got)
	}
}

// A version names a file only when it looks like one: a caller's
// expected_version never reaches another path.
func TestVersionStoreRefusesOtherNames(t *testing.T) {
	s, _ := newTestStore(t)
	lim := VersionLimits{Count: 10, Bytes: 1 << 20}
	for _, v := range []string{"", "../workspace.json", "ABC-1", "-1", "1-", "1-2-3", "1/2", strings.Repeat("a", 38) + "-1"} {
		s.KeepVersion(v, []byte("x"), lim)
		if _, ok := s.VersionContent(v); ok {
			t.Errorf("%q was kept", v)
		}
	}
	if _, err := os.Stat(filepath.Join(s.Dir(), versionsDir)); !os.IsNotExist(err) {
		t.Fatalf("something was written: %v", err)
	}
}
