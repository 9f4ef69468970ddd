package shell

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// The helper process: when the test binary is started with
// SHELL_TEST_HELPER set, it does that job instead of running tests.
const helperEnv = "SHELL_TEST_HELPER"

func TestMain(m *testing.M) {
	switch os.Getenv(helperEnv) {
	case "":
		os.Exit(m.Run())
	case "lock":
		// Take the lock named by SHELL_TEST_LOCK in the jail SHELL_TEST_ROOT
		// (shared when SHELL_TEST_SHARED is set), say so, and hold it until
		// killed.
		j, err := Open(Config{Roots: []string{os.Getenv("SHELL_TEST_ROOT")}})
		if err != nil {
			fmt.Println("error:", err)
			os.Exit(2)
		}
		lock := j.Lock
		if os.Getenv("SHELL_TEST_SHARED") != "" {
			lock = j.LockShared
		}
		if _, err := lock(context.Background(), os.Getenv("SHELL_TEST_LOCK")); err != nil {
			fmt.Println("error:", err)
			os.Exit(2)
		}
		fmt.Println("locked")
		for {
			time.Sleep(time.Hour) // hold the lock until killed
		}
	default:
		fmt.Fprintln(os.Stderr, "unknown helper", os.Getenv(helperEnv))
		os.Exit(2)
	}
}

// startLockHolder starts a child process holding the lock at abs
// (shared when the optional shared is true) and returns once it holds it.
func startLockHolder(t *testing.T, root, abs string, shared ...bool) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"=lock", "SHELL_TEST_ROOT="+root, "SHELL_TEST_LOCK="+abs)
	if len(shared) > 0 && shared[0] {
		cmd.Env = append(cmd.Env, "SHELL_TEST_SHARED=1")
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(out).ReadString('\n')
		line <- s
	}()
	select {
	case s := <-line:
		if s != "locked\n" {
			t.Fatalf("helper said %q", s)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the helper did not take the lock")
	}
	return cmd
}

func TestLockSerializesGoroutines(t *testing.T) {
	f := newFixture(t)
	f.dir("locks")
	lock := f.abs("locks/a.lock")
	var inside, max, total atomic.Int32
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				unlock, err := f.j.Lock(context.Background(), lock)
				if err != nil {
					t.Error(err)
					return
				}
				n := inside.Add(1)
				if n > max.Load() {
					max.Store(n)
				}
				total.Add(1)
				time.Sleep(50 * time.Microsecond)
				inside.Add(-1)
				unlock()
			}
		}()
	}
	wg.Wait()
	if max.Load() != 1 || total.Load() != 160 {
		t.Fatalf("max %d holders at once, %d entries", max.Load(), total.Load())
	}
	fi, err := os.Stat(lock)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("lock file %v %v", fi, err)
	}
}

func TestLockAcrossProcessesAndKill(t *testing.T) {
	f := newFixture(t)
	f.dir("locks")
	lock := f.abs("locks/w.lock")
	holder := startLockHolder(t, f.root, lock)

	// Held elsewhere: TryLock says no, Lock waits until its context ends.
	unlock, ok, err := f.j.TryLock(lock)
	if ok || err != nil || unlock != nil {
		t.Fatalf("TryLock while held: %v %v", ok, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	start := time.Now()
	_, err = f.j.Lock(ctx, lock)
	cancel()
	wantCode(t, err, CodeTimeout)
	if d := time.Since(start); d < 90*time.Millisecond || d > 3*time.Second {
		t.Fatalf("Lock gave up after %v", d)
	}

	// A waiter gets the lock once the holder dies, without its unlock.
	got := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		unlock, err := f.j.Lock(ctx, lock)
		if err == nil {
			unlock()
		}
		got <- err
	}()
	select {
	case err := <-got:
		t.Fatalf("Lock returned while another process held it: %v", err)
	case <-time.After(100 * time.Millisecond):
	}
	if err := holder.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-got:
		wantCode(t, err, "")
	case <-time.After(5 * time.Second):
		t.Fatal("the lock was not released when its holder was killed")
	}
}

