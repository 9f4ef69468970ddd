package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// needSandbox skips when the binary cannot confine commands here (no
// Landlock or user namespaces), unless the environment says the sandbox
// tests must run (.ci/run sets EDITORD_SANDBOX_TESTS=1).
func needSandbox(t *testing.T) {
	t.Helper()
	dir := t.TempDir()
	out, _ := exec.Command(binary, "call", "editor::run", `{"argv": ["true"]}`, "--allow-run", "--root", dir, "--state-dir", filepath.Join(dir, ".state")).Output()
	if !strings.Contains(string(out), `"sandbox_unavailable"`) {
		return
	}
	if os.Getenv("EDITORD_SANDBOX_TESTS") == "1" {
		t.Fatalf("EDITORD_SANDBOX_TESTS=1 but the sandbox is unavailable: %s", out)
	}
	t.Skipf("the sandbox is unavailable: %s", out)
}

// serveWith starts `editord serve` with extra arguments and initializes
// an MCP session named name, routing its notifications to on.
func serveWith(t *testing.T, name string, on func(mcp.JSONRPCNotification), args ...string) *session {
	t.Helper()
	// 2025-11-25: the first version whose clients get notifications/editor/changed.
	return startSession(t, []string{"HOME=" + t.TempDir(), "PATH=/usr/bin:/bin"}, name, "2025-11-25", on, append([]string{"serve"}, args...)...)
}

func toolNames(t *testing.T, s *session) map[string]bool {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	list, err := s.c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, tool := range list.Tools {
		names[tool.Name] = true
	}
	return names
}

// editor::run over MCP, from the real binary: off (and unlisted) unless
// turned on; on, a command's progress is notified while it runs, its
// writes reach every client as the caller's, and another process sees,
// pages and stops its jobs.
func TestE2ERun(t *testing.T) {
	needSandbox(t)
	root := workspaceDir(t)
	state := filepath.Join(t.TempDir(), "state")
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("a\n"), 0o644)

	off := serveWith(t, "off-client", nil, "--root", root, "--state-dir", state)
	if toolNames(t, off)["editor_run"] {
		t.Fatal("editor_run is listed while [run] is off")
	}

	config := filepath.Join(t.TempDir(), "config.toml")
	os.WriteFile(config, []byte("[run]\nprograms = [\"sh\"]\npath = \"/usr/bin:/bin\"\n"), 0o644)
	var mu sync.Mutex
	var progress, changed []string
	agent := serveWith(t, "agent", func(n mcp.JSONRPCNotification) {
		mu.Lock()
		defer mu.Unlock()
		if n.Method == "notifications/progress" {
			m, _ := n.Params.AdditionalFields["message"].(string)
			progress = append(progress, m)
		}
	}, "--root", root, "--state-dir", state, "--config", config, "--allow-run")
	watcher := serveWith(t, "person", func(n mcp.JSONRPCNotification) {
		mu.Lock()
		defer mu.Unlock()
		if n.Method == "notifications/editor/changed" {
			f := n.Params.AdditionalFields
			changed = append(changed, f["path"].(string)+" "+f["cause"].(string)+" "+f["by"].(string))
		}
	}, "--root", root, "--state-dir", state, "--config", config, "--allow-run")
	names := toolNames(t, agent)
	for _, n := range []string{"editor_run", "editor_run_status", "editor_run_output", "editor_run_kill"} {
		if !names[n] {
			t.Fatalf("%s not listed with --allow-run", n)
		}
	}

	// A command that takes a few seconds, printing as it goes.
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	req := mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "editor_run", Arguments: map[string]any{
		"argv": []string{"sh", "-c", "for i in 1 2 3 4 5 6 7 8; do echo step $i; sleep 0.3; done; echo made > made.txt"}}}}
	req.Params.Meta = &mcp.Meta{ProgressToken: "run-1"}
	res, err := agent.c.CallTool(ctx, req)
	if err != nil || res.IsError {
		t.Fatalf("editor_run: %v %v", err, res)
	}
	out := res.StructuredContent.(map[string]any)
	if out["state"] != "exited" || out["exit_code"] != float64(0) || !strings.HasSuffix(out["stdout"].(string), "step 8\n") {
		t.Fatalf("run: %v", out)
	}
	text := res.Content[0].(mcp.TextContent).Text
	if !strings.Contains(text, "exit 0 after") || !strings.Contains(text, "created made.txt +1 -0") {
		t.Fatalf("text block:\n%s", text)
	}
	mu.Lock()
	if len(progress) == 0 || !strings.Contains(strings.Join(progress, "\n"), "step ") {
		t.Errorf("progress while it ran: %q", progress)
	}
	mu.Unlock()
	// The person's process hears of the write as the agent's.
	deadline := time.Now().Add(30 * time.Second)
	for {
		mu.Lock()
		got := strings.Join(changed, "\n")
		mu.Unlock()
		if strings.Contains(got, "made.txt editor::run agent#") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the other client did not hear of made.txt as the agent's: %q", got)
		}
		time.Sleep(20 * time.Millisecond)
	}

	// A background job, followed and stopped from the other process.
	job := agent.mustCall("editor_run", map[string]any{"background": true, "argv": []string{"sh", "-c", "echo waiting; exec sleep 600"}})
	if job["state"] != "running" {
		t.Fatalf("background: %v", job)
	}
	id := job["job"].(string)
	page := watcher.mustCall("editor_run_output", map[string]any{"job": id, "offset": 0, "wait_ms": 20000})
	if page["content"] != "waiting\n" || page["state"] != "running" {
		t.Fatalf("output: %v", page)
	}
	st := watcher.mustCall("editor_run_status", map[string]any{"job": id})
	if j := st["jobs"].([]any)[0].(map[string]any); j["state"] != "running" || !strings.HasPrefix(j["by"].(string), "agent#") {
		t.Fatalf("status: %v", st)
	}
	if k := watcher.mustCall("editor_run_kill", map[string]any{"job": id}); k["killed"] != true || k["state"] != "killed" {
		t.Fatalf("kill: %v", k)
	}
}
