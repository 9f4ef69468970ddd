package protocol

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/editord/editord/editor"
)

// unknownToolCases: a name called over MCP, and the tool the answer must
// name ("" when it must only say the name is unknown).
var unknownToolCases = []struct{ name, want string }{
	{"editor::open", "editor_open"},
	{"editor::git::undo-commit", "editor_git_undo_commit"},
	{"editor.tree", "editor_tree"},
	{"Editor_Save", "editor_save"},
	{"git_status", "editor_git_status"},
	{"frobnicate", ""},
}

func checkUnknownToolReply(t *testing.T, name, want string, line []byte) {
	t.Helper()
	var reply struct {
		ID    int `json:"id"`
		Error *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(line, &reply); err != nil || reply.Error == nil {
		t.Fatalf("%s: want a JSON-RPC error, got %s (%v)", name, line, err)
	}
	if reply.ID != 7 || reply.Error.Code != -32602 || !strings.Contains(reply.Error.Message, `"`+name+`"`) {
		t.Fatalf("%s: %s", name, line)
	}
	if want != "" && !strings.Contains(reply.Error.Message, "call the tool "+want) {
		t.Fatalf("%s: the message does not name %s: %s", name, want, reply.Error.Message)
	}
	if want == "" && !strings.Contains(reply.Error.Message, "editor_open, ") {
		t.Fatalf("%s: the message does not list the tools: %s", name, reply.Error.Message)
	}
}

// TestUnknownToolOverStdio: a tools/call naming a function id (or another
// spelling of a tool) is answered with the tool to call; mcp-go alone said
// only "tool 'editor::open' not found". Known tools still work.
func TestUnknownToolOverStdio(t *testing.T) {
	svc, err := editor.New(editor.DefaultConfig(), editor.Options{Root: t.TempDir(), StateDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	s := NewServer(svc, "test")
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ServeStdio(ctx, s, inR, outW) }()
	defer func() { cancel(); inW.Close(); <-done }()
	out := bufio.NewReader(outR)
	call := func(v any) []byte {
		t.Helper()
		m, _ := json.Marshal(v)
		inW.Write(append(m, '\n'))
		line, err := out.ReadBytes('\n')
		if err != nil {
			t.Fatal(err)
		}
		return line
	}
	call(map[string]any{"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "t", "version": "1"}}})
	for _, c := range unknownToolCases {
		// Plain, and with _meta (which the fast path leaves to mcp-go).
		for _, params := range []map[string]any{
			{"name": c.name, "arguments": map[string]any{"path": "a.txt"}},
			{"name": c.name, "arguments": map[string]any{}, "_meta": map[string]any{"progressToken": 1}},
		} {
			checkUnknownToolReply(t, c.name, c.want, call(map[string]any{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": params}))
		}
	}
	if line := call(map[string]any{"jsonrpc": "2.0", "id": 8, "method": "tools/call", "params": map[string]any{"name": "editor_workspace_get", "arguments": map[string]any{}}}); !strings.Contains(string(line), `"result"`) {
		t.Fatalf("a known tool: %s", line)
	}
}

// TestUnknownToolOverHTTP: the same answer on the HTTP transport, and a
// known tool's request reaches mcp-go with its body whole.
func TestUnknownToolOverHTTP(t *testing.T) {
	addr := startTestHTTP(t, HTTPOptions{})
	post := func(session string, v any) (*http.Response, []byte) {
		t.Helper()
		m, _ := json.Marshal(v)
		req, _ := http.NewRequest("POST", "http://"+addr+"/mcp", strings.NewReader(string(m)))
		req.Header.Set("Authorization", "Bearer "+serveTestToken)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		if i := strings.Index(string(body), "data: "); i >= 0 { // an event stream: its one message
			body = []byte(strings.TrimSpace(strings.SplitN(string(body[i+6:]), "\n", 2)[0]))
		}
		return resp, body
	}
	resp, _ := post("", map[string]any{"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "t", "version": "1"}}})
	session := resp.Header.Get("Mcp-Session-Id")
	for _, c := range unknownToolCases {
		_, body := post(session, map[string]any{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": map[string]any{"name": c.name, "arguments": map[string]any{}}})
		checkUnknownToolReply(t, c.name, c.want, body)
	}
	big := strings.Repeat("x", 200_000)
	_, body := post(session, map[string]any{"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": map[string]any{"name": "editor_diff", "arguments": map[string]any{"before": big, "after": big + "y"}}})
	if !strings.Contains(string(body), `"result"`) || !strings.Contains(string(body), `"added"`) {
		t.Fatalf("a known tool with a large body: %.300s", body)
	}
}
