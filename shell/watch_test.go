package shell

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// watchCollect gathers events until one satisfies stop, or fails after 3 s.
func watchCollect(t *testing.T, w *Watcher, stop func(WatchEvent) bool) []WatchEvent {
	t.Helper()
	var got []WatchEvent
	deadline := time.After(3 * time.Second)
	for {
		select {
		case ev, ok := <-w.Events():
			if !ok {
				t.Fatalf("events closed; got %v", got)
			}
			got = append(got, ev)
			if stop(ev) {
				return got
			}
		case err := <-w.Errors():
			t.Fatalf("watch error: %v", err)
		case <-deadline:
			t.Fatalf("no matching event within 3s; got %v", got)
		}
	}
}

func newTestWatcher(t *testing.T, f *fixture) *Watcher {
	t.Helper()
	w, err := f.j.NewWatcher()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w
}

func TestWatchOps(t *testing.T) {
	f := newFixture(t)
	f.file("a.txt", "a\n")
	w := newTestWatcher(t, f)
	if err := w.Add(f.root); err != nil {
		t.Fatal(err)
	}
	if w.Len() != 1 {
		t.Fatalf("Len = %d, want 1", w.Len())
	}
	is := func(rel string, op WatchOp) func(WatchEvent) bool {
		return func(ev WatchEvent) bool { return ev.Path == f.abs(rel) && ev.Op.Has(op) }
	}
	mustWrite(t, f.abs("b.txt"), "b\n", 0o644)
	watchCollect(t, w, is("b.txt", WatchCreate))
	if err := os.WriteFile(f.abs("a.txt"), []byte("a2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	watchCollect(t, w, is("a.txt", WatchWrite))
	if err := os.Chmod(f.abs("a.txt"), 0o600); err != nil {
		t.Fatal(err)
	}
	watchCollect(t, w, is("a.txt", WatchChmod))
	if err := os.Remove(f.abs("b.txt")); err != nil {
		t.Fatal(err)
	}
	watchCollect(t, w, is("b.txt", WatchRemove))
}

// The kernel pairs the halves of a rename; fsnotify shows the pairing only
// in Event.String, which renamedFrom parses. This pins that format.
func TestWatchRenamePairing(t *testing.T) {
	f := newFixture(t)
	f.file("old.txt", "x\n")
	f.dir("sub")
	w := newTestWatcher(t, f)
	for _, d := range []string{f.root, f.abs("sub")} {
		if err := w.Add(d); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Rename(f.abs("old.txt"), f.abs("sub/new ← \"q\".txt")); err != nil {
		t.Fatal(err)
	}
	got := watchCollect(t, w, func(ev WatchEvent) bool { return ev.Op.Has(WatchCreate) })
	last := got[len(got)-1]
	if last.Path != f.abs("sub/new ← \"q\".txt") || last.From != f.abs("old.txt") {
		t.Fatalf("create = %+v, want from %s", last, f.abs("old.txt"))
	}
	var sawRename bool
	for _, ev := range got {
		if ev.Path == f.abs("old.txt") && ev.Op.Has(WatchRename) {
			sawRename = true
		}
	}
	if !sawRename {
		t.Fatalf("no rename event for the old name: %v", got)
	}
	// A file moved in from outside the watched folders has no source.
	if err := os.WriteFile(filepath.Join(f.canary, "in.txt"), []byte("in\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(f.canary, "in.txt"), f.abs("in.txt")); err != nil {
		t.Fatal(err)
	}
	got = watchCollect(t, w, func(ev WatchEvent) bool { return ev.Path == f.abs("in.txt") })
	if from := got[len(got)-1].From; from != "" {
		t.Fatalf("from = %q for a file moved in from outside", from)
	}
}

func TestWatchAddRefusals(t *testing.T) {
	f := newFixture(t)
	f.dir("secrets")
	f.file("file.txt", "x")
	f.dir("real")
	f.link("real", "linked")
	w := newTestWatcher(t, f)
	wantCode(t, w.Add(f.canary), CodeOutsideJail)
	wantCode(t, w.Add(f.abs("secrets/x")), CodeDenied)
	wantCode(t, w.Add(f.abs("file.txt")), CodeNotADirectory)
	wantCode(t, w.Add(f.abs("missing")), CodeNotFound)
	wantCode(t, w.Add(f.abs("linked")), CodeNotADirectory)
	wantCode(t, w.Add("relative"), CodeInvalidArgument)
	wantCode(t, w.Remove(f.canary), CodeOutsideJail)
	if err := w.Remove(f.abs("real")); err != nil {
		t.Fatalf("removing an unwatched folder: %v", err)
	}
	if w.Len() != 0 {
		t.Fatalf("Len = %d after refusals", w.Len())
	}
	// Denied paths inside a watched folder are not reported.
	f.dir("d")
	if err := w.Add(f.abs("d")); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, f.abs("d/.env"), "SECRET=1\n", 0o600)
	mustWrite(t, f.abs("d/ok.txt"), "ok\n", 0o644)
	got := watchCollect(t, w, func(ev WatchEvent) bool { return ev.Path == f.abs("d/ok.txt") })
	for _, ev := range got {
		if ev.Path == f.abs("d/.env") {
			t.Fatalf("denied path reported: %v", ev)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	for range w.Events() {
	}
}

func TestInotifyBudget(t *testing.T) {
	n, ok := InotifyBudget()
	if _, err := os.Stat("/proc/sys/fs/inotify/max_user_watches"); err != nil {
		if ok {
			t.Fatalf("budget %d reported without /proc", n)
		}
		t.Skip("no inotify limits in /proc here")
	}
	if !ok || n <= 0 {
		t.Fatalf("InotifyBudget = %d, %v", n, ok)
	}
}

func TestGitIgnored(t *testing.T) {
	f := newFixture(t)
	f.file(".gitignore", "/out/\n*.log\n")
	f.file("pkg/.gitignore", "gen/\n!keep.log\n")
	f.file(".git/info/exclude", "local/\n")
	for _, tc := range []struct {
		rel   string
		isDir bool
		want  bool
	}{
		{"out", true, true},
		{"out", false, false},
		{"pkg/out", true, false},
		{"a.log", false, true},
		{"pkg/keep.log", false, false},
		{"pkg/gen", true, true},
		{"pkg/gen/x/y", true, true},
		{"gen", true, false},
		{"local", true, true},
		{"src", true, false},
	} {
		if got := f.j.GitIgnored(f.root, f.abs(tc.rel), tc.isDir); got != tc.want {
			t.Errorf("GitIgnored(%s, dir=%v) = %v, want %v", tc.rel, tc.isDir, got, tc.want)
		}
	}
	if f.j.GitIgnored(f.root, f.canary, true) {
		t.Error("a path outside the jail is not ignored, it is outside")
	}
}

// TestGitIgnoredSymlinkedGitignore: a .gitignore that is a symbolic link
// is not followed, as git does not follow it (it warns "unable to access
// '.gitignore': Too many levels of symbolic links") and as the walks do
// not; so the watcher watches a folder git status lists.
func TestGitIgnoredSymlinkedGitignore(t *testing.T) {
	f := newFixture(t)
	f.file("rules", "secret/\n")
	f.file("sub/rules", "hidden/\n")
	if err := os.Symlink("rules", f.abs(".gitignore")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("rules", f.abs("sub/.gitignore")); err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{"secret", "sub/hidden"} {
		if f.j.GitIgnored(f.root, f.abs(rel), true) {
			t.Errorf("%s: ignored through a symlinked .gitignore", rel)
		}
	}
}

// A watched folder moved and then removed before the watcher handles the
// move: fsnotify drops the watch the kernel already dropped and gets
// EINVAL, which it passes on as an error. That is no trouble of ours (the
// events say what happened), so it is not reported: the server used to
// warn its clients "watcher: invalid argument".
func TestWatchMovedThenRemovedFolderNoError(t *testing.T) {
	f := newFixture(t)
	w := newTestWatcher(t, f)
	if err := w.Add(f.root); err != nil {
		t.Fatal(err)
	}
	for i := range 30 {
		d, moved := f.abs(fmt.Sprintf("d%d", i)), f.abs(fmt.Sprintf("moved%d", i))
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := w.Add(d); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(d, moved); err != nil {
			t.Fatal(err)
		}
		if err := os.Remove(moved); err != nil {
			t.Fatal(err)
		}
	}
	mustWrite(t, f.abs("end.txt"), "end\n", 0o644)
	watchCollect(t, w, func(ev WatchEvent) bool { return ev.Path == f.abs("end.txt") })
}
