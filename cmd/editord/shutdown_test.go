package main

import (
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Shutdown with a call in flight, on the real binary. Before the fix a
// git function stuck on a FIFO (open(2) waits for a writer forever) or on
// an ssh server that accepts and never speaks (go-git's ssh does not watch
// the context) kept `editord serve` alive after its client closed stdin
// and after SIGTERM; only SIGKILL ended it. Now the calls' contexts are
// cancelled and the server returns within protocol.ShutdownGrace even if a
// call does not end.

// shutdownScene is a repository whose origin is an ssh server that
// accepts and never speaks, with git_timeout_ms at two minutes, so a sync
// is stuck far longer than any wait here. handshaking hears of each
// connection once the client has sent its identification: it then waits
// for the server's, in the ssh handshake, for good.
func shutdownScene(t *testing.T) (root, state, config string, env []string, handshaking chan struct{}) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	base, _ := filepath.EvalSymlinks(t.TempDir())
	root, state, home := filepath.Join(base, "ws"), filepath.Join(base, "state"), filepath.Join(base, "home")
	for _, d := range []string{root, state, filepath.Join(home, ".ssh")} {
		os.MkdirAll(d, 0o700)
	}
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", filepath.Join(home, ".ssh", "id_ed25519")).CombinedOutput(); err != nil {
		t.Skipf("ssh-keygen: %v\n%s", err, out)
	}
	os.WriteFile(filepath.Join(home, ".ssh", "known_hosts"), []byte("example.org ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDcWAfhS1M0KkrZBbTPf2UqYOkCnO8tuOCvAUHMrpBsM\n"), 0o600)
	gitconfig := filepath.Join(home, ".gitconfig")
	os.WriteFile(gitconfig, []byte("[user]\n\tname = T\n\temail = t@example.com\n[init]\n\tdefaultBranch = main\n"), 0o644)
	env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, "xdg"), "GIT_CONFIG_GLOBAL="+gitconfig,
		"GIT_CONFIG_NOSYSTEM=1", "SSH_AUTH_SOCK=", "SSH_KNOWN_HOSTS=")
	git := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = root, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("a\n"), 0o644)
	git("init", "-q")
	git("add", "a.txt")
	git("commit", "-q", "-m", "base")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	handshaking = make(chan struct{}, 8)
	go func() {
		var held []net.Conn
		defer func() {
			for _, c := range held {
				c.Close()
			}
		}()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			held = append(held, c)
			go func() {
				// An ssh client speaks first ("SSH-2.0-..."), then
				// waits for the server's line.
				if _, err := io.ReadFull(c, make([]byte, 4)); err != nil {
					return
				}
				select {
				case handshaking <- struct{}{}:
				default:
				}
			}()
		}
	}()
	git("remote", "add", "origin", "ssh://git@"+ln.Addr().String()+"/repo.git")
	config = filepath.Join(base, "config.toml")
	os.WriteFile(config, []byte("[limits]\ngit_timeout_ms = 120000\n"), 0o644)
	return root, state, config, env, handshaking
}

// startServe is startRaw with the environment given (the whole of it),
// initialized.
func startServe(t *testing.T, env []string, args ...string) *rawServer {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Env = env
	s := spawnRaw(t, cmd)
	s.handshake("2025-06-18", "shutdown-test")
	return s
}

// exitsWithin waits for the process to end; it fails the test (and kills
// it) when it lingers.
func exitsWithin(t *testing.T, cmd *exec.Cmd, d time.Duration, after string) {
	t.Helper()
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	start := time.Now()
	select {
	case <-done:
		t.Logf("exited %v after %s", time.Since(start).Round(time.Millisecond), after)
	case <-time.After(d):
		cmd.Process.Kill()
		<-done
		t.Fatalf("still running %s after %s with a call in flight (only SIGKILL ended it)", d, after)
	}
}

func TestShutdownWithAStuckCall(t *testing.T) {
	for _, how := range []string{"stdin closed", "SIGTERM"} {
		t.Run("ssh sync, "+how, func(t *testing.T) {
			root, state, config, env, handshaking := shutdownScene(t)
			s := startServe(t, env, "serve", "--root", root, "--state-dir", state, "--config", config)
			s.send(map[string]any{"jsonrpc": "2.0", "id": 99, "method": "tools/call",
				"params": map[string]any{"name": "editor_git_sync", "arguments": map[string]any{"action": "fetch"}}})
			select {
			case <-handshaking:
			case <-time.After(20 * time.Second):
				t.Fatalf("the sync never reached the remote's handshake (stderr: %s)", s.stderr)
			}
			if how == "SIGTERM" {
				s.cmd.Process.Signal(syscall.SIGTERM)
			} else {
				s.stdin.Close()
			}
			exitsWithin(t, s.cmd, 10*time.Second, how)
		})
	}
	t.Run("a FIFO at .git/config", func(t *testing.T) {
		root, state, _, env, _ := shutdownScene(t)
		fifo := filepath.Join(root, ".git", "config")
		os.Remove(fifo)
		if err := syscall.Mkfifo(fifo, 0o644); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
		t.Cleanup(func() { // release a reader the code before the fix left blocked
			if fd, err := syscall.Open(fifo, syscall.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				syscall.Close(fd)
			}
		})
		s := startServe(t, env, "serve", "--root", root, "--state-dir", state)
		s.send(map[string]any{"jsonrpc": "2.0", "id": 99, "method": "tools/call",
			"params": map[string]any{"name": "editor_git_status", "arguments": map[string]any{}}})
		m, err := s.read(20 * time.Second)
		if err != nil {
			s.cmd.Process.Signal(syscall.SIGTERM)
			exitsWithin(t, s.cmd, 10*time.Second, "SIGTERM, with git status stuck on the FIFO")
			t.Fatalf("git status with a FIFO at .git/config: no answer (%v)", err)
		}
		if text := fmt.Sprint(m["result"]); !strings.Contains(text, fifo) || !strings.Contains(text, "named pipe") {
			t.Fatalf("git status with a FIFO at .git/config: %v; want an error naming it", m)
		}
		s.stdin.Close()
		exitsWithin(t, s.cmd, 10*time.Second, "stdin closed")
	})
	t.Run("editord call, SIGTERM", func(t *testing.T) {
		root, state, config, env, handshaking := shutdownScene(t)
		cmd := exec.Command(binary, "call", "editor::git::sync", `{"action":"fetch"}`, "--root", root, "--state-dir", state, "--config", config)
		cmd.Env = env
		var out lockedBuffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill() })
		select {
		case <-handshaking:
		case <-time.After(20 * time.Second):
			t.Fatalf("the sync never reached the remote's handshake: %s", out.String())
		}
		cmd.Process.Signal(syscall.SIGTERM)
		exitsWithin(t, cmd, 10*time.Second, "SIGTERM")
	})
}
