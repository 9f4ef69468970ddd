package pagetest

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// Without the token the page says what to do and asks the server nothing.
func TestNoTokenClearScreenNoData(t *testing.T) {
	e := newEnv(t, map[string]string{"private-plan.txt": "secret\n"}, opts{noToken: true})
	a := e.agent("agent")
	a.call("editor_open", map[string]any{"path": "private-plan.txt"})
	msg := e.text("alert", "")
	if !strings.Contains(msg, "token") {
		t.Fatalf("no-token screen: %q", msg)
	}
	e.waitJS(`document.readyState === "complete"`, "the page to finish loading")
	e.settle()
	var body string
	e.js(`document.body.innerText`, &body)
	if strings.Contains(body, "private-plan") || strings.Contains(body, e.root) {
		t.Fatalf("the page without a token shows workspace data:\n%s", body)
	}
	var mcpRequests int
	e.js(`performance.getEntriesByType("resource").filter(r => r.name.includes("/mcp")).length`, &mcpRequests)
	if mcpRequests != 0 {
		t.Fatalf("the page without a token called /mcp %d times", mcpRequests)
	}
	// And the token never reaches the server in a request line: the page
	// URL's fragment is not sent, and the address bar loses it at once.
	e.navigate(e.base + "/#token=" + e.token)
	e.waitJS(`document.body.dataset.ready === "true"`, "the page with its token")
	var href string
	e.js(`location.href`, &href)
	if strings.Contains(href, e.token) {
		t.Fatalf("the token stays in the address bar: %s", href)
	}
}

// A 5 MB file opens, editable, and scrolls to its end; a file over
// max_file_bytes opens read-only with a notice saying why, and takes no
// typing.
func TestLargeFiles(t *testing.T) {
	var big strings.Builder
	for i := 1; big.Len() < 5<<20; i++ {
		fmt.Fprintf(&big, "line %07d: the quick brown fox jumps over the lazy dog\n", i)
	}
	lines := strings.Count(big.String(), "\n")
	huge := strings.Repeat("x", 100) + "\n"
	e := newEnv(t, map[string]string{
		"big.txt":  big.String(),
		"huge.txt": strings.Repeat(huge, 70000), // 7 MB, over the 6 MB limit below
	}, opts{config: "[limits]\nmax_file_bytes = 6000000\n"})
	a := e.agent("agent")
	a.call("editor_open", map[string]any{"path": "big.txt"})
	e.click("tab", "big.txt")
	e.waitEditor("line 0000001", "the 5 MB file's first line")
	e.focusEditor()
	e.key(kb.End, input.ModifierCtrl)
	last := fmt.Sprintf("line %07d", lines)
	e.waitEditor(last, "the 5 MB file's last line after Ctrl-End")
	var rendered int
	e.js(`document.querySelectorAll("#editor-pane .cm-line").length`, &rendered)
	if rendered > 2000 {
		t.Fatalf("%d lines in the DOM for a %d-line file: not windowed", rendered, lines)
	}

	// The huge file is not a buffer an agent can open whole; the person
	// opens it from the tree.
	e.click("treeitem", "huge.txt")
	note := e.text("status", "")
	for ; !strings.Contains(note, "read-only"); note = e.text("status", "") {
		time.Sleep(50 * time.Millisecond)
	}
	if !strings.Contains(note, "max_file_bytes") {
		t.Fatalf("read-only notice: %q", note)
	}
	// Read-only, yet the cursor moves: typing changes nothing.
	e.focusEditor()
	e.typeText("typed")
	var first string
	e.js(`document.querySelector("#editor-pane .cm-line").textContent`, &first)
	if strings.Contains(first, "typed") {
		t.Fatalf("the over-limit file took typing: %q", first)
	}
	if slices.Contains(a.bufferPaths(), "huge.txt") {
		t.Fatal("a truncated file was recorded as a shared tab")
	}
}

// Two pages on one workspace see each other's tabs, dirty markers and saves.
func TestTwoPagesSeeEachOther(t *testing.T) {
	e := newEnv(t, map[string]string{"a.txt": "shared\n", "b.txt": "other\n"}, opts{})
	p2 := e.secondPage()
	e.click("treeitem", "a.txt")
	p2.node("tab", "a.txt")
	e.waitEditor("shared", "a.txt in page 1")
	e.focusEditor()
	e.typeText("one ")
	p2.waitJS(`[...document.querySelectorAll(".tabs [role=tab]")].some(t => t.title.includes("another editor"))`, "page 2 to mark a.txt as edited elsewhere")
	e.key("s", input.ModifierCtrl)
	e.waitFile("a.txt", "one shared\n")
	p2.click("tab", "a.txt")
	p2.waitEditor("one shared", "page 1's save in page 2")
	p2.click("treeitem", "b.txt")
	p2.node("tab", "b.txt")
	e.node("tab", "b.txt")
}

