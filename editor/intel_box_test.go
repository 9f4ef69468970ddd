package editor

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/editord/editord/editor/lsp"
)

// A language server runs in the sandbox (editor/lsp/box.go): a planted
// server (this test binary, fakeServer below) tries to reach out of it and
// is refused, while the same server run with sandbox = false succeeds,
// which shows each attempt would work if nothing stopped it.

// fakeServerEnv makes the test binary a language server (TestMain).
const fakeServerEnv = "EDITORD_FAKE_LSP"

// fakeServerMain serves LSP on stdin/stdout when the environment asks for
// it, and never returns then.
func fakeServerMain() {
	if os.Getenv(fakeServerEnv) != "1" {
		return
	}
	os.Exit(fakeServer(os.Stdin, os.Stdout))
}

// fakeServer answers initialize, shutdown and workspace/symbol, whose
// query is an attempt ("read PATH", "write PATH", "dial NET ADDR",
// "env NAME"): the one symbol it answers with is named for the outcome,
// "done", "content: ...", "value: ..." or "refused: ERRNO".
func fakeServer(in io.Reader, out io.Writer) int {
	r := bufio.NewReader(in)
	send := func(id json.RawMessage, result any) {
		body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
		fmt.Fprintf(out, "Content-Length: %d\r\n\r\n%s", len(body), body)
	}
	for {
		n := -1
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return 0
			}
			line = strings.TrimSpace(line)
			if line == "" {
				break
			}
			if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
				n, _ = strconv.Atoi(v)
			}
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(r, body); err != nil {
			return 0
		}
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Query string `json:"query"`
			} `json:"params"`
		}
		json.Unmarshal(body, &msg)
		switch msg.Method {
		case "initialize":
			send(msg.ID, map[string]any{"capabilities": map[string]any{"workspaceSymbolProvider": true}})
		case "shutdown":
			send(msg.ID, nil)
		case "exit":
			return 0
		case "workspace/symbol":
			wd, _ := os.Getwd()
			send(msg.ID, []any{map[string]any{"name": fakeAttempt(msg.Params.Query), "kind": 12,
				"location": map[string]any{"uri": lsp.URI(filepath.Join(wd, "probe.fake")),
					"range": map[string]any{"start": map[string]int{"line": 0, "character": 0}, "end": map[string]int{"line": 0, "character": 1}}}}})
		default:
			if len(msg.ID) > 0 && string(msg.ID) != "null" {
				send(msg.ID, nil)
			}
		}
	}
}

func fakeAttempt(q string) string {
	f := strings.Fields(q)
	arg := func(i int) string {
		if i < len(f) {
			return f[i]
		}
		return ""
	}
	var err error
	switch arg(0) {
	case "read":
		var data []byte
		if data, err = os.ReadFile(arg(1)); err == nil {
			return fmt.Sprintf("content: %q", data)
		}
	case "write":
		err = os.WriteFile(arg(1), []byte("escaped\n"), 0o644)
	case "dial":
		var c net.Conn
		if c, err = net.DialTimeout(arg(1), arg(2), 5*time.Second); err == nil {
			c.Close()
		}
	case "env":
		return "value: " + os.Getenv(arg(1))
	default:
		return "unknown attempt " + q
	}
	if err != nil {
		var errno syscall.Errno
		if errors.As(err, &errno) {
			return "refused: " + errno.Error()
		}
		return "refused: " + err.Error()
	}
	return "done"
}

// fakeServers configures the test binary as two servers: x in the
// sandbox (language "fake"), and y without it (language "open").
func fakeServers(t *testing.T) func(*Config) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return func(c *Config) {
		env := map[string]string{fakeServerEnv: "1", "GORACE": "atexit_sleep_ms=0"}
		c.LSP = map[string]lsp.ServerConfig{
			"x": {Command: []string{self}, Languages: []string{"fake"}, Env: env},
			"y": {Command: []string{self}, Languages: []string{"open"}, Env: env, Sandbox: new(bool)},
		}
	}
}

