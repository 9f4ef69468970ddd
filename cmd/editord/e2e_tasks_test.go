package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestE2ESearchAsTask: a long call runs as an MCP task when the client
// asks (params.task, protocol 2025-11-25): tools/call answers at once with
// a task, progress comes as notifications/progress for the call's
// progressToken, tasks/get follows it to completed and tasks/result is the
// search's own result. The same call without task answers as before.
func TestE2ESearchAsTask(t *testing.T) {
	root := workspaceDir(t)
	for i := range 3000 {
		dir := filepath.Join(root, fmt.Sprintf("pkg%02d", i%30))
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%04d.go", i)), []byte(fmt.Sprintf("package p\n\n// item %d\nvar needle%d = %d\n", i, i, i)), 0o644)
	}
	s := startRaw(t, root, t.TempDir(), true)
	var notes []map[string]any
	next := func(id int) map[string]any {
		deadline := time.After(60 * time.Second)
		for {
			select {
			case line, ok := <-s.lines:
				if !ok {
					t.Fatalf("the server exited: %s", s.stderr)
				}
				var m map[string]any
				if err := json.Unmarshal(line, &m); err != nil {
					t.Fatalf("not JSON: %q", line)
				}
				if m["id"] == nil {
					notes = append(notes, m)
					continue
				}
				if got, _ := m["id"].(float64); int(got) == id {
					return m
				}
			case <-deadline:
				t.Fatalf("no response to %d; notifications %v", id, notes)
			}
		}
	}
	id := 0
	req := func(method string, params any) map[string]any {
		id++
		s.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
		return next(id)
	}
	created := req("tools/call", map[string]any{
		"name":      "editor_search",
		"arguments": map[string]any{"pattern": "needle2999", "literal": true},
		"task":      map[string]any{"ttl": 60000},
		"_meta":     map[string]any{"progressToken": "search-1"},
	})
	task, _ := created["result"].(map[string]any)["task"].(map[string]any)
	taskID, _ := task["taskId"].(string)
	if taskID == "" {
		t.Fatalf("tools/call with task did not create one: %v", created)
	}
	var status string
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); {
		got := req("tasks/get", map[string]any{"taskId": taskID})
		status, _ = got["result"].(map[string]any)["status"].(string)
		if status != "working" {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if status != "completed" {
		t.Fatalf("task ended %q", status)
	}
	res := req("tasks/result", map[string]any{"taskId": taskID})
	r, _ := res["result"].(map[string]any)
	sc, _ := r["structuredContent"].(map[string]any)
	if sc["total"] != float64(1) || !strings.Contains(fmt.Sprint(r["content"]), "pkg29/f2999.go") {
		t.Fatalf("tasks/result: %v", res)
	}
	var progress []string
	for _, n := range notes {
		if n["method"] == "notifications/progress" {
			p := n["params"].(map[string]any)
			if p["progressToken"] != "search-1" {
				t.Fatalf("progress for another token: %v", p)
			}
			progress = append(progress, fmt.Sprint(p["message"]))
		}
	}
	if len(progress) < 2 || !strings.Contains(progress[0], "of 3000 files") {
		t.Fatalf("progress of a 3000-file search: %q", progress)
	}
	plain := req("tools/call", map[string]any{"name": "editor_search", "arguments": map[string]any{"pattern": "needle2999", "literal": true}})
	if sc, _ := plain["result"].(map[string]any)["structuredContent"].(map[string]any); sc["total"] != float64(1) {
		t.Fatalf("the same search without task: %v", plain)
	}
}
