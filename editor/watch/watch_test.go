package watch

// Tests of the filesystem watcher. Helpers start with tw so that they never
// collide with other test files of the package.

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/editord/editord/editor"
	"github.com/editord/editord/shell"
	"github.com/editord/editord/workspace"
)

// twPatience bounds every wait for the watcher: far more than it needs
// on an idle machine, so that only a real failure runs into it.
const twPatience = 30 * time.Second

// twFence is the name prefix of the fences the tests write into the root
// (fence.go): a watcher started by twStart flushes its batch only at
// a fence, so the writes of one step of a test are one batch however
// loaded the machine is, and twSettle knows when they are all decided.
const twFence = ".editord-twfence-"

var twFenceSeq atomic.Uint64

// twStart runs s's watcher until the test ends, flushing at fences.
func twStart(t testing.TB, s *svc) (stop func()) {
	t.Helper()
	return twStartOn(t, s, s.WatchHost())
}

// twStartOn is twStart with host as the watcher's service.
func twStartOn(t testing.TB, s *svc, host Service) (stop func()) {
	t.Helper()
	s.setWatchFence(twFence)
	return twRun(t, s, host)
}

// twStartTimed runs s's watcher on its own timers, as in production.
func twStartTimed(t testing.TB, s *svc) (stop func()) {
	t.Helper()
	return twRun(t, s, s.WatchHost())
}

func twRun(t testing.TB, s *svc, host Service) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.w.Run(ctx, host)
	}()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Errorf("RunWatcher did not return after cancel")
			}
		})
	}
	t.Cleanup(stop)
	return stop
}

// twFenceWrite writes a fence into s's active root: one event (a symlink
// made in one system call), after every write the test made before it.
func twFenceWrite(t testing.TB, s *svc) {
	t.Helper()
	root, err := s.root()
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(root, fmt.Sprintf("%s%d.tmp", twFence, twFenceSeq.Add(1)))
	if err := os.Symlink("fence", name); err != nil {
		t.Fatal(err)
	}
}

