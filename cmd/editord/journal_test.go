package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// httpClient starts `editord serve --http` on a free loopback port and
// connects mcp-go's Streamable HTTP client with the bearer token.
func httpClient(t *testing.T, root, stateDir string) *session {
	t.Helper()
	const token = "journal-test-token-0123456789abcdef"
	cmd := exec.Command(binary, "serve", "--http", "127.0.0.1:0", "--root", root, "--state-dir", stateDir)
	cmd.Env = append(os.Environ(), "EDITORD_TOKEN="+token)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Signal(os.Interrupt); cmd.Wait() })
	url := serveAddress(t, stderr, nil, nil)
	c, err := client.NewStreamableHttpClient(url, transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + token}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Initialize(ctx, mcp.InitializeRequest{Params: mcp.InitializeParams{
		ProtocolVersion: "2025-11-25",
		ClientInfo:      mcp.Implementation{Name: "editord-journal", Version: "1"},
	}}); err != nil {
		t.Fatal(err)
	}
	return &session{t: t, c: c}
}

// TestJournalManyProcesses: 4 stdio servers and 1 HTTP server on one state
// dir. A file one opens is in every other's workspace view; then each saves
// its own file 100 times while the others do the same, and every save
// appears in the journal exactly once, in seq order.
func TestJournalManyProcesses(t *testing.T) {
	saves := 100
	if testing.Short() {
		saves = 20
	}
	root := workspaceDir(t)
	state := t.TempDir()
	// Written before any server starts: written later, it would rightly be
	// reported as an external creation.
	os.WriteFile(filepath.Join(root, "shared.md"), []byte("shared\n"), 0o644)
	sessions := []*session{}
	for range 4 {
		sessions = append(sessions, serveClient(t, root, state))
	}
	sessions = append(sessions, httpClient(t, root, state))

	sessions[4].mustCall("editor_open", map[string]any{"path": "shared.md"})
	for i, s := range sessions[:4] {
		view := s.mustCall("editor_workspace_get", nil)
		found := false
		for _, b := range view["buffers"].([]any) {
			found = found || b.(map[string]any)["path"] == "shared.md"
		}
		if !found {
			t.Fatalf("server %d does not see the buffer the HTTP server opened: %v", i, view)
		}
	}
	start := sessions[0].mustCall("editor_changes", nil)["cursor"].(string)

	type save struct{ path, version string }
	var mu sync.Mutex
	var made []save
	var wg sync.WaitGroup
	for i, s := range sessions {
		wg.Go(func() {
			path := fmt.Sprintf("own-%d.txt", i)
			version := ""
			for n := range saves {
				args := map[string]any{"path": path, "content": fmt.Sprintf("server %d save %d\n", i, n)}
				if version != "" {
					args["expected_version"] = version
				}
				res := s.mustCall("editor_save", args)
				if res["saved"] != true {
					t.Errorf("server %d save %d: %v", i, n, res)
					return
				}
				version = res["version"].(string)
				mu.Lock()
				made = append(made, save{path, version})
				mu.Unlock()
			}
		})
	}
	wg.Wait()

	got := sessions[2].mustCall("editor_changes", map[string]any{"since": start, "limit": 10000})
	seen := map[save]int{}
	last := -1.0
	for _, raw := range got["changes"].([]any) {
		ev := raw.(map[string]any)
		if seq := ev["seq"].(float64); seq <= last {
			t.Fatalf("journal out of order: seq %v after %v", seq, last)
		} else {
			last = seq
		}
		switch ev["cause"] {
		case "editor::save":
			seen[save{ev["path"].(string), ev["version"].(string)}]++
		case "external":
			// The elected watcher must recognise every one of these writes
			// as ours, whichever process made it.
			t.Errorf("a save was reported again as external: %v %v", ev["kind"], ev["path"])
		}
	}
	for _, s := range made {
		if seen[s] != 1 {
			t.Errorf("save %s@%s appears %d times in the journal, want exactly once", s.path, s.version, seen[s])
		}
	}
	if len(made) != len(sessions)*saves {
		t.Fatalf("%d saves made, want %d", len(made), len(sessions)*saves)
	}
}
