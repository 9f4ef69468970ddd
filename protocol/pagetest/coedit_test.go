package pagetest

import (
	"fmt"
	"math/rand"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp/kb"
)

// One buffer, two writers, no dialog: an agent's edit to a file whose tab
// holds the person's unsaved edits lands in the person's text in place
// when the two do not overlap; the person's cursor and undo history are
// kept; the lines it brought are marked a moment; the draft the record
// keeps follows; and saving writes both.
func TestDirtyTabTakesAgentEditInPlace(t *testing.T) {
	e := newEnv(t, map[string]string{"m.txt": "head\nmiddle\ntail\n"}, opts{})
	a := e.agent("agent")
	a.call("editor_open", map[string]any{"path": "m.txt"})
	e.click("tab", "m.txt")
	e.waitEditor("middle", "m.txt's text")
	e.watchDialogs()
	e.focusEditor()
	e.typeText("mine ")
	waitFor(t, "the person's draft in the record", func() bool { return a.dirty("m.txt") })

	r := a.call("editor_edit", map[string]any{"path": "m.txt", "edits": []map[string]any{{"old_text": "tail\n", "new_text": "tail\nagent line\n"}}})
	d, _ := r["draft"].(map[string]any)
	if d == nil || !strings.HasPrefix(d["by"].(string), "editord-page#") || d["lines"] != "1" {
		t.Fatalf("the agent's edit does not say the person is editing line 1: %v", r)
	}
	e.waitEditor("agent line", "the agent's edit in the dirty tab")
	e.waitJS(`[...document.querySelectorAll("#editor-pane .cm-merged-in")].map(l => l.textContent).join("|") === "agent line"`, "the quiet marker on the agent's line")
	// The cursor stayed where the person was typing.
	e.typeText("more ")
	want := "mine more head\nmiddle\ntail\nagent line\n"
	e.waitJS(fmt.Sprintf(`[...document.querySelectorAll("#editor-pane .cm-line")].map(l => l.textContent).join("\n") === %q`, want), "both writers' text in the page")
	e.noDialogs()
	if _, ok := e.find("alert", ""); ok {
		t.Fatalf("a banner for a change that merged: %q", e.text("alert", ""))
	}
	// The record's draft follows: over the agent's version, with both.
	waitFor(t, "the draft over the agent's version", func() bool {
		d := a.call("editor_buffers_draft", map[string]any{"path": "m.txt", "read": true})
		return d["content"] == want && d["draft_base"] == r["version"]
	})
	// Undo takes back the person's typing, never the agent's line.
	e.key("z", input.ModifierCtrl)
	e.waitJS(`[...document.querySelectorAll("#editor-pane .cm-line")].map(l => l.textContent).join("\n") === "mine head\nmiddle\ntail\nagent line\n"`, "undo of the last typing")
	e.key("z", input.ModifierCtrl)
	e.waitJS(`[...document.querySelectorAll("#editor-pane .cm-line")].map(l => l.textContent).join("\n") === "head\nmiddle\ntail\nagent line\n"`, "undo of the first typing")
	e.key("y", input.ModifierCtrl)
	e.key("y", input.ModifierCtrl)
	e.waitJS(fmt.Sprintf(`[...document.querySelectorAll("#editor-pane .cm-line")].map(l => l.textContent).join("\n") === %q`, want), "redo")
	e.key("s", input.ModifierCtrl)
	e.waitFile("m.txt", want)
	waitFor(t, "the draft cleared by the save", func() bool { return !a.dirty("m.txt") })
}

