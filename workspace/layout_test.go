package workspace

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func bufPaths(r *Record, root string) []string {
	var out []string
	for _, b := range r.Session(root).Buffers {
		out = append(out, b.Path)
	}
	return out
}

func openN(t *testing.T, s *Store, root string, paths ...string) {
	t.Helper()
	if _, err := s.Update(context.Background(), func(r *Record) (bool, error) {
		r.ActiveRoot = root
		changed := false
		for _, p := range paths {
			changed = r.Session(root).Upsert(Buffer{Path: p, Version: "1-" + p, Language: "go"}) || changed
		}
		return changed, nil
	}); err != nil {
		t.Fatal(err)
	}
}

// bufferFiles maps every buffer file to what it is now.
func bufferFiles(t *testing.T, s *Store) map[string]os.FileInfo {
	t.Helper()
	out := map[string]os.FileInfo{}
	filepath.WalkDir(filepath.Join(s.Dir(), buffersDir), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			fi, _ := d.Info()
			out[p] = fi
		}
		return nil
	})
	return out
}

// TestRecordOneBufferOneFile: with many buffers open, changing one writes
// one buffer file (and the small core), not the whole record (issue 12:
// every change rewrote a 1 MB record).
func TestRecordOneBufferOneFile(t *testing.T) {
	s, _ := newTestStore(t)
	var paths []string
	for i := range 500 {
		paths = append(paths, fmt.Sprintf("src/f%03d.go", i))
	}
	openN(t, s, "/w", paths...)
	before := bufferFiles(t, s)
	if len(before) != 500 {
		t.Fatalf("%d buffer files for 500 buffers", len(before))
	}
	core, _ := os.ReadFile(filepath.Join(s.Dir(), recordFile))
	if len(core) > 4096 {
		t.Errorf("the core file is %d bytes with 500 buffers", len(core))
	}
	if _, err := s.Update(context.Background(), func(r *Record) (bool, error) {
		return r.Session("/w").Upsert(Buffer{Path: "src/f250.go", Version: "2-x", Language: "go"}), nil
	}); err != nil {
		t.Fatal(err)
	}
	after := bufferFiles(t, s)
	var changed []string
	for p, fi := range after {
		// Files are replaced by a rename: a rewritten one is a new file,
		// however coarse the clock of mtimes.
		if was := before[p]; was == nil || !os.SameFile(fi, was) || !fi.ModTime().Equal(was.ModTime()) {
			changed = append(changed, filepath.Base(p))
		}
	}
	if len(changed) != 1 || changed[0] != filepath.Base(bufName("/w", "src/f250.go")) {
		t.Errorf("changing one buffer rewrote %d buffer files: %v", len(changed), changed)
	}
	// Another process sees it, and the tab order, unchanged.
	s2, _ := OpenStore(s.Dir(), nil)
	defer s2.Close()
	r := s2.Load()
	if got := bufPaths(r, "/w"); !slices.Equal(got, paths) {
		t.Fatalf("tab order read back: %v", got[:5])
	}
	if r.Session("/w").Buffers[250].Version != "2-x" {
		t.Errorf("the changed buffer read back as %+v", r.Session("/w").Buffers[250])
	}
}

// TestRecordFollowsOtherProcess: a store that knew the record re-reads
// only what another changed (opens, closes, a move that keeps tab order),
// and one that fell far behind reads every buffer file again; both agree
// with a fresh reader.
func TestRecordFollowsOtherProcess(t *testing.T) {
	s, _ := newTestStore(t)
	s2, _ := OpenStore(s.Dir(), nil)
	defer s2.Close()
	ctx := context.Background()
	openN(t, s, "/w", "a", "b", "c", "d")
	openN(t, s, "/v", "x")
	s2.Load()
	check := func(what string, want ...string) {
		t.Helper()
		fresh, _ := OpenStore(s.Dir(), nil)
		defer fresh.Close()
		for _, st := range []*Store{s, s2, fresh} {
			if got := bufPaths(st.Load(), "/w"); !slices.Equal(got, want) {
				t.Fatalf("%s: %v, want %v", what, got, want)
			}
		}
		if got := bufPaths(s2.Load(), "/v"); !slices.Equal(got, []string{"x"}) {
			t.Fatalf("%s: the other root's buffers %v", what, got)
		}
	}
	check("opened", "a", "b", "c", "d")
	s.Update(ctx, func(r *Record) (bool, error) { return r.Session("/w").Close("b"), nil })
	check("closed b", "a", "c", "d")
	s.Update(ctx, func(r *Record) (bool, error) { return r.Session("/w").Move("c", "z/c") > 0, nil })
	check("moved c", "a", "z/c", "d")
	openN(t, s, "/w", "e")
	check("opened e", "a", "z/c", "d", "e")
	// Far behind: more changes than the core remembers.
	for i := range recentMax + 10 {
		openN(t, s, "/w", fmt.Sprintf("n%d", i))
	}
	s.Update(ctx, func(r *Record) (bool, error) {
		ses := r.Session("/w")
		n := 0
		for _, p := range bufPaths(r, "/w") {
			if strings.HasPrefix(p, "n") {
				n++
				ses.Close(p)
			}
		}
		return n > 0, nil
	})
	check("after many changes", "a", "z/c", "d", "e")
}

