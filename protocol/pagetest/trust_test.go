package pagetest

// The edge cases that break a person's trust in the page (issue 23): each
// test here failed on the page before its fix.

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp/kb"
)

// A binary file opened after a text file gets a tab of its own that says
// what it is (its size and kind) and takes no typing: the text file's
// text is not shown under the binary file's name, and nothing typed goes
// anywhere.
func TestBinaryFileTab(t *testing.T) {
	bin := "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + strings.Repeat("\x00\x01\x02", 400)
	e := newEnv(t, map[string]string{"main.go": "package main\n\nfunc main() {}\n", "logo.png": bin}, opts{})
	a := e.agent("agent")
	e.click("treeitem", "main.go")
	e.waitEditor("package main", "main.go")
	e.click("treeitem", "logo.png")
	e.waitJS(`document.querySelector(".tabs [role=tab][aria-selected=true]")?.dataset.path === "logo.png"`, "logo.png's tab to be the active one")
	note := e.text("region", "logo.png")
	for _, want := range []string{"binary", "1,216 bytes"} {
		if !strings.Contains(note, want) {
			t.Fatalf("the binary file's tab says %q, want it to mention %q", note, want)
		}
	}
	var shown bool
	e.js(`[...document.querySelectorAll("#editor-pane .cm-editor")].some((ed) => ed.checkVisibility() && ed.textContent.includes("package main"))`, &shown)
	if shown {
		t.Fatal("the binary file's tab shows main.go's text")
	}
	// A click in its pane and typing: nothing anywhere takes the keys.
	e.clickAt("#editor-pane .binary")
	e.typeText("typed into a binary tab")
	e.key(kb.Enter)
	var editable int
	e.js(`[...document.querySelectorAll("#editor-pane [contenteditable=true]")].filter((x) => x.checkVisibility()).length`, &editable)
	if editable != 0 {
		t.Fatalf("%d editable areas on the binary file's tab", editable)
	}
	if got := e.read("main.go"); got != "package main\n\nfunc main() {}\n" {
		t.Fatalf("main.go after typing on the binary tab: %q", got)
	}
	if a.dirty("main.go") {
		t.Fatal("typing on the binary tab made a draft of main.go")
	}
	// Back to main.go: its own text, unchanged.
	e.click("tab", "main.go")
	e.waitEditor("func main() {}", "main.go again")
	if strings.Contains(e.editorText(), "typed") {
		t.Fatalf("main.go's tab took the typing: %q", e.editorText())
	}
}

// A file that cannot be read as text at all (a named pipe) gets a tab
// that says it cannot be opened, and why, not the last tab's text.
func TestUnreadableFileTab(t *testing.T) {
	e := newEnv(t, map[string]string{"main.go": "package main\n"}, opts{setup: func(root string) {
		if err := syscall.Mkfifo(filepath.Join(root, "pipe"), 0o644); err != nil {
			t.Skip("no named pipes here:", err)
		}
	}})
	e.click("treeitem", "main.go")
	e.waitEditor("package main", "main.go")
	e.click("treeitem", "pipe")
	note := e.text("region", "pipe")
	if !strings.Contains(note, "pipe cannot be opened") {
		t.Fatalf("the pipe's tab says %q", note)
	}
	var shown bool
	e.js(`[...document.querySelectorAll("#editor-pane .cm-editor")].some((ed) => ed.checkVisibility())`, &shown)
	if shown {
		t.Fatal("an editor is on screen for the pipe's tab")
	}
}

// fiveMB is a 5 MB text file of numbered lines, and its line count.
func fiveMB() (string, int) {
	var big strings.Builder
	n := 0
	for big.Len() < 5<<20 {
		n++
		fmt.Fprintf(&big, "line %07d: the quick brown fox jumps over the lazy dog\n", n)
	}
	return big.String(), n
}

