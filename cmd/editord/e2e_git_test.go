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

func gitRun(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@example.com")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// TestE2EStashPullMergePop is the agent's task of issue 13 through a real
// MCP client against the real binary: with local changes and a colleague's
// commits on the remote (touching the same file on another line), and a
// local commit of its own, stash, pull with a merge, pop the stash (merged
// into the changed file), and see a clean status of everything committed
// plus the popped change: 4 calls. The pull asks for progress.
func TestE2EStashPullMergePop(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	base := workspaceDir(t)
	bare := filepath.Join(base, "remote.git")
	root := filepath.Join(base, "work")
	other := filepath.Join(base, "other")
	gitRun(t, base, "init", "-q", "--bare", "-b", "main", bare)
	gitRun(t, base, "clone", "-q", bare, root)
	gitRun(t, root, "config", "user.name", "Agent")
	gitRun(t, root, "config", "user.email", "agent@example.com")
	gitRun(t, root, "switch", "-q", "-c", "main")
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("1\n2\n3\n4\n5\n6\n7\n8\n9\n"), 0o644)
	os.WriteFile(filepath.Join(root, "b.txt"), []byte("b\n"), 0o644)
	gitRun(t, root, "add", "-A")
	gitRun(t, root, "commit", "-q", "-m", "base")
	gitRun(t, root, "push", "-q", "-u", "origin", "main")
	gitRun(t, base, "clone", "-q", bare, other)
	for i, line := range []string{"1 remote", "2", "3"} {
		data := "1\n2\n3\n4\n5\n6\n7\n8\n9\n"
		if i == 0 {
			data = strings.Replace(data, "1\n", line+"\n", 1)
			os.WriteFile(filepath.Join(other, "a.txt"), []byte(data), 0o644)
		} else {
			os.WriteFile(filepath.Join(other, "r"+line+".txt"), []byte(line+"\n"), 0o644)
		}
		gitRun(t, other, "add", "-A")
		gitRun(t, other, "commit", "-q", "-m", "remote "+line)
	}
	gitRun(t, other, "push", "-q", "origin", "main")
	// A local commit (so the pull must merge) and uncommitted work.
	os.WriteFile(filepath.Join(root, "b.txt"), []byte("b local commit\n"), 0o644)
	gitRun(t, root, "commit", "-q", "-am", "local")
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("1\n2\n3\n4\n5\n6\n7\n8\n9 wip\n"), 0o644)

	s := serveClient(t, root, filepath.Join(base, "state"))
	var mu sync.Mutex
	var progress []string
	s.c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == "notifications/progress" {
			mu.Lock()
			if m, ok := n.Params.AdditionalFields["message"].(string); ok {
				progress = append(progress, m)
			}
			mu.Unlock()
		}
	})
	calls := 0
	call := func(tool string, args map[string]any, meta *mcp.Meta) map[string]any {
		calls++
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		req := mcp.CallToolRequest{Params: mcp.CallToolParams{Name: tool, Arguments: args}}
		req.Params.Meta = meta
		res, err := s.c.CallTool(ctx, req)
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %v", tool, err, res)
		}
		out, _ := res.StructuredContent.(map[string]any)
		return out
	}
	if out := call("editor_git_stash", map[string]any{"action": "push"}, nil); out["ok"] != true {
		t.Fatalf("stash push: %v", out)
	}
	out := call("editor_git_sync", map[string]any{"action": "pull", "mode": "merge"}, &mcp.Meta{ProgressToken: "pull-1"})
	if out["ok"] != true || out["behind"] != float64(0) || out["ahead"] != float64(2) {
		t.Fatalf("pull merge: %v", out)
	}
	if out := call("editor_git_stash", map[string]any{"action": "pop"}, nil); out["ok"] != true {
		t.Fatalf("stash pop: %v", out)
	}
	st := call("editor_git_status", map[string]any{}, nil)
	entries, _ := st["entries"].([]any)
	if len(entries) != 1 || entries[0].(map[string]any)["path"] != "a.txt" {
		t.Fatalf("status: %v", st)
	}
	if calls > 5 {
		t.Fatalf("%d calls", calls)
	}
	got, _ := os.ReadFile(filepath.Join(root, "a.txt"))
	if string(got) != "1 remote\n2\n3\n4\n5\n6\n7\n8\n9 wip\n" {
		t.Fatalf("a.txt after pop: %q", got)
	}
	if out := gitRun(t, root, "stash", "list"); out != "" {
		t.Fatalf("stash left behind: %s", out)
	}
	gitRun(t, root, "fsck", "--strict")
	if n := strings.Fields(gitRun(t, root, "rev-list", "--parents", "-n1", "HEAD")); len(n) != 3 {
		t.Fatalf("HEAD is not a merge: %v", n)
	}
	// Sent before the answer, but handed to the callback on their own.
	waitFor(t, "progress notifications for a pull that asked for them", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(progress) > 0
	})
}
