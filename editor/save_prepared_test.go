package editor

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/editord/editord/workspace"
)

// A save writes its content beside the file before taking its locks. If
// the file is replaced by another with another mode meanwhile (same
// content, so the guard still passes), the save keeps the mode of the
// file it replaces, not the one it prepared against.
func TestSavePreparedKeepsModeOfFileReplaced(t *testing.T) {
	e := tcNew(t)
	e.writeMode("f.sh", "echo 1\n", 0o644)
	o := e.open("f.sh")
	preparedHook = func(*saving) {
		tmp := e.abs("other")
		tcWriteFile(t, tmp, "echo 1\n", 0o755)
		if err := os.Chmod(tmp, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, e.abs("f.sh")); err != nil {
			t.Fatal(err)
		}
	}
	defer func() { preparedHook = nil }()
	r, err := e.s.Save(context.Background(), &SaveRequest{Path: "f.sh", Content: "echo 2\n", ExpectedVersion: &o.Version})
	if err != nil || !r.Saved {
		t.Fatalf("%+v %v", r, err)
	}
	if got := e.read("f.sh"); got != "echo 2\n" {
		t.Fatalf("content %q", got)
	}
	fi, err := os.Stat(e.abs("f.sh"))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o755 {
		t.Errorf("mode %v, want 0755 (the file replaced)", fi.Mode().Perm())
	}
	if entries, _ := os.ReadDir(e.root); len(entries) != 1 {
		t.Errorf("temp files left: %v", entries)
	}
}

// A prepared save whose guard fails (the file changed) writes nothing and
// leaves no temp file.
func TestSavePreparedConflictLeavesNothing(t *testing.T) {
	e := tcNew(t)
	e.write("f.txt", "v1\n")
	o := e.open("f.txt")
	e.write("f.txt", "v2\n")
	r, err := e.s.Save(context.Background(), &SaveRequest{Path: "f.txt", Content: "ours\n", ExpectedVersion: &o.Version})
	if err != nil || !r.Conflict {
		t.Fatalf("%+v %v", r, err)
	}
	if got := e.read("f.txt"); got != "v2\n" {
		t.Fatalf("clobbered: %q", got)
	}
	if entries, _ := os.ReadDir(e.root); len(entries) != 1 {
		t.Errorf("temp files left: %v", entries)
	}
}

// The flock on a file's folder (which writers through other state dirs
// wait for) is held only around the check and the rename: a save whose
// record update waits does not hold back a save of another file in the
// folder made through another state dir. Before, the second save waited
// for the first to finish and, with the record held, timed out.
func TestSaveFolderLockOnlyAroundRename(t *testing.T) {
	e := tcNew(t)
	e.write("a.txt", "a1\n")
	e.write("b.txt", "b1\n")
	other, err := New(e.cfg, Options{Root: e.root, StateDir: filepath.Join(e.base, "state2")})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	ctx := context.Background()
	// Hold the first state dir's record lock, as a stuck process would.
	st, err := workspace.OpenStore(e.state, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	unlock, err := st.Lock(ctx, "workspace.lock")
	if err != nil {
		t.Fatal(err)
	}
	first := make(chan error, 1)
	go func() {
		_, err := e.s.Save(ctx, &SaveRequest{Path: "a.txt", Content: "a2\n", Force: true})
		first <- err
	}()
	// The first save's content lands; its record update then waits.
	for e.read("a.txt") != "a2\n" {
		select {
		case err := <-first:
			t.Fatalf("the first save ended before its record update: %v", err)
		default:
		}
		time.Sleep(time.Millisecond)
	}
	r, err := other.Save(ctx, &SaveRequest{Path: "b.txt", Content: "b2\n", Force: true})
	unlock()
	if err != nil || !r.Saved {
		t.Fatalf("a save of another file of the folder while the first waits for its record: %+v %v (code %s)", r, err, tcCode(err))
	}
	if err := <-first; err != nil {
		t.Fatalf("first save: %v", err)
	}
	if e.read("b.txt") != "b2\n" {
		t.Fatal("b.txt not saved")
	}
}
