//go:build linux

package sandbox

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Each escape is tried from inside the sandbox by the test binary itself
// (helper_test.go), and must be refused, with the outside untouched.

// attempt runs one helper mode and returns what it printed.
func (b *box) attempt(sp Spec) string {
	b.t.Helper()
	r := b.run(sp)
	if r.ExitCode != 0 {
		b.t.Fatalf("helper ended %+v; stdout %q stderr %q", r.Result, r.stdout, r.stderr)
	}
	return strings.TrimSpace(r.stdout)
}

func (b *box) refused(sp Spec) {
	b.t.Helper()
	if out := b.attempt(sp); !strings.HasPrefix(out, "refused: ") {
		b.t.Fatalf("%v: %q, want it refused", sp.Args[1:], out)
	}
}

func (b *box) done(sp Spec) {
	b.t.Helper()
	if out := b.attempt(sp); out != "done" && !strings.HasPrefix(out, "content: ") && !strings.HasPrefix(out, "entries: ") {
		b.t.Fatalf("%v: %q, want it done", sp.Args[1:], out)
	}
}

func mustNotExist(t *testing.T, p string) {
	t.Helper()
	if _, err := os.Lstat(p); !os.IsNotExist(err) {
		t.Fatalf("%s exists (%v): the sandbox let it be made", p, err)
	}
}

func mustHold(t *testing.T, p, content string) {
	t.Helper()
	if data, err := os.ReadFile(p); err != nil || string(data) != content {
		t.Fatalf("%s holds %q (%v), want %q untouched", p, data, err, content)
	}
}

