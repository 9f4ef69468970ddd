package protocol

import (
	"strings"
	"testing"

	"github.com/editord/editord/editor"
	"github.com/editord/editord/workspace"
)

func sp(s string) *string { return &s }

// What a model reads of a merged save, an overlap, a held write and a
// person's draft: the facts it acts on, in words, and the patches.
func TestRenderThreeWay(t *testing.T) {
	draft := &editor.DraftNotice{By: "editord-page#3f2a", BaseVersion: "8-b", Lines: "12-14"}
	for name, tc := range map[string]struct {
		id   string
		resp any
		want []string
	}{
		"merged save": {"editor::save", &editor.SaveResponse{Path: "a.go", Saved: true, Version: "9-c", Added: 1, Removed: 1,
			ThreeWay: editor.ThreeWay{Merged: true, BaseVersion: sp("8-a"), TheirsLines: "7", MergedPatch: sp("--- a/a.go\n+++ b/a.go\n@@ -7 +7 @@\n-seven\n+SEVEN\n"), Draft: draft}},
			[]string{"saved a.go (version 9-c, +1 -1)\n", "note: editord-page#3f2a holds unsaved edits of this file (lines 12-14 of their draft, over version 8-b)", "merged: the file had changed since expected_version 8-a; the other change (now lines 7)", "+SEVEN\n"}},
		"overlap": {"editor::save", &editor.SaveResponse{Path: "a.go", Conflict: true, Version: "9-d",
			ThreeWay: editor.ThreeWay{BaseVersion: sp("8-a"), Conflicts: []editor.MergeConflict{{Base: editor.LineSpan{StartLine: 4, Lines: 1}, Theirs: editor.LineSpan{StartLine: 4, Lines: 2}, Yours: editor.LineSpan{StartLine: 5}}},
				TheirsPatch: sp("@@ -4 +4,2 @@\n-four\n+4\n+4b\n"), YoursPatch: sp("@@ -4 +3,0 @@\n-four\n")}},
			[]string{"conflict: a.go changed on disk since expected_version 8-a (now version 9-d) and 1 place overlaps your change; nothing was written.\n", "  base line 4: disk has lines 4–5, yours has nothing before line 5\n", "write again with expected_version 9-d", "+4b\n", "Your change (base to yours):\n@@ -4 +3,0 @@\n"}},
		"held edit": {"editor::edit", &editor.EditResponse{Path: "a.go", Version: "8-b", ThreeWay: editor.ThreeWay{Held: true, Draft: draft}},
			[]string{"held: editord-page#3f2a holds unsaved edits of a.go (lines 12-14) and draft_conflict is \"refuse\"; nothing was written."}},
		"merged edit": {"editor::edit", &editor.EditResponse{Path: "a.go", Applied: true, Version: "9-c", Replaced: 1, Added: 1, Removed: 1, Patch: "@@ -2 +2 @@\n-two\n+TWO\n",
			ThreeWay: editor.ThreeWay{Merged: true, BaseVersion: sp("8-a"), TheirsLines: "7"}},
			[]string{"edited a.go", "merged: the file had changed since expected_version 8-a; your edits were applied to that version and the other change (now lines 7)", "+TWO\n"}},
		"open with a draft": {"editor::open", &editor.OpenResponse{Path: "a.go", Content: "x\n", Version: "8-a", EOL: "lf", StartLine: 1, EndLine: 1, TotalLines: 1, Language: "go", Draft: draft},
			[]string{"note: editord-page#3f2a holds unsaved edits of this file (lines 12-14 of their draft, over version 8-b): what you read is the disk's content", "     1\tx\n"}},
		"tabs": {"editor::workspace::get", &editor.WorkspaceView{Root: "/w", Buffers: []workspace.Buffer{{Path: "a.go", Version: "8-a", Dirty: true, DraftBase: "8-a", DraftBy: "editord-page#3f2a", DraftLines: "3,9-10"}}, Expanded: []string{}, BuffersTotal: 1},
			[]string{"  a.go  8-a  (unsaved edits in an editor, over 8-a, by editord-page#3f2a, lines 3,9-10)\n"}},
	} {
		got := RenderText(tc.id, tc.resp, ToolName)
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q not in\n%s", name, w, got)
			}
		}
	}
}