// TestRecordFormat1Migrates: a record of format 1 (buffers inline) is read
// and written back as format 2 with the same buffers in the same order.
func TestRecordFormat1Migrates(t *testing.T) {
	s, warns := newTestStore(t)
	old := `{"format": 1, "active_root": "/w", "sessions": {"/w": {"buffers": [` +
		`{"path": "b.go", "version": "1-b", "mtime": 2, "language": "go"},` +
		`{"path": "a.go", "version": "1-a", "mtime": 1, "language": "go"}], "expanded": ["src"]}}}`
	os.WriteFile(filepath.Join(s.Dir(), recordFile), []byte(old), 0o600)
	if got := bufPaths(s.Load(), "/w"); !slices.Equal(got, []string{"b.go", "a.go"}) {
		t.Fatalf("format 1 read as %v", got)
	}
	openN(t, s, "/w", "c.go")
	s2, _ := OpenStore(s.Dir(), nil)
	defer s2.Close()
	r := s2.Load()
	if got := bufPaths(r, "/w"); !slices.Equal(got, []string{"b.go", "a.go", "c.go"}) || r.Session("/w").Expanded[0] != "src" {
		t.Fatalf("after the migration: %v %v", got, r.Session("/w").Expanded)
	}
	if b, _ := os.ReadFile(filepath.Join(s.Dir(), recordFile)); !strings.Contains(string(b), `"format":2`) {
		t.Errorf("not migrated: %s", b)
	}
	if len(*warns) != 0 {
		t.Errorf("warnings: %v", *warns)
	}
}

// TestRecordCorruptBufferFile: a corrupt buffer file is moved aside with a
// warning; the other buffers are read.
func TestRecordCorruptBufferFile(t *testing.T) {
	s, _ := newTestStore(t)
	openN(t, s, "/w", "a", "b")
	bad := filepath.Join(s.Dir(), bufName("/w", "a"))
	os.WriteFile(bad, []byte("{garbage"), 0o600)
	s2, err := OpenStore(s.Dir(), func(string) {})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	var warned []string
	s2.warn = func(m string) { warned = append(warned, m) }
	if got := bufPaths(s2.Load(), "/w"); !slices.Equal(got, []string{"b"}) {
		t.Fatalf("with a corrupt buffer file: %v", got)
	}
	aside, _ := filepath.Glob(bad + ".corrupt-*")
	if len(aside) != 1 || len(warned) != 1 {
		t.Fatalf("moved aside %v, warnings %v", aside, warned)
	}
}

// TestRecordResetByDeletingCore: deleting the record with no process
// running resets it (docs/reliability.md), buffer files or not: a new
// process starts empty and its first write removes the old buffer files.
func TestRecordResetByDeletingCore(t *testing.T) {
	s, _ := newTestStore(t)
	openN(t, s, "/w", "a", "b")
	os.Remove(filepath.Join(s.Dir(), recordFile))
	s2, _ := OpenStore(s.Dir(), nil)
	defer s2.Close()
	if got := bufPaths(s2.Load(), "/w"); len(got) != 0 {
		t.Fatalf("buffers after a reset: %v", got)
	}
	openN(t, s2, "/w", "c")
	if got := bufferFiles(t, s2); len(got) != 1 {
		t.Fatalf("buffer files after the first write: %v", got)
	}
	s3, _ := OpenStore(s.Dir(), nil)
	defer s3.Close()
	if got := bufPaths(s3.Load(), "/w"); !slices.Equal(got, []string{"c"}) {
		t.Fatalf("after the reset and one open: %v", got)
	}
}

