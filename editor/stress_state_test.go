package editor

// Suite 5 of issue 6: faults in the state dir. The record file truncated,
// filled with garbage, made read-only, deleted while running, replaced by a
// folder, the whole state dir deleted, and its locks held by a stuck
// process. The service answers every call (degrading with a clear, coded
// error where it must), moves a corrupt file aside instead of deleting it,
// and never loses an open buffer it could keep.

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/editord/editord/shell"
)

// stBatteryCall is one call of the battery and what came of it.
type stBatteryCall struct {
	name string
	err  error
	took time.Duration
}

// stBattery runs every kind of call once against s, each bounded in time,
// and fails on a panic, a hang, or an error without a code. It returns the
// outcomes for the case to judge.
func stBattery(t *testing.T, s *Service, tag string) map[string]stBatteryCall {
	t.Helper()
	ctx := context.Background()
	calls := []struct {
		name string
		fn   func() error
	}{
		{"workspace::get", func() error { _, err := s.WorkspaceGet(ctx, nil); return err }},
		{"buffers::list", func() error { _, err := s.BuffersList(ctx, nil); return err }},
		{"tree", func() error { _, err := s.Tree(ctx, &TreeRequest{MaxDepth: 2}); return err }},
		{"tree expand", func() error { _, err := s.Tree(ctx, &TreeRequest{Expand: []string{"sub"}}); return err }},
		{"open", func() error { _, err := s.Open(ctx, &OpenRequest{Path: "c.txt"}); return err }},
		{"save", func() error {
			_, err := s.Save(ctx, &SaveRequest{Path: "c.txt", Content: "c " + tag + "\n", Force: true})
			return err
		}},
		{"create", func() error {
			_, err := s.Create(ctx, &CreateRequest{Path: "new-" + tag + ".txt", Kind: "file", Content: "n\n"})
			return err
		}},
		{"changes", func() error { _, err := s.Changes(ctx, &ChangesRequest{}); return err }},
		{"buffers::close", func() error { _, err := s.BuffersClose(ctx, &BuffersCloseRequest{Path: "c.txt"}); return err }},
	}
	out := map[string]stBatteryCall{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, c := range calls {
		wg.Go(func() {
			start := time.Now()
			done := make(chan error, 1)
			go func() {
				defer func() {
					if p := recover(); p != nil {
						done <- fmt.Errorf("panic: %v", p)
					}
				}()
				done <- c.fn()
			}()
			var err error
			select {
			case err = <-done:
			case <-time.After(workspaceLockWait() + 15*time.Second):
				t.Errorf("%s: %s did not answer within the lock wait", tag, c.name)
				return
			}
			if err != nil && (tcCode(err) == shell.CodeInternal || strings.HasPrefix(string(tcCode(err)), "untyped")) {
				t.Errorf("%s: %s failed without a stable code: %v", tag, c.name, err)
			}
			mu.Lock()
			out[c.name] = stBatteryCall{c.name, err, time.Since(start)}
			mu.Unlock()
		})
	}
	wg.Wait()
	return out
}

// workspaceLockWait is how long the store waits for a lock (workspace's
// lockWait): a call meeting a stuck lock answers after it.
func workspaceLockWait() time.Duration { return 10 * time.Second }

// stStateEnv is a workspace with two open buffers and an expanded folder.
func stStateEnv(t *testing.T) (*tcEnv, *stWarnings) {
	t.Helper()
	warns := &stWarnings{}
	e := tcNew(t)
	e.write("a.txt", "a\n")
	e.write("b.txt", "b\n")
	e.write("c.txt", "c\n")
	e.write("sub/d.txt", "d\n")
	s, err := New(e.cfg, Options{Root: e.root, StateDir: e.state, Warn: warns.add})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	e.s = s
	ctx := context.Background()
	for _, p := range []string{"a.txt", "b.txt"} {
		if _, err := s.Open(ctx, &OpenRequest{Path: p}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Tree(ctx, &TreeRequest{Expand: []string{"sub"}}); err != nil {
		t.Fatal(err)
	}
	return e, warns
}

func stRecordPath(e *tcEnv) string { return filepath.Join(e.s.StateDir(), "workspace.json") }

// stWantBuffers fails unless s lists at least the buffers want.
func stWantBuffers(t *testing.T, e *tcEnv, s *Service, want ...string) {
	t.Helper()
	got := e.buffers(s)
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("buffer %s lost: buffers are %v", w, got)
		}
	}
}

// stWantAside fails unless the record was moved aside exactly once,
// holding exactly the corrupt bytes.
func stWantAside(t *testing.T, e *tcEnv, corrupt []byte) {
	t.Helper()
	aside, _ := filepath.Glob(stRecordPath(e) + ".corrupt-*")
	if len(aside) != 1 {
		t.Fatalf("want the corrupt record moved aside once, found %v", aside)
	}
	if b, _ := os.ReadFile(aside[0]); string(b) != string(corrupt) {
		t.Errorf("moved-aside file holds %q, want the corrupt bytes %q", b, corrupt)
	}
}

// stWantAllOK fails on any refusal in a battery.
func stWantAllOK(t *testing.T, res map[string]stBatteryCall) {
	t.Helper()
	for _, c := range res {
		if c.err != nil && !(c.name == "create" && tcCode(c.err) == shell.CodeExists) {
			t.Errorf("%s: %v", c.name, c.err)
		}
	}
}

// TestStressStateCorrupt: a corrupt record (truncated, garbage, empty,
// valid JSON of the wrong shape) is moved aside byte for byte; the process
// that knew the good record restores it, so no open buffer is lost; a
// process that never saw it starts empty and keeps serving.
func TestStressStateCorrupt(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	garbage := make([]byte, 4096)
	for i := range garbage {
		garbage[i] = byte(rng.IntN(256))
	}
	cases := []struct {
		name    string
		corrupt func(good []byte) []byte
	}{
		{"truncated", func(good []byte) []byte { return good[:len(good)/2] }},
		{"garbage", func([]byte) []byte { return garbage }},
		{"empty", func([]byte) []byte { return nil }},
		{"null", func([]byte) []byte { return []byte("null") }},
		{"empty object", func([]byte) []byte { return []byte("{}") }},
		{"array", func([]byte) []byte { return []byte("[1,2,3]") }},
		{"wrong format", func([]byte) []byte { return []byte(`{"format": 99, "active_root": "/x", "sessions": {}}`) }},
		{"wrong types", func([]byte) []byte { return []byte(`{"format": 1, "sessions": {"/x": {"buffers": 5}}}`) }},
		{"NUL padding", func(good []byte) []byte { return append(slices.Clone(good), make([]byte, 100)...) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, seen := range []bool{true, false} {
				name := "known to the process"
				if !seen {
					name = "new process"
				}
				t.Run(name, func(t *testing.T) {
					e, warns := stStateEnv(t)
					rf := stRecordPath(e)
					good, err := os.ReadFile(rf)
					if err != nil {
						t.Fatal(err)
					}
					bad := tc.corrupt(good)
					if err := os.WriteFile(rf, bad, 0o600); err != nil {
						t.Fatal(err)
					}
					s := e.s
					if !seen {
						s = e.service()
					}
					stWantAllOK(t, stBattery(t, s, "x"))
					stWantAside(t, e, bad)
					if seen {
						// The process knew the good record: nothing is lost.
						stWantBuffers(t, e, s, "a.txt", "b.txt")
						if !slices.Contains(e.expanded(s), "sub") {
							t.Errorf("expanded folders lost: %v", e.expanded(s))
						}
						if !slices.ContainsFunc(warns.list(), func(w string) bool { return strings.Contains(w, "restored") }) {
							t.Errorf("no warning says the record was restored: %v", warns.list())
						}
					}
					// Either way the service records again, for every process.
					if _, err := s.Open(context.Background(), &OpenRequest{Path: "sub/d.txt"}); err != nil {
						t.Fatal(err)
					}
					stWantBuffers(t, e, e.service(), "sub/d.txt")
				})
			}
		})
	}
}

// TestStressStateDeleted: the record, then the whole state dir, deleted
// while the service runs.
func TestStressStateDeleted(t *testing.T) {
	t.Run("record file", func(t *testing.T) {
		e, _ := stStateEnv(t)
		if err := os.Remove(stRecordPath(e)); err != nil {
			t.Fatal(err)
		}
		stWantAllOK(t, stBattery(t, e.s, "x"))
		stWantBuffers(t, e, e.s, "a.txt", "b.txt")
		// And another process sees them too: the record was put back.
		stWantBuffers(t, e, e.service(), "a.txt", "b.txt")
	})
	t.Run("whole state dir", func(t *testing.T) {
		// A deleted folder cannot be written in, even by a process holding
		// it open: reads go on (the open buffers from memory), writes that
		// need the state dir's locks say so and how to recover, and a
		// restarted process serves everything again.
		e, _ := stStateEnv(t)
		if err := os.RemoveAll(e.s.StateDir()); err != nil {
			t.Fatal(err)
		}
		res := stBattery(t, e.s, "x")
		for _, name := range []string{"workspace::get", "buffers::list", "tree", "changes"} {
			if err := res[name].err; err != nil {
				t.Errorf("%s with the state dir gone: %v", name, err)
			}
		}
		stWantBuffers(t, e, e.s, "a.txt", "b.txt")
		for name, c := range res {
			if c.err != nil {
				if !strings.Contains(c.err.Error(), e.state) || !strings.Contains(c.err.Error(), "restart") {
					t.Errorf("%s: the error does not say the state dir is gone and what to do: %v", name, c.err)
				}
			}
		}
		if c := res["save"]; c.err == nil && e.read("c.txt") != "c x\n" {
			t.Errorf("save reported success, file holds %q", e.read("c.txt"))
		} else if c.err != nil && e.read("c.txt") != "c\n" {
			t.Errorf("save failed but wrote the file")
		}
		// A restarted process makes the state dir again and serves.
		stWantAllOK(t, stBattery(t, e.service(), "y"))
	})
}

// TestStressStateReplacedByFolder: a folder where the record file should
// be is an I/O problem, not corruption: nothing is overwritten or moved,
// reads go on with an empty record, and writes of the record say what is
// wrong and where.
func TestStressStateReplacedByFolder(t *testing.T) {
	e, _ := stStateEnv(t)
	rf := stRecordPath(e)
	if err := os.Remove(rf); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(rf, "inside"), 0o755); err != nil {
		t.Fatal(err)
	}
	res := stBattery(t, e.service(), "x")
	for _, name := range []string{"workspace::get", "buffers::list", "tree", "changes", "save"} {
		if err := res[name].err; err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	err := res["open"].err
	if err == nil {
		t.Fatal("open recorded a buffer in a record that is a folder")
	}
	if !strings.Contains(err.Error(), "workspace record") || !strings.Contains(err.Error(), rf) {
		t.Errorf("open: the error does not say the record is the problem: %v", err)
	}
	if fi, err := os.Stat(filepath.Join(rf, "inside")); err != nil || !fi.IsDir() {
		t.Errorf("the folder in the record's place was touched: %v", err)
	}
}

// stImmutable makes p read-only even for root: chattr +i where it works
// (root ignores mode bits), else chmod. ok is false when neither stops a
// write, in which case the case is skipped.
func stImmutable(t *testing.T, paths ...string) (ok bool) {
	t.Helper()
	if os.Geteuid() != 0 {
		for _, p := range paths {
			fi, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			mode := os.FileMode(0o444)
			if fi.IsDir() {
				mode = 0o555
			}
			if err := os.Chmod(p, mode); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.Chmod(p, fi.Mode().Perm()) })
		}
		return true
	}
	chattr, err := exec.LookPath("chattr")
	if err != nil {
		return false
	}
	for _, p := range paths {
		if out, err := exec.Command(chattr, "+i", p).CombinedOutput(); err != nil {
			t.Logf("chattr +i: %v %s", err, out)
			return false
		}
		t.Cleanup(func() { exec.Command(chattr, "-i", p).Run() })
	}
	return true
}

