package pagetest

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp/kb"
)

// "Undo what I did in the last five minutes", across files (issue 21): the
// person saves two turns over three files, an agent then changes one of
// their lines and a line of its own; the palette's command lists the
// person's two turns (not the agent's) with their files and +/−, and Undo
// takes them back newest first. The line the agent changed since is
// refused with its three sides and left as the agent made it; git diff
// then shows the agent's work and nothing of the person's. The undo is a
// turn of the person's too, listed to be redone.
func TestUndoWhatIDidRecently(t *testing.T) {
	text := map[string][]string{}
	files := map[string]string{}
	for _, f := range []string{"a", "b", "c"} {
		for i := 1; i <= 12; i++ {
			text[f+".txt"] = append(text[f+".txt"], fmt.Sprintf("%s%d", f, i))
		}
		files[f+".txt"] = strings.Join(text[f+".txt"], "\n") + "\n"
	}
	e := newEnv(t, files, opts{config: "[turns]\nidle_ms = 1000\n"})
	e.initRepo()
	a := e.agent("agent")
	content := func(p string) string { return strings.Join(text[p], "\n") + "\n" }

	// The person types at the end of a line and saves.
	edit := func(p string, line int, suffix string) {
		t.Helper()
		e.click("treeitem", p)
		e.activeTabIs(p)
		e.waitEditor(text[p][0], p)
		e.focusEditor()
		for range line - 1 {
			e.key(kb.ArrowDown)
		}
		e.key(kb.End)
		e.typeText(suffix)
		e.key("s", input.ModifierCtrl)
		text[p][line-1] += suffix
		e.waitFile(p, content(p))
	}
	// A turn of the person's ends after the idle gap (turns.idle_ms).
	newestTurn := func(by string) string {
		t.Helper()
		var id string
		waitFor(t, "the turn of "+by+" closed", func() bool {
			ts := a.call("editor_history", map[string]any{"by": by, "limit": 1})["turns"].([]any)
			if len(ts) == 0 {
				return false
			}
			s := ts[0].(map[string]any)
			id, _ = s["turn"].(string)
			return s["open"] != true
		})
		return id
	}
	edit("a.txt", 2, " one")
	edit("b.txt", 2, " one")
	t1 := newestTurn("editord-page")
	edit("a.txt", 2, " two") // over the line t1 changed
	edit("c.txt", 5, " two")
	t2 := newestTurn("editord-page")
	if t1 == t2 {
		t.Fatalf("the person's two bursts of saves are one turn %s", t1)
	}
	a.call("editor_edit", map[string]any{"path": "c.txt", "edits": []map[string]any{{"old_text": "c5 two\n", "new_text": "c5 two, and the agent's\n"}}})
	a.call("editor_edit", map[string]any{"path": "b.txt", "edits": []map[string]any{{"old_text": "b10\n", "new_text": "b10 by the agent\n"}}})
	agentTurn := newestTurn("agent")

	// The person's turns, newest first: two at least (a burst of saves is
	// one turn unless the machine is slow enough to split it).
	var mine []string
	for _, x := range a.call("editor_history", map[string]any{"by": "editord-page"})["turns"].([]any) {
		mine = append(mine, x.(map[string]any)["turn"].(string))
	}
	if len(mine) < 2 || mine[0] != t2 || mine[len(mine)-1] == t2 {
		t.Fatalf("the person's turns %v; want %s newest", mine, t2)
	}

	// The palette lists the action once; the Activity panel has it too.
	e.key("y", ctrlShift...)
	e.node("button", "Undo my last 5 minutes…")
	e.key("p", ctrlShift...)
	e.node("dialog", "Commands")
	e.typeText("undo what I did")
	const title = "Activity: Undo what I did in the last 5 minutes…"
	e.node("option", title)
	if n := len(e.findAll("option", title)); n != 1 {
		t.Fatalf("the palette lists the action %d times", n)
	}
	e.click("option", title)
	e.node("dialog", "Undo what I did recently")
	e.waitJS(fmt.Sprintf(`document.querySelectorAll(".ur-turn").length === %d`, len(mine)), "the person's turns listed")
	var listed []string
	e.js(`[...document.querySelectorAll(".ur-turn")].map((li) => li.getAttribute("aria-label").slice(5))`, &listed)
	if strings.Join(listed, ",") != strings.Join(mine, ",") {
		t.Fatalf("listed %v; want the person's %v (not the agent's %s)", listed, mine, agentTurn)
	}
	// A turn begun and ended within one second shows one time, not the
	// same one twice ("10:30:09 PM–10:30:09 PM").
	var heads []string
	e.js(`[...document.querySelectorAll(".ur-turn")].map((li) => li.textContent)`, &heads)
	span := regexp.MustCompile(`(\d\d?:\d\d:\d\d[^–·]*)–(\d\d?:\d\d:\d\d[^·]*)`)
	for _, hd := range heads {
		if m := span.FindStringSubmatch(hd); m != nil && strings.TrimSpace(m[1]) == strings.TrimSpace(m[2]) {
			t.Fatalf("a turn's span shows one time twice: %q", hd)
		}
	}
	// Each with its files and +/−: a.txt in two turns, b.txt and c.txt in
	// one each, one line in, one out.
	var rows []string
	e.js(`[...document.querySelectorAll(".ur-files li")].map((li) => li.textContent)`, &rows)
	seen := map[string]int{}
	for _, r := range rows {
		if !strings.Contains(r, " modified+1 −1") {
			t.Fatalf("a file's row: %q; want its +1 −1", r)
		}
		seen[strings.Fields(r)[0]]++
	}
	if seen["a.txt"] != 2 || seen["b.txt"] != 1 || seen["c.txt"] != 1 || len(rows) != 4 {
		t.Fatalf("the turns' files: %q", rows)
	}
	var changedNote string
	e.js(`[...document.querySelectorAll(".ur-turn")].find((li) => li.textContent.includes("c.txt")).querySelector(".ur-note").textContent`, &changedNote)
	if !strings.Contains(changedNote, "one part changed since by others") {
		t.Fatalf("the turn of c.txt does not say the agent changed a part of it since: %q", changedNote)
	}
	shot(e, "page-undo-recent.png")
	e.click("button", fmt.Sprintf("Undo %d turns", len(mine)))
	e.waitJS(`document.querySelector(".undo-recent .rv-notice [role=status]")?.textContent.startsWith("Undid")`, "the undo done")

	// The agent's line is refused with its three sides, not overwritten.
	e.waitJS(`document.querySelector(".undo-recent .rv-refused details")`, "the refusal")
	var summary string
	var sides []string
	e.js(`document.querySelector(".undo-recent .rv-refused summary").textContent`, &summary)
	e.js(`[...document.querySelectorAll(".undo-recent .rv-sides pre")].map((p) => p.textContent)`, &sides)
	side := func(line5 string) string { return "c2\nc3\nc4\n" + line5 + "\nc6\nc7\nc8\n" } // the hunk, with its context
	if !strings.HasPrefix(summary, "c.txt hunk 1") || len(sides) != 3 || sides[0] != side("c5") || sides[1] != side("c5 two") || sides[2] != side("c5 two, and the agent's") {
		t.Fatalf("the refusal: %q, sides %q", summary, sides)
	}
	text["a.txt"][1] = "a2"
	text["b.txt"][1] = "b2"
	text["b.txt"][9] = "b10 by the agent"
	text["c.txt"][4] = "c5 two, and the agent's"
	for _, p := range []string{"a.txt", "b.txt", "c.txt"} {
		if got := e.read(p); got != content(p) {
			t.Fatalf("%s after the undo:\n%s\nwant:\n%s", p, got, content(p))
		}
	}
	diff := git(t, e.root, "diff", "--unified=0") // two files: ---/+++ and one line out, one in each
	if strings.Count(diff, "\n+") != 4 || strings.Count(diff, "\n-") != 4 || !strings.Contains(diff, "\n+b10 by the agent\n") || !strings.Contains(diff, "\n+c5 two, and the agent's\n") || strings.Contains(diff, "a.txt") {
		t.Fatalf("git diff after the undo:\n%s", diff)
	}

	// The list again: the two turns have nothing left to undo; the undo's
	// own turns are listed unchecked, to redo.
	e.waitJS(fmt.Sprintf(`document.querySelectorAll(".ur-turn").length === %d`, 2*len(mine)), "the undo's turns listed too")
	var checked []bool
	var undoOff bool
	e.js(`[...document.querySelectorAll(".ur-turn input[type=checkbox]")].map((c) => c.checked)`, &checked)
	e.js(`document.querySelector(".undo-recent .buttons button.danger").disabled`, &undoOff)
	if strings.Contains(fmt.Sprint(checked), "true") || !undoOff {
		t.Fatalf("after the undo: checked %v, the Undo button disabled %v", checked, undoOff)
	}
	// Redo b.txt's: the undo of the turn that changed it, undone.
	var redo string
	e.js(`(() => { const t = [...document.querySelectorAll(".ur-turn")].find((li) => !li.textContent.includes("undoes") && li.textContent.includes("b.txt")).getAttribute("aria-label").slice(5); return [...document.querySelectorAll(".ur-turn")].find((li) => li.textContent.includes("undoes " + t + ":")).getAttribute("aria-label").slice(5) })()`, &redo)
	e.click("checkbox", "Undo "+redo)
	e.click("button", "Undo 1 turn")
	text["b.txt"][1] = "b2 one"
	e.waitFile("b.txt", content("b.txt"))
}
