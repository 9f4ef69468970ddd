package shell

import (
	"os"
	"sync"
	"testing"
)

// A save's content is prepared beside the file before the caller's locks
// and put in place under them: until Commit the file is untouched, after
// it the file is the new content with the old one's mode, and Finish
// leaves no temp file.
func TestPendingReplace(t *testing.T) {
	f := newFixture(t)
	mustWrite(t, f.abs("f.txt"), "old\n", 0o640)
	p, err := f.j.PrepareReplace(f.abs("f.txt"), []byte("new\n"), WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Abort()
	if got := f.read("f.txt"); got != "old\n" {
		t.Fatalf("prepared content leaked into the file: %q", got)
	}
	cur, err := f.j.Stat(f.abs("f.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if !p.Replaces(cur) {
		t.Fatal("Replaces is false for the file it was prepared against")
	}
	info, err := p.Commit(nil)
	if err != nil {
		t.Fatal(err)
	}
	p.Finish()
	if got := f.read("f.txt"); got != "new\n" {
		t.Fatalf("after Commit: %q", got)
	}
	fi, err := os.Stat(f.abs("f.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want the old file's 0640", fi.Mode().Perm())
	}
	if info.Size != 4 || info.ModNano != fi.ModTime().UnixNano() || info.Ino != inoOf(t, f.abs("f.txt")) {
		t.Errorf("Commit's info %+v does not describe the file now", info)
	}
	if tmp := tempFiles(t, f.root); len(tmp) != 0 {
		t.Errorf("temp files left: %v", tmp)
	}
}

// A file replaced (another inode) or given another mode after the prepare
// is not the file the prepared content carries the mode and owner of:
// Replaces says so, and Abort removes the temp file, leaving the file be.
func TestPendingNotReplacingAnotherFile(t *testing.T) {
	for _, change := range []string{"replaced", "chmod"} {
		t.Run(change, func(t *testing.T) {
			f := newFixture(t)
			mustWrite(t, f.abs("f.txt"), "old\n", 0o644)
			p, err := f.j.PrepareReplace(f.abs("f.txt"), []byte("new\n"), WriteOptions{})
			if err != nil {
				t.Fatal(err)
			}
			switch change {
			case "replaced":
				mustWrite(t, f.abs("g.txt"), "old\n", 0o644)
				if err := os.Rename(f.abs("g.txt"), f.abs("f.txt")); err != nil {
					t.Fatal(err)
				}
			case "chmod":
				if err := os.Chmod(f.abs("f.txt"), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			cur, err := f.j.Stat(f.abs("f.txt"))
			if err != nil {
				t.Fatal(err)
			}
			if p.Replaces(cur) {
				t.Fatal("Replaces is true for a file changed since the prepare")
			}
			p.Abort()
			p.Abort() // twice is harmless
			if got := f.read("f.txt"); got != "old\n" {
				t.Fatalf("the file changed: %q", got)
			}
			if tmp := tempFiles(t, f.root); len(tmp) != 0 {
				t.Errorf("temp files left: %v", tmp)
			}
		})
	}
}

// PrepareReplace replaces only: a missing file is not_found and leaves
// nothing behind.
func TestPendingReplaceMissing(t *testing.T) {
	f := newFixture(t)
	_, err := f.j.PrepareReplace(f.abs("nope.txt"), []byte("x"), WriteOptions{})
	wantCode(t, err, CodeNotFound)
	if tmp := tempFiles(t, f.root); len(tmp) != 0 {
		t.Errorf("temp files left: %v", tmp)
	}
	if f.exists("nope.txt") {
		t.Error("created")
	}
}

// Many writers of one folder finishing at once each return only once
// their rename is durable: the shared folder fsyncs serve them all, and
// none is left waiting.
func TestPendingFinishShared(t *testing.T) {
	f := newFixture(t)
	const n = 16
	for i := range n {
		mustWrite(t, f.abs(string(rune('a'+i))+".txt"), "old\n", 0o644)
	}
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			for k := range 20 {
				p, err := f.j.PrepareReplace(f.abs(string(rune('a'+i))+".txt"), []byte{byte('0' + k%10), '\n'}, WriteOptions{})
				if err != nil {
					t.Error(err)
					return
				}
				if _, err := p.Commit(nil); err != nil {
					t.Error(err)
				}
				p.Finish()
			}
		})
	}
	wg.Wait()
	for i := range n {
		if got := f.read(string(rune('a'+i)) + ".txt"); got != "9\n" {
			t.Errorf("%c.txt = %q", 'a'+i, got)
		}
	}
	dirSyncs.Lock()
	left := len(dirSyncs.m)
	dirSyncs.Unlock()
	if left != 0 {
		t.Errorf("%d folder sync states left", left)
	}
}

func inoOf(t *testing.T, p string) uint64 {
	t.Helper()
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return infoOf(fi).Ino
}