// attempt asks the server of language to try q, and returns the outcome.
func (e *tcEnv) attempt(language, q string) string {
	e.t.Helper()
	out, err := e.s.Symbols(context.Background(), &SymbolsRequest{Query: q, Language: language})
	if err != nil {
		e.t.Fatalf("%s: %v", q, err)
	}
	if len(out.Symbols) != 1 {
		e.t.Fatalf("%s: %+v", q, out)
	}
	return out.Symbols[0].Name
}

func TestLanguageServerSandbox(t *testing.T) {
	rcNeedSandbox(t)
	e := tcNew(t, fakeServers(t))
	e.write("probe.fake", "probe\n")
	e.write("a.txt", "in the jail\n")
	e.write(".env", "TOKEN=jail-secret\n")
	e.write("keys/server.key", "PRIVATE\n")
	tcp, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer tcp.Close()
	accepted := make(chan struct{}, 4)
	go func() {
		for {
			c, err := tcp.Accept()
			if err != nil {
				return
			}
			accepted <- struct{}{}
			c.Close()
		}
	}()
	// A host socket in /var/tmp (the jail is in /tmp here, so only
	// /var/tmp can be covered), as an ssh or docker agent's would be.
	sockDir, err := os.MkdirTemp("/var/tmp", "editord-lsp-test-")
	if err != nil {
		t.Skipf("no /var/tmp: %v", err)
	}
	defer os.RemoveAll(sockDir)
	unix, err := net.Listen("unix", filepath.Join(sockDir, "agent.sock"))
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close()
	go func() {
		for {
			c, err := unix.Accept()
			if err != nil {
				return
			}
			accepted <- struct{}{}
			c.Close()
		}
	}()
	var stateFile string
	ents, _ := os.ReadDir(e.state)
	for _, ent := range ents {
		if ent.Type().IsRegular() {
			stateFile = filepath.Join(e.state, ent.Name())
			break
		}
	}
	if stateFile == "" {
		t.Fatalf("no file in the state dir %s", e.state)
	}
	secret := filepath.Join(e.canary, "secret.txt")
	if err := os.MkdirAll(filepath.Join(e.state, "lsp", "y"), 0o755); err != nil {
		t.Fatal(err)
	}
	attempts := []struct{ q, boxed, open string }{
		{"read " + e.abs("a.txt"), `content: "in the jail\n"`, `content: "in the jail\n"`},
		{"read " + secret, "refused: permission denied", `content: "canary: do not touch\n"`},
		{"read " + e.abs(".env"), "refused: permission denied", `content: "TOKEN=jail-secret\n"`},
		{"read " + e.abs("keys/server.key"), "refused: permission denied", `content: "PRIVATE\n"`},
		{"read " + stateFile, "refused: permission denied", "content: "},
		{"write " + filepath.Join(e.canary, "planted"), "refused: permission denied", "done"},
		{"write " + e.abs("planted"), "refused: permission denied", "done"},
		// The state dir beyond lsp/x: its own root, another server's home.
		{"write " + filepath.Join(e.state, "planted"), "refused: permission denied", "done"},
		{"write " + filepath.Join(e.state, "lsp", "y", "planted"), "refused: permission denied", "done"},
		{"dial tcp " + tcp.Addr().String(), "refused: connection refused", "done"},
		{"dial unix " + filepath.Join(sockDir, "agent.sock"), "refused: no such file or directory", "done"},
	}
	for _, a := range attempts {
		if got := e.attempt("fake", a.q); got != a.boxed {
			t.Errorf("in the sandbox, %s: %s, want %s", a.q, got, a.boxed)
		}
	}
	select {
	case <-accepted:
		t.Fatal("a sandboxed server reached a host socket")
	default:
	}
	for _, p := range []string{filepath.Join(e.canary, "planted"), e.abs("planted"), filepath.Join(e.state, "planted"), filepath.Join(e.state, "lsp", "y", "planted")} {
		if _, err := os.Lstat(p); !os.IsNotExist(err) {
			t.Fatalf("the sandboxed server wrote %s", p)
		}
	}
	// Its home and temp folder are its own, in the state dir, and writable.
	home := strings.TrimPrefix(e.attempt("fake", "env HOME"), "value: ")
	tmp := strings.TrimPrefix(e.attempt("fake", "env TMPDIR"), "value: ")
	if home != filepath.Join(e.state, "lsp", "x", "home") || !strings.HasPrefix(tmp, filepath.Join(e.state, "lsp", "x", "tmp")+"/") {
		t.Fatalf("home %s, temp %s", home, tmp)
	}
	for _, d := range []string{home, tmp} {
		if got := e.attempt("fake", "write "+filepath.Join(d, "cache")); got != "done" {
			t.Fatalf("writing in %s: %s", d, got)
		}
	}
	if run := e.s.lsp.Running(); len(run) != 1 || !run[0].Sandboxed {
		t.Fatalf("running: %+v", run)
	}

	// Unconfined, every attempt works: the ones above were refused by the
	// sandbox, not by anything else.
	for _, a := range attempts {
		if got := e.attempt("open", a.q); !strings.HasPrefix(got, a.open) {
			t.Errorf("unconfined, %s: %s, want %s", a.q, got, a.open)
		}
	}
	for range 2 {
		select {
		case <-accepted:
		case <-time.After(10 * time.Second):
			t.Fatal("the unconfined server did not reach the host sockets")
		}
	}

	// A denied file that appears while the server runs: the next check
	// stops the server, and the one the next call starts cannot read it.
	e.write("late.pem", "LATE\n")
	e.s.lsp.Recheck()
	if got := e.attempt("fake", "read "+e.abs("late.pem")); got != "refused: permission denied" {
		t.Fatalf("a denied file made after the start: %s", got)
	}
	// Its temp folder goes with it; the home stays.
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(tmp); os.IsNotExist(err) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the stopped server's temp folder %s is still there", tmp)
		}
	}
	if _, err := os.Stat(filepath.Join(home, "cache")); err != nil {
		t.Fatalf("the home was not kept: %v", err)
	}
}