// TestRecordCoreWriteFailsUndoesBuffers: when the core cannot be written,
// the buffer files written before it are put back.
func TestRecordCoreWriteFailsUndoesBuffers(t *testing.T) {
	s, _ := newTestStore(t)
	openN(t, s, "/w", "a")
	rf := filepath.Join(s.Dir(), recordFile)
	os.Remove(rf)
	os.Mkdir(rf, 0o700) // the core cannot be replaced by a file now
	_, err := s.Update(context.Background(), func(r *Record) (bool, error) {
		return r.Session("/w").Upsert(Buffer{Path: "new", Version: "1-n"}), nil
	})
	if err == nil {
		t.Fatal("the update succeeded with a folder for the core")
	}
	if _, err := os.Stat(filepath.Join(s.Dir(), bufName("/w", "new"))); !os.IsNotExist(err) {
		t.Errorf("the new buffer's file was left behind: %v", err)
	}
}

func TestAssignOrders(t *testing.T) {
	bufs := func(ps ...string) []Buffer {
		var out []Buffer
		for _, p := range ps {
			out = append(out, Buffer{Path: p})
		}
		return out
	}
	increasing := func(o []int64, bs []Buffer) bool {
		for i := 1; i < len(bs); i++ {
			if o[i] <= o[i-1] {
				return false
			}
		}
		return true
	}
	asMap := func(o []int64, bs []Buffer) map[string]int64 {
		m := map[string]int64{}
		for i, b := range bs {
			m[b.Path] = o[i]
		}
		return m
	}
	o := assignOrders(bufs("a", "b", "c"), nil)
	if !increasing(o, bufs("a", "b", "c")) {
		t.Fatalf("%v", o)
	}
	// A path renamed in the middle keeps its place; the others keep theirs.
	next := bufs("a", "b2", "c")
	o2 := assignOrders(next, asMap(o, bufs("a", "b", "c")))
	if !increasing(o2, next) || o2[0] != o[0] || o2[2] != o[2] {
		t.Fatalf("%v from %v", o2, o)
	}
	// No room between two neighbours: everything is renumbered.
	tight := map[string]int64{"a": 1, "c": 2}
	o3 := assignOrders(bufs("a", "b", "c"), tight)
	if !increasing(o3, bufs("a", "b", "c")) {
		t.Fatalf("%v", o3)
	}
}

// TestRecordKeepsTopLevelFields: every top-level field of the record
// survives the core file (RootBy, RootAt, and whatever is added later).
func TestRecordKeepsTopLevelFields(t *testing.T) {
	s, _ := newTestStore(t)
	if _, err := s.Update(context.Background(), func(r *Record) (bool, error) {
		r.ActiveRoot, r.RootBy, r.RootAt = "/w", "agent#1234", 42
		return true, nil
	}); err != nil {
		t.Fatal(err)
	}
	s2, _ := OpenStore(s.Dir(), nil)
	defer s2.Close()
	if r := s2.Load(); r.RootBy != "agent#1234" || r.RootAt != 42 {
		t.Fatalf("read back %+v", r)
	}
}

// A write whose core fails after its buffer files were written puts them
// back as the record on disk has them: a refreshed buffer's file gets its
// old content again (from the record this process knew, not a read of the
// file first), a new buffer's file is removed, and another process reads
// the record as it was.
func TestRecordCoreWriteFailsRestoresRefreshed(t *testing.T) {
	s, _ := newTestStore(t)
	openN(t, s, "/w", "a", "b")
	before, err := os.ReadFile(filepath.Join(s.Dir(), bufName("/w", "a")))
	if err != nil {
		t.Fatal(err)
	}
	coreWriteHook = func() error { return fmt.Errorf("disk trouble") }
	_, err = s.Update(context.Background(), func(r *Record) (bool, error) {
		ses := r.Session("/w")
		ses.Upsert(Buffer{Path: "a", Version: "2-a", Language: "go"})
		ses.Upsert(Buffer{Path: "c", Version: "1-c", Language: "go"})
		return true, nil
	})
	coreWriteHook = nil
	if err == nil {
		t.Fatal("the update succeeded though its core write failed")
	}
	after, err := os.ReadFile(filepath.Join(s.Dir(), bufName("/w", "a")))
	if err != nil {
		t.Fatal(err)
	}
	if string(after) != string(before) {
		t.Errorf("a's buffer file after the failed write:\n%s\nwant as before:\n%s", after, before)
	}
	if _, err := os.Stat(filepath.Join(s.Dir(), bufName("/w", "c"))); !os.IsNotExist(err) {
		t.Errorf("the new buffer's file was left behind: %v", err)
	}
	other, err := OpenStore(s.Dir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	ses := other.Load().Session("/w")
	if got := fmt.Sprint(bufPaths(other.Load(), "/w")); got != "[a b]" || ses.Buffers[0].Version != "1-a" {
		t.Errorf("another process reads %s, a at %s", got, ses.Buffers[0].Version)
	}
}
