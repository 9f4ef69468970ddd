package pagetest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp/kb"
)

// An agent's turn of three files, reviewed in the page (issue 21): the tab
// and the tree mark its files as not reviewed; the Review view shows the
// three files' hunks; one hunk is kept and two are undone; git diff then
// shows exactly the kept one, and the marks go once every hunk is decided.
func TestReviewAgentTurn(t *testing.T) {
	lines := func(name string) string {
		var b strings.Builder
		for i := 1; i <= 12; i++ {
			fmt.Fprintf(&b, "// %s line %d\n", name, i)
		}
		return "package p\n\n" + b.String()
	}
	files := map[string]string{"a.go": lines("a"), "b.go": lines("b"), "c.go": lines("c")}
	e := newEnv(t, files, opts{})
	e.initRepo()
	e.click("treeitem", "a.go")
	e.waitEditor("// a line 1", "a.go open")

	a := e.agent("agent")
	a.call("editor_turn", map[string]any{"action": "begin", "title": "reword the comments"})
	for _, f := range []string{"a.go", "b.go", "c.go"} {
		name := strings.TrimSuffix(f, ".go")
		a.call("editor_edit", map[string]any{"path": f, "edits": []map[string]any{
			{"old_text": fmt.Sprintf("// %s line 6\n", name), "new_text": fmt.Sprintf("// %s line six, by the agent\n", name)},
		}})
	}
	a.call("editor_turn", map[string]any{"action": "end"})
	turn := a.call("editor_history", map[string]any{"by": "agent", "limit": 1})["turns"].([]any)[0].(map[string]any)["turn"].(string)

	// Marked, not reviewed: on the open tab (which says so once its minute
	// as an agent's recent change is over) and in the tree.
	e.waitJS(`document.querySelector('.tab.review [role=tab][data-path="a.go"]')`, "the a.go tab marked as not reviewed")
	e.waitJS(`document.querySelectorAll("[role=treeitem] .review-mark").length === 3`, "the three files marked in the tree")

	// Activity groups the changes by turn; Review opens the turn.
	e.key("y", ctrlShift...)
	e.waitJS(fmt.Sprintf(`!!document.querySelector('[aria-label="turn %s by agent#"], .turn-head')`, turn), "the turn's heading in Activity")
	shot(e, "page-activity-turns.png")
	e.click("button", "Review "+turn)
	e.waitJS(`document.querySelectorAll(".dialog.review .rv-hunk").length === 3`, "three hunks in the Review view")
	if got := e.text("dialog", "Review "+turn); !strings.Contains(got, "reword the comments") || !strings.Contains(got, "b line six, by the agent") {
		t.Fatalf("the Review view shows:\n%s", got)
	}
	shot(e, "page-review.png")
	e.click("button", "Keep hunk 1 of a.go")
	e.waitJS(`document.querySelector('.rv-hunk.kept[aria-label="hunk 1 of a.go"]')`, "a.go's hunk kept")
	e.click("button", "Undo hunk 1 of b.go")
	e.waitJS(`document.querySelector('.rv-hunk.undone[aria-label="hunk 1 of b.go"]')`, "b.go's hunk undone")
	e.click("button", "Undo hunk 1 of c.go")
	e.waitJS(`document.querySelector('.rv-hunk.undone[aria-label="hunk 1 of c.go"]')`, "c.go's hunk undone")

	// The disk, as git sees it: only the kept hunk is left.
	if names := strings.TrimSpace(git(t, e.root, "diff", "--name-only")); names != "a.go" {
		t.Fatalf("git diff --name-only: %q", names)
	}
	diff := git(t, e.root, "diff")
	if !strings.Contains(diff, "-// a line 6\n+// a line six, by the agent\n") || strings.Count(diff, "\n+") != 2 {
		t.Fatalf("git diff:\n%s", diff)
	}
	for _, f := range []string{"b.go", "c.go"} {
		if got := e.read(f); got != files[f] {
			t.Fatalf("%s after Undo:\n%s", f, got)
		}
	}
	// Every hunk decided: the turn is reviewed, and the marks go.
	e.key("Escape")
	e.waitJS(`!document.querySelector(".tab.review") && !document.querySelector("[role=treeitem] .review-mark")`, "the marks gone once the turn is reviewed")
	h := a.call("editor_history", map[string]any{"turn": turn})
	if s := h["turns"].([]any)[0].(map[string]any); s["reviewed"] != true || len(s["reverted_in"].([]any)) != 2 { // two undos: two turns
		t.Fatalf("the turn after review: %v", s)
	}
}

// The person's own edits are turns too: two files saved in the page are
// one turn in Activity, and its Undo takes both back, across files.
func TestUndoOwnTurnAcrossFiles(t *testing.T) {
	e := newEnv(t, map[string]string{"x.txt": "x\n", "y.txt": "y\n"}, opts{})
	for _, f := range []string{"x.txt", "y.txt"} {
		e.click("treeitem", f)
		e.waitEditor(strings.TrimSuffix(f, ".txt"), f)
		e.focusEditor()
		e.key(kb.End)
		e.typeText(" edited")
		e.key("s", input.ModifierCtrl)
		e.waitFile(f, strings.TrimSuffix(f, ".txt")+" edited\n")
	}
	e.key("y", ctrlShift...)
	e.waitJS(`[...document.querySelectorAll(".turn-head")].some(h => h.getAttribute("aria-label").endsWith(" by you") && h.textContent.includes("2 changes"))`, "the person's two saves as one turn of theirs")
	var turn string
	e.js(`[...document.querySelectorAll(".turn-head")].find(h => h.getAttribute("aria-label").endsWith(" by you")).getAttribute("aria-label").split(" ")[1]`, &turn)
	e.click("button", "Undo "+turn)
	e.waitFile("x.txt", "x\n")
	e.waitFile("y.txt", "y\n")
	waitFor(t, "y.txt's open tab following the undo", func() bool { return e.editorText() == "y\n" })
}
