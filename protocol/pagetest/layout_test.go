package pagetest

import (
	"testing"

	"github.com/chromedp/cdproto/input"
)

type rect struct{ Left, Top, Right, Bottom float64 }

// The parts five engineers added sit where VS Code puts them: the Problems
// panel under the editor groups, across both when the editor is split (it
// was a column at the right of the second group); an Activity row reads
// "modified a.txt", its words apart.
func TestWorkbenchLayout(t *testing.T) {
	e := newEnv(t, shotFiles, opts{})
	e.click("treeitem", "README.md")
	e.waitEditor("greeter", "README.md")
	e.focusEditor()
	e.key("\\", input.ModifierCtrl)
	e.waitJS(`document.querySelector("#split-pane .cm-content")?.textContent.includes("greeter")`, "README.md on the right too")
	box := func(sel string) rect {
		t.Helper()
		var r rect
		e.js(`(() => { const r = document.querySelector(`+jsString(sel)+`).getBoundingClientRect(); return { Left: r.left, Top: r.top, Right: r.right, Bottom: r.bottom } })()`, &r)
		return r
	}
	left, right, problems := box(".main > .group:not(.group2)"), box(".main > .group2"), box(".main > .problems")
	if right.Left < left.Right-1 || right.Top > left.Top+1 {
		t.Fatalf("the editor groups are not side by side: %+v %+v", left, right)
	}
	if problems.Top < left.Bottom-1 || problems.Top < right.Bottom-1 || problems.Left > left.Left+1 || problems.Right < right.Right-1 || problems.Bottom-problems.Top > 60 {
		t.Fatalf("the Problems panel %+v is not a bar under both groups %+v %+v", problems, left, right)
	}

	// Activity: the kind of change and the path are words apart.
	a := e.agent("agent")
	a.call("editor_save", map[string]any{"path": "notes.txt", "content": "a note\n"})
	e.key("y", ctrlShift...)
	e.waitJS(`document.querySelector(".activity .change .what .midpath")`, "the agent's change in Activity")
	var gap float64
	e.js(`(() => { const what = document.querySelector(".activity .change .what"); const r = document.createRange(); r.selectNodeContents(what.firstChild); return what.querySelector(".midpath").getBoundingClientRect().left - r.getBoundingClientRect().right })()`, &gap)
	if gap < 2 {
		t.Fatalf("the change's kind and its path are %.1f px apart: they read as one word", gap)
	}
}
