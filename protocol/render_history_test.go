package protocol

import (
	"strings"
	"testing"

	"github.com/editord/editord/editor"
)

func TestRenderHistory(t *testing.T) {
	next := 50
	log := &editor.GitLogResponse{NextCursor: &next, Entries: []editor.GitLogEntry{
		{SHA: "0123456789abcdef", Parents: []string{"a", "b"}, Author: "Ann", Date: 1700000000, Subject: "Merge topic", Added: 3, Removed: 1},
	}}
	got := RenderText("editor::git::log", log, ToolName)
	if want := "0123456 2023-11-14 Ann: Merge topic (merge) +3 -1\n… more history: call editor_git_log with cursor: 50\n"; got != want {
		t.Fatalf("log:\n%s", got)
	}
	bl := &editor.GitBlameResponse{Path: "a.go", TotalLines: 9, Lines: []editor.GitBlameLine{{Line: 1, SHA: "fedcba9876", Author: "Bo", Date: 1700000000, Text: "package a"}}}
	if got := RenderText("editor::git::blame", bl, FunctionIDs); !strings.HasPrefix(got, "fedcba9 (Bo 2023-11-14      1) package a\n") || !strings.Contains(got, "editor::git::blame with start: 2") {
		t.Fatalf("blame:\n%s", got)
	}
	up := "origin/main"
	br := &editor.GitBranchResponse{Action: "list", Branches: []editor.GitBranch{{Name: "main", Current: true, SHA: "abcdef123", Upstream: &up, Ahead: 1, Behind: 2, Subject: "s"}}}
	if got := RenderText("editor::git::branch", br, ToolName); got != "* main abcdef1 [origin/main: ahead 1, behind 2] s\n" {
		t.Fatalf("branch:\n%s", got)
	}
	st := &editor.GitStashResponse{Action: "pop", Summary: "CONFLICT (content): a.txt", Conflicts: []string{"a.txt"}}
	if got := RenderText("editor::git::stash", st, ToolName); got != "CONFLICT (content): a.txt\nUU a.txt\n" {
		t.Fatalf("stash:\n%s", got)
	}
}