// A 5 MB file opens whole with the default limits (max_file_bytes is
// 2,000,000: the rest is read in ranges), read-only with a notice saying
// why, and after Ctrl+End the status bar shows its last line.
func TestFiveMBFileShownWhole(t *testing.T) {
	big, lines := fiveMB()
	e := newEnv(t, map[string]string{"big.txt": big}, opts{})
	e.click("treeitem", "big.txt")
	e.waitEditor("line 0000001", "the 5 MB file's first line")
	e.focusEditor()
	e.key(kb.End, input.ModifierCtrl)
	last := fmt.Sprintf("line %07d: the quick brown fox jumps over the lazy dog", lines)
	e.waitEditor(last, "the 5 MB file's last line after Ctrl+End")
	// The file ends with a newline: its last line is the empty one after.
	want := fmt.Sprintf("Ln %d, Col 1", lines+1)
	e.waitJS(`document.querySelector(".status .cursor").textContent === `+jsString(want), "the status bar on the last line")
	var cut bool
	e.js(`!!document.querySelector("#editor-pane .cm-cut")`, &cut)
	if cut {
		t.Fatal("a file within max_read_bytes is shown with a cut")
	}
	note := e.text("status", "")
	if !strings.Contains(note, "read-only") || !strings.Contains(note, "max_file_bytes") {
		t.Fatalf("the notice on a file over max_file_bytes: %q", note)
	}
}

// A file over max_read_bytes is shown as far as the limits allow, cut at
// the end of a line (not mid-word), with a marker at the cut that says how
// much is shown and how to see the rest.
func TestFileOverReadLimitMarksTheCut(t *testing.T) {
	big, _ := fiveMB()
	e := newEnv(t, map[string]string{"big.txt": big}, opts{config: "[jail]\nmax_read_bytes = 3000000\n"})
	e.click("treeitem", "big.txt")
	e.waitEditor("line 0000001", "the file's first line")
	e.focusEditor()
	e.key(kb.End, input.ModifierCtrl)
	e.waitJS(`document.querySelector("#editor-pane .cm-cut")`, "the marker at the cut")
	var marker string
	e.js(`document.querySelector("#editor-pane .cm-cut").textContent`, &marker)
	for _, want := range []string{"Cut here", fmt.Sprintf("of %s bytes", commas(len(big))), "max_read_bytes"} {
		if !strings.Contains(marker, want) {
			t.Fatalf("the marker says %q; want %q in it", marker, want)
		}
	}
	var tail string
	e.js(`(() => { const ls = [...document.querySelectorAll("#editor-pane .cm-line")].map((l) => l.textContent).filter((t) => t.startsWith("line ")); return ls[ls.length - 1] })()`, &tail)
	if !strings.HasSuffix(tail, "the lazy dog") {
		t.Fatalf("the last line shown before the cut is %q: cut mid-line", tail)
	}
}

