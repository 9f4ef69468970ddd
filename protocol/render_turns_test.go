package protocol

import (
	"fmt"
	"strings"
	"testing"

	"github.com/editord/editord/editor"
	"github.com/editord/editord/editor/turns"
)

func TestRenderTurns(t *testing.T) {
	sum := turns.Summary{Turn: "t42", By: "claude-code#3f2a", Title: "fix the parser", Start: "2026-01-02T14:02:11.5Z", End: "2026-01-02T14:03:40Z",
		Files: 2, Added: 12, Removed: 4, Paths: []string{"src/a.go", "README.md"}, External: true, RevertedIn: []string{}}
	got := RenderText("editor::history", &editor.HistoryResponse{Turns: []turns.Summary{sum}, Files: []turns.File{}, More: 3, Next: "t42"}, ToolName)
	want := "t42 claude-code#3f2a 2 files +12 -4 2026-01-02 14:02:11–14:03:40 \"fix the parser\" (with external changes)\n" +
		"  src/a.go, README.md\n… 3 more turns older; call editor_history with before: t42 for them\n"
	if got != want {
		t.Fatalf("listing:\n%s", got)
	}
	now := "src/b.go"
	detail := &editor.HistoryResponse{Turns: []turns.Summary{sum}, Files: []turns.File{{
		Path: "src/a.go", Kind: "modified", Added: 2, Removed: 1, Status: "changed", Now: &now, Patch: "--- a/src/a.go\n+++ b/src/a.go\n@@ -1,1 +1,2 @@\n-x\n+y\n+z\n",
		Hunks: []turns.Hunk{{ID: 1, Header: "@@ -1,1 +1,2 @@", Status: "changed", ChangedBy: []string{"person#1"}}},
	}}}
	got = RenderText("editor::history", detail, ToolName)
	if !strings.Contains(got, "src/a.go modified +2 -1 changed (now at src/b.go)\n  1 @@ -1,1 +1,2 @@ changed by person#1\n--- a/src/a.go\n") {
		t.Fatalf("detail:\n%s", got)
	}
	rv := &editor.RevertResponse{Turn: "t43", Undone: []turns.Undone{{Path: "src/a.go", Kind: "modified", Hunks: []int{1, 3}, Patch: "--- a/src/a.go\n"}},
		Refused: []turns.Refusal{{Path: "src/a.go", Hunk: 2, Reason: "hunk 2 was changed after the turn", AsWas: "a\n", AsMade: "b\n", AsNow: "c\n"}}, Patch: "--- a/src/a.go\n"}
	got = RenderText("editor::revert", rv, ToolName)
	want = "undone as turn t43 (revert it to redo): 1 file, 1 part refused\nmodified src/a.go hunks 1, 3\n" +
		"refused src/a.go hunk 2: hunk 2 was changed after the turn\n  as it was:\n  | a\n  as the turn made it:\n  | b\n  as it is now:\n  | c\n--- a/src/a.go\n"
	if got != want {
		t.Fatalf("revert:\n%s", got)
	}
}

// A page of 1000 turns and a turn of 2000 files stay within the budget,
// every turn or file still named.
func TestRenderTurnsBudget(t *testing.T) {
	page := &editor.HistoryResponse{Files: []turns.File{}}
	for i := range 1000 {
		page.Turns = append(page.Turns, turns.Summary{Turn: fmt.Sprintf("t%d", 2000-i), By: "agent#0001", Files: 30, Paths: make([]string, 20)})
		for k := range page.Turns[i].Paths {
			page.Turns[i].Paths[k] = fmt.Sprintf("src/package%d/file%d.go", k, i)
		}
	}
	got := RenderText("editor::history", page, ToolName)
	if len(got) > textBudget || !strings.Contains(got, "more turns on this page not shown") {
		t.Fatalf("a page of 1000 turns: %d bytes, ends %q", len(got), got[max(0, len(got)-200):])
	}
	big := &editor.HistoryResponse{Turns: []turns.Summary{{Turn: "t1", By: "x"}}}
	for i := range 2000 {
		big.Files = append(big.Files, turns.File{Path: fmt.Sprintf("f%d.txt", i), Kind: "modified", Status: "stands", Patch: strings.Repeat("+line\n", 50),
			Hunks: []turns.Hunk{{ID: 1, Header: "@@ -1,0 +1,50 @@", Status: "stands"}}})
	}
	got = RenderText("editor::history", big, ToolName)
	if len(got) > textBudget || !strings.Contains(got, "more files not shown") {
		t.Fatalf("a turn of 2000 files: %d bytes", len(got))
	}
}