// serverPid is the process id of srv's program: the child of the
// sandbox's init when it runs in one.
func serverPid(t *testing.T, srv *lsp.Server) int {
	t.Helper()
	if !srv.Sandboxed {
		return srv.Pid()
	}
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", srv.Pid(), srv.Pid()))
	if err != nil {
		t.Skipf("no /proc children: %v", err)
	}
	f := strings.Fields(string(data))
	if len(f) == 0 {
		t.Fatalf("the sandbox's init %d has no child", srv.Pid())
	}
	pid, _ := strconv.Atoi(f[0])
	return pid
}

// A sandboxed server's pipes are closed once it ends: servers stopped and
// started again (idleness, a crash, a recheck) do not pile up descriptors
// in editord.
func TestLanguageServerPipesClosed(t *testing.T) {
	rcNeedSandbox(t)
	e := tcNew(t, fakeServers(t))
	e.write("probe.fake", "probe\n")
	fds := func() int {
		ents, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Skipf("no /proc/self/fd: %v", err)
		}
		return len(ents)
	}
	// A lost *os.File is closed by its finalizer, some time: with the
	// collector off, only an explicit close counts.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	e.attempt("fake", "env HOME")
	e.s.lsp.Stop("x", e.root)
	base := fds()
	const restarts = 8
	for range restarts {
		if got := e.attempt("fake", "env HOME"); !strings.HasPrefix(got, "value: ") {
			t.Fatalf("attempt: %s", got)
		}
		e.s.lsp.Stop("x", e.root)
	}
	// The pipes close as the reader sees their end: wait for it. Two
	// descriptors a server were kept before (16 here); a few are slack for
	// what else the process holds for a moment.
	for deadline := time.Now().Add(30 * time.Second); fds() > base+4; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d descriptors open after %d restarts, %d before", fds(), restarts, base)
		}
	}
}
