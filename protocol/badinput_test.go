package protocol

// Suite 6 of issue 6: bad input over MCP. The real server (NewServer and
// ServeStdio, run in a child process: the test binary re-executed, since
// mcp-go keeps one global stdio session per process) gets malformed JSON,
// wrong types, missing and extra fields, 50 MB of content, JSON nested
// 100,000 levels deep, unknown tools and methods, calls before initialize
// and a client that disconnects mid-call. Every one gets a JSON-RPC error
// or an isError result naming the problem, and the server answers the next
// call. The Streamable HTTP transport is checked for the disconnect too.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/editord/editord/editor"
)

const badInputHelperEnv = "EDITORD_BADINPUT_HELPER"

// TestBadInputHelperProcess is not a test: it is the server the bad-input
// tests talk to, `editord serve` minus the flag parsing.
func TestBadInputHelperProcess(t *testing.T) {
	if os.Getenv(badInputHelperEnv) == "" {
		t.Skip("helper process only")
	}
	cfg := editor.DefaultConfig()
	if n, err := strconv.ParseInt(os.Getenv("BADINPUT_MAX_WRITE"), 10, 64); err == nil {
		cfg.Jail.MaxWriteBytes = n
	}
	svc, err := editor.New(cfg, editor.Options{
		Root: os.Getenv("BADINPUT_ROOT"), StateDir: os.Getenv("BADINPUT_STATE"),
		Warn: func(m string) { fmt.Fprintln(os.Stderr, "warning:", m) },
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	srv := NewServer(svc, "test")
	err = ServeStdio(context.Background(), srv, os.Stdin, os.Stdout)
	svc.Close()
	if err != nil {
		fmt.Fprintln(os.Stderr, "serve:", err)
		os.Exit(1)
	}
	os.Exit(0) // before the testing package prints anything on stdout
}

type biServer struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan []byte
	exited chan error
	stderr strings.Builder
	root   string
	state  string
}

// raceBuild reports whether this test binary was built with -race, where
// parsing tens of megabytes of JSON takes minutes: the quick run then
// lowers the server's max_write_bytes and sends a few megabytes instead.
func raceBuild() bool {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "-race" && s.Value == "true" {
				return true
			}
		}
	}
	return false
}

func startBadInputServer(t *testing.T) *biServer {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root, state := filepath.Join(base, "ws"), filepath.Join(base, "state")
	os.MkdirAll(root, 0o755)
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("a\n"), 0o644)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^TestBadInputHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), badInputHelperEnv+"=1", "BADINPUT_ROOT="+root, "BADINPUT_STATE="+state)
	if raceBuild() && os.Getenv("EDITORD_STRESS") != "long" {
		cmd.Env = append(cmd.Env, "BADINPUT_MAX_WRITE=1048576")
	}
	s := &biServer{t: t, cmd: cmd, lines: make(chan []byte, 64), exited: make(chan error, 1), root: root, state: state}
	s.stdin, _ = cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = &s.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		r := bufio.NewReaderSize(stdout, 1<<20)
		for {
			line, err := r.ReadBytes('\n')
			if len(line) > 0 {
				s.lines <- line
			}
			if err != nil {
				close(s.lines)
				s.exited <- cmd.Wait()
				return
			}
		}
	}()
	t.Cleanup(func() {
		s.stdin.Close()
		cmd.Process.Kill()
	})
	return s
}

func (s *biServer) send(line []byte) {
	s.t.Helper()
	if _, err := s.stdin.Write(append(line, '\n')); err != nil {
		s.t.Fatalf("writing to the server: %v", err)
	}
}

// read returns the next message that is not a notification, or nil when
// none comes within wait.
func (s *biServer) read(wait time.Duration) map[string]any {
	s.t.Helper()
	deadline := time.After(wait)
	for {
		select {
		case line, ok := <-s.lines:
			if !ok {
				s.t.Fatalf("the server exited (stderr: %.2000s)", s.stderr.String())
			}
			var m map[string]any
			if err := json.Unmarshal(line, &m); err != nil {
				s.t.Fatalf("the server wrote a line that is not JSON: %.300q", line)
			}
			if m["method"] != nil && m["id"] == nil {
				continue
			}
			return m
		case <-deadline:
			return nil
		}
	}
}

