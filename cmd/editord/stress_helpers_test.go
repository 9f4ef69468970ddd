package main

// Helpers for the stress suites of issue 6 that drive the real binary
// (stress_*_test.go). Quick versions run in `go test ./...`; the long ones
// when EDITORD_STRESS=long (`make stress`).

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

func stLong() bool { return os.Getenv("EDITORD_STRESS") == "long" }

func stN(short, long int) int {
	if stLong() {
		return long
	}
	return short
}

// rawServer is `editord serve` spoken to line by line over its stdio, with
// no MCP client library in between, so a test can kill it at any moment
// and send whatever bytes it likes.
type rawServer struct {
	t      testing.TB
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan []byte // stdout, one JSON-RPC message per line
	stderr *lockedBuffer
	nextID int
}

type lockedBuffer struct {
	mu  sync.Mutex
	buf []byte
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.buf) < 1<<20 {
		b.buf = append(b.buf, p...)
	}
	return len(p), nil
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf)
}

// serveAddress reads the stderr of `editord serve --http` line by line,
// copying each line to log when it is not nil, until the server says
// where it serves MCP, and returns that address; it fails the test when
// the server says nothing of it within 20 s. It goes on reading (and
// copying) in the background, and calls ended (when not nil) once stderr
// ends.
func serveAddress(t testing.TB, stderr io.Reader, log *lockedBuffer, ended func()) string {
	t.Helper()
	addr, done := make(chan string, 1), make(chan struct{})
	go func() {
		defer close(done)
		if ended != nil {
			defer ended()
		}
		re := regexp.MustCompile(`serving MCP at (http://\S+/mcp)`)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if log != nil {
				log.Write([]byte(sc.Text() + "\n"))
			}
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case addr <- m[1]:
				default:
				}
			}
		}
		io.Copy(io.Discard, stderr)
	}()
	select {
	case url := <-addr:
		return url
	case <-done:
	case <-time.After(20 * time.Second):
	}
	said := ""
	if log != nil {
		said = ":\n" + log.String()
	}
	t.Fatalf("editord serve --http printed no address%s", said)
	return ""
}

// startRaw starts `editord serve` on root and state; initialize says
// whether to do the MCP handshake first.
func startRaw(t testing.TB, root, state string, initialize bool, extra ...string) *rawServer {
	t.Helper()
	args := append([]string{"serve", "--root", root, "--state-dir", state}, extra...)
	return startRawEnv(t, []string{"HOME=" + state, "XDG_CONFIG_HOME=" + state}, initialize, args...)
}

// startRawEnv starts editord with args and env added to the test's own
// environment.
func startRawEnv(t testing.TB, env []string, initialize bool, args ...string) *rawServer {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Env = append(os.Environ(), env...)
	s := spawnRaw(t, cmd)
	if initialize {
		s.handshake(mcp.LATEST_PROTOCOL_VERSION, "editord-stress")
	}
	return s
}

// spawnRaw starts cmd with its stdio piped to a rawServer, killed when the
// test ends.
func spawnRaw(t testing.TB, cmd *exec.Cmd) *rawServer {
	t.Helper()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	s := &rawServer{t: t, cmd: cmd, stdin: stdin, lines: make(chan []byte, 64), stderr: &lockedBuffer{}}
	cmd.Stderr = s.stderr
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
				return
			}
		}
	}()
	t.Cleanup(s.kill)
	return s
}

// handshake is the MCP initialize exchange, as client at version.
func (s *rawServer) handshake(version, client string) {
	s.request("initialize", map[string]any{
		"protocolVersion": version,
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": client, "version": "1"},
	}, 20*time.Second)
	s.send(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"})
}

func (s *rawServer) kill() {
	if s.cmd.ProcessState == nil {
		s.cmd.Process.Kill()
		s.cmd.Wait()
	}
}

// send writes one message (an object, or raw bytes) and a newline.
func (s *rawServer) send(msg any) error {
	var b []byte
	switch m := msg.(type) {
	case []byte:
		b = m
	case string:
		b = []byte(m)
	default:
		var err error
		if b, err = json.Marshal(m); err != nil {
			s.t.Fatal(err)
		}
	}
	_, err := s.stdin.Write(append(b, '\n'))
	return err
}

// read waits for the next message from the server that is not a
// notification.
func (s *rawServer) read(timeout time.Duration) (map[string]any, error) {
	deadline := time.After(timeout)
	for {
		select {
		case line, ok := <-s.lines:
			if !ok {
				return nil, io.EOF
			}
			var m map[string]any
			if err := json.Unmarshal(line, &m); err != nil {
				return nil, fmt.Errorf("the server wrote a line that is not JSON: %v: %.200q", err, line)
			}
			if _, isNote := m["method"]; isNote && m["id"] == nil {
				continue
			}
			return m, nil
		case <-deadline:
			return nil, context.DeadlineExceeded
		}
	}
}

// request sends a request and waits for its response.
func (s *rawServer) request(method string, params any, timeout time.Duration) map[string]any {
	s.t.Helper()
	s.nextID++
	id := s.nextID
	if err := s.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params}); err != nil {
		s.t.Fatalf("%s: %v (stderr: %s)", method, err, s.stderr)
	}
	m, err := s.read(timeout)
	if err != nil {
		s.t.Fatalf("%s: no response: %v (stderr: %s)", method, err, s.stderr)
	}
	if got, _ := m["id"].(float64); int(got) != id {
		s.t.Fatalf("%s: response for id %v, want %d: %v", method, m["id"], id, m)
	}
	return m
}

// callCLI runs `editord call FUNCTION JSON` and decodes what it prints.
func callCLI(t testing.TB, root, state, id, args string) (map[string]any, bool) {
	t.Helper()
	cmd := exec.Command(binary, "call", id, args, "--root", root, "--state-dir", state)
	cmd.Env = append(os.Environ(), "HOME="+state, "XDG_CONFIG_HOME="+state)
	out, err := cmd.Output()
	var m map[string]any
	if jerr := json.Unmarshal(out, &m); jerr != nil {
		t.Fatalf("editord call %s %s: %v: %v\n%s", id, args, err, jerr, out)
	}
	_, isErr := m["error"]
	return m, isErr
}
