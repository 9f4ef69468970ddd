package pagetest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

var shotFiles = map[string]string{
	"README.md":            "# greeter\n\nA tiny program to show editord's page.\n\n- `src/main.go` prints a greeting\n- `src/util/greeting.go` makes it\n",
	"go.mod":               "module example.com/greeter\n\ngo 1.26\n",
	"src/main.go":          "package main\n\nimport (\n\t\"fmt\"\n\n\t\"example.com/greeter/src/util\"\n)\n\n// main prints a greeting for the name given, or for the world.\nfunc main() {\n\tname := \"world\"\n\tfmt.Println(util.Greeting(name))\n}\n",
	"src/util/greeting.go": "package util\n\nimport \"strings\"\n\n// Greeting says hello to name.\nfunc Greeting(name string) string {\n\treturn \"Hello, \" + strings.TrimSpace(name) + \"!\"\n}\n",
	"docs/notes.txt":       "Notes\r\n=====\r\n\r\nThis file has CRLF line endings; the page keeps them.\r\n",
}

// TestScreenshots walks the page through what the README shows: the tree
// and tabs, a change made by an agent while the person edits, and the merge
// view. With EDITORD_SCREENSHOTS=DIR (make screenshots) it saves them there.
func TestScreenshots(t *testing.T) {
	e := newEnv(t, shotFiles, opts{rootName: "greeter", setup: func(root string) {
		git(t, root, "init", "-q", "-b", "main")
		git(t, root, "add", "-A")
		git(t, root, "commit", "-q", "-m", "initial")
	}})
	// Uncommitted work for the gutter and the Git panel.
	e.write("src/main.go", strings.Replace(shotFiles["src/main.go"], "\tname := \"world\"\n", "\tname := \"world\"\n\tif len(os.Args) > 1 {\n\t\tname = os.Args[1]\n\t}\n", 1))
	a := e.agent("claude-code")
	a.call("editor_tree", map[string]any{"path": "src", "expand": []any{"src", "src/util"}, "max_depth": 1})
	a.call("editor_open", map[string]any{"path": "README.md"})
	a.call("editor_open", map[string]any{"path": "src/main.go"})
	v := a.call("editor_open", map[string]any{"path": "src/util/greeting.go"})["version"].(string)
	e.node("treeitem", "greeting.go")
	e.click("tab", "main.go")
	e.waitEditor("func main()", "main.go")
	e.focusEditor()
	for range 10 {
		e.key(kb.ArrowDown)
	}
	e.key(kb.End)
	shot(e, "page.png")

	// The command palette: every action with its shortcut.
	e.key("p", input.ModifierCtrl, input.ModifierShift)
	e.node("dialog", "Commands")
	e.typeText("view")
	e.waitJS(`document.querySelectorAll("#palette-list [role=option]").length > 3`, "the view commands")
	shot(e, "page-palette.png")
	e.key(kb.Escape)
	e.gone("dialog", "Commands")

	e.click("tab", "greeting.go")
	e.waitEditor("func Greeting", "greeting.go")
	e.focusEditor()
	for range 6 {
		e.key(kb.ArrowDown)
	}
	e.key(kb.End)
	e.key(kb.Home, input.ModifierShift)
	e.typeText("return \"Hi, \" + strings.TrimSpace(name) // a person's edit")
	waitFor(t, "the draft", func() bool { return a.dirty("src/util/greeting.go") })
	// The agent changes the line the person rewrote (and adds lines above
	// it): their changes overlap, so the three-way merge view opens.
	a.call("editor_save", map[string]any{"path": "src/util/greeting.go", "expected_version": v,
		"content": "package util\n\nimport \"strings\"\n\n// Greeting says hello to name, or to the world when name is blank.\nfunc Greeting(name string) string {\n\tif strings.TrimSpace(name) == \"\" {\n\t\tname = \"world\"\n\t}\n\treturn \"Hello, \" + strings.TrimSpace(name) + \"!!\"\n}\n"})
	e.node("dialog", "Merge greeting.go")
	e.node("textbox", "Result")
	shot(e, "page-merge.png")
	e.key(kb.Escape)
	e.gone("dialog", "Merge greeting.go")
	e.node("alert", "")
	shot(e, "page-conflict.png")

	e.key("f", input.ModifierCtrl, input.ModifierShift)
	e.node("searchbox", "Search")
	e.typeText("name")
	e.waitJS(`document.querySelectorAll(".hit").length > 3`, "search results")
	shot(e, "page-search.png")
	e.key("g", input.ModifierCtrl, input.ModifierShift)
	e.waitJS(`document.querySelectorAll(".git-file").length === 2`, "the changed files")
	// A change opens in its file, inline, at its first change.
	e.clickAt(`.git-file[data-side="worktree"][title^="src/main.go"]`)
	e.waitJS(`document.querySelector("#editor-pane .cm-deletedChunk")`, "the change inline")
	// The pointer over the file's row shows its actions (stage, discard).
	var at []float64
	e.js(`(() => { const r = document.querySelector('.git-row .git-file[data-side="worktree"][title^="src/main.go"]').getBoundingClientRect(); return [r.left + 20, r.top + r.height / 2] })()`, &at)
	e.run(chromedp.ActionFunc(func(ctx context.Context) error {
		return input.DispatchMouseEvent(input.MouseMoved, at[0], at[1]).Do(ctx)
	}))
	shot(e, "page-git.png")
	e.click("button", "Hide changes")
	e.key("e", input.ModifierCtrl, input.ModifierShift)

	// Split: main.go on the right, greeting.go on the left.
	e.focusEditor()
	e.key("\\", input.ModifierCtrl)
	e.waitJS(`document.querySelector("#split-pane .cm-content")?.textContent.includes("func main()")`, "main.go on the right")
	e.click("tab", "greeting.go")
	e.waitEditor("func Greeting", "greeting.go on the left")
	shot(e, "page-split.png")
	e.click("button", "Close main.go on the right")
	e.waitJS(`!document.querySelector("#split-pane").checkVisibility()`, "the split closed")

	e.run(emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}))
	e.click("tab", "main.go")
	e.waitEditor("func main()", "main.go")
	shot(e, "page-dark.png")
	e.key("s", input.ModifierCtrl) // nothing to save: a clean tab
}

// shot saves a screenshot of the page when EDITORD_SCREENSHOTS names a folder.
func shot(e *env, name string) {
	e.t.Helper()
	dir := os.Getenv("EDITORD_SCREENSHOTS")
	if dir == "" {
		return
	}
	var buf []byte
	e.run(chromedp.ActionFunc(func(ctx context.Context) error {
		return chromedp.CaptureScreenshot(&buf).Do(ctx)
	}))
	if err := os.WriteFile(filepath.Join(dir, name), buf, 0o644); err != nil {
		e.t.Fatal(err)
	}
}