func biRequest(id any, method string, params any) []byte {
	m := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if params != nil {
		m["params"] = params
	}
	b, _ := json.Marshal(m)
	return b
}

func biCall(id any, tool string, args any) []byte {
	return biRequest(id, "tools/call", map[string]any{"name": tool, "arguments": args})
}

// alive proves the server still serves: a good call gets its result.
func (s *biServer) alive(id int) {
	s.t.Helper()
	s.send(biCall(id, "editor_workspace_get", map[string]any{}))
	m := s.read(30 * time.Second)
	if m == nil {
		s.t.Fatalf("the server stopped answering (stderr: %.2000s)", s.stderr.String())
	}
	res, _ := m["result"].(map[string]any)
	if res == nil || res["isError"] == true || fmt.Sprint(m["id"]) != fmt.Sprint(id) {
		s.t.Fatalf("a good call after bad input: %v", m)
	}
}

// biExpect is what a bad message must get back.
type biExpect struct {
	rpcError bool   // a JSON-RPC error object
	isError  bool   // an isError tool result
	any      bool   // any answer: mcp-go is lenient here, and serving it is harmless
	mentions string // text the message must contain (the problem named)
	none     bool   // no response at all (a notification)
	ok       bool   // a successful result
	id       any    // when set, the id the answer must carry
}

func (s *biServer) check(name string, want biExpect, m map[string]any) {
	s.t.Helper()
	if want.none {
		if m != nil {
			s.t.Errorf("%s: a notification got a response: %v", name, m)
		}
		return
	}
	if m == nil {
		s.t.Errorf("%s: no response", name)
		return
	}
	if want.id != nil && fmt.Sprint(m["id"]) != fmt.Sprint(want.id) {
		s.t.Errorf("%s: answered with id %v, want %v", name, m["id"], want.id)
	}
	if want.ok {
		if res, _ := m["result"].(map[string]any); res == nil || res["isError"] == true {
			s.t.Errorf("%s: want a successful result, got %.500v", name, m)
		}
		s.t.Logf("%-34s -> served", name)
		return
	}
	if want.any {
		s.t.Logf("%-34s -> answered (%s)", name, map[bool]string{true: "error", false: "result"}[m["error"] != nil])
		return
	}
	var text string
	switch {
	case m["error"] != nil:
		e, _ := m["error"].(map[string]any)
		if !want.rpcError {
			s.t.Errorf("%s: a JSON-RPC error, want an isError result: %v", name, m)
		}
		if _, ok := e["code"].(float64); !ok || e["message"] == "" {
			s.t.Errorf("%s: the JSON-RPC error has no code or message: %v", name, m)
		}
		text = fmt.Sprint(e["message"], " ", e["data"])
	case m["result"] != nil:
		res := m["result"].(map[string]any)
		if !want.isError || res["isError"] != true {
			s.t.Errorf("%s: want %s, got a result: %.500v", name, map[bool]string{true: "an isError result", false: "a JSON-RPC error"}[want.isError], m)
			return
		}
		sc, _ := res["structuredContent"].(map[string]any)
		e, _ := sc["error"].(map[string]any)
		if e == nil || e["code"] == "" || e["code"] == "internal" {
			s.t.Errorf("%s: the isError result carries no stable code: %v", name, res)
		}
		text = fmt.Sprint(e["code"], " ", e["message"])
	default:
		s.t.Errorf("%s: neither result nor error: %v", name, m)
		return
	}
	if want.mentions != "" && !strings.Contains(strings.ToLower(text), strings.ToLower(want.mentions)) {
		s.t.Errorf("%s: the answer does not name the problem (%q): %.500s", name, want.mentions, text)
	}
	s.t.Logf("%-34s -> %.160s", name, text)
}

func nested(depth int, inner string) string {
	return strings.Repeat("[", depth) + inner + strings.Repeat("]", depth)
}