// TestStressStateReadOnly: a read-only record file in a read-only state
// dir. Tests run as root in CI, where chmod does not stop a write, so the
// file and folder are made immutable with chattr +i instead; the case is
// skipped only where neither works.
func TestStressStateReadOnly(t *testing.T) {
	e, _ := stStateEnv(t)
	rf := stRecordPath(e)
	before, _ := os.ReadFile(rf)
	if !stImmutable(t, rf, e.s.StateDir()) {
		t.Skip("cannot make the state dir read-only here (root without chattr)")
	}
	res := stBattery(t, e.s, "x")
	for _, name := range []string{"workspace::get", "buffers::list", "tree", "changes", "save", "create"} {
		if err := res[name].err; err != nil {
			t.Errorf("%s with a read-only state dir: %v", name, err)
		}
	}
	if got := e.read("c.txt"); got != "c x\n" {
		t.Errorf("save: file holds %q", got)
	}
	for _, name := range []string{"open", "tree expand", "buffers::close"} {
		err := res[name].err
		if err == nil {
			continue // nothing to record (buffers::close of a path not open)
		}
		if c := tcCode(err); c != shell.CodeDenied {
			t.Errorf("%s: code %s, want denied: %v", name, c, err)
		}
		if !strings.Contains(err.Error(), "workspace record") {
			t.Errorf("%s: the error does not name the record: %v", name, err)
		}
	}
	if after, _ := os.ReadFile(rf); string(after) != string(before) {
		t.Errorf("the read-only record changed")
	}
	stWantBuffers(t, e, e.s, "a.txt", "b.txt")
}

