package pagetest

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp/kb"
)

// Unsaved edits are a draft in the record: agents see the buffer dirty and
// can read the text; a reload restores them, dirty, over their base; so
// does a server restart (the page reconnects by itself).
func TestDraftsSurviveReloadAndRestart(t *testing.T) {
	e := newEnv(t, map[string]string{"d.txt": "first\nsecond\n"}, opts{})
	a := e.agent("agent")
	a.call("editor_open", map[string]any{"path": "d.txt"})
	e.click("tab", "d.txt")
	e.waitEditor("second", "d.txt's text")
	e.focusEditor()
	e.typeText("unsaved ")
	waitFor(t, "the draft in the record", func() bool { return a.dirty("d.txt") })
	d := a.call("editor_buffers_draft", map[string]any{"path": "d.txt", "read": true})
	if d["content"] != "unsaved first\nsecond\n" || !strings.HasPrefix(d["by"].(string), "editord-page#") {
		t.Fatalf("the draft as an agent reads it: %v", d)
	}

	e.reload()
	e.waitEditor("unsaved first", "the draft restored after a reload")
	if got := e.attr("tab", "d.txt", "title"); !strings.Contains(got, "unsaved") {
		t.Fatalf("restored tab not marked dirty: title %q", got)
	}
	if got := e.read("d.txt"); got != "first\nsecond\n" {
		t.Fatalf("a draft reached the disk: %q", got)
	}

	e.stopServer()
	e.startServer()
	e.waitJS(`document.querySelector(".status .link").textContent === "connected"`, "the page to reconnect after the restart")
	e.reload()
	e.waitEditor("unsaved first", "the draft restored after a server restart")
	// Saving it clears the draft for everyone.
	e.focusEditor()
	e.key("s", input.ModifierCtrl)
	e.waitFile("d.txt", "unsaved first\nsecond\n")
	waitFor(t, "the draft cleared by the save", func() bool { return !a.dirty("d.txt") })
}

// A draft made over a version the disk has since left comes back rebased
// onto the disk when the two do not overlap (the server still holds the
// text it was made over), and with the banner when they do: nothing
// silently wins.
func TestRestoredDraftOverOldVersionRebasesOrAsksToMerge(t *testing.T) {
	e := newEnv(t, map[string]string{"o.txt": "v1\n", "p.txt": "head\nv1\n"}, opts{})
	a := e.agent("agent")
	vo := a.call("editor_open", map[string]any{"path": "o.txt"})["version"].(string)
	vp := a.call("editor_open", map[string]any{"path": "p.txt"})["version"].(string)
	e.click("tab", "o.txt")
	e.waitEditor("v1", "o.txt")
	e.focusEditor()
	e.key(kb.End, input.ModifierShift)
	e.typeText("mine")
	e.click("tab", "p.txt")
	e.waitEditor("head", "p.txt")
	e.focusEditor()
	e.key(kb.End)
	e.typeText(" mine")
	waitFor(t, "the drafts", func() bool { return a.dirty("o.txt") && a.dirty("p.txt") })
	// The page goes away (closed browser); the agent saves meanwhile.
	e.navigate("about:blank")
	a.call("editor_save", map[string]any{"path": "o.txt", "content": "v2\n", "expected_version": vo})
	a.call("editor_save", map[string]any{"path": "p.txt", "content": "head\nv2\n", "expected_version": vp})
	e.navigate(e.base + "/")
	e.waitJS(`document.body.dataset.ready === "true"`, "the page to load again")
	e.click("tab", "p.txt")
	e.waitEditor("head mine\nv2", "the restored draft of p.txt rebased onto the agent's save")
	if _, ok := e.find("alert", ""); ok {
		t.Fatalf("a banner for a draft that merged: %q", e.text("alert", ""))
	}
	e.click("tab", "o.txt")
	e.waitEditor("mine", "the restored draft of o.txt")
	if got := e.text("alert", ""); !strings.Contains(got, "restored") || !strings.Contains(got, "changed on disk") {
		t.Fatalf("banner for a stale draft: %q", got)
	}
	e.focusEditor()
	e.key("s", input.ModifierCtrl)
	e.node("dialog", "Merge o.txt")
	if got := e.read("o.txt"); got != "v2\n" {
		t.Fatalf("the stale draft was written: %q", got)
	}
}