// The tree creates, renames and deletes through the tools.
func TestTreeCreateRenameDelete(t *testing.T) {
	e := newEnv(t, map[string]string{"keep.txt": "k\n"}, opts{})
	a := e.agent("agent")
	e.click("button", "New file")
	e.node("dialog", "New file")
	e.typeText("made.txt")
	e.key(kb.Enter)
	e.node("tab", "made.txt")
	if _, err := os.Stat(e.abs("made.txt")); err != nil {
		t.Fatalf("New file did not create it: %v", err)
	}
	e.waitJS(`document.activeElement?.closest("#editor-pane .cm-editor")`, "the new file's editor to take the focus")
	e.typeText("hello")
	e.key("s", input.ModifierCtrl)
	e.waitFile("made.txt", "hello")

	e.click("treeitem", "made.txt")
	e.key(kb.F2)
	e.node("dialog", "Rename")
	e.key("a", input.ModifierCtrl)
	e.typeText("renamed.txt")
	e.key(kb.Enter)
	e.node("tab", "renamed.txt")
	e.node("treeitem", "renamed.txt")
	if got := a.bufferPaths(); !slices.Contains(got, "renamed.txt") || slices.Contains(got, "made.txt") {
		t.Fatalf("buffers after the rename: %v", got)
	}

	e.click("treeitem", "renamed.txt")
	e.key(kb.Delete)
	e.node("dialog", "Delete renamed.txt?")
	e.click("button", "Delete")
	e.gone("treeitem", "renamed.txt")
	e.gone("tab", "renamed.txt")
	if _, err := os.Stat(e.abs("renamed.txt")); !os.IsNotExist(err) {
		t.Fatalf("Delete left the file: %v", err)
	}
}

// The person's active tab and cursor reach the record as focus.
func TestFocusReported(t *testing.T) {
	e := newEnv(t, map[string]string{"f.go": "package f\n\nfunc F() {}\n"}, opts{})
	a := e.agent("agent")
	e.click("treeitem", "f.go")
	e.waitEditor("func F", "f.go")
	e.focusEditor()
	e.key(kb.ArrowDown)
	e.key(kb.ArrowDown)
	e.key(kb.ArrowRight)
	e.key(kb.ArrowRight)
	waitFor(t, "focus at f.go 3:3", func() bool {
		f, _ := a.call("editor_workspace_get", map[string]any{})["focus"].(map[string]any)
		return f != nil && f["path"] == "f.go" && f["line"] == float64(3) && f["column"] == float64(3) && strings.HasPrefix(f["by"].(string), "editord-page#")
	})
}

// rightClick presses the right mouse button on the element with that role
// and name (a context menu's gesture). The page re-renders as the record
// changes, so a node that went away before the click is looked up again.
func (e *env) rightClick(role, name string) {
	e.t.Helper()
	for try := 0; ; try++ {
		id := e.node(role, name)
		ctx, cancel := context.WithTimeout(e.ctx, 10*time.Second)
		err := chromedp.Run(ctx, chromedp.ActionFunc(func(ctx context.Context) error {
			if err := dom.ScrollIntoViewIfNeeded().WithBackendNodeID(id).Do(ctx); err != nil {
				return err
			}
			box, err := dom.GetBoxModel().WithBackendNodeID(id).Do(ctx)
			if err != nil {
				return err
			}
			q := box.Border
			x, y := q[0]+8, (q[1]+q[5])/2
			for _, typ := range []input.MouseType{input.MousePressed, input.MouseReleased} {
				if err := input.DispatchMouseEvent(typ, x, y).WithButton(input.Right).WithClickCount(1).Do(ctx); err != nil {
					return err
				}
			}
			return nil
		}))
		cancel()
		if err == nil {
			return
		}
		if try > 20 {
			e.t.Fatalf("right-clicking the %s named %q: %v", role, name, err)
		}
		time.Sleep(30 * time.Millisecond)
	}
}

// The tree's actions for a mouse: a right-click opens a menu (role=menu)
// with rename and delete; the menu key (Shift+F10) opens it too, and it
// is worked with the arrows and Enter.
func TestTreeContextMenu(t *testing.T) {
	e := newEnv(t, map[string]string{"m.txt": "menu\n", "z.txt": "z\n"}, opts{})
	e.rightClick("treeitem", "m.txt")
	e.node("menu", "m.txt")
	e.click("menuitem", "Rename…")
	e.gone("menu", "m.txt")
	e.node("dialog", "Rename")
	e.key("a", input.ModifierCtrl)
	e.typeText("n.txt")
	e.key(kb.Enter)
	e.node("treeitem", "n.txt")
	if got := e.read("n.txt"); got != "menu\n" {
		t.Fatalf("n.txt after the rename: %q", got)
	}

	e.click("treeitem", "z.txt")
	e.key(kb.F10, input.ModifierShift)
	e.node("menu", "z.txt")
	e.activeIs(`[role=menuitem]`, "the menu's first item focused")
	e.key(kb.End)
	e.activeIs(`[role=menuitem]:last-child`, "End on the last item")
	e.key(kb.Enter)
	e.node("dialog", "Delete z.txt?")
	e.click("button", "Delete")
	e.gone("treeitem", "z.txt")
	if _, err := os.Stat(e.abs("z.txt")); !os.IsNotExist(err) {
		t.Fatalf("z.txt after Delete: %v", err)
	}
	// Escape closes the menu, nothing done.
	e.rightClick("treeitem", "n.txt")
	e.node("menu", "n.txt")
	e.key(kb.Escape)
	e.gone("menu", "n.txt")
}
