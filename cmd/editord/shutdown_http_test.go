package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// SIGTERM to `editord serve --http` with the SSE stream of a GET /mcp open
// (the page keeps one open all the time) and a save in flight. Before the
// fix the server waited for the stream to end for its whole 10 s graceful
// timeout, then exited 1 with "context deadline exceeded", and the save's
// context was never cancelled. Now the calls in flight are cancelled and
// answered, the MCP sessions (and with them their streams) are closed, and
// the process exits 0 within protocol.ShutdownGrace.
func TestShutdownHTTPWithStreamAndSaveInFlight(t *testing.T) {
	if _, err := os.Stat("/proc/locks"); err != nil {
		t.Skip("needs /proc/locks to see the save waiting")
	}
	root, state := workspaceDir(t), t.TempDir()
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("before\n"), 0o644)
	const token = "shutdown-http-token-0123456789abcdef"
	cmd := exec.Command(binary, "serve", "--http", "127.0.0.1:0", "--root", root, "--state-dir", state)
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "EDITORD_TOKEN="+token)
	var stderr lockedBuffer
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	piped := make(chan struct{})
	url := serveAddress(t, pipe, &stderr, func() { close(piped) })

	post := func(session string, msg map[string]any) (*http.Response, error) {
		body, _ := json.Marshal(msg)
		req, _ := http.NewRequest("POST", url, bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
		}
		return http.DefaultClient.Do(req)
	}
	resp, err := post("", map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{
		"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "shutdown-http-test", "version": "1"}}})
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	session := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != 200 || session == "" {
		t.Fatalf("initialize: %d, session %q", resp.StatusCode, session)
	}
	if resp, err = post(session, map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"}); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()

	// The stream: a GET /mcp that stays open, as the page's does.
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", session)
	stream, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Body.Close()
	if stream.StatusCode != 200 || !strings.HasPrefix(stream.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("GET /mcp: %d %s", stream.StatusCode, stream.Header.Get("Content-Type"))
	}
	streamEnded := make(chan struct{})
	go func() { io.Copy(io.Discard, stream.Body); close(streamEnded) }()

	// A save in flight: it waits at the writes gate (editor/writes_lock.go),
	// which the test holds shut.
	os.MkdirAll(filepath.Join(state, "locks"), 0o700)
	gate, err := os.OpenFile(filepath.Join(state, "locks", "writes-gate.lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer gate.Close()
	if err := syscall.Flock(int(gate.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	type answer struct {
		status int
		body   string
		err    error
	}
	saved := make(chan answer, 1)
	go func() {
		resp, err := post(session, map[string]any{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": map[string]any{
			"name": "editor_save", "arguments": map[string]any{"path": "a.txt", "content": "after\n"}}})
		if err != nil {
			saved <- answer{err: err}
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		saved <- answer{status: resp.StatusCode, body: string(b)}
	}()
	waitFor(t, "the save to wait at the writes gate", func() bool { return flockWaiter(t, cmd.Process.Pid, gate) })

	cmd.Process.Signal(syscall.SIGTERM)
	start := time.Now()
	exited := make(chan error, 1)
	go func() { <-piped; exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		took := time.Since(start)
		t.Logf("exited %v after SIGTERM: %v", took.Round(time.Millisecond), err)
		if err != nil {
			t.Fatalf("editord serve --http exited with %v after SIGTERM; stderr:\n%s", err, stderr.String())
		}
		// Under the old 10 s graceful timeout; ShutdownGrace is 2 s, the
		// rest is room for a loaded machine.
		if took > 8*time.Second {
			t.Fatalf("SIGTERM took %v to end the server", took)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("editord serve --http still running 30 s after SIGTERM; stderr:\n%s", stderr.String())
	}
	if strings.Contains(stderr.String(), "deadline exceeded") {
		t.Fatalf("stderr: %s", stderr.String())
	}
	select {
	case <-streamEnded:
	case <-time.After(10 * time.Second):
		t.Fatal("the SSE stream is still open after the server exited")
	}
	// The save was answered: refused as cancelled, with nothing written.
	var a answer
	select {
	case a = <-saved:
	case <-time.After(10 * time.Second):
		t.Fatal("the save in flight got no answer")
	}
	if a.err != nil || a.status != 200 || !strings.Contains(a.body, `"isError":true`) || !strings.Contains(a.body, "the call was cancelled (its client left, or the server is ending)") {
		t.Fatalf("the save in flight: %d %v %s", a.status, a.err, a.body)
	}
	t.Logf("the save in flight: %s", strings.TrimSpace(a.body))
	if b, _ := os.ReadFile(filepath.Join(root, "a.txt")); string(b) != "before\n" {
		t.Fatalf("a refused save wrote a.txt: %q", b)
	}
}

// flockWaiter reports whether process pid waits (blocked in flock) for a
// shared lock on the file f, as /proc/locks lists it: "N: -> FLOCK
// ADVISORY READ PID MAJ:MIN:INODE 0 EOF".
func flockWaiter(t *testing.T, pid int, f *os.File) bool {
	t.Helper()
	var st syscall.Stat_t
	if err := syscall.Fstat(int(f.Fd()), &st); err != nil {
		t.Fatal(err)
	}
	locks, err := os.ReadFile("/proc/locks")
	if err != nil {
		t.Fatal(err)
	}
	suffix := fmt.Sprintf(":%d", st.Ino)
	for _, line := range strings.Split(string(locks), "\n") {
		f := strings.Fields(line)
		if len(f) >= 7 && f[1] == "->" && f[2] == "FLOCK" && f[4] == "READ" && f[5] == fmt.Sprint(pid) && strings.HasSuffix(f[6], suffix) {
			return true
		}
	}
	return false
}