// CRLF stays CRLF byte for byte, a BOM stays, and no final newline is added.
func TestBytesKeptExactly(t *testing.T) {
	files := map[string]string{
		"win.txt":  "one\r\ntwo\r\nthree\r\n",
		"bom.txt":  "\uFEFFbom line\nnext\n",
		"tail.txt": "no newline at end\r\nlast",
		"mix.txt":  "lf\ncrlf\r\nend\n",
	}
	e := newEnv(t, files, opts{})
	a := e.agent("agent")
	for _, name := range []string{"win.txt", "bom.txt", "tail.txt", "mix.txt"} {
		a.call("editor_open", map[string]any{"path": name})
	}
	edit := func(name, first string, keys func()) {
		t.Helper()
		e.click("tab", name)
		e.waitEditor(first, name)
		e.focusEditor()
		keys()
		e.key("s", input.ModifierCtrl)
	}
	edit("win.txt", "three", func() {
		e.key(kb.ArrowDown)
		e.key(kb.End)
		e.key(kb.Enter)
		e.typeText("inserted")
	})
	e.waitFile("win.txt", "one\r\ntwo\r\ninserted\r\nthree\r\n")
	edit("bom.txt", "bom line", func() { e.typeText("X") })
	e.waitFile("bom.txt", "\uFEFFXbom line\nnext\n")
	edit("tail.txt", "last", func() {
		e.key(kb.End, input.ModifierCtrl)
		e.typeText("!")
	})
	e.waitFile("tail.txt", "no newline at end\r\nlast!")
	edit("mix.txt", "crlf", func() {
		e.key(kb.End, input.ModifierCtrl)
		e.typeText("#")
	})
	e.waitFile("mix.txt", "lf\ncrlf\r\nend\n#")
}

// detached lists the drafts the record keeps for buffers that are closed.
func (a *agent) detached() map[string]bool {
	out := map[string]bool{}
	list, _ := a.call("editor_workspace_get", map[string]any{})["detached"].([]any)
	for _, d := range list {
		out[d.(map[string]any)["path"].(string)] = true
	}
	return out
}

// draftText is the draft the record keeps for path, or "" when none.
func (a *agent) draftText(path string) string {
	s, _ := a.call("editor_buffers_draft", map[string]any{"path": path, "read": true})["content"].(string)
	return s
}

// An agent closes a tab the person has unsaved edits in: the tab stays,
// says why, and the edits stay a draft in the record (not only in the
// page's memory): typing on updates it, a reload brings the tab back with
// them, and only the person's Discard drops the draft, file and all.
func TestClosedElsewhereDraftSurvivesReload(t *testing.T) {
	e := newEnv(t, map[string]string{"k.txt": "keep\n"}, opts{})
	a := e.agent("agent")
	a.call("editor_open", map[string]any{"path": "k.txt"})
	e.click("tab", "k.txt")
	e.waitEditor("keep", "k.txt")
	e.focusEditor()
	e.typeText("typed ")
	waitFor(t, "the draft", func() bool { return a.draftText("k.txt") == "typed keep\n" })
	a.call("editor_buffers_close", map[string]any{"path": "k.txt"})
	e.waitJS(`document.querySelector(".tabs [role=tab]")?.title.includes("closed elsewhere")`, "the tab marked as closed elsewhere")
	if !a.detached()["k.txt"] {
		t.Fatal("the record does not keep the closed buffer's draft")
	}
	e.focusEditor()
	e.key(kb.End)
	e.typeText("more")
	waitFor(t, "the detached draft to follow the typing", func() bool { return a.draftText("k.txt") == "typed keepmore\n" })

	e.reload()
	e.node("tab", "k.txt")
	if got := e.attr("tab", "k.txt", "title"); !strings.Contains(got, "closed elsewhere") {
		t.Fatalf("the restored tab's title: %q", got)
	}
	e.click("tab", "k.txt")
	e.waitEditor("typed keepmore", "the edits restored after a reload")
	if got := e.text("alert", ""); !strings.Contains(got, "closed in another editor") || !strings.Contains(got, "kept") {
		t.Fatalf("banner after the reload: %q", got)
	}
	if slices.Contains(a.bufferPaths(), "k.txt") {
		t.Fatal("looking at the kept draft reopened the buffer the agent closed")
	}
	e.click("button", "Discard")
	e.node("dialog", "Close k.txt?")
	e.click("button", "Discard and close")
	e.gone("tab", "k.txt")
	waitFor(t, "the draft discarded", func() bool { return !a.detached()["k.txt"] && a.draftText("k.txt") == "" })
	if got := e.read("k.txt"); got != "keep\n" {
		t.Fatalf("discarding touched the file: %q", got)
	}
	ents, _ := os.ReadDir(filepath.Join(e.state, "drafts"))
	if len(ents) != 0 {
		t.Fatalf("%d draft files left after the discard", len(ents))
	}
}

