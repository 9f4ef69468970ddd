package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestE2EReplyTellsBy: an agent can tell its own change events from
// others' (issue 26): editor_workspace_get and editor_changes name the
// caller's by, the events it wrote carry it, and the text marks them.
func TestE2EReplyTellsBy(t *testing.T) {
	root := workspaceDir(t)
	state := t.TempDir()
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("one\n"), 0o644)
	s := serveClient(t, root, state)
	view := s.mustCall("editor_workspace_get", map[string]any{})
	you, _ := view["you"].(string)
	if !regexp.MustCompile(`^editord-e2e#[0-9a-f]{4}$`).MatchString(you) || !strings.Contains(s.text, "you: "+you) {
		t.Fatalf("workspace_get does not say who the caller is: %v\n%s", view, s.text)
	}
	open := s.mustCall("editor_open", map[string]any{"path": "a.txt"})
	s.mustCall("editor_save", map[string]any{"path": "a.txt", "content": "two\n", "expected_version": open["version"]})
	other := serveClient(t, root, state) // another agent on the same record
	other.mustCall("editor_create", map[string]any{"path": "b.txt", "kind": "file", "content": "b\n"})

	res := s.mustCall("editor_changes", map[string]any{"since": "0"})
	if res["you"] != you {
		t.Fatalf("changes says you are %v, workspace_get %s", res["you"], you)
	}
	mine, theirs := 0, 0
	for _, e := range res["changes"].([]any) {
		ev := e.(map[string]any)
		switch ev["path"] {
		case "a.txt":
			if ev["by"] != you {
				t.Fatalf("my save is by %v, not %s", ev["by"], you)
			}
			mine++
		case "b.txt":
			if ev["by"] == you {
				t.Fatalf("the other agent's create is by me: %v", ev)
			}
			theirs++
		}
	}
	if mine != 1 || theirs != 1 || !strings.Contains(s.text, you+" (you) modified a.txt") || strings.Contains(s.text, "(you) created b.txt") {
		t.Fatalf("mine %d, theirs %d; text:\n%s", mine, theirs, s.text)
	}
}