// twFlush writes a fence and waits until s's watcher has flushed the
// batch it ends (its changes may still wait to be decided).
func twFlush(t testing.TB, s *svc) {
	t.Helper()
	before, _ := s.watchFences()
	twFenceWrite(t, s)
	deadline := time.Now().Add(twPatience)
	for {
		if flushed, _ := s.watchFences(); flushed > before {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the watcher did not flush at its fence within %v: %+v", twPatience, s.WatcherStatus())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// twSettle writes a fence and waits until s's watcher (started by twStart
// and elected) has decided every change made before it: the journal then
// holds all that the watcher will ever report of them.
func twSettle(t testing.TB, s *svc) {
	t.Helper()
	// Fences are flushed in order, and every fence a test wrote before
	// this one was flushed before it returned (twFlush) or settled
	// (twSettle): this one is the next. Settled counts up to the last
	// fence whose changes are all decided, which may be an earlier one.
	flushed, _ := s.watchFences()
	twFenceWrite(t, s)
	deadline := time.Now().Add(twPatience)
	for {
		if _, settled := s.watchFences(); settled > flushed {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the watcher did not settle its fence within %v: %+v", twPatience, s.WatcherStatus())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// twUntil waits until cond holds, failing the test after twPatience.
func twUntil(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(twPatience)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited %v for %s", twPatience, what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// twLoses waits until s's watcher has tried the election n more times
// and lost each, and fails if it was elected meanwhile.
func twLoses(t testing.TB, s *svc, n uint64) {
	t.Helper()
	base := s.watchElectionsLost()
	twUntil(t, fmt.Sprintf("%d lost elections", n), func() bool {
		if s.WatcherStatus().Elected {
			t.Fatal("two watchers elected on one state dir")
		}
		return s.watchElectionsLost() >= base+n
	})
}

// twReady waits until s runs the watcher on root.
func twReady(t testing.TB, s *svc, root string) Status {
	t.Helper()
	deadline := time.Now().Add(twPatience)
	for {
		st := s.WatcherStatus()
		if st.Elected && st.Root == root && st.Watched > 0 {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("watcher not ready on %s: %+v", root, st)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// changesPage is the most events editor::changes gives at once.
const changesPage = 10_000

// twCursor is the journal's current end.
func twCursor(t testing.TB, s *svc) string {
	t.Helper()
	cursor := ""
	for {
		r, err := s.Changes(context.Background(), &editor.ChangesRequest{Since: cursor, Limit: changesPage})
		if err != nil {
			t.Fatal(err)
		}
		if cursor = r.Cursor; r.More == 0 {
			return cursor
		}
	}
}

// twSince is every event after cursor, page after page.
func twSince(t testing.TB, s *svc, cursor string) []workspace.Event {
	t.Helper()
	var all []workspace.Event
	for {
		r, err := s.Changes(context.Background(), &editor.ChangesRequest{Since: cursor, Limit: changesPage})
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, r.Changes...)
		if cursor = r.Cursor; r.More == 0 {
			return all
		}
	}
}

// twWait returns every event after cursor once the changes made so far
// are decided (twSettle: s runs the watcher), and fails unless they
// include one per want entry ("kind path").
func twWait(t testing.TB, s *svc, cursor string, want ...string) []workspace.Event {
	t.Helper()
	if !s.WatcherStatus().Elected {
		t.Fatal("twWait needs the watcher in this process; another process's is waited for with twWaitRemote")
	}
	start := time.Now()
	twSettle(t, s)
	evs := twSince(t, s, cursor)
	if !twHasAll(evs, want) {
		t.Fatalf("want events %v; have %s", want, twFmt(evs))
	}
	t.Logf("events %v decided in %v", want, time.Since(start).Round(time.Millisecond))
	return evs
}

// twWaitRemote is twWait when another process runs the watcher (started
// with the fence too): settled hears of each fence it settles.
func twWaitRemote(t testing.TB, s *svc, settled <-chan uint64, cursor string, want ...string) []workspace.Event {
	t.Helper()
	twFenceWrite(t, s)
	select {
	case _, ok := <-settled:
		if !ok {
			t.Fatal("the watcher's process ended before it settled the fence")
		}
	case <-time.After(twPatience):
		t.Fatalf("the other process's watcher did not settle its fence within %v", twPatience)
	}
	evs := twSince(t, s, cursor)
	if !twHasAll(evs, want) {
		t.Fatalf("want events %v; have %s", want, twFmt(evs))
	}
	return evs
}

func twHasAll(evs []workspace.Event, want []string) bool {
	have := map[string]int{}
	for _, ev := range evs {
		have[ev.Kind+" "+ev.Path]++
	}
	for _, w := range want {
		if have[w] == 0 {
			return false
		}
		have[w]--
	}
	return true
}

func twFmt(evs []workspace.Event) string {
	var b strings.Builder
	for _, ev := range evs {
		from := ""
		if ev.From != nil {
			from = " from " + *ev.From
		}
		fmt.Fprintf(&b, "\n  #%d %s %s%s cause=%s +%d -%d", ev.Seq, ev.Kind, ev.Path, from, ev.Cause, ev.Added, ev.Removed)
	}
	return b.String()
}

// twExactly checks that evs are exactly the wanted "kind path cause"
// events, in any order, each once.
func twExactly(t testing.TB, evs []workspace.Event, want ...string) {
	t.Helper()
	var got []string
	for _, ev := range evs {
		got = append(got, ev.Kind+" "+ev.Path+" "+ev.Cause)
	}
	sort.Strings(got)
	w := append([]string{}, want...)
	sort.Strings(w)
	if strings.Join(got, "\n") != strings.Join(w, "\n") {
		t.Fatalf("events:\n  %s\nwant:\n  %s%s", strings.Join(got, "\n  "), strings.Join(w, "\n  "), twFmt(evs))
	}
}

func twFind(t testing.TB, evs []workspace.Event, kind, path string) workspace.Event {
	t.Helper()
	for _, ev := range evs {
		if ev.Kind == kind && ev.Path == path {
			return ev
		}
	}
	t.Fatalf("no %s %s in %s", kind, path, twFmt(evs))
	return workspace.Event{}
}

func twWriteRaw(t testing.TB, p, content string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestWatchExternalWrite(t *testing.T) {
	t.Parallel()
	e := tcNew(t)
	e.write("open.txt", "one\ntwo\nthree\n")
	e.write("closed.txt", "alpha\n")
	e.write("sub/deep.txt", "deep\n")
	e.write("burst.txt", "b\n")
	e.write("touched.txt", "t\n")
	e.open("open.txt")
	twStart(t, e.s)
	twReady(t, e.s, e.root)

	cur := twCursor(t, e.s)
	twWriteRaw(t, e.abs("open.txt"), "one\nTWO\nthree\n")
	twWriteRaw(t, e.abs("closed.txt"), "beta\n")
	twWriteRaw(t, e.abs("sub/deep.txt"), "deeper\n")
	for i := range 20 { // a burst of writes to one file is one event
		twWriteRaw(t, e.abs("burst.txt"), fmt.Sprintf("burst %d\n", i))
	}
	// touch and chmod change no content: no event.
	now := time.Now()
	if err := os.Chtimes(e.abs("touched.txt"), now, now); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(e.abs("touched.txt"), 0o600); err != nil {
		t.Fatal(err)
	}
	evs := twWait(t, e.s, cur, "modified open.txt", "modified closed.txt", "modified sub/deep.txt", "modified burst.txt")
	twExactly(t, evs, "modified open.txt external", "modified closed.txt external", "modified sub/deep.txt external", "modified burst.txt external")
	// An open buffer: a real patch against what the service last saw.
	ev := twFind(t, evs, "modified", "open.txt")
	if ev.Added != 1 || ev.Removed != 1 || !strings.Contains(ev.Patch, "-two\n+TWO\n") || ev.Truncated {
		t.Fatalf("patch of an open buffer: +%d -%d %q", ev.Added, ev.Removed, ev.Patch)
	}
	if ev.Version == nil || *ev.Version != editor.Version([]byte("one\nTWO\nthree\n")) || ev.Root != e.root {
		t.Fatalf("version/root: %+v", ev)
	}
	// Not open: counts only, no patch, but the version.
	ev = twFind(t, evs, "modified", "closed.txt")
	if ev.Added != 0 || ev.Removed != 0 || ev.Patch != "" || ev.Version == nil || *ev.Version != editor.Version([]byte("beta\n")) {
		t.Fatalf("closed file event: %+v", ev)
	}

	// Again: the patch is against the content of the last event.
	cur = twCursor(t, e.s)
	twWriteRaw(t, e.abs("open.txt"), "one\nTWO\nthree\nfour\n")
	evs = twWait(t, e.s, cur, "modified open.txt")
	twExactly(t, evs, "modified open.txt external")
	if evs[0].Added != 1 || evs[0].Removed != 0 || !strings.Contains(evs[0].Patch, "+four\n") || strings.Contains(evs[0].Patch, "-two") {
		t.Fatalf("second patch: +%d -%d %q", evs[0].Added, evs[0].Removed, evs[0].Patch)
	}
}

// Editors save by writing a temp file and renaming it over the target
// (VS Code, vim with backupcopy=no), or by renaming the original to a backup
// first (vim's default): one modified event either way. A temp file that
// comes and goes leaves nothing.
func TestWatchTempAndRename(t *testing.T) {
	t.Parallel()
	e := tcNew(t)
	e.write("a.txt", "a1\n")
	e.write("b.txt", "b1\n")
	e.open("a.txt")
	twStart(t, e.s)
	twReady(t, e.s, e.root)

	cur := twCursor(t, e.s)
	twWriteRaw(t, e.abs(".a.txt.swp"), "a2\n")
	if err := os.Rename(e.abs(".a.txt.swp"), e.abs("a.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(e.abs("b.txt"), e.abs("b.txt~")); err != nil {
		t.Fatal(err)
	}
	twWriteRaw(t, e.abs("b.txt"), "b2\n")
	twWriteRaw(t, e.abs("4913"), "") // vim's probe file
	os.Remove(e.abs("4913"))
	if err := os.Remove(e.abs("b.txt~")); err != nil {
		t.Fatal(err)
	}
	twWriteRaw(t, e.abs("scratch.tmp"), "x")
	os.Remove(e.abs("scratch.tmp"))
	evs := twWait(t, e.s, cur, "modified a.txt", "modified b.txt")
	twExactly(t, evs, "modified a.txt external", "modified b.txt external")
	if ev := twFind(t, evs, "modified", "a.txt"); ev.Added != 1 || ev.Removed != 1 || !strings.Contains(ev.Patch, "-a1\n+a2\n") {
		t.Fatalf("temp-and-rename patch: %+v", ev)
	}
}

func TestWatchRemoveAndMove(t *testing.T) {
	t.Parallel()
	e := tcNew(t)
	e.write("gone.txt", "bye\n")
	e.write("open-gone.txt", "l1\nl2\n")
	e.write("mv.txt", "moving\n")
	e.write("out.txt", "leaving\n")
	e.write("dir1/x.txt", "x\n")
	e.write("dir1/inner/y.txt", "y\n")
	e.write("dir3/z/z.txt", "z\n")
	e.mkdir("dest")
	e.open("open-gone.txt")
	twStart(t, e.s)
	twReady(t, e.s, e.root)

	cur := twCursor(t, e.s)
	os.Remove(e.abs("gone.txt"))
	os.Remove(e.abs("open-gone.txt"))
	// mv inside the root: one moved event with from.
	if err := os.Rename(e.abs("mv.txt"), e.abs("dest/moved.txt")); err != nil {
		t.Fatal(err)
	}
	// A folder moved: one event for the folder.
	if err := os.Rename(e.abs("dir1"), e.abs("dir2")); err != nil {
		t.Fatal(err)
	}
	// mv out of the root is a delete; rm -r of a folder is one delete.
	if err := os.Rename(e.abs("out.txt"), filepath.Join(e.base, "outside.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(e.abs("dir3")); err != nil {
		t.Fatal(err)
	}
	evs := twWait(t, e.s, cur, "deleted gone.txt", "deleted open-gone.txt", "moved dest/moved.txt", "moved dir2", "deleted out.txt", "deleted dir3")
	twExactly(t, evs, "deleted gone.txt external", "deleted open-gone.txt external", "moved dest/moved.txt external",
		"moved dir2 external", "deleted out.txt external", "deleted dir3 external")
	if ev := twFind(t, evs, "deleted", "open-gone.txt"); ev.Removed != 2 || !strings.Contains(ev.Patch, "-l1\n-l2\n") {
		t.Fatalf("delete of an open buffer: %+v", ev)
	}
	if ev := twFind(t, evs, "moved", "dest/moved.txt"); ev.From == nil || *ev.From != "mv.txt" || ev.Version == nil || *ev.Version != editor.Version([]byte("moving\n")) {
		t.Fatalf("move event: %+v", ev)
	}
	if ev := twFind(t, evs, "moved", "dir2"); ev.From == nil || *ev.From != "dir1" {
		t.Fatalf("folder move event: %+v", ev)
	}

	// The moved folder's watches followed it.
	cur = twCursor(t, e.s)
	twWriteRaw(t, e.abs("dir2/inner/y.txt"), "y2\n")
	twWriteRaw(t, e.abs("dir2/x.txt"), "x2\n")
	evs = twWait(t, e.s, cur, "modified dir2/inner/y.txt", "modified dir2/x.txt")
	twExactly(t, evs, "modified dir2/inner/y.txt external", "modified dir2/x.txt external")
}

func TestWatchNewFolder(t *testing.T) {
	t.Parallel()
	e := tcNew(t)
	e.write("keep.txt", "k\n")
	e.write(".gitignore", "ignored/\n")
	twStart(t, e.s)
	before := twReady(t, e.s, e.root).Watched

	cur := twCursor(t, e.s)
	e.mkdir("new/deep")
	twWriteRaw(t, e.abs("new/deep/f.txt"), "fresh\n")
	e.mkdir("ignored") // .gitignore excludes it: not watched
	evs := twWait(t, e.s, cur, "created new/deep/f.txt")
	twExactly(t, evs, "created new/deep/f.txt external")
	if evs[0].Added != 1 || !strings.Contains(evs[0].Patch, "+fresh\n") {
		t.Fatalf("created event: %+v", evs[0])
	}
	if st := e.s.WatcherStatus(); st.Watched != before+2 {
		t.Fatalf("watched %d folders, want %d", st.Watched, before+2)
	}
	// The new folder is watched now.
	cur = twCursor(t, e.s)
	twWriteRaw(t, e.abs("new/deep/g.txt"), "g\n")
	twWriteRaw(t, e.abs("new/deep/f.txt"), "fresher\n")
	twWriteRaw(t, e.abs("ignored/build.out"), "b\n")
	evs = twWait(t, e.s, cur, "created new/deep/g.txt", "modified new/deep/f.txt")
	twExactly(t, evs, "created new/deep/g.txt external", "modified new/deep/f.txt external")
}

func TestWatchGitCheckout(t *testing.T) {
	t.Parallel()
	git := tcGit(t)
	e := tcNew(t)
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command(git, args...)
		cmd.Dir = e.root
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+e.base,
			"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run("init", "-q", "-b", "main")
	e.write("same.txt", "same\n")
	e.write("change.txt", "v1\n")
	e.write("gone.txt", "gone\n")
	e.write("lib/a.go", "package lib\n")
	run("add", "-A")
	run("commit", "-q", "-m", "main")
	run("checkout", "-q", "-b", "other")
	e.write("change.txt", "v2\n")
	os.Remove(e.abs("gone.txt"))
	e.write("lib/a.go", "package lib\n\nvar A = 1\n")
	e.write("fresh/new.txt", "new\n")
	run("add", "-A")
	run("commit", "-q", "-m", "other")
	run("checkout", "-q", "main")
	e.open("change.txt")

	twStart(t, e.s)
	twReady(t, e.s, e.root)
	cur := twCursor(t, e.s)
	run("checkout", "-q", "other")
	evs := twWait(t, e.s, cur, "modified change.txt", "deleted gone.txt", "modified lib/a.go", "created fresh/new.txt")
	twExactly(t, evs, "modified change.txt external", "deleted gone.txt external", "modified lib/a.go external", "created fresh/new.txt external")
	if ev := twFind(t, evs, "modified", "change.txt"); !strings.Contains(ev.Patch, "-v1\n+v2\n") {
		t.Fatalf("checkout patch of an open buffer: %q", ev.Patch)
	}
	// And back.
	cur = twCursor(t, e.s)
	run("checkout", "-q", "main")
	// A folder removed whole is one event, as editor::delete reports it.
	evs = twWait(t, e.s, cur, "modified change.txt", "created gone.txt", "modified lib/a.go", "deleted fresh")
	twExactly(t, evs, "modified change.txt external", "created gone.txt external", "modified lib/a.go external", "deleted fresh external")
}

// Writes made through the service, by this process or another one on the
// state dir, are reported once, by the function that made them.
func TestWatchOwnWritesOnce(t *testing.T) {
	t.Parallel()
	e := tcNew(t)
	e.write("f.txt", "f1\n")
	e.write("del.txt", "d\n")
	e.write("mv.txt", "m\n")
	e.write("tree/a.txt", "a\n")
	e.open("f.txt")
	twStart(t, e.s)
	twReady(t, e.s, e.root)
	other := e.service() // another process on the same state dir
	ctx := context.Background()

	cur := twCursor(t, e.s)
	v := editor.Version([]byte("f1\n"))
	for i := range 5 {
		svc := e.s
		if i%2 == 1 {
			svc = other
		}
		r, err := svc.Save(ctx, &editor.SaveRequest{Path: "f.txt", Content: fmt.Sprintf("f%d\n", i+2), ExpectedVersion: &v})
		if err != nil || !r.Saved {
			t.Fatalf("save %d: %v %+v", i, err, r)
		}
		v = r.Version
	}
	if _, err := other.Save(ctx, &editor.SaveRequest{Path: "newdir/created.txt", Content: "c\n"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.s.Create(ctx, &editor.CreateRequest{Path: "made.txt", Kind: "file", Content: "made\n"}); err != nil {
		t.Fatal(err)
	}
	if _, err := other.Delete(ctx, &editor.DeleteRequest{Path: "del.txt"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.s.Move(ctx, &editor.MoveRequest{From: "mv.txt", To: "moved/mv.txt"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.s.Move(ctx, &editor.MoveRequest{From: "tree", To: "tree2"}); err != nil {
		t.Fatal(err)
	}
	if _, err := other.Delete(ctx, &editor.DeleteRequest{Path: "tree2", Recursive: true}); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"modified f.txt editor::save", "modified f.txt editor::save", "modified f.txt editor::save",
		"modified f.txt editor::save", "modified f.txt editor::save",
		"created newdir/created.txt editor::save", "created made.txt editor::create",
		"deleted del.txt editor::delete", "moved moved/mv.txt editor::move", "moved tree2 editor::move",
		"deleted tree2 editor::delete",
	}
	var kinds []string
	for _, w := range want {
		f := strings.Fields(w)
		kinds = append(kinds, f[0]+" "+f[1])
	}
	evs := twWait(t, e.s, cur, kinds...)
	twExactly(t, evs, want...)

	// An external write right after is still reported, with the patch
	// against the last save.
	cur = twCursor(t, e.s)
	twWriteRaw(t, e.abs("f.txt"), "external\n")
	evs = twWait(t, e.s, cur, "modified f.txt")
	twExactly(t, evs, "modified f.txt external")
	if !strings.Contains(evs[0].Patch, "-f6\n+external\n") {
		t.Fatalf("patch against the last save: %q", evs[0].Patch)
	}

	// Our older events never hide later external changes to the same
	// paths: back to the content of our last save, and a file we deleted
	// made and removed again by another program.
	cur = twCursor(t, e.s)
	twWriteRaw(t, e.abs("f.txt"), "f6\n")
	twWriteRaw(t, e.abs("del.txt"), "again\n")
	evs = twWait(t, e.s, cur, "modified f.txt", "created del.txt")
	twExactly(t, evs, "modified f.txt external", "created del.txt external")
	cur = twCursor(t, e.s)
	os.Remove(e.abs("del.txt"))
	evs = twWait(t, e.s, cur, "deleted del.txt")
	twExactly(t, evs, "deleted del.txt external")
}

// The folders of open buffers and expanded folders are watched first; what
// the budget leaves out is reported.
func TestWatchBudget(t *testing.T) {
	t.Parallel()
	e := tcNew(t)
	for i := range 6 {
		e.write(fmt.Sprintf("d%d/f.txt", i), "x\n")
	}
	e.write("z/deep/er/buf.txt", "b1\n")
	e.open("z/deep/er/buf.txt")
	if _, err := e.s.Tree(context.Background(), &editor.TreeRequest{MaxDepth: 1, Expand: []string{"d5"}}); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var warns []string
	es, err := editor.New(e.cfg, editor.Options{Root: e.root, StateDir: e.state, Warn: func(m string) {
		mu.Lock()
		warns = append(warns, m)
		mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { es.Close() }) // after the watcher stops (cleanups run last first)
	s := newSvc(es)
	s.setWatchLimit(6)
	twStart(t, s)
	st := twReady(t, s, e.root)
	// 10 folders: root, d0..d5, z, z/deep, z/deep/er. The root, the
	// buffer's three and the expanded d5 come first; one more fits (d0).
	if st.Watched != 6 || st.Uncovered != 4 || st.Limit != 6 {
		t.Fatalf("status %+v, want 6 watched and 4 uncovered", st)
	}
	mu.Lock()
	if len(warns) == 0 || !strings.Contains(warns[0], "4 of 10 folders") {
		t.Errorf("warnings: %q", warns)
	}
	mu.Unlock()
	cur := twCursor(t, s)
	twWriteRaw(t, e.abs("z/deep/er/buf.txt"), "b2\n")
	evs := twWait(t, s, cur, "modified z/deep/er/buf.txt")
	twExactly(t, evs, "modified z/deep/er/buf.txt external")

	// A buffer opened later gets its folder watched, displacing another
	// (once the watcher reads the record again).
	e.open("d4/f.txt")
	deadline := time.Now().Add(twPatience)
	for {
		cur = twCursor(t, s)
		twWriteRaw(t, e.abs("d4/f.txt"), fmt.Sprintf("%v\n", time.Now().UnixNano()))
		twSettle(t, s)
		if len(twSince(t, s, cur)) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("d4 never watched: %+v", s.WatcherStatus())
		}
	}
	if st := s.WatcherStatus(); st.Watched != 6 || st.Uncovered != 4 {
		t.Fatalf("after a new buffer: %+v", st)
	}
}

// editor::workspace::open repoints the watcher.
func TestWatchRetarget(t *testing.T) {
	t.Parallel()
	e := tcNew(t)
	e.write("top.txt", "t\n")
	e.write("proj/inner.txt", "i\n")
	twStart(t, e.s)
	twReady(t, e.s, e.root)
	if _, err := e.s.WorkspaceOpen(context.Background(), &editor.WorkspaceOpenRequest{Root: "proj"}); err != nil {
		t.Fatal(err)
	}
	proj := e.abs("proj")
	twReady(t, e.s, proj)
	cur := twCursor(t, e.s)
	twWriteRaw(t, e.abs("proj/inner.txt"), "i2\n")
	twWriteRaw(t, e.abs("top.txt"), "t2\n") // outside the active root now
	evs := twWait(t, e.s, cur, "modified inner.txt")
	twExactly(t, evs, "modified inner.txt external")
	if evs[0].Root != proj {
		t.Fatalf("root %s, want %s", evs[0].Root, proj)
	}
}

// Two processes on one state dir: one watcher; when it stops, the other
// takes over and external writes are still reported once.
func TestWatchElection(t *testing.T) {
	t.Parallel()
	e := tcNew(t)
	e.write("f.txt", "1\n")
	a, b := e.s, e.service()
	stopA := twStart(t, a)
	twReady(t, a, e.root)
	twStart(t, b)
	twLoses(t, b, 2)
	cur := twCursor(t, a)
	twWriteRaw(t, e.abs("f.txt"), "2\n")
	twExactly(t, twWait(t, a, cur, "modified f.txt"), "modified f.txt external")

	stopA()
	start := time.Now()
	twReady(t, b, e.root)
	t.Logf("takeover took %v", time.Since(start).Round(time.Millisecond))
	if a.WatcherStatus().Elected {
		t.Fatal("a still elected after stopping")
	}
	cur = twCursor(t, b)
	twWriteRaw(t, e.abs("f.txt"), "3\n")
	twExactly(t, twWait(t, b, cur, "modified f.txt"), "modified f.txt external")
}

const twHelperEnv = "EDITORD_TW_WATCH_HELPER"

// TestTWWatchHelperProcess is not a test: it is a child process for
// TestWatchKill9Handover that runs a Service with its watcher and reports
// when it is elected ("ELECTED"), then each fence it settles ("SETTLED n").
func TestTWWatchHelperProcess(t *testing.T) {
	if os.Getenv(twHelperEnv) == "" {
		t.Skip("helper process only")
	}
	es, err := editor.New(editor.DefaultConfig(), editor.Options{Root: os.Getenv("TW_ROOT"), StateDir: os.Getenv("TW_STATE")})
	if err != nil {
		fmt.Println("ERR", err)
		os.Exit(2)
	}
	s := newSvc(es)
	s.setWatchFence(twFence) // the test's twWait writes fences
	go s.RunWatcher(context.Background())
	for !s.WatcherStatus().Elected || s.WatcherStatus().Watched == 0 {
		time.Sleep(5 * time.Millisecond)
	}
	fmt.Println("ELECTED")
	var last uint64
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) { // until killed
		if _, settled := s.watchFences(); settled > last {
			last = settled
			fmt.Println("SETTLED", settled)
		}
	}
	os.Exit(3)
}

func TestWatchKill9Handover(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("multi-process test")
	}
	e := tcNew(t)
	e.write("f.txt", "1\n")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^TestTWWatchHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), twHelperEnv+"=1", "TW_ROOT="+e.root, "TW_STATE="+e.state)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	killed := false
	defer func() {
		if !killed {
			cmd.Process.Kill()
			cmd.Wait()
		}
	}()
	line := make(chan string, 1)
	settled := make(chan uint64, 16)
	go func() {
		defer close(settled)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			text := sc.Text()
			if n, ok := strings.CutPrefix(text, "SETTLED "); ok {
				if v, err := strconv.ParseUint(n, 10, 64); err == nil {
					settled <- v
				}
			} else if strings.HasPrefix(text, "ELECTED") || strings.HasPrefix(text, "ERR") {
				line <- text
			}
		}
		close(line)
	}()
	select {
	case l := <-line:
		if l != "ELECTED" {
			t.Fatalf("helper: %q", l)
		}
	case <-time.After(twPatience):
		t.Fatal("helper never elected")
	}
	twStart(t, e.s)
	twLoses(t, e.s, 2) // not elected while the helper holds the watcher
	// The helper reports external writes into the shared journal.
	cur := twCursor(t, e.s)
	twWriteRaw(t, e.abs("f.txt"), "2\n")
	twExactly(t, twWaitRemote(t, e.s, settled, cur, "modified f.txt"), "modified f.txt external")

	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	killed = true
	start := time.Now()
	twReady(t, e.s, e.root)
	t.Logf("takeover after kill -9 took %v", time.Since(start).Round(time.Millisecond))
	cur = twCursor(t, e.s)
	twWriteRaw(t, e.abs("f.txt"), "3\n")
	twExactly(t, twWait(t, e.s, cur, "modified f.txt"), "modified f.txt external")
}

// Saves from several processes at once while the watcher runs: each is in
// the journal once, by editor::save, and nothing is reported as external.
func TestWatchConcurrentSavesOnce(t *testing.T) {
	t.Parallel()
	e := tcNew(t)
	twStart(t, e.s)
	twReady(t, e.s, e.root)
	cur := twCursor(t, e.s)
	const procs, saves = 3, 30
	var wg sync.WaitGroup
	for p := range procs {
		svc := e.s
		if p > 0 {
			svc = e.service()
		}
		wg.Go(func() {
			var v *string
			for i := range saves {
				r, err := svc.Save(context.Background(), &editor.SaveRequest{Path: fmt.Sprintf("p%d.txt", p), Content: fmt.Sprintf("%d\n", i), ExpectedVersion: v})
				if err != nil || !r.Saved {
					t.Errorf("save %d/%d: %v %+v", p, i, err, r)
					return
				}
				v = &r.Version
			}
		})
	}
	wg.Wait()
	twSettle(t, e.s)
	evs := twSince(t, e.s, cur)
	counts := map[string]int{}
	for _, ev := range evs {
		counts[ev.Cause+" "+ev.Path]++
	}
	for p := range procs {
		if n := counts[fmt.Sprintf("editor::save p%d.txt", p)]; n != saves {
			t.Errorf("p%d.txt: %d save events, want %d", p, n, saves)
		}
	}
	if len(evs) != procs*saves {
		t.Fatalf("%d events, want %d:%s", len(evs), procs*saves, twFmt(evs))
	}
}

// A state dir inside the workspace is not watched: its journal would
// otherwise report its own appends forever.
func TestWatchStateDirInsideRoot(t *testing.T) {
	t.Parallel()
	e := tcNew(t)
	e.write("f.txt", "1\n")
	es, err := editor.New(e.cfg, editor.Options{Root: e.root, StateDir: e.abs(".editord-state"), Warn: func(m string) { t.Logf("warn: %s", m) }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { es.Close() }) // after the watcher stops (cleanups run last first)
	s := newSvc(es)
	twStart(t, s)
	twReady(t, s, e.root)
	cur := twCursor(t, s)
	twWriteRaw(t, e.abs("f.txt"), "2\n")
	twExactly(t, twWait(t, s, cur, "modified f.txt"), "modified f.txt external")
}

// When the kernel drops events, a rescan finds what changed: files made
// and removed, and open buffers whose content differs.
func TestWatchRescan(t *testing.T) {
	t.Parallel()
	e := tcNew(t)
	e.write("old.txt", "old\n")
	e.write("buf.txt", "b1\n")
	e.write("same.txt", "s\n")
	e.open("buf.txt")
	e.open("same.txt")
	ses, err := newSession(e.s.WatchHost(), New(), newOwnTracker(e.s.Store()), e.root)
	if err != nil {
		t.Fatal(err)
	}
	ses.close() // no live events: only the rescan sees the changes
	cur := twCursor(t, e.s)
	os.Remove(e.abs("old.txt"))
	e.write("new.txt", "new\n")
	e.write("buf.txt", "b2\n")
	e.write("newdir/f.txt", "f\n")
	ses.rescan()
	ses.finish()
	evs := twSince(t, e.s, cur)
	twExactly(t, evs, "deleted old.txt external", "created new.txt external", "modified buf.txt external", "created newdir/f.txt external")
	if ev := twFind(t, evs, "modified", "buf.txt"); !strings.Contains(ev.Patch, "-b1\n+b2\n") {
		t.Fatalf("rescan patch: %q", ev.Patch)
	}
}

// twSession is a watch session on e's root driven by hand: the test feeds
// it the kernel's events and says where a batch ends, as a loaded machine
// may split them.
func twSession(t *testing.T, e *tcEnv) *session {
	t.Helper()
	return twSessionOn(t, e, e.s.WatchHost())
}

// twSessionOn is twSession with svc as the watcher's service.
func twSessionOn(t *testing.T, e *tcEnv, svc Service) *session {
	t.Helper()
	ses, err := newSession(svc, New(), newOwnTracker(e.s.Store()), e.root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ses.close)
	return ses
}

// heldLock is the service with its writes lock held by the test: the
// watcher's Quiesce waits until release, as it waits while a write of the
// service is in flight (the lock itself is tested in editor).
type heldLock struct {
	Service
	released chan struct{}
	asked    atomic.Int64 // Quiesce calls begun
}

func holdLock(svc Service) *heldLock { return &heldLock{Service: svc, released: make(chan struct{})} }

func (h *heldLock) Quiesce(ctx context.Context) error {
	h.asked.Add(1)
	select {
	case <-h.released:
	case <-ctx.Done():
		return ctx.Err()
	}
	return h.Service.Quiesce(ctx)
}

func (h *heldLock) release() { close(h.released) }

// twOwnEvent journals the event of a write of the service's own (cause
// fn), as the service journals it once the write is done.
func twOwnEvent(t testing.TB, e *tcEnv, fn, rel, kind, before, after string) {
	t.Helper()
	h := e.s.WatchHost()
	ev, ok := h.ExternalEvent(e.root, rel, kind, []byte(before), []byte(after))
	if !ok {
		t.Fatalf("no event for %s", rel)
	}
	ev.Cause, ev.By = fn, ""
	h.Emit(context.Background(), ev)
}

// twFeed passes the session's events to it until one satisfies last
// (included), failing after twPatience.
func twFeed(t *testing.T, ses *session, last func(ev shell.WatchEvent) bool) {
	t.Helper()
	timeout := time.After(twPatience)
	for {
		select {
		case ev := <-ses.w.Events():
			ses.onEvent(ev)
			if last(ev) {
				return
			}
		case <-timeout:
			t.Fatal("the awaited watch event never came")
		}
	}
}

// A folder's own watch reports its move after the parent's two halves of
// the rename; when that echo falls into a later batch (the watcher ran
// between them) it is not the delete of something that existed. Before
// the fix a folder moved under load was reported moved and then deleted.
func TestWatchMovedFolderSelfEventLater(t *testing.T) {
	t.Parallel()
	e := tcNew(t)
	e.write("dir1/x.txt", "x\n")
	ses := twSession(t, e)
	cur := twCursor(t, e.s)
	if err := os.Rename(e.abs("dir1"), e.abs("dir2")); err != nil {
		t.Fatal(err)
	}
	twFeed(t, ses, func(ev shell.WatchEvent) bool { return ev.Path == e.abs("dir2") })
	ses.flush() // the batch ends between the parent's events and the folder's own
	twFeed(t, ses, func(ev shell.WatchEvent) bool { return ev.Path == e.abs("dir1") })
	ses.flush()
	ses.finish()
	twExactly(t, twSince(t, e.s, cur), "moved dir2 external")
}

// Changes to one path are decided in the order seen. A change waiting for
// the writes lock (our write, journaled late) and a later one the journal
// already explains: before the fix the later one was accounted first, so
// the watcher's copy of the open buffer went back to the older content,
// and the next external change had a patch against it.
func TestWatchChangesToOnePathInOrder(t *testing.T) {
	t.Parallel()
	e := tcNew(t)
	e.write("f.txt", "f1\n")
	e.open("f.txt")
	lock := holdLock(e.s.WatchHost())
	ses := twSessionOn(t, e, lock)
	ses.loadSession(e.s.Store().Load())
	ses.loadCache()
	ctx := context.Background()
	cur := twCursor(t, e.s)
	isF := func(ev shell.WatchEvent) bool { return ev.Path == e.abs("f.txt") }

	// A write of ours whose journal event is not there yet when its batch
	// is decided: it waits for the writes lock, which the test holds.
	twWriteRaw(t, e.abs("f.txt"), "f2\n")
	twFeed(t, ses, isF)
	ses.flush()
	if len(ses.waiting) != 1 {
		t.Fatalf("%d changes waiting, want 1", len(ses.waiting))
	}
	twOwnEvent(t, e, "editor::save", "f.txt", "modified", "f1\n", "f2\n")
	lock.release()
	// Our next save, journaled at once: its echo is explained already.
	v := editor.Version([]byte("f2\n"))
	if r, err := e.s.Save(ctx, &editor.SaveRequest{Path: "f.txt", Content: "f3\n", ExpectedVersion: &v}); err != nil || !r.Saved {
		t.Fatalf("save: %v %+v", err, r)
	}
	twFeed(t, ses, func(ev shell.WatchEvent) bool { return isF(ev) && ev.Op.Has(shell.WatchCreate) })
	ses.flush()
	select { // the writes lock, taken: the first change is decided
	case err := <-ses.quiet:
		ses.settle(err)
	case <-time.After(twPatience):
		t.Fatal("the wait for the writes lock never ended")
	}
	ses.settleAll()

	// An external change now is patched against f3, the content before it.
	twWriteRaw(t, e.abs("f.txt"), "external\n")
	twFeed(t, ses, isF)
	ses.finish()
	evs := twSince(t, e.s, cur)
	twExactly(t, evs, "modified f.txt editor::save", "modified f.txt editor::save", "modified f.txt external")
	for _, ev := range evs {
		if ev.Cause == "external" && !strings.Contains(ev.Patch, "-f3\n+external\n") {
			t.Fatalf("the external change is patched against the wrong content: %q", ev.Patch)
		}
	}
}

// A file changed by another program just after it was opened, before the
// watcher read its view of the session: the change is reported (it used
// to become the watcher's baseline for the new buffer, so its event was
// taken as already seen and dropped).
func TestWatchChangeRightAfterOpenReported(t *testing.T) {
	t.Parallel()
	e := tcNew(t)
	e.write("f.txt", "f1\n")
	ses := twSession(t, e)
	cur := twCursor(t, e.s)
	e.open("f.txt")
	twWriteRaw(t, e.abs("f.txt"), "f2\n")
	// The record poll runs before the batch holding the write is flushed.
	ses.loadSession(e.s.Store().Load())
	ses.loadCache()
	twFeed(t, ses, func(ev shell.WatchEvent) bool { return ev.Path == e.abs("f.txt") })
	ses.finish()
	twExactly(t, twSince(t, e.s, cur), "modified f.txt external")
}

// A write of ours whose journal event comes long after its filesystem
// call (a loaded machine, a slow state dir) is still ours, and an external
// change seen meanwhile is decided only once our write is journaled: the
// watcher decides nothing until the writes lock (held here) is taken.
func TestWatchSlowOwnWrite(t *testing.T) {
	t.Parallel()
	e := tcNew(t)
	e.write("ours.txt", "before\n")
	e.write("theirs.txt", "t1\n")
	e.open("ours.txt")
	lock := holdLock(e.s.WatchHost())
	twStartOn(t, e.s, lock)
	twReady(t, e.s, e.root)

	cur := twCursor(t, e.s)
	twWriteRaw(t, e.abs("ours.txt"), "after\n")
	twWriteRaw(t, e.abs("theirs.txt"), "t2\n")
	// The batch is flushed, and its changes wait: nothing may be decided
	// while we write, however long that takes (the watcher used to give a
	// write of ours a grace period). Once it asked for the lock, another
	// batch goes by.
	twFlush(t, e.s)
	twUntil(t, "the watcher to ask for the writes lock", func() bool { return lock.asked.Load() > 0 })
	twFlush(t, e.s)
	if evs := twSince(t, e.s, cur); len(evs) != 0 {
		lock.release()
		t.Fatalf("decided while a write of ours was in flight:%s", twFmt(evs))
	}
	twOwnEvent(t, e, "editor::save", "ours.txt", "modified", "before\n", "after\n")
	lock.release()
	evs := twWait(t, e.s, cur, "modified ours.txt", "modified theirs.txt")
	twExactly(t, evs, "modified ours.txt editor::save", "modified theirs.txt external")
}

// Many writes of ours at once, from two processes, of every kind, while
// other programs write too: every write of ours is reported once, by its
// function, every external one once, as external, and nothing deadlocks.
// Several writers without pause would starve the watcher of the writes
// lock without its gate: the external writes would wait forever.
func TestWatchOwnWritesUnderLoad(t *testing.T) {
	t.Parallel()
	e := tcNew(t)
	twStart(t, e.s)
	twReady(t, e.s, e.root)
	other := e.service()
	ctx := context.Background()
	cur := twCursor(t, e.s)

	const workers, rounds = 4, 12
	var wg sync.WaitGroup
	stop := make(chan struct{})
	var saverWg sync.WaitGroup
	// Savers without pause, for the length of the test.
	for i := range 4 {
		svc := []*svc{e.s, other}[i%2]
		saverWg.Go(func() {
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				if _, err := svc.Save(ctx, &editor.SaveRequest{Path: fmt.Sprintf("busy%d.txt", i), Content: fmt.Sprintf("%d\n", n), Force: true}); err != nil {
					t.Errorf("busy save: %v", err)
					return
				}
			}
		})
	}
	for w := range workers {
		svc := []*svc{e.s, other}[w%2]
		wg.Go(func() {
			for r := range rounds {
				p := fmt.Sprintf("w%d/r%d.txt", w, r)
				steps := []func() error{
					func() error {
						_, err := svc.Create(ctx, &editor.CreateRequest{Path: p, Kind: "file", Content: "new\n"})
						return err
					},
					func() error {
						_, err := svc.Save(ctx, &editor.SaveRequest{Path: p, Content: "saved\n", Force: true})
						return err
					},
					func() error {
						_, err := svc.Move(ctx, &editor.MoveRequest{From: p, To: p + ".moved"})
						return err
					},
					func() error {
						_, err := svc.Delete(ctx, &editor.DeleteRequest{Path: p + ".moved"})
						return err
					},
				}
				for i, step := range steps {
					if err := step(); err != nil {
						t.Errorf("%s step %d: %v", p, i, err)
						return
					}
				}
			}
		})
	}
	var want []string
	for i := range 5 {
		name := fmt.Sprintf("ext%d.txt", i)
		twWriteRaw(t, e.abs(name), "external\n")
		want = append(want, "created "+name)
		twFlush(t, e.s) // one batch each, while the savers are busy
	}
	// The external writes are reported while the savers are still busy.
	twWait(t, e.s, cur, want...)
	wg.Wait()
	close(stop)
	saverWg.Wait()
	twSettle(t, e.s)

	counts := map[string]int{}
	for _, ev := range twSince(t, e.s, cur) {
		if strings.HasPrefix(ev.Path, "busy") {
			if ev.Cause != "editor::save" {
				t.Errorf("a save of ours reported as %s:%s", ev.Cause, twFmt([]workspace.Event{ev}))
			}
			continue
		}
		counts[ev.Kind+" "+ev.Path+" "+ev.Cause]++
	}
	for w := range workers {
		for r := range rounds {
			p := fmt.Sprintf("w%d/r%d.txt", w, r)
			for _, k := range []string{"created " + p + " editor::create", "modified " + p + " editor::save",
				"moved " + p + ".moved editor::move", "deleted " + p + ".moved editor::delete"} {
				if counts[k] != 1 {
					t.Errorf("%q: %d events, want 1", k, counts[k])
				}
				delete(counts, k)
			}
		}
	}
	for i := range 5 {
		k := fmt.Sprintf("created ext%d.txt external", i)
		if counts[k] != 1 {
			t.Errorf("%q: %d events, want 1", k, counts[k])
		}
		delete(counts, k)
	}
	for k, n := range counts {
		t.Errorf("unexpected event %q (%d)", k, n)
	}
}

// TestNestedRootsWatchTheSharedRoot: processes on /p and /p/sub share one
// record and one watcher. The /p/sub one cannot watch /p (it serves its own
// root); when it holds the watcher and the /p one starts, it hands the
// watcher over, so a change in /p outside /p/sub is reported; when the /p
// one ends, the /p/sub one watches its own root again.
func TestNestedRootsWatchTheSharedRoot(t *testing.T) {
	e := tcNew(t)
	e.write("sub/a.txt", "a\n")
	e.write("top.txt", "t\n")
	inner := e.serviceAt(e.abs("sub"))
	twStart(t, inner)
	twReady(t, inner, e.abs("sub"))

	stopOuter := twStart(t, e.s)
	twReady(t, e.s, e.root)
	if st := inner.WatcherStatus(); st.Elected {
		t.Fatalf("both elected: %+v", st)
	}
	cur := twCursor(t, e.s)
	twWriteRaw(t, e.abs("top.txt"), "t2\n")
	twWriteRaw(t, e.abs("sub/a.txt"), "a2\n")
	twWait(t, e.s, cur, "modified top.txt", "modified sub/a.txt")

	stopOuter()
	twReady(t, inner, e.abs("sub"))
	cur = twCursor(t, inner)
	twWriteRaw(t, e.abs("sub/a.txt"), "a3\n")
	twWait(t, inner, cur, "modified a.txt")
}