// ---- a stuck process holding a lock ----

const stHelperEnv = "EDITORD_STRESS_HELPER"

// TestStressHelperProcess is not a test: it is the body of the child
// processes the stress suites start (the test binary re-executed with
// stHelperEnv set).
func TestStressHelperProcess(t *testing.T) {
	job := os.Getenv(stHelperEnv)
	if job == "" {
		t.Skip("helper process only")
	}
	switch {
	case strings.HasPrefix(job, "flock:"):
		// Take the lock and hold it until killed: a stuck editord.
		p := strings.TrimPrefix(job, "flock:")
		os.MkdirAll(filepath.Dir(p), 0o700)
		f, err := os.OpenFile(p, os.O_RDONLY|os.O_CREATE, 0o600)
		if err != nil {
			fmt.Println("ERR", err)
			os.Exit(2)
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
			fmt.Println("ERR", err)
			os.Exit(2)
		}
		fmt.Println("locked")
		io.Copy(io.Discard, os.Stdin) // until the parent goes away
		time.Sleep(time.Hour)
	}
	os.Exit(0)
}

// stHoldLock starts a child that holds the flock on p until the test ends.
func stHoldLock(t *testing.T, p string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^TestStressHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), stHelperEnv+"=flock:"+p)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close()
		cmd.Process.Kill()
		cmd.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || line != "locked\n" {
		t.Fatalf("lock holder: %q %v", line, err)
	}
}