// When the agent's change overlaps the person's, the merge view opens,
// three ways: base, theirs and mine beside each other, the result below,
// merged where they do not touch and marked where they do.
func TestOverlapOpensThreeWayMerge(t *testing.T) {
	e := newEnv(t, map[string]string{"o.txt": "one\ntwo\nthree\nfour\nfive\n"}, opts{})
	a := e.agent("agent")
	a.call("editor_open", map[string]any{"path": "o.txt"})
	e.click("tab", "o.txt")
	e.waitEditor("five", "o.txt's text")
	e.focusEditor()
	e.key(kb.ArrowDown)
	e.key(kb.ArrowRight)
	e.typeText("(mine)")
	waitFor(t, "the person's draft", func() bool { return a.dirty("o.txt") })
	a.call("editor_edit", map[string]any{"path": "o.txt", "edits": []map[string]any{
		{"old_text": "two", "new_text": "TWO"}, {"old_text": "five", "new_text": "FIVE"},
	}})
	e.node("dialog", "Merge o.txt")
	for _, name := range []string{"Base", "Theirs", "Mine", "Result"} {
		e.node("textbox", name)
	}
	result := `[...document.querySelectorAll(".merge3-result .cm-line")].map(l => l.textContent).join("\n")`
	var got string
	e.js(result, &got)
	if want := "one\n<<<<<<< mine\nt(mine)wo\n=======\nTWO\n>>>>>>> theirs\nthree\nfour\nFIVE\n"; got != want {
		t.Fatalf("the result to start from: %q, want %q", got, want)
	}
	// Not saved while a conflict is still marked.
	e.click("button", "Save merged")
	e.waitJS(`document.querySelector(".merge3-note").textContent.includes("still marked")`, "the reason nothing was saved")
	if got := e.read("o.txt"); got != "one\nTWO\nthree\nfour\nFIVE\n" {
		t.Fatalf("saved with a conflict marked: %q", got)
	}
	e.click("button", "Take both (conflict 1 of 1)")
	e.click("button", "Save merged")
	e.gone("dialog", "Merge o.txt")
	e.waitFile("o.txt", "one\nt(mine)wo\nTWO\nthree\nfour\nFIVE\n")
	waitFor(t, "the draft cleared by the merged save", func() bool { return !a.dirty("o.txt") })
	e.gone("alert", "")
}

// watchDialogs counts, from now on, every dialog and banner that appears
// on the page (noDialogs checks it).
func (e *env) watchDialogs() {
	e.t.Helper()
	e.js(`(() => {
		window.__interrupts = [];
		const look = () => {
			for (const el of document.querySelectorAll("[role=dialog], [role=alert]")) {
				const what = el.getAttribute("role") + ": " + el.textContent.slice(0, 120);
				if (!window.__interrupts.includes(what)) window.__interrupts.push(what);
			}
		};
		new MutationObserver(look).observe(document.body, { subtree: true, childList: true });
		look();
		return true;
	})()`, nil)
}

func (e *env) noDialogs() {
	e.t.Helper()
	var seen []string
	e.js(`window.__interrupts`, &seen)
	if len(seen) > 0 {
		e.t.Fatalf("the page interrupted the person: %q", seen)
	}
}

// coeditRounds is how many interleavings TestCoeditInterleavings runs:
// EDITORD_COEDIT_ROUNDS, else 1,000 under EDITORD_STRESS=long (make
// stress), else a quick 40.
func coeditRounds() int {
	if n, err := strconv.Atoi(os.Getenv("EDITORD_COEDIT_ROUNDS")); err == nil && n > 0 {
		return n
	}
	if os.Getenv("EDITORD_STRESS") == "long" {
		return 1000
	}
	return 40
}

