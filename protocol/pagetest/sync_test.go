package pagetest

import (
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp/kb"
)

// activeLine is the text of the line holding the cursor.
func (e *env) activeLine() string {
	var s string
	e.js(`document.querySelector("#editor-pane .cm-activeLine")?.textContent ?? ""`, &s)
	return s
}

// A clean tab follows an agent's save in place, keeping the cursor on its
// line; a file changed by another program (sed -i) is followed too.
func TestCleanTabFollowsChangesElsewhere(t *testing.T) {
	e := newEnv(t, map[string]string{"a.txt": "one\ntwo\nthree\n"}, opts{})
	a := e.agent("agent")
	v := a.call("editor_open", map[string]any{"path": "a.txt"})["version"].(string)
	e.click("tab", "a.txt")
	e.waitEditor("three", "a.txt's text")
	e.focusEditor()
	e.key(kb.ArrowDown)
	e.key(kb.ArrowDown)
	if got := e.activeLine(); got != "three" {
		t.Fatalf("cursor line before: %q", got)
	}

	a.call("editor_save", map[string]any{"path": "a.txt", "content": "zero\none\ntwo\nthree\n", "expected_version": v})
	e.waitEditor("zero", "the agent's save in the page")
	if got := e.activeLine(); got != "three" {
		t.Fatalf("the cursor left its line on reload: now on %q", got)
	}
	// Clean, and marked as an agent's recent change (once the event is in).
	e.waitJS(`document.querySelector('.tabs [role=tab][data-path="a.txt"]').title === "a.txt (changed by an agent in the last minute)"`, "the tab marked as an agent's recent change, not dirty")

	if out, err := exec.Command("sed", "-i", "s/two/TWO/", e.abs("a.txt")).CombinedOutput(); err != nil {
		t.Fatalf("sed: %v %s", err, out)
	}
	e.waitEditor("TWO", "sed -i's change in the page")
	if got := e.editorText(); got != "zero\none\nTWO\nthree\n" {
		t.Fatalf("editor after sed: %q", got)
	}
}

// A save that comes back as a conflict opens the merge view; force is only
// behind its own labelled button.
func TestSaveConflictOpensMerge(t *testing.T) {
	e := newEnv(t, map[string]string{"c.txt": "base\n"}, opts{})
	a := e.agent("agent")
	a.call("editor_open", map[string]any{"path": "c.txt"})
	e.click("tab", "c.txt")
	e.waitEditor("base", "c.txt's text")
	e.focusEditor()
	e.typeText("P")
	// A write the page has not heard of yet: the watcher is slower than a keystroke.
	e.write("c.txt", "theirs\n")
	e.key("s", input.ModifierCtrl)
	e.node("dialog", "Merge c.txt")
	if got := e.read("c.txt"); got != "theirs\n" {
		t.Fatalf("a conflicting save wrote: %q", got)
	}
	e.click("button", "Overwrite disk with mine")
	e.gone("dialog", "Merge c.txt")
	e.waitFile("c.txt", "Pbase\n")
}

// An agent's close of a tab the person is editing removes it from the
// record, but the page keeps it, marked, with the edits, and says why;
// saving brings it back for everyone.
func TestAgentClosesDirtyTabKeptMarked(t *testing.T) {
	e := newEnv(t, map[string]string{"k.txt": "keep\n"}, opts{})
	a := e.agent("agent")
	a.call("editor_open", map[string]any{"path": "k.txt"})
	e.click("tab", "k.txt")
	e.waitEditor("keep", "k.txt")
	e.focusEditor()
	e.typeText("typed ")
	waitFor(t, "the draft", func() bool { return a.dirty("k.txt") })
	a.call("editor_buffers_close", map[string]any{"path": "k.txt"})
	e.waitJS(`document.querySelector(".tabs [role=tab]")?.title.includes("closed elsewhere")`, "the tab marked as closed elsewhere")
	if got := e.text("alert", ""); !strings.Contains(got, "closed in another editor") || !strings.Contains(got, "unsaved edits are kept") {
		t.Fatalf("banner: %q", got)
	}
	if got := e.editorText(); got != "typed keep\n" {
		t.Fatalf("the edits after the close: %q", got)
	}
	e.click("button", "Save")
	e.waitFile("k.txt", "typed keep\n")
	waitFor(t, "k.txt back in the record", func() bool { return slices.Contains(a.bufferPaths(), "k.txt") })
	e.gone("alert", "")
}

// Take theirs replaces the person's edits with the disk's text; Keep mine
// keeps them, and the next save writes them over the agent's change.
func TestTakeTheirsAndKeepMine(t *testing.T) {
	e := newEnv(t, map[string]string{"t.txt": "base\n", "k.txt": "base\n"}, opts{})
	a := e.agent("agent")
	for _, p := range []string{"t.txt", "k.txt"} {
		v := a.call("editor_open", map[string]any{"path": p})["version"].(string)
		e.click("tab", p)
		e.waitEditor("base", p)
		e.focusEditor()
		e.key(kb.End, input.ModifierShift)
		e.typeText("mine") // over "base", which the agent rewrites too
		waitFor(t, "the draft of "+p, func() bool { return a.dirty(p) })
		a.call("editor_save", map[string]any{"path": p, "content": "theirs\n", "expected_version": v})
		// Their change overlaps the person's edit: the merge view opens;
		// closing it leaves the banner's choices.
		e.node("dialog", "Merge "+p)
		e.key(kb.Escape)
		e.gone("dialog", "Merge "+p)
		e.node("button", "Take theirs")
	}
	e.click("tab", "t.txt")
	e.click("button", "Take theirs")
	e.waitEditor("theirs", "their text in t.txt")
	waitFor(t, "t.txt's draft cleared", func() bool { return !a.dirty("t.txt") })

	e.click("tab", "k.txt")
	e.click("button", "Keep mine")
	e.gone("alert", "")
	if got := e.editorText(); got != "mine\n" {
		t.Fatalf("k.txt after Keep mine: %q", got)
	}
	e.focusEditor()
	e.key("s", input.ModifierCtrl)
	e.waitFile("k.txt", "mine\n")
	if got := e.read("t.txt"); got != "theirs\n" {
		t.Fatalf("t.txt on disk: %q", got)
	}
}
