package main

// Issue 15 item 5: no request size limit. One authenticated 300 MB HTTP
// POST took the server from 20 MB to 813 MB resident; a 100 MB stdio line
// peaked at 805 MB. Now both are refused while they stream in (limit.go in
// protocol), with a JSON-RPC error naming the limit, and the server goes
// on serving. The bound is checked on the peak RSS (ru_maxrss) of the real
// binary; nothing is timed.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// requestBound is how far above an idle server's peak RSS refusing a huge
// request may go (785 MiB for the 100 MiB line before the limit).
const requestBound = 64

// hwm is the peak RSS in MiB of a running child so far (VmHWM, what
// ru_maxrss reports at exit; read before the exit so that shutdown work
// is not counted).
func hwm(t *testing.T, cmd *exec.Cmd) float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", cmd.Process.Pid))
	m := regexp.MustCompile(`VmHWM:\s+(\d+) kB`).FindSubmatch(b)
	if err != nil || m == nil {
		t.Skip("no /proc/PID/status VmHWM on this system")
	}
	kb, _ := strconv.ParseFloat(string(m[1]), 64)
	return kb / 1024
}

// bigSave is a tools/call of editor::save whose content is n bytes.
func bigSave(id any, n int) []byte {
	head := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":"editor_save","arguments":{"path":"big.txt","content":"`, mustJSON(id))
	b := make([]byte, 0, len(head)+n+8)
	b = append(b, head...)
	b = append(b, bytes.Repeat([]byte("x"), n)...)
	return append(b, `"}}}`...)
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestStressRequestLimitStdio(t *testing.T) {
	root := workspaceDir(t)
	state := t.TempDir()
	peak := func(send func(s *rawServer)) float64 {
		s := startRaw(t, root, state, true)
		send(s)
		peak := hwm(t, s.cmd)
		s.stdin.Close()
		if err := s.cmd.Wait(); err != nil {
			t.Fatalf("the server did not exit cleanly: %v %s", err, s.stderr)
		}
		return peak
	}
	idle := peak(func(s *rawServer) {
		s.request("tools/call", map[string]any{"name": "editor_workspace_get", "arguments": map[string]any{}}, 30*time.Second)
	})
	big := peak(func(s *rawServer) {
		s.nextID++
		if err := s.send(bigSave(s.nextID, 100<<20)); err != nil {
			t.Fatal(err)
		}
		m, err := s.read(60 * time.Second)
		if err != nil {
			t.Fatal(err)
		}
		e, _ := m["error"].(map[string]any)
		msg, _ := e["message"].(string)
		if fmt.Sprint(m["id"]) != fmt.Sprint(s.nextID) || !strings.Contains(msg, "16777216") {
			t.Errorf("a 100 MiB line: want a JSON-RPC error for id %d naming the limit, got %.400v", s.nextID, m)
		}
		// The stream goes on.
		r := s.request("tools/call", map[string]any{"name": "editor_workspace_get", "arguments": map[string]any{}}, 30*time.Second)
		if r["result"] == nil {
			t.Errorf("the call after the refused line: %v", r)
		}
	})
	if _, err := os.Stat(root + "/big.txt"); err == nil {
		t.Error("the refused save wrote big.txt")
	}
	t.Logf("stdio: idle peak RSS %.1f MiB; with a 100 MiB line refused %.1f MiB (+%.1f)", idle, big, big-idle)
	if big-idle > requestBound {
		t.Errorf("a refused 100 MiB line cost %.1f MiB of RSS, bound %d", big-idle, requestBound)
	}
}

// httpChild is `editord serve --http` with its process, for its rusage.
type httpChild struct {
	cmd   *exec.Cmd
	url   string
	token string
}

func startHTTPChild(t *testing.T, root, state string) *httpChild {
	t.Helper()
	h := &httpChild{token: "request-limit-token-0123456789abcdef"}
	h.cmd = exec.Command(binary, "serve", "--http", "127.0.0.1:0", "--root", root, "--state-dir", state)
	h.cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "EDITORD_TOKEN="+h.token)
	pipe, _ := h.cmd.StderrPipe()
	if err := h.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if h.cmd.ProcessState == nil {
			h.cmd.Process.Kill()
			h.cmd.Wait()
		}
	})
	h.url = serveAddress(t, pipe, nil, nil)
	return h
}

// stop ends the server and returns its peak RSS.
func (h *httpChild) stop(t *testing.T) float64 {
	peak := hwm(t, h.cmd)
	h.cmd.Process.Signal(syscall.SIGTERM)
	h.cmd.Wait()
	return peak
}

// alive opens an MCP session and makes one call.
func (h *httpChild) alive(t *testing.T) {
	t.Helper()
	c, err := client.NewStreamableHttpClient(h.url, transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + h.token}))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := c.Initialize(ctx, mcp.InitializeRequest{Params: mcp.InitializeParams{ProtocolVersion: mcp.LATEST_PROTOCOL_VERSION, ClientInfo: mcp.Implementation{Name: "limit-test", Version: "1"}}}); err != nil {
		t.Fatal(err)
	}
	res, err := c.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "editor_workspace_get", Arguments: map[string]any{}}})
	if err != nil || res.IsError {
		t.Fatalf("workspace_get: %v %v", res, err)
	}
}

// post sends body (chunked when chunked is set, so that no Content-Length
// announces its size) and returns the status and the answer.
func (h *httpChild) post(t *testing.T, body io.Reader, length int64) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", h.url, body)
	req.ContentLength = length
	req.Header.Set("Authorization", "Bearer "+h.token)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		// The server may answer and close before the whole body is sent.
		t.Logf("POST: %v", err)
		return 0, ""
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return resp.StatusCode, string(b)
}

func TestStressRequestLimitHTTP(t *testing.T) {
	root := workspaceDir(t)
	state := t.TempDir()
	h := startHTTPChild(t, root, state)
	h.alive(t)
	idle := h.stop(t)

	const size = 300 << 20
	for _, chunked := range []bool{false, true} {
		h := startHTTPChild(t, root, state)
		h.alive(t)
		length := int64(len(bigSave(1, 0))) + size
		if chunked {
			length = -1
		}
		status, answer := h.post(t, io.MultiReader(
			bytes.NewReader(bigSave(1, 0)[:len(bigSave(1, 0))-4]),
			io.LimitReader(repeatReader('x'), size),
			strings.NewReader(`"}}}`)), length)
		if status != 0 && !strings.Contains(answer, "request refused") {
			t.Errorf("chunked %v: a 300 MiB POST answered %d %.300q", chunked, status, answer)
		}
		h.alive(t) // still serving
		peak := h.stop(t)
		t.Logf("http: idle peak RSS %.1f MiB; 300 MiB POST refused (chunked %v, status %d): %.1f MiB (+%.1f)", idle, chunked, status, peak, peak-idle)
		if peak-idle > requestBound {
			t.Errorf("a refused 300 MiB POST (chunked %v) cost %.1f MiB of RSS, bound %d", chunked, peak-idle, requestBound)
		}
	}
	if _, err := os.Stat(root + "/big.txt"); err == nil {
		t.Error("the refused save wrote big.txt")
	}
}

type repeatReader byte

func (r repeatReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(r)
	}
	return len(p), nil
}
