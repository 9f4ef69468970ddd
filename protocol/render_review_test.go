package protocol

import (
	"fmt"
	"strings"
	"testing"

	"github.com/editord/editord/editor"
)

// A repository-wide review stays within the text budget however many files
// changed, lists what it can, and says what it left out and how to get it.
func TestRenderReviewBudget(t *testing.T) {
	o := &editor.GitHunksResponse{Against: "head", Files: []editor.GitFileChange{}, Root: "/w"}
	var patch strings.Builder
	for i := range 500 {
		f := editor.GitFileChange{Path: fmt.Sprintf("pkg/module%03d/file_with_a_long_name.go", i), Added: 3, Removed: 1}
		if i < 3 {
			f.InPatch = true
			fmt.Fprintf(&patch, "--- a/%s\n+++ b/%s\n@@ -1 +1,3 @@\n-x\n+a\n+b\n+c\n", f.Path, f.Path)
		} else {
			o.LeftOut++
		}
		o.Files = append(o.Files, f)
	}
	o.LeftOut += 40 // past the listed
	o.Patch = patch.String()
	got := RenderText("editor::git::hunks", o, ToolName)
	if len(got) > textBudget {
		t.Fatalf("%d bytes, over the %d budget", len(got), textBudget)
	}
	if !strings.HasPrefix(got, "540 files changed against head") || !strings.Contains(got, "more changed files not listed") || !strings.Contains(got, "narrow with paths") {
		t.Fatalf("the cut does not say what it left out:\n%s", got[len(got)-400:])
	}

	small := &editor.GitHunksResponse{Against: "worktree", Files: []editor.GitFileChange{
		{Path: "a.go", Added: 1, Removed: 1, InPatch: true},
		{Path: "big.txt", Added: 900},
		{Path: "img.png", Skipped: "binary"},
		{Path: "new.go", Added: 2, Untracked: true, InPatch: true},
	}, LeftOut: 1, Patch: "--- a/a.go\n+++ b/a.go\n@@ -1 +1 @@\n-x\n+y\n"}
	got = RenderText("editor::git::hunks", small, ToolName)
	for _, want := range []string{"4 files changed against worktree", "big.txt +900 -0 (diff left out)", "img.png (binary: no diff)", "new.go +2 -0 (untracked)", "+y\n", "diffs of 1 file are left out", "big.txt; pass one as path"} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in\n%s", want, got)
		}
	}
	if got := RenderText("editor::git::hunks", &editor.GitHunksResponse{Against: "head", Files: []editor.GitFileChange{}}, ToolName); got != "no changes against head\n" {
		t.Errorf("no changes: %q", got)
	}
}