// commas writes n with thousands separators, as the page does.
func commas(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// A status message ends with its cause: "Search first" goes once a replace
// is done, "Write a commit message first" once a commit is made.
func TestStatusMessagesEndWithTheirCause(t *testing.T) {
	e := newEnv(t, map[string]string{"a.txt": "foo\n"}, opts{})
	e.initRepo()
	msg := func() string {
		var s string
		e.js(`document.querySelector(".status .msg").textContent`, &s)
		return s
	}
	e.key("f", ctrlShift...)
	e.click("textbox", "Replace")
	e.typeText("bar")
	e.click("button", "Replace all…")
	e.waitJS(`document.querySelector(".status .msg").textContent.startsWith("Search first")`, "the hint to search first")
	e.click("searchbox", "Search")
	e.typeText("foo")
	e.waitJS(`document.querySelectorAll(".hit").length === 1`, "the hit")
	e.click("button", "Replace all…")
	e.click("button", "Replace in 1 file")
	e.waitFile("a.txt", "bar\n")
	e.waitJS(`!document.querySelector(".status .msg").textContent.startsWith("Search first")`, "the hint gone after the replace")

	e.key("g", ctrlShift...)
	e.click("button", "Commit all")
	e.waitJS(`document.querySelector(".status .msg").textContent.startsWith("Write a commit message")`, "the hint to write a message")
	e.click("textbox", "Commit message")
	e.typeText("Replace foo")
	e.click("button", "Commit all")
	e.waitJS(`document.querySelector(".git-files")?.textContent.includes("No changes")`, "the commit")
	if got := msg(); strings.HasPrefix(got, "Write a commit message") {
		t.Fatalf("after the commit the status bar still says %q", got)
	}
}

// A reload shows the tab that was active, not the first; a new window
// opens where the person was (the record's focus), at their line.
func TestReloadRestoresActiveTab(t *testing.T) {
	e := newEnv(t, map[string]string{"a.txt": "a\n", "b.txt": "b1\nb2\nb3\n", "c.txt": "c\n"}, opts{})
	a := e.agent("agent")
	for _, p := range []string{"a.txt", "b.txt", "c.txt"} {
		a.call("editor_open", map[string]any{"path": p})
	}
	e.click("tab", "b.txt")
	e.waitEditor("b3", "b.txt")
	e.reload()
	if got := e.attr("tab", "b.txt", "aria-selected"); got != "true" {
		t.Fatalf("after a reload b.txt's tab: aria-selected=%q", got)
	}
	e.waitEditor("b3", "b.txt's text after the reload")

	e.focusEditor()
	e.key(kb.ArrowDown)
	e.key(kb.ArrowDown)
	waitFor(t, "the focus on b.txt line 3 in the record", func() bool {
		f, _ := a.call("editor_workspace_get", map[string]any{})["focus"].(map[string]any)
		return f != nil && f["path"] == "b.txt" && f["line"] == float64(3)
	})
	p2 := e.secondPage()
	if got := p2.attr("tab", "b.txt", "aria-selected"); got != "true" {
		t.Fatalf("a new window's b.txt tab: aria-selected=%q", got)
	}
	p2.waitJS(`document.querySelector(".status .cursor").textContent.startsWith("Ln 3,")`, "the new window's cursor on line 3")
}

// A file opened with Ctrl+P is revealed in the tree: its folders expand
// and it is the selected item, in view.
func TestPaletteRevealsFileInTree(t *testing.T) {
	e := newEnv(t, shotFiles, opts{})
	e.key("p", input.ModifierCtrl)
	e.node("dialog", "Go to file")
	e.typeText("greeting")
	e.node("option", "src/util/greeting.go")
	e.key(kb.Enter)
	e.gone("dialog", "Go to file")
	e.waitJS(`document.querySelector('[role=treeitem][data-path="src/util/greeting.go"]')?.getAttribute("aria-selected") === "true"`, "greeting.go selected in the tree")
	var inView bool
	e.js(`(() => { const r = document.querySelector('[role=treeitem][data-path="src/util/greeting.go"] > .row').getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight })()`, &inView)
	if !inView {
		t.Fatal("the revealed file is out of view")
	}
}

// numbered is n lines "row 1".."row n".
func numbered(n int) []string {
	var out []string
	for i := 1; i <= n; i++ {
		out = append(out, fmt.Sprintf("row %d", i))
	}
	return out
}

// A change in the Git panel opens at its first change, not at line 1: an
// unstaged one in the file's own tab with the change shown inline, in
// colour (the old line, deleted, above the new one), the cursor on it; a
// staged one side by side, scrolled to it.
func TestGitDiffOpensAtFirstChange(t *testing.T) {
	lines := numbered(300)
	e := newEnv(t, map[string]string{"long.txt": strings.Join(lines, "\n") + "\n", "staged.txt": strings.Join(lines, "\n") + "\n"}, opts{})
	e.initRepo()
	lines[249] = "row 250 changed"
	e.write("long.txt", strings.Join(lines, "\n")+"\n")
	e.write("staged.txt", strings.Join(lines, "\n")+"\n")
	git(t, e.root, "add", "staged.txt")
	e.key("g", ctrlShift...)
	e.clickAt(`.git-file[data-side="worktree"][title^="long.txt"]`)
	e.waitJS(`document.querySelector(".tabs [role=tab][aria-selected=true]")?.dataset.path === "long.txt"`, "long.txt's tab")
	e.waitJS(`document.querySelector(".status .cursor").textContent.startsWith("Ln 250,")`, "the cursor on the first change")
	visible := func(sel, text string) bool {
		var ok bool
		e.js(`[...document.querySelectorAll(`+jsString(sel)+`)].some((l) => { const r = l.getBoundingClientRect(); return l.textContent === `+jsString(text)+` && r.top >= 0 && r.bottom <= innerHeight })`, &ok)
		return ok
	}
	e.waitJS(`document.querySelector("#editor-pane .cm-deletedChunk")`, "the old line shown inline")
	if !visible("#editor-pane .cm-deletedChunk .cm-deletedLine", "row 250") || !visible("#editor-pane .cm-changedLine", "row 250 changed") {
		t.Fatal("the inline diff is not on screen at the first change")
	}
	// Staged, the change is no longer against the index: the inline diff
	// follows.
	e.click("button", "Stage long.txt")
	e.waitJS(`document.querySelector("[role=toolbar][aria-label=Changes]").textContent.includes(": none") && !document.querySelector("#editor-pane .cm-deletedChunk")`, "no change left against the index")
	e.clickAt(`.git-file[data-side="staged"][title^="staged.txt"]`)
	e.node("dialog", "Staged changes in staged.txt")
	e.waitJS(`[...document.querySelectorAll("[role=dialog] .cm-line")].some((l) => l.textContent === "row 250 changed" && l.getBoundingClientRect().top >= 0 && l.getBoundingClientRect().bottom <= innerHeight)`, "the staged diff scrolled to its first change")
}

// One file at a time from the Git panel: stage, unstage, discard (back to
// the index's text, through a guarded restore), and an untracked file's
// discard deletes it; git's own status agrees after each.
func TestGitPanelPerFileStageUnstageDiscard(t *testing.T) {
	e := newEnv(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n", "c.txt": "c\n"}, opts{})
	e.initRepo()
	e.write("a.txt", "a changed\n")
	e.write("b.txt", "b changed\n")
	e.write("u.txt", "untracked\n")
	status := func(want, what string) {
		t.Helper()
		waitFor(t, what, func() bool { return git(t, e.root, "status", "--porcelain") == want })
	}
	e.key("g", ctrlShift...)
	e.waitJS(`document.querySelectorAll(".git-file").length === 3`, "three changed files")
	e.click("button", "Stage a.txt")
	status("M  a.txt\n M b.txt\n?? u.txt\n", "a.txt staged")
	e.waitJS(`document.querySelector('.git-file[data-side="staged"][title^="a.txt"]')`, "a.txt among the staged changes")
	e.click("button", "Unstage a.txt")
	status(" M a.txt\n M b.txt\n?? u.txt\n", "a.txt unstaged")

	e.click("button", "Discard changes in b.txt")
	e.node("dialog", "Discard changes in b.txt?")
	e.click("button", "Discard changes")
	e.waitFile("b.txt", "b\n")
	status(" M a.txt\n?? u.txt\n", "b.txt back at the index's text")

	e.click("button", "Discard changes in u.txt")
	e.node("dialog", "Delete u.txt?")
	e.click("button", "Delete file")
	status(" M a.txt\n", "u.txt deleted")

	e.click("button", "Stage all changes")
	status("M  a.txt\n", "everything staged")
	e.click("button", "Unstage all changes")
	status(" M a.txt\n", "everything unstaged")
	if got := e.read("a.txt"); got != "a changed\n" {
		t.Fatalf("a.txt after staging and unstaging: %q", got)
	}
}

// Replace across files with Preserve case: each match keeps its own case.
func TestReplacePreservesCase(t *testing.T) {
	e := newEnv(t, map[string]string{"w.txt": "widget Widget WIDGET\n", "v.txt": "myWidget\n"}, opts{})
	e.key("f", ctrlShift...)
	e.node("searchbox", "Search")
	e.typeText("widget")
	e.waitJS(`document.querySelectorAll(".hit").length === 2`, "the hits")
	e.click("textbox", "Replace")
	e.typeText("gadget")
	e.click("checkbox", "Preserve case")
	e.click("button", "Replace all…")
	e.node("dialog", "Replace across files")
	e.click("button", "Replace in 2 files")
	e.waitFile("w.txt", "gadget Gadget GADGET\n")
	e.waitFile("v.txt", "myGadget\n")
}