// Randomized interleavings of a person typing in a real page and an agent
// editing the same file at the same time, on lines of their own: no
// keystroke and no agent edit is lost, the page's text is the server's
// draft of it and, once saved, the file's bytes, and the person is never
// interrupted by a dialog or a banner.
func TestCoeditInterleavings(t *testing.T) {
	const personLines, agentLines = 5, 8
	var initial []string
	person := make([]string, personLines)
	agentL := make([]string, agentLines)
	for i := range person {
		person[i] = fmt.Sprintf("p%d:", i)
		initial = append(initial, person[i])
	}
	initial = append(initial, "----")
	for j := range agentL {
		agentL[j] = fmt.Sprintf("a%d:", j)
		initial = append(initial, agentL[j])
	}
	expected := func() string {
		return strings.Join(person, "\n") + "\n----\n" + strings.Join(agentL, "\n") + "\n"
	}
	e := newEnv(t, map[string]string{"co.txt": expected()}, opts{})
	a := e.agent("agent")
	a.call("editor_open", map[string]any{"path": "co.txt"})
	e.click("tab", "co.txt")
	e.waitEditor("a7:", "co.txt's text")
	e.watchDialogs()
	seed := time.Now().UnixNano()
	rng := rand.New(rand.NewSource(seed))
	t.Logf("seed %d", seed)
	pageText := `[...document.querySelectorAll("#editor-pane .cm-line")].map(l => l.textContent).join("\n")`
	rounds := coeditRounds()
	start := time.Now()
	keys, edits := 0, 0
	const letters = "abcdefghijklmnopqrstuvwxyz0123456789"
	for round := range rounds {
		// The agent's edits of this round, in order, fired while the
		// person types.
		type edit struct {
			line     int
			old, new string
		}
		var plan []edit
		for range 1 + rng.Intn(3) {
			j := rng.Intn(agentLines)
			next := fmt.Sprintf("a%d:%d.%d", j, round, rng.Intn(1000))
			plan = append(plan, edit{j, agentL[j], next})
			agentL[j] = next
		}
		agentDone := make(chan error, 1)
		go func(pauses []time.Duration) {
			for i, ed := range plan {
				time.Sleep(pauses[i])
				if _, err := a.try("editor_edit", map[string]any{"path": "co.txt", "edits": []map[string]any{{"old_text": ed.old + "\n", "new_text": ed.new + "\n"}}}); err != nil {
					agentDone <- fmt.Errorf("agent edit of line a%d: %v", ed.line, err)
					return
				}
			}
			agentDone <- nil
		}([]time.Duration{time.Duration(rng.Intn(30)) * time.Millisecond, time.Duration(rng.Intn(30)) * time.Millisecond, time.Duration(rng.Intn(30)) * time.Millisecond})
		for range 1 + rng.Intn(3) {
			i := rng.Intn(personLines)
			chunk := make([]byte, 1+rng.Intn(4))
			for k := range chunk {
				chunk[k] = letters[rng.Intn(len(letters))]
			}
			// The person moves with the keyboard: the editor keeps the
			// focus (a click could land on a banner sliding in or out).
			e.editorFocus()
			e.key(kb.Home, input.ModifierCtrl)
			for range i {
				e.key(kb.ArrowDown)
			}
			e.key(kb.End)
			if len(person[i]) > 40 {
				// A long line is typed over whole (the editor would scroll
				// sideways, out of the harness's reach).
				e.key(kb.Home, input.ModifierShift)
				person[i] = fmt.Sprintf("p%d:", i)
				e.typeText(person[i])
				keys += len(person[i])
			}
			e.typeText(string(chunk))
			person[i] += string(chunk)
			keys += len(chunk)
		}
		if err := <-agentDone; err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		edits += len(plan)
		want := expected()
		e.waitPageText(pageText, want, fmt.Sprintf("round %d: every keystroke and every agent edit in the page", round))
		e.noDialogs()
		last := round == rounds-1
		if round%5 == 4 || last {
			waitFor(t, fmt.Sprintf("round %d: the server's draft to be the page's text", round), func() bool {
				d := a.call("editor_buffers_draft", map[string]any{"path": "co.txt", "read": true})
				return d["content"] == want
			})
		}
		if round%10 == 9 || last {
			e.editorFocus()
			e.key("s", input.ModifierCtrl)
			e.waitFile("co.txt", want)
			waitFor(t, fmt.Sprintf("round %d: the draft cleared by the save", round), func() bool { return !a.dirty("co.txt") })
		}
	}
	t.Logf("%d interleavings: %d keystrokes, %d agent edits, none lost, no dialog (%.1fs)", rounds, keys, edits, time.Since(start).Seconds())
}

// waitPageText waits until the page's text (expr) is want; on timeout it
// says which lines differ, and what the disk and the server's draft hold.
func (e *env) waitPageText(expr, want, what string) {
	e.t.Helper()
	deadline := time.Now().Add(patience)
	var got string
	for {
		e.js(expr, &got)
		if got == want {
			return
		}
		if time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	var diffs []string
	for i := range max(len(g), len(w)) {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			diffs = append(diffs, fmt.Sprintf("line %d: page %q, want %q", i+1, gl, wl))
		}
	}
	var interrupts []string
	e.js(`window.__interrupts || []`, &interrupts)
	e.t.Fatalf("waiting for %s:\n%s\ninterruptions: %q\npage console:\n%s", what, strings.Join(diffs, "\n"), interrupts, e.logs)
}

// editorFocus puts the focus in the editor unless it is there already.
func (e *env) editorFocus() {
	e.t.Helper()
	var in bool
	e.js(`!!document.activeElement?.closest("#editor-pane .cm-content")`, &in)
	if !in {
		e.focusEditor()
		e.waitJS(`document.activeElement?.closest("#editor-pane .cm-content")`, "the focus in the editor")
	}
}