func TestEscapeWriteOutside(t *testing.T) {
	b := newBox(t)
	target := filepath.Join(b.outside, "planted")
	{ // absolute path
		b.refused(b.helperSpec("write", target))
		mustNotExist(t, target)
	}
	{ // dot dot
		b.refused(b.helperSpec("write", filepath.Join(b.jail, "..", "outside", "planted")))
		b.refused(b.helperSpec("write", "../outside/planted"))
		mustNotExist(t, target)
	}
	{ // symlink
		// A link made before the run, and one the command makes itself.
		if err := os.Symlink(b.outside, filepath.Join(b.jail, "out")); err != nil {
			t.Fatal(err)
		}
		b.refused(b.helperSpec("write", filepath.Join(b.jail, "out", "planted")))
		b.done(b.helperSpec("symlink", target, "mine"))
		b.refused(b.helperSpec("write", "mine"))
		mustNotExist(t, target)
	}
	{ // hard link
		victim := filepath.Join(b.outside, "victim")
		if err := os.WriteFile(victim, []byte("original\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		// Into the jail (to write it there), and out of it.
		b.refused(b.helperSpec("link", victim, "victim"))
		b.write("mine.txt", "mine\n")
		b.refused(b.helperSpec("link", "mine.txt", filepath.Join(b.outside, "mine")))
		mustNotExist(t, filepath.Join(b.jail, "victim"))
		mustNotExist(t, filepath.Join(b.outside, "mine"))
		mustHold(t, victim, "original\n")
	}
	{ // existing file outside
		victim := filepath.Join(b.outside, "kept")
		if err := os.WriteFile(victim, []byte("kept\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		b.refused(b.helperSpec("append", victim))
		b.refused(b.helperSpec("remove", victim))
		b.refused(b.helperSpec("rename", victim, "moved"))
		b.refused(b.helperSpec("read", victim))
		mustHold(t, victim, "kept\n")
	}
	{ // inside is fine
		b.done(b.helperSpec("write", "sub.txt"))
		mustHold(t, filepath.Join(b.jail, "sub.txt"), "escaped\n")
		b.done(b.helperSpec("write", filepath.Join(b.tmp, "t")))
	}
}

func TestEscapeDeniedFile(t *testing.T) {
	b := newBox(t)
	env := b.write(".env", "TOKEN=secret\n")
	key := b.write("sub/id.key", "KEY\n")
	secrets := filepath.Join(b.jail, "secrets")
	inSecrets := b.write("secrets/db.txt", "password\n")
	b.write("sub/ok.txt", "fine\n")
	hide := func(sp Spec) Spec { sp.Hide = []string{env, key, secrets}; return sp }
	for _, p := range []string{".env", "sub/id.key", "secrets/db.txt"} {
		b.refused(hide(b.helperSpec("read", p)))
		b.refused(hide(b.helperSpec("write", p)))
		b.refused(hide(b.helperSpec("remove", p)))
		b.refused(hide(b.helperSpec("rename", p, "stolen")))
		b.refused(hide(b.helperSpec("chmod", p)))
		b.refused(hide(b.helperSpec("link", p, "linked")))
	}
	b.refused(hide(b.helperSpec("list", "secrets")))
	b.refused(hide(b.helperSpec("write", "secrets/new.txt")))
	// Through a link the command makes to it.
	b.done(hide(b.helperSpec("symlink", env, "alias")))
	b.refused(hide(b.helperSpec("read", "alias")))
	// What is not denied is there as usual.
	b.done(hide(b.helperSpec("read", "sub/ok.txt")))
	b.done(hide(b.helperSpec("remove", "sub/ok.txt")))
	mustHold(t, env, "TOKEN=secret\n")
	mustHold(t, key, "KEY\n")
	mustHold(t, inSecrets, "password\n")
	mustNotExist(t, filepath.Join(b.jail, "stolen"))
	mustNotExist(t, filepath.Join(b.jail, "linked"))
}

func TestEscapeGitHooks(t *testing.T) {
	b := newBox(t)
	head := b.write(".git/HEAD", "ref: refs/heads/main\n")
	b.write(".git/hooks/README", "hooks\n")
	ro := func(sp Spec) Spec { sp.ReadOnly = []string{filepath.Join(b.jail, ".git")}; return sp }
	b.refused(ro(b.helperSpec("write", ".git/hooks/pre-commit")))
	b.refused(ro(b.helperSpec("write", ".git/HEAD")))
	b.refused(ro(b.helperSpec("mkdir", ".git/hooks/x")))
	b.refused(ro(b.helperSpec("remove", ".git/HEAD")))
	b.refused(ro(b.helperSpec("rename", ".git", "git2")))
	b.done(ro(b.helperSpec("read", ".git/HEAD")))
	mustNotExist(t, filepath.Join(b.jail, ".git/hooks/pre-commit"))
	mustHold(t, head, "ref: refs/heads/main\n")
}

func TestEscapeNetwork(t *testing.T) {
	b := newBox(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var tok [6]byte
	rand.Read(tok[:])
	abstract := "@editord-sandbox-test-" + hex.EncodeToString(tok[:])
	uln, err := net.Listen("unix", abstract)
	if err != nil {
		t.Fatal(err)
	}
	defer uln.Close()
	b.refused(b.helperSpec("dial", "tcp", ln.Addr().String()))
	b.refused(b.helperSpec("dial", "unix", abstract))
	b.refused(b.helperSpec("dial", "tcp", "1.1.1.1:443"))
	// A host service's socket in /run (the Docker daemon's, D-Bus's).
	if os.Getuid() == 0 {
		path := "/run/editord-sandbox-test-" + hex.EncodeToString(tok[:]) + ".sock"
		pln, err := net.Listen("unix", path)
		if err != nil {
			t.Fatal(err)
		}
		defer pln.Close()
		b.refused(b.helperSpec("dial", "unix", path))
	}
	// The sandbox's own loopback works (a test server of the command's).
	sp := b.spec("sh", "-c", "exec 3<>/dev/null; echo up")
	if r := b.run(sp); r.ExitCode != 0 {
		t.Fatalf("%+v %q", r.Result, r.stderr)
	}
}

func TestEscapeForkPastLimit(t *testing.T) {
	b := newBox(t)
	sp := b.helperSpec("fork", "200")
	sp.Limits.Processes = 40
	pr, pw, err := os.Pipe() // held open: the children wait on it
	if err != nil {
		t.Fatal(err)
	}
	defer pw.Close()
	sp.Stdin = pr
	r := b.run(sp)
	pr.Close()
	out := strings.TrimSpace(r.stdout)
	if !strings.HasPrefix(out, "started: ") || out == "started: 200" {
		t.Fatalf("forking 200 under a limit of 40: %q (%+v, limit by %s) %q", out, r.Result, r.ProcessLimit, r.stderr)
	}
	t.Logf("%s of 200 under a limit of 40 (by %s)", out, r.ProcessLimit)
}

func TestEscapeSurviveTimeout(t *testing.T) {
	b := newBox(t)
	var tok [8]byte
	rand.Read(tok[:])
	token := "editord-linger-" + hex.EncodeToString(tok[:])
	sp := b.helperSpec("orphan", token)
	sp.Timeout = 2 * time.Second
	var out strings.Builder
	sp.Stdout, sp.Stderr = &out, &out
	p, err := Start(context.Background(), sp)
	if err != nil {
		t.Fatal(err)
	}
	// The grandchild is there while the command runs...
	waitFor(t, func() bool { return len(lingering(token)) > 0 }, "the orphan to start")
	res := p.Wait()
	if !res.TimedOut || res.ExitCode != -1 {
		t.Fatalf("want a timeout, got %+v; output %q", res, out.String())
	}
	// ...and gone once Wait returns: the kernel reaps the whole PID
	// namespace before its init's exit is reported.
	if pids := lingering(token); len(pids) > 0 {
		t.Fatalf("processes %v survived the timeout", pids)
	}
}

func TestContextEndKillsEverything(t *testing.T) {
	b := newBox(t)
	var tok [8]byte
	rand.Read(tok[:])
	token := "editord-linger-" + hex.EncodeToString(tok[:])
	sp := b.helperSpec("orphan", token)
	ctx, cancel := context.WithCancel(context.Background())
	p, err := Start(ctx, sp)
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { return len(lingering(token)) > 0 }, "the orphan to start")
	cancel()
	res := p.Wait()
	if !res.Killed || res.TimedOut {
		t.Fatalf("want killed, got %+v", res)
	}
	if pids := lingering(token); len(pids) > 0 {
		t.Fatalf("processes %v survived the cancel", pids)
	}
}

// lingering lists the host pids of processes whose arguments hold token.
func lingering(token string) []string {
	var out []string
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		data, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.Contains(string(data), token) {
			out = append(out, e.Name())
		}
	}
	return out
}

func waitFor(t *testing.T, cond func() bool, what string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
