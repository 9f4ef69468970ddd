package editor

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
)

// The memo answers exactly Version: for the bytes it saw, for other bytes
// of the same file (one byte changed, same size), and after evictions.
func TestVersionMemoExact(t *testing.T) {
	var m versionMemo
	a := bytes.Repeat([]byte("line of text\n"), 10000) // 130 KB
	b := bytes.Clone(a)
	b[len(b)/2] = 'X'
	for i, data := range [][]byte{a, a, b, a, b, b[:100]} {
		if got, want := m.of("f", data), Version(data); got != want {
			t.Fatalf("step %d: %s, want %s", i, got, want)
		}
	}
	for i := range 600 { // past memoMax: the oldest go
		m.of(fmt.Sprint(i), a)
	}
	if m.size > memoMax {
		t.Errorf("holds %d bytes, more than %d", m.size, memoMax)
	}
	if got := m.of("f", b); got != Version(b) {
		t.Errorf("after evictions: %s", got)
	}
}

// A large file changed in place by another program (same size, one byte)
// after this process read it is a conflict for a save guarded by the old
// version (strict: not merged): the memo compares bytes, it does not trust
// a file's identity.
func TestSaveLargeChangedSameSizeConflicts(t *testing.T) {
	e := tcNew(t)
	text := strings.Repeat("a line of a large file\n", 8000) // 184 KB
	e.write("big.txt", text)
	o := e.open("big.txt")
	other := []byte(text)
	other[1000] = 'Z'
	tcWriteFile(t, e.abs("big.txt"), string(other), 0o644)
	r, err := e.s.Save(context.Background(), &SaveRequest{Path: "big.txt", Content: text + "more\n", ExpectedVersion: &o.Version, Strict: true})
	if err != nil || !r.Conflict {
		t.Fatalf("%+v %v, want a conflict", r, err)
	}
	if e.read("big.txt") != string(other) {
		t.Fatal("clobbered")
	}
	// Saved, then opened: the version is the content's.
	r, err = e.s.Save(context.Background(), &SaveRequest{Path: "big.txt", Content: text, ExpectedVersion: r.DiskVersion})
	if err != nil || !r.Saved || r.Version != Version([]byte(text)) {
		t.Fatalf("%+v %v", r, err)
	}
	if o := e.open("big.txt"); o.Version != r.Version {
		t.Fatalf("open after save: %s, want %s", o.Version, r.Version)
	}
}
