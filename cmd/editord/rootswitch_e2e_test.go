package main

// Issue 15 item 1b through the real binary: two agents, each its own
// `editord serve` on one shared record. B repoints the workspace at sub;
// A, which last saw ws, asks to delete "docs" recursively. Before the fix
// ws/sub/docs was deleted (the response named the new root only after the
// deed); now the call is refused with root_changed, and after A reads the
// workspace it runs in the root A has now seen.

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestE2ERootSwitchNeverSurprisesAWriter(t *testing.T) {
	ws := workspaceDir(t)
	state := t.TempDir()
	for _, p := range []string{"docs/a.md", "sub/docs/b.md"} {
		os.MkdirAll(filepath.Join(ws, filepath.Dir(p)), 0o755)
		os.WriteFile(filepath.Join(ws, p), []byte(p+"\n"), 0o644)
	}
	a := serveClient(t, ws, state)
	b := serveClient(t, ws, state)
	if got := a.mustCall("editor_workspace_get", nil)["root"]; got != ws {
		t.Fatalf("A sees root %v, want %s", got, ws)
	}
	if got := b.mustCall("editor_workspace_open", map[string]any{"root": "sub"})["root"]; got != filepath.Join(ws, "sub") {
		t.Fatalf("B switched to %v", got)
	}
	out, isErr := a.call("editor_delete", map[string]any{"path": "docs", "recursive": true})
	if _, err := os.Stat(filepath.Join(ws, "sub", "docs", "b.md")); err != nil {
		t.Fatalf("A's delete removed ws/sub/docs, which A never saw: %v (response %v)", err, out)
	}
	if !isErr {
		t.Fatalf("A's delete was not refused: %v", out)
	}
	e, _ := out["error"].(map[string]any)
	msg, _ := e["message"].(string)
	if e["code"] != "root_changed" || !strings.Contains(msg, ws+" to "+filepath.Join(ws, "sub")) ||
		!strings.Contains(msg, "editord-e2e#") || !strings.Contains(msg, "workspace") {
		t.Fatalf("want root_changed naming both roots, who switched and the re-sync, got %v", e)
	}
	// Reading the workspace re-syncs A; the delete then runs in sub.
	if got := a.mustCall("editor_workspace_get", nil)["root"]; got != filepath.Join(ws, "sub") {
		t.Fatalf("A now sees %v", got)
	}
	if got := a.mustCall("editor_delete", map[string]any{"path": "docs", "recursive": true}); got["deleted"] != true {
		t.Fatalf("delete after re-sync: %v", got)
	}
	if _, err := os.Stat(filepath.Join(ws, "sub", "docs")); !os.IsNotExist(err) {
		t.Errorf("ws/sub/docs should be gone: %v", err)
	}
	if _, err := os.Stat(filepath.Join(ws, "docs", "a.md")); err != nil {
		t.Errorf("ws/docs should be untouched: %v", err)
	}
}

// TestE2ECallExpectedRoot: `editord call --expected-root DIR` refuses a
// relative write when DIR is not the active root, and runs it when it is.
func TestE2ECallExpectedRoot(t *testing.T) {
	ws := workspaceDir(t)
	state := t.TempDir()
	os.MkdirAll(filepath.Join(ws, "sub"), 0o755)
	run := func(args ...string) (map[string]any, error) {
		cmd := exec.Command(binary, append(args, "--root", ws, "--state-dir", state)...)
		cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
		stdout, err := cmd.Output()
		var m map[string]any
		json.Unmarshal(stdout, &m)
		return m, err
	}
	if _, err := run("call", "editor::workspace::open", `{"root":"sub"}`); err != nil {
		t.Fatal(err)
	}
	out, err := run("call", "editor::save", `{"path":"x.txt","content":"x\n"}`, "--expected-root", ws)
	if e, _ := out["error"].(map[string]any); err == nil || e["code"] != "root_changed" {
		t.Fatalf("want root_changed, got %v (%v)", out, err)
	}
	if _, err := os.Stat(filepath.Join(ws, "sub", "x.txt")); !os.IsNotExist(err) {
		t.Fatalf("the refused save wrote sub/x.txt")
	}
	if out, err := run("call", "editor::save", `{"path":"x.txt","content":"x\n"}`, "--expected-root", filepath.Join(ws, "sub")); err != nil {
		t.Fatalf("save with the right expected root: %v %v", out, err)
	}
	if _, err := os.Stat(filepath.Join(ws, "sub", "x.txt")); err != nil {
		t.Fatal(err)
	}
}
