package main

import (
	"context"
	"encoding/json"
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/editord/editord/editor"
	"github.com/editord/editord/protocol"
)

// listNames is a tools/list's names, sorted.
func listNames(t *testing.T, s *session, meta *mcp.Meta) []string {
	t.Helper()
	req := mcp.ListToolsRequest{}
	req.Params.Meta = meta
	res, err := s.c.ListTools(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	sort.Strings(names)
	return names
}

// toolsOf is the sorted tool names of the catalog's functions in toolsets.
func toolsOf(toolsets ...string) []string {
	var names []string
	for _, f := range editor.Catalog() {
		for _, ts := range toolsets {
			if editor.ToolsetOf(f.ID) == ts {
				names = append(names, protocol.ToolName(f.ID))
			}
		}
	}
	sort.Strings(names)
	return names
}

// TestE2EToolsets: a client lists the core toolset; a tool of another
// toolset answers by name all the same; _meta names more for one list, and
// editor_tools adds to the session's list and says so with
// notifications/tools/list_changed.
func TestE2EToolsets(t *testing.T) {
	root := workspaceDir(t)
	s := serveClient(t, root, t.TempDir())
	changed := make(chan struct{}, 4)
	s.c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == mcp.MethodNotificationToolsListChanged {
			changed <- struct{}{}
		}
	})
	if got, want := listNames(t, s, nil), toolsOf("core"); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("default list %v, want the core toolset %v", got, want)
	}
	if d := s.mustCall("editor_diff", map[string]any{"before": "a\n", "after": "b\n"}); d["identical"] != false {
		t.Fatalf("an unlisted tool did not answer: %v", d)
	}
	meta := &mcp.Meta{AdditionalFields: map[string]any{"io.editord/toolsets": []any{"text", "no-such-set"}}}
	if got, want := listNames(t, s, meta), toolsOf("core", "text"); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("list with _meta toolsets [text]: %v, want %v", got, want)
	}
	res := s.mustCall("editor_tools", map[string]any{"enable": []any{"git"}})
	raw, _ := json.Marshal(res["toolsets"])
	if !strings.Contains(string(raw), `"name":"git"`) || !strings.Contains(s.text, "editor_git_log") || res["note"] != nil {
		t.Fatalf("editor_tools: %s\n%s", raw, s.text)
	}
	select {
	case <-changed:
	case <-time.After(20 * time.Second):
		t.Fatal("no notifications/tools/list_changed after editor_tools enable git")
	}
	if got, want := listNames(t, s, nil), toolsOf("core", "git"); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("list after enabling git: %v, want %v", got, want)
	}
}

// TestE2EToolsetsHTTP: over HTTP the X-MCP-Toolsets header names toolsets
// for the request (the person's page sends "all"), and the config's
// [tools] toolsets sets what every client lists.
func TestE2EToolsetsHTTP(t *testing.T) {
	srv := startHTTP(t, workspaceDir(t), t.TempDir())
	list := func(header string) []string {
		post := func(body, session string) (*http.Response, error) {
			req, _ := http.NewRequest("POST", srv.url, strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Authorization", "Bearer "+srv.token)
			if header != "" {
				req.Header.Set("X-MCP-Toolsets", header)
			}
			if session != "" {
				req.Header.Set("Mcp-Session-Id", session)
			}
			return http.DefaultClient.Do(req)
		}
		resp, err := post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`, "")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		sid := resp.Header.Get("Mcp-Session-Id")
		resp, err = post(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, sid)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out struct {
			Result struct {
				Tools []struct{ Name string } `json:"tools"`
			} `json:"result"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tool := range out.Result.Tools {
			names = append(names, tool.Name)
		}
		sort.Strings(names)
		return names
	}
	if got, want := list(""), toolsOf("core"); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("default: %v, want %v", got, want)
	}
	var every []string
	for _, ts := range editor.Toolsets {
		every = append(every, ts.Name)
	}
	if got, want := list("all"), toolsOf(every...); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("X-MCP-Toolsets: all: %v, want %v", got, want)
	}
	if got, want := list("git, workspace"), toolsOf("core", "git", "workspace"); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("X-MCP-Toolsets: git, workspace: %v, want %v", got, want)
	}
}