func TestTryLock(t *testing.T) {
	f := newFixture(t)
	f.dir("locks")
	lock := f.abs("locks/t.lock")
	unlock, ok, err := f.j.TryLock(lock)
	if !ok || err != nil || unlock == nil {
		t.Fatalf("TryLock on a free lock: %v %v", ok, err)
	}
	if u2, ok2, err2 := f.j.TryLock(lock); ok2 || err2 != nil || u2 != nil {
		t.Fatalf("second TryLock in the same process: %v %v", ok2, err2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	_, err = f.j.Lock(ctx, lock)
	cancel()
	wantCode(t, err, CodeTimeout)
	unlock()
	unlock() // twice is harmless
	// The Lock that timed out above left a waiter in the kernel, which takes
	// the lock the moment it is free and drops it at once: TryLock may see
	// that instant, so it gets a short while to find the lock free.
	var u3 func()
	var ok3 bool
	var err3 error
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if u3, ok3, err3 = f.j.TryLock(lock); ok3 || err3 != nil {
			break
		}
	}
	if !ok3 || err3 != nil {
		t.Fatalf("TryLock after unlock: %v %v", ok3, err3)
	}
	u3()

	// An already-cancelled context does not take a free lock silently
	// forever; it either takes it at once or says timeout.
	ctx, cancel = context.WithCancel(context.Background())
	cancel()
	if u, err := f.j.Lock(ctx, lock); err == nil {
		u()
	} else {
		wantCode(t, err, CodeTimeout)
	}
}

func TestLockErrors(t *testing.T) {
	f := newFixture(t)
	f.dir("d")
	f.link(f.canary+"/secret.txt", "out")
	for _, c := range []struct {
		rel  string
		want Code
	}{
		{"missing/x.lock", CodeNotFound},
		{"d", CodeIsADirectory},
		{"", CodeIsADirectory},
		{".env", CodeDenied},
		{".git/index.lock", CodeDenied},
		{"out", CodeOutsideJail},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		u, err := f.j.Lock(ctx, f.abs(c.rel))
		cancel()
		if u != nil {
			u()
		}
		wantCode(t, err, c.want)
		u, err = f.j.LockShared(context.Background(), f.abs(c.rel))
		if u != nil {
			u()
		}
		wantCode(t, err, c.want)
		u, ok, err := f.j.TryLock(f.abs(c.rel))
		if u != nil || ok {
			u()
			t.Fatalf("TryLock(%s) succeeded", c.rel)
		}
		wantCode(t, err, c.want)
	}
}

// Shared holders hold the lock together; an exclusive taker waits for all
// of them, and a shared taker for an exclusive holder. Across processes
// too, and a killed shared holder lets go.
func TestLockShared(t *testing.T) {
	f := newFixture(t)
	f.dir("locks")
	lock := f.abs("locks/s.lock")
	short := func() (context.Context, context.CancelFunc) {
		return context.WithTimeout(context.Background(), 50*time.Millisecond)
	}

	u1, err := f.j.LockShared(context.Background(), lock)
	wantCode(t, err, "")
	u2, err := f.j.LockShared(context.Background(), lock)
	wantCode(t, err, "")
	if u, ok, err := f.j.TryLock(lock); ok || err != nil {
		u()
		t.Fatalf("TryLock while shared holders hold it: %v %v", ok, err)
	}
	ctx, cancel := short()
	_, err = f.j.Lock(ctx, lock)
	cancel()
	wantCode(t, err, CodeTimeout)

	// The exclusive waiter gets it once the last shared holder lets go.
	got := make(chan error, 1)
	release := make(chan struct{})
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		unlock, err := f.j.Lock(ctx, lock)
		got <- err
		if err == nil {
			<-release
			unlock()
		}
	}()
	u1()
	select {
	case err := <-got:
		t.Fatalf("Lock returned while a shared holder remained: %v", err)
	case <-time.After(50 * time.Millisecond):
	}
	u2()
	select {
	case err := <-got:
		wantCode(t, err, "")
	case <-time.After(5 * time.Second):
		t.Fatal("the exclusive waiter did not get the lock after the shared holders let go")
	}
	// Held exclusively: a shared taker waits.
	ctx, cancel = short()
	_, err = f.j.LockShared(ctx, lock)
	cancel()
	wantCode(t, err, CodeTimeout)
	close(release)
	ctx, cancel = context.WithTimeout(context.Background(), 5*time.Second)
	u3, err := f.j.LockShared(ctx, lock)
	cancel()
	wantCode(t, err, "")
	u3()
	u3() // twice is harmless

	// Another process holding it shared: shared here at once, exclusive
	// only after it dies.
	holder := startLockHolder(t, f.root, lock, true)
	u4, err := f.j.LockShared(context.Background(), lock)
	wantCode(t, err, "")
	u4()
	ctx, cancel = short()
	_, err = f.j.Lock(ctx, lock)
	cancel()
	wantCode(t, err, CodeTimeout)
	if err := holder.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	ctx, cancel = context.WithTimeout(context.Background(), 5*time.Second)
	u5, err := f.j.Lock(ctx, lock)
	cancel()
	wantCode(t, err, "")
	u5()
}

// TestLockDir: the folder lock excludes holders however they name the
// folder (through a symlink, or as two jails with nested roots do), and a
// wait ends with timeout when ctx does.
func TestLockDir(t *testing.T) {
	f := newFixture(t)
	f.dir("p/sub")
	f.link("p/sub", "alias")
	inner, err := Open(Config{Roots: []string{f.abs("p/sub")}})
	if err != nil {
		t.Fatal(err)
	}
	defer inner.Close()
	unlock, err := f.j.LockDir(context.Background(), f.abs("p/sub"))
	if err != nil {
		t.Fatal(err)
	}
	for _, try := range []struct {
		j   *Jail
		abs string
	}{{f.j, f.abs("alias")}, {inner, f.abs("p/sub")}, {f.j, f.abs("p/sub")}} {
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		_, err := try.j.LockDir(ctx, try.abs)
		cancel()
		wantCode(t, err, CodeTimeout)
	}
	// Another folder is not held.
	u2, err := f.j.LockDir(context.Background(), f.abs("p"))
	if err != nil {
		t.Fatal(err)
	}
	u2()
	got := make(chan error, 1)
	go func() {
		u, err := inner.LockDir(context.Background(), f.abs("p/sub"))
		if err == nil {
			u()
		}
		got <- err
	}()
	unlock()
	if err := <-got; err != nil {
		t.Fatal(err)
	}
	_, err = f.j.LockDir(context.Background(), f.abs("missing"))
	wantCode(t, err, CodeNotFound)
	f.file("file.txt", "x")
	_, err = f.j.LockDir(context.Background(), f.abs("file.txt"))
	wantCode(t, err, CodeNotADirectory)
}