// TestStressStuckLock: another process holds a lock of the state dir and
// never lets go. Calls that need the lock answer after the lock wait
// (workspace's lockWait, 10 s) with a timeout error naming the lock;
// calls that do not need it answer at once; a save still writes the file
// and says so (the record is only reported as not updated).
func TestStressStuckLock(t *testing.T) {
	t.Parallel()
	for _, lock := range []string{"workspace.lock", "changes.lock", "save-*.lock"} {
		t.Run(lock, func(t *testing.T) {
			t.Parallel()
			e, warns := stStateEnv(t)
			name := lock
			if lock == "save-*.lock" {
				name = e.s.saveLock(loc{abs: e.abs("c.txt")})
			}
			stHoldLock(t, filepath.Join(e.s.StateDir(), "locks", name))
			res := stBattery(t, e.s, "x")
			wait := workspaceLockWait()
			for n, c := range res {
				t.Logf("%-15s %6.2fs %v", n, c.took.Seconds(), c.err)
				if c.took > wait+5*time.Second {
					t.Errorf("%s took %v, more than the lock wait", n, c.took)
				}
				if c.err != nil && tcCode(c.err) == shell.CodeTimeout && !strings.Contains(c.err.Error(), "lock") {
					t.Errorf("%s: the timeout does not name the lock: %v", n, c.err)
				}
			}
			fast := []string{"workspace::get", "buffers::list", "tree", "changes"}
			for _, n := range fast {
				// Half the lock wait: a call that waited for the lock took
				// all of it, and a loaded CI machine may be slow.
				if c := res[n]; c.err != nil || c.took > wait/2 {
					t.Errorf("%s needs no lock, yet took %v: %v", n, c.took, c.err)
				}
			}
			switch lock {
			case "workspace.lock":
				if c := res["open"]; tcCode(c.err) != shell.CodeTimeout || c.took < wait-time.Second {
					t.Errorf("open under a stuck record lock: %v after %v, want a timeout after the wait", c.err, c.took)
				}
				if res["save"].err != nil || e.read("c.txt") != "c x\n" {
					t.Errorf("save under a stuck record lock: %v; file %q", res["save"].err, e.read("c.txt"))
				}
				if !slices.ContainsFunc(warns.list(), func(w string) bool { return strings.Contains(w, "could not be recorded") }) {
					t.Errorf("no warning says the saved buffer was not recorded: %v", warns.list())
				}
			case "changes.lock":
				if res["save"].err != nil || res["open"].err != nil {
					t.Errorf("a stuck journal lock failed open/save: %v / %v", res["open"].err, res["save"].err)
				}
			case "save-*.lock":
				if c := res["save"]; tcCode(c.err) != shell.CodeTimeout {
					t.Errorf("save under its stuck lock: %v, want a timeout", c.err)
				}
				if e.read("c.txt") != "c\n" {
					t.Errorf("a save that timed out on its lock wrote the file")
				}
			}
			stWantBuffers(t, e, e.s, "a.txt", "b.txt")
		})
	}
}

// TestStressJournalGarbage: the change journal full of garbage, torn lines
// and a huge line; changes still answers and saves still journal.
func TestStressJournalGarbage(t *testing.T) {
	e, _ := stStateEnv(t)
	jf := filepath.Join(e.s.StateDir(), "changes.jsonl")
	junk := "not json\n{\"seq\": \"x\"}\n\x00\xff\xfe\n" + strings.Repeat("z", 3<<20) + "\n{\"seq\": 7, \"pa"
	if err := os.WriteFile(jf, []byte(junk), 0o600); err != nil {
		t.Fatal(err)
	}
	stWantAllOK(t, stBattery(t, e.s, "x"))
	ch, err := e.s.Changes(context.Background(), &ChangesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, ev := range ch.Changes {
		if ev.Path == "c.txt" && ev.Cause == "editor::save" {
			found = true
		}
	}
	if !found {
		t.Errorf("the save after the garbage was not journalled: %+v", ch.Changes)
	}
}
