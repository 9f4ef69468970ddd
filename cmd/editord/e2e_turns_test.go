package main

// Undo an agent's last turn (issue 21), end to end: an agent changes three
// files of a repository through one editord process, a person edits one of
// them after it through another on the same state dir, and the person
// undoes the agent's turn in three MCP calls (history, a dry run, the
// revert). git diff then shows only the person's edit.

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestE2EUndoAgentsLastTurn(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	root := workspaceDir(t)
	files := agentRepo(t, root)
	state := t.TempDir()
	agent := serveClient(t, root, state)
	person := serveClient(t, root, state)

	// The agent's turn: three files, edited in place.
	agent.mustCall("editor_turn", map[string]any{"action": "begin", "title": "rename parseConfig"})
	for f, edit := range map[string][2]string{
		"config.go":      {"func parseConfig(", "func loadConfig("},
		"main.go":        {"parseConfig(", "loadConfig("},
		"config_test.go": {"c, err := parseConfig(p)", "c, err := loadConfig(p)"},
	} {
		res := agent.mustCall("editor_edit", map[string]any{"path": f, "edits": []map[string]any{{"old_text": edit[0], "new_text": edit[1], "replace_all": true}}})
		if res["applied"] != true {
			t.Fatalf("edit %s: %v", f, res)
		}
	}
	agent.mustCall("editor_turn", map[string]any{"action": "end"})
	ch := agent.mustCall("editor_changes", map[string]any{})
	evs := ch["changes"].([]any)
	by := evs[0].(map[string]any)["by"].(string)
	turn := evs[0].(map[string]any)["turn"].(string)
	for _, ev := range evs {
		if e := ev.(map[string]any); e["turn"] != turn || e["by"] != by {
			t.Fatalf("the agent's three edits are not one turn: %v", evs)
		}
	}

	// The person edits main.go afterwards, far from the agent's hunk.
	main := filepath.Join(root, "main.go")
	b, _ := os.ReadFile(main)
	open := person.mustCall("editor_open", map[string]any{"path": "main.go"})
	withPerson := strings.Replace(string(b), "package app\n", "// Package app is the service.\npackage app\n", 1)
	person.mustCall("editor_save", map[string]any{"path": "main.go", "content": withPerson, "expected_version": open["version"]})

	// 1. Which is the agent's last turn?
	h := person.mustCall("editor_history", map[string]any{"by": by, "limit": 1})
	turns := h["turns"].([]any)
	if len(turns) != 1 || turns[0].(map[string]any)["turn"] != turn || turns[0].(map[string]any)["files"].(float64) != 3 {
		t.Fatalf("history: %v", h)
	}
	if !strings.Contains(person.text, turn+" "+by+" 3 files") || !strings.Contains(person.text, "config.go") || !strings.Contains(person.text, "rename parseConfig") {
		t.Fatalf("history's text for a model:\n%s", person.text)
	}
	// 2. What would undoing it do?
	dry := person.mustCall("editor_revert", map[string]any{"turn": turn, "dry_run": true})
	if dry["dry_run"] != true || !strings.Contains(dry["patch"].(string), "-func loadConfig(") {
		t.Fatalf("dry run: %v", dry)
	}
	if gitRun(t, root, "diff", "--stat") == "" {
		t.Fatal("the dry run wrote")
	}
	// 3. Undo it.
	res := person.mustCall("editor_revert", map[string]any{"turn": turn})
	if len(res["undone"].([]any)) != 3 || len(res["refused"].([]any)) != 0 || res["turn"] == "" {
		t.Fatalf("revert: %v\n%s", res, person.text)
	}
	if !strings.HasPrefix(person.text, "undone as turn ") {
		t.Fatalf("revert's text for a model:\n%s", person.text)
	}
	// git sees only the person's edit.
	diff := gitRun(t, root, "diff")
	if names := strings.TrimSpace(gitRun(t, root, "diff", "--name-only")); names != "main.go" {
		t.Fatalf("changed after the revert: %q\n%s", names, diff)
	}
	if !strings.Contains(diff, "+// Package app is the service.") || strings.Contains(diff, "loadConfig") {
		t.Fatalf("git diff after the revert:\n%s", diff)
	}
	for _, f := range []string{"config.go", "config_test.go"} {
		got, _ := os.ReadFile(filepath.Join(root, f))
		if string(got) != files[f] {
			t.Fatalf("%s is not as it was", f)
		}
	}
}