// An agent deletes a file the person has unsaved edits in: the edits stay
// a draft; after a reload the tab says the file was deleted, and Save
// creates it again with them (and the draft goes).
func TestDeletedFileDraftSavesItBack(t *testing.T) {
	e := newEnv(t, map[string]string{"d/gone.txt": "one\r\ntwo\r\n"}, opts{})
	a := e.agent("agent")
	a.call("editor_open", map[string]any{"path": "d/gone.txt"})
	e.click("tab", "gone.txt")
	e.waitEditor("two", "gone.txt")
	e.focusEditor()
	e.typeText("mine ")
	waitFor(t, "the draft", func() bool { return a.dirty("d/gone.txt") })
	a.call("editor_delete", map[string]any{"path": "d", "recursive": true})
	e.waitJS(`document.querySelector(".tabs [role=tab]")?.title.includes("deleted on disk")`, "the tab marked as deleted")
	e.reload()
	e.click("tab", "gone.txt")
	e.waitEditor("mine one", "the deleted file's draft after a reload")
	if got := e.text("alert", ""); !strings.Contains(got, "deleted on disk") || !strings.Contains(got, "kept") {
		t.Fatalf("banner: %q", got)
	}
	e.click("button", "Save")
	e.waitFile("d/gone.txt", "mine one\r\ntwo\r\n")
	waitFor(t, "the draft cleared by the save", func() bool { return !a.detached()["d/gone.txt"] && !a.dirty("d/gone.txt") })
	e.gone("alert", "")
}

// The server goes away while the person types, and comes back: the status
// bar says so, the page reconnects by itself (no reload), the edits typed
// meanwhile reach the record as the draft, live events flow again, and a
// save is guarded by the right version.
func TestTypingThroughAServerRestart(t *testing.T) {
	e := newEnv(t, map[string]string{"r.txt": "base\n", "other.txt": "o1\n"}, opts{})
	a := e.agent("agent")
	a.call("editor_open", map[string]any{"path": "r.txt"})
	e.click("tab", "r.txt")
	e.waitEditor("base", "r.txt")
	e.focusEditor()
	e.typeText("one ")
	waitFor(t, "the first draft", func() bool { return a.draftText("r.txt") == "one base\n" })

	e.stopServer()
	e.waitJS(`document.querySelector(".status .link").textContent === "reconnecting…"`, "the status bar to say the link is down")
	e.typeText("two ")
	e.startServer()
	e.waitJS(`document.querySelector(".status .link").textContent === "connected"`, "the page to reconnect by itself")
	waitFor(t, "the edits typed while offline in the draft", func() bool { return a.draftText("r.txt") == "one two base\n" })
	// Notifications flow again: an agent's open shows up as a tab.
	a.call("editor_open", map[string]any{"path": "other.txt"})
	e.node("tab", "other.txt")
	e.key("s", input.ModifierCtrl)
	e.waitFile("r.txt", "one two base\n")
	waitFor(t, "the draft cleared by the save", func() bool { return !a.dirty("r.txt") })
}