func TestBadInputOverStdio(t *testing.T) {
	s := startBadInputServer(t)

	// Calls before initialize: answered either way, never a hang or a crash.
	s.send(biCall(1, "editor_workspace_get", map[string]any{}))
	if m := s.read(20 * time.Second); m == nil || (m["result"] == nil && m["error"] == nil) {
		t.Fatalf("a call before initialize: %v", m)
	} else {
		t.Logf("call before initialize -> %.200v", m)
	}
	s.send(biRequest(2, "tools/list", nil))
	if m := s.read(20 * time.Second); m == nil {
		t.Fatal("tools/list before initialize: no answer")
	}
	s.send(biRequest(3, "initialize", map[string]any{
		"protocolVersion": mcp.LATEST_PROTOCOL_VERSION, "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "badinput", "version": "1"},
	}))
	if m := s.read(20 * time.Second); m == nil || m["result"] == nil {
		t.Fatalf("initialize: %v", m)
	}
	s.send([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	s.alive(4)

	// 50 MB in the long run; the quick one sends 20 MB, which is over
	// max_write_bytes (16 MiB) all the same. Either is refused by the
	// request limit (limit.go) before any JSON decoder sees it.
	bigMB := 20
	switch {
	case os.Getenv("EDITORD_STRESS") == "long":
		bigMB = 50
	case raceBuild():
		bigMB = 2 // over the 1 MiB max_write_bytes the server got
	}
	big := strings.Repeat("x", bigMB<<20)
	cases := []struct {
		name string
		line []byte
		want biExpect
	}{
		{"truncated JSON", []byte(`{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":`), biExpect{rpcError: true, mentions: "parse"}},
		{"not JSON", []byte(`hello there`), biExpect{rpcError: true, mentions: "parse"}},
		// The stdio fast path leaves a call's arguments to the request
		// decoder: arguments that are not JSON still get the parse error.
		{"arguments not JSON", []byte(`{"jsonrpc":"2.0","id":40,"method":"tools/call","params":{"name":"editor_diff","arguments":{"before":tru,"after":""}}}`), biExpect{rpcError: true, mentions: "parse"}},
		{"arguments with a bad escape", []byte(`{"jsonrpc":"2.0","id":41,"method":"tools/call","params":{"name":"editor_diff","arguments":{"before":"a\qb","after":""}}}`), biExpect{rpcError: true, mentions: "parse"}},
		{"text after the message", []byte(`{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"editor_diff","arguments":{"before":"","after":""}}} x`), biExpect{rpcError: true, mentions: "parse"}},
		{"binary bytes", []byte("\x00\xff\xfe{\x01"), biExpect{rpcError: true, mentions: "parse"}},
		{"a bare number", []byte(`42`), biExpect{rpcError: true}},
		{"a bare string", []byte(`"tools/list"`), biExpect{rpcError: true}},
		{"an array", []byte(`[1, 2, 3]`), biExpect{rpcError: true}},
		{"null", []byte(`null`), biExpect{rpcError: true}},
		{"wrong jsonrpc version", []byte(`{"jsonrpc":"1.0","id":11,"method":"tools/list"}`), biExpect{rpcError: true}},
		{"no method", []byte(`{"jsonrpc":"2.0","id":12}`), biExpect{rpcError: true}},
		{"method not a string", []byte(`{"jsonrpc":"2.0","id":13,"method":5}`), biExpect{rpcError: true}},
		{"unknown method", biRequest(14, "tools/explode", nil), biExpect{rpcError: true, mentions: "not found"}},
		{"unknown tool", biCall(15, "editor_explode", map[string]any{}), biExpect{rpcError: true, mentions: "editor_explode"}},
		{"function id instead of tool name", biCall(16, "editor::open", map[string]any{"path": "a.txt"}), biExpect{rpcError: true, mentions: "editor::open"}},
		{"tools/call without a name", biRequest(17, "tools/call", map[string]any{"arguments": map[string]any{}}), biExpect{rpcError: true}},
		{"params not an object", biRequest(18, "tools/call", []any{1, 2}), biExpect{rpcError: true}},
		{"arguments not an object", biCall(19, "editor_open", "a.txt"), biExpect{isError: true, mentions: "object"}},
		{"arguments an array", biCall(20, "editor_open", []any{"a.txt"}), biExpect{isError: true, mentions: "object"}},
		{"wrong type", biCall(21, "editor_open", map[string]any{"path": 5}), biExpect{isError: true, mentions: "path"}},
		{"wrong type, bool", biCall(22, "editor_save", map[string]any{"path": "a.txt", "content": "x", "force": "yes"}), biExpect{isError: true, mentions: "force"}},
		{"wrong type, nested", biCall(23, "editor_tree", map[string]any{"expand": map[string]any{"a": 1}}), biExpect{isError: true, mentions: "expand"}},
		{"integer overflow", []byte(`{"jsonrpc":"2.0","id":24,"method":"tools/call","params":{"name":"editor_tree","arguments":{"max_depth":1e400}}}`), biExpect{rpcError: true}},
		{"missing field", biCall(25, "editor_open", map[string]any{}), biExpect{isError: true, mentions: `"path"`}},
		{"null for a required field", biCall(26, "editor_save", map[string]any{"path": "a.txt", "content": nil}), biExpect{isError: true, mentions: "content"}},
		{"extra field", biCall(27, "editor_open", map[string]any{"path": "a.txt", "bogus": 1}), biExpect{isError: true, mentions: "bogus"}},
		{"misspelt guard", biCall(28, "editor_save", map[string]any{"path": "a.txt", "content": "x", "expected_verison": "1-2"}), biExpect{isError: true, mentions: "expected_verison"}},
		{"NUL in a path", biCall(29, "editor_open", map[string]any{"path": "a.txt\x00.png"}), biExpect{isError: true, mentions: "NUL"}},
		{"empty path", biCall(30, "editor_open", map[string]any{"path": ""}), biExpect{isError: true, mentions: "path"}},
		{fmt.Sprintf("%d MB of content", bigMB), biCall(31, "editor_save", map[string]any{"path": "big.txt", "content": big}), biExpect{rpcError: true, mentions: "request refused", id: 31}},
		// The id last, as the TypeScript SDK sends it.
		{"over the limit, id last", []byte(`{"method":"tools/call","params":{"name":"editor_save","arguments":{"path":"big.txt","content":"` + big + `"}},"jsonrpc":"2.0","id":"last"}`), biExpect{rpcError: true, mentions: "request refused", id: "last"}},
		// Escaping makes it six times longer, but what it decodes to fits:
		// served (json.Marshal writes "<" as \u003c).
		{"1 MB of escaped content", biCall(36, "editor_save", map[string]any{"path": "lt.txt", "content": strings.Repeat("<", 1_000_000)}), biExpect{ok: true, id: 36}},
		// Not UTF-8: refused, never saved as U+FFFD (issue 15 item 8).
		{"invalid UTF-8 in content", []byte("{\"jsonrpc\":\"2.0\",\"id\":37,\"method\":\"tools/call\",\"params\":{\"name\":\"editor_save\",\"arguments\":{\"path\":\"u.txt\",\"content\":\"ab\xffcd\"}}}"), biExpect{isError: true, mentions: `field "content" holds invalid UTF-8`}},
		{"a lone surrogate in a path", []byte(`{"jsonrpc":"2.0","id":38,"method":"tools/call","params":{"name":"editor_save","arguments":{"path":"u\ud800.txt","content":"x"}}}`), biExpect{isError: true, mentions: `field "path"`}},
		{"a 1 MB path", biCall(32, "editor_open", map[string]any{"path": big[:1<<20]}), biExpect{isError: true, mentions: "too long"}},
		{"nested 100,000 levels", []byte(`{"jsonrpc":"2.0","id":33,"method":"tools/call","params":{"name":"editor_open","arguments":{"path":` + nested(100_000, `"a.txt"`) + `}}}`), biExpect{rpcError: true, mentions: "parse"}},
		{"nested 5,000 levels", []byte(`{"jsonrpc":"2.0","id":34,"method":"tools/call","params":{"name":"editor_open","arguments":{"path":` + nested(5_000, `"a.txt"`) + `}}}`), biExpect{isError: true, mentions: "path"}},
		{"nested objects 100,000 levels", []byte(`{"jsonrpc":"2.0","id":35,"method":"tools/call","params":{"name":"editor_open","arguments":` + strings.Repeat(`{"a":`, 100_000) + "1" + strings.Repeat("}", 100_000) + `}}`), biExpect{rpcError: true, mentions: "parse"}},
		{"id an object", []byte(`{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}`), biExpect{any: true}},
		{"a 10 MB line of garbage", []byte(strings.Repeat("{", 10<<20)), biExpect{rpcError: true, mentions: "request refused"}},
		{"a tool call as a notification", []byte(`{"jsonrpc":"2.0","method":"tools/call","params":{"name":"editor_save","arguments":{"path":"note.txt","content":"x"}}}`), biExpect{none: true}},
		{"an unknown notification", []byte(`{"jsonrpc":"2.0","method":"notifications/whatever"}`), biExpect{none: true}},
		{"a response nobody asked for", []byte(`{"jsonrpc":"2.0","id":999,"result":{}}`), biExpect{none: true}},
	}
	for i, c := range cases {
		start := time.Now()
		s.send(c.line)
		wait := 30 * time.Second
		if c.want.none {
			wait = 500 * time.Millisecond
		}
		s.check(c.name, c.want, s.read(wait))
		s.alive(1000 + i)
		if d := time.Since(start); d > time.Second {
			t.Logf("%-34s took %v", c.name, d.Round(time.Millisecond))
		}
	}
	if _, err := os.Stat(filepath.Join(s.root, "big.txt")); err == nil {
		t.Error("the 50 MB save wrote a file")
	}
	if ents, _ := os.ReadDir(s.root); len(ents) > 3 {
		t.Errorf("refused calls wrote files: %v", ents)
	}
	// Closing stdin ends the server cleanly.
	s.stdin.Close()
	select {
	case err := <-s.exited:
		if err != nil {
			t.Errorf("the server exited with %v (stderr: %.2000s)", err, s.stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Error("the server did not exit after its client closed stdin")
	}
}

// holdLock takes the record lock of a state dir from this process, so that
// any call that records a buffer waits on it.
func holdLock(t *testing.T, state string) (release func()) {
	t.Helper()
	p := filepath.Join(state, "locks", "workspace.lock")
	os.MkdirAll(filepath.Dir(p), 0o700)
	f, err := os.OpenFile(p, os.O_RDONLY|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	released := false
	release = func() {
		if !released {
			released = true
			syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
			f.Close()
		}
	}
	t.Cleanup(release)
	return release
}

// waitLockWaiters waits until n processes or threads block in flock(2)
// on the file at p, as the kernel lists them in /proc/locks ("->" marks a
// waiter; the sixth field ends in the file's inode).
func waitLockWaiters(t *testing.T, p string, n int) {
	t.Helper()
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	ino := ":" + strconv.FormatUint(fi.Sys().(*syscall.Stat_t).Ino, 10)
	deadline := time.Now().Add(30 * time.Second)
	for {
		data, err := os.ReadFile("/proc/locks")
		if err != nil {
			t.Skipf("no /proc/locks to see the calls wait: %v", err)
		}
		waiting := 0
		for _, line := range strings.Split(string(data), "\n") {
			f := strings.Fields(line)
			if len(f) > 6 && f[1] == "->" && strings.HasSuffix(f[6], ino) {
				waiting++
			}
		}
		if waiting >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d waiting for %s after 30s, want %d", waiting, p, n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestBadInputDisconnectStdio: the client goes away while a call waits on
// a lock. The server gives up the call, exits promptly instead of lingering
// until the lock wait ends, writes nothing, and the next client is served.
func TestBadInputDisconnectStdio(t *testing.T) {
	s := startBadInputServer(t)
	s.send(biRequest(1, "initialize", map[string]any{
		"protocolVersion": mcp.LATEST_PROTOCOL_VERSION, "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "badinput", "version": "1"},
	}))
	if m := s.read(20 * time.Second); m == nil {
		t.Fatal("initialize: no answer")
	}
	s.send([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	s.alive(2)
	release := holdLock(t, s.state)
	s.send(biCall(3, "editor_open", map[string]any{"path": "a.txt"}))
	size := 8 << 20
	if raceBuild() {
		size = 512 << 10
	}
	s.send(biCall(4, "editor_save", map[string]any{"path": "half.txt", "content": strings.Repeat("y", size)}))
	waitLockWaiters(t, filepath.Join(s.state, "locks", "workspace.lock"), 2) // both calls are in flight
	start := time.Now()
	s.stdin.Close()
	select {
	case <-s.exited:
		t.Logf("the server exited %v after its client left", time.Since(start).Round(time.Millisecond))
	case <-time.After(8 * time.Second):
		t.Fatal("the server lingered after its client left mid-call")
	}
	release()
	// No partial file, no temp file.
	ents, _ := os.ReadDir(s.root)
	for _, e := range ents {
		if strings.Contains(e.Name(), ".editord-") {
			t.Errorf("a temp file was left: %s", e.Name())
		}
	}
	if b, err := os.ReadFile(filepath.Join(s.root, "half.txt")); err == nil && len(b) != size {
		t.Errorf("a save cut off by the disconnect left %d bytes", len(b))
	}
	// The next client on the same state dir is served.
	next := exec.Command(os.Args[0], "-test.run=^TestBadInputHelperProcess$", "-test.count=1")
	next.Env = append(os.Environ(), badInputHelperEnv+"=1", "BADINPUT_ROOT="+s.root, "BADINPUT_STATE="+s.state)
	c, err := client.NewStdioMCPClient(next.Path, next.Env, next.Args[1:]...)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := c.Initialize(ctx, mcp.InitializeRequest{Params: mcp.InitializeParams{ProtocolVersion: mcp.LATEST_PROTOCOL_VERSION, ClientInfo: mcp.Implementation{Name: "next", Version: "1"}}}); err != nil {
		t.Fatal(err)
	}
	res, err := c.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "editor_open", Arguments: map[string]any{"path": "a.txt"}}})
	if err != nil || res.IsError {
		t.Fatalf("the next client: %v %v", err, res)
	}
}

// TestBadInputDisconnectHTTP: over Streamable HTTP one server serves many
// clients; one that disconnects mid-call must not disturb the others.
func TestBadInputDisconnectHTTP(t *testing.T) {
	base, _ := filepath.EvalSymlinks(t.TempDir())
	root, state := filepath.Join(base, "ws"), filepath.Join(base, "state")
	os.MkdirAll(root, 0o755)
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("a\n"), 0o644)
	os.WriteFile(filepath.Join(root, "b.txt"), []byte("b\n"), 0o644)
	cfg := editor.DefaultConfig()
	if n, err := strconv.ParseInt(os.Getenv("BADINPUT_MAX_WRITE"), 10, 64); err == nil {
		cfg.Jail.MaxWriteBytes = n
	}
	svc, err := editor.New(cfg, editor.Options{Root: root, StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	srv := NewServer(svc, "test")
	hs := httptest.NewServer(HTTPHandler(srv, "tok"))
	defer hs.Close()
	connect := func(name string) *client.Client {
		c, err := client.NewStreamableHttpClient(hs.URL+"/mcp", transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer tok"}))
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		if err := c.Start(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Initialize(ctx, mcp.InitializeRequest{Params: mcp.InitializeParams{ProtocolVersion: mcp.LATEST_PROTOCOL_VERSION, ClientInfo: mcp.Implementation{Name: name, Version: "1"}}}); err != nil {
			t.Fatal(err)
		}
		return c
	}
	a, b := connect("a"), connect("b")
	defer b.Close()
	release := holdLock(t, state)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	_, err = a.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "editor_open", Arguments: map[string]any{"path": "a.txt"}}})
	cancel()
	if err == nil {
		t.Fatal("the call should have been cut off by the client")
	}
	a.Close()
	// Another client is served at once by calls that need no lock, and by
	// the others once the lock is free.
	ctx, cancel = context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	start := time.Now()
	res, err := b.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "editor_tree", Arguments: map[string]any{}}})
	// A call held behind the stuck lock would end after the lock wait
	// (10 s) with a timeout; under it, a loaded machine may be slow.
	if err != nil || res.IsError || time.Since(start) > 8*time.Second {
		t.Fatalf("another client after a disconnect: %v %v (%v)", err, res, time.Since(start))
	}
	release()
	res, err = b.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "editor_open", Arguments: map[string]any{"path": "b.txt"}}})
	if err != nil || res.IsError {
		t.Fatalf("another client after a disconnect: %v %v", err, res)
	}
}
