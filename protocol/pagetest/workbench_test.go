package pagetest

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp/kb"
)

var ctrlShift = []input.Modifier{input.ModifierCtrl, input.ModifierShift}

// Go to file: the palette finds by editor_find, marks the matched
// characters, and Enter opens the file as a shared tab.
func TestPaletteFindsAndOpens(t *testing.T) {
	e := newEnv(t, shotFiles, opts{})
	a := e.agent("agent")
	e.key("p", input.ModifierCtrl)
	e.node("dialog", "Go to file")
	e.typeText("greet")
	e.node("option", "src/util/greeting.go")
	// The answer to the whole query marks its characters (answers to the
	// shorter queries typed before it may show first).
	e.waitJS(`[...document.querySelectorAll("[role=option] mark")].map(m => m.textContent).join("") === "greet"`, "greet marked in the result")
	e.key(kb.Enter)
	e.gone("dialog", "Go to file")
	if got := e.attr("tab", "greeting.go", "aria-selected"); got != "true" {
		t.Fatalf("the picked file's tab: aria-selected=%q", got)
	}
	waitFor(t, "the picked file in the record", func() bool { return slices.Contains(a.bufferPaths(), "src/util/greeting.go") })
}

// Search shows what editor_search finds, and a click lands on the line.
func TestSearchPanelMatchesToolAndOpensAtLine(t *testing.T) {
	e := newEnv(t, shotFiles, opts{})
	a := e.agent("agent")
	e.key("f", ctrlShift...)
	e.node("searchbox", "Search")
	e.typeText("name")
	want := a.call("editor_search", map[string]any{"pattern": "name", "literal": true, "ignore_case": true})
	total := int(want["total"].(float64))
	e.waitJS(fmt.Sprintf(`document.querySelectorAll(".hit").length === %d`, total), "the page's hits to be editor_search's")
	var shown []string
	e.js(`[...document.querySelectorAll(".hit")].map(b => b.title)`, &shown)
	var fromTool []string
	for _, f := range want["files"].([]any) {
		fm := f.(map[string]any)
		for _, h := range fm["hits"].([]any) {
			hm := h.(map[string]any)
			fromTool = append(fromTool, fmt.Sprintf("%s:%v:%v", fm["path"], hm["line"], hm["column"]))
		}
	}
	if !slices.Equal(shown, fromTool) {
		t.Fatalf("page hits %v, editor_search hits %v", shown, fromTool)
	}
	e.clickAt(`.hit[title^="src/util/greeting.go:7:"]`)
	e.waitJS(`document.querySelector(".tabs [role=tab][aria-selected=true]")?.textContent.startsWith("greeting.go")`, "greeting.go to open")
	e.waitJS(`document.querySelector("#editor-pane .cm-activeLine")?.textContent.includes("return")`, "the cursor on the hit's line")
	var status string
	e.js(`document.querySelector(".status .cursor").textContent`, &status)
	if !strings.HasPrefix(status, "Ln 7,") {
		t.Fatalf("status bar after the click: %q", status)
	}
}

// Replace across 3 files writes all three through guarded saves, and
// refuses the one an agent changed between the preview and the apply.
func TestReplaceAcrossFilesGuarded(t *testing.T) {
	e := newEnv(t, map[string]string{"a.txt": "foo a\n", "b.txt": "x foo b foo\n", "c.txt": "foo c\n", "d.txt": "none\n"}, opts{})
	a := e.agent("agent")
	e.key("f", ctrlShift...)
	e.node("searchbox", "Search")
	e.typeText("foo")
	e.waitJS(`document.querySelectorAll(".hit").length === 3`, "3 hits")
	e.click("textbox", "Replace")
	e.typeText("bar")
	e.click("button", "Replace all…")
	e.node("dialog", "Replace across files")
	var patches string
	e.js(`[...document.querySelectorAll("[role=dialog] pre.patch")].map(p => p.textContent).join("\n")`, &patches)
	for _, want := range []string{"-foo a", "+bar a", "-x foo b foo", "+x bar b bar", "+bar c"} {
		if !strings.Contains(patches, want) {
			t.Fatalf("preview lacks %q:\n%s", want, patches)
		}
	}
	// An agent writes c.txt after the preview was made.
	v := a.call("editor_open", map[string]any{"path": "c.txt", "tab": false})["version"].(string)
	a.call("editor_save", map[string]any{"path": "c.txt", "content": "foo c, the agent's\n", "expected_version": v})
	e.click("button", "Replace in 3 files")
	e.waitJS(`document.querySelector("#panel-search [role=status]").textContent.includes("Not written")`, "the refusal reported")
	var said string
	e.js(`document.querySelector("#panel-search [role=status]").textContent`, &said)
	if !strings.Contains(said, "Replaced in 2 files") || !strings.Contains(said, "c.txt") {
		t.Fatalf("summary: %q", said)
	}
	for p, want := range map[string]string{"a.txt": "bar a\n", "b.txt": "x bar b bar\n", "c.txt": "foo c, the agent's\n", "d.txt": "none\n"} {
		if got := e.read(p); got != want {
			t.Errorf("%s: %q, want %q", p, got, want)
		}
	}
}

// A commit from the panel is one git log shows, with the right tree.
func TestCommitFromPanel(t *testing.T) {
	e := newEnv(t, shotFiles, opts{})
	e.initRepo()
	e.write("src/main.go", strings.Replace(shotFiles["src/main.go"], "\"world\"", "\"editord\"", 1))
	e.write("NEW.md", "new file\n")
	e.key("g", ctrlShift...)
	e.waitJS(`document.querySelectorAll(".git-file").length === 2`, "two changed files in the Git panel")
	e.click("textbox", "Commit message")
	e.typeText("Greet editord")
	e.click("button", "Commit all")
	e.waitJS(`document.querySelector(".git-files")?.textContent.includes("No changes")`, "a clean status after the commit")
	if got := strings.TrimSpace(git(t, e.root, "log", "-1", "--format=%s")); got != "Greet editord" {
		t.Fatalf("git log -1: %q", got)
	}
	if got := git(t, e.root, "show", "HEAD:src/main.go"); !strings.Contains(got, "\"editord\"") {
		t.Fatalf("HEAD's main.go: %s", got)
	}
	if got := git(t, e.root, "show", "HEAD:NEW.md"); got != "new file\n" {
		t.Fatalf("HEAD's NEW.md: %q", got)
	}
	if got := git(t, e.root, "status", "--porcelain"); got != "" {
		t.Fatalf("git status after the commit: %q", got)
	}
}

// The gutter shows what `git diff -U0` shows: added, modified and deleted.
func TestGutterMatchesGitDiff(t *testing.T) {
	var lines []string
	for i := 1; i <= 30; i++ {
		lines = append(lines, fmt.Sprintf("line %d", i))
	}
	e := newEnv(t, map[string]string{"g.txt": strings.Join(lines, "\n") + "\n"}, opts{})
	e.initRepo()
	changed := slices.Clone(lines)
	changed[2] = "line 3 modified"                                 // modified
	changed = slices.Delete(changed, 9, 12)                        // lines 10-12 deleted
	changed = slices.Insert(changed, 20, "added one", "added two") // added
	e.write("g.txt", strings.Join(changed, "\n")+"\n")
	e.reload()
	e.click("treeitem", "g.txt")
	e.waitEditor("added two", "g.txt")
	want := map[string][]int{}
	hunk := regexp.MustCompile(`(?m)^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@`)
	for _, m := range hunk.FindAllStringSubmatch(git(t, e.root, "diff", "-U0", "--", "g.txt"), -1) {
		oldN, newN := 1, 1
		if m[2] != "" {
			oldN, _ = strconv.Atoi(m[2])
		}
		if m[4] != "" {
			newN, _ = strconv.Atoi(m[4])
		}
		start, _ := strconv.Atoi(m[3])
		switch {
		case newN == 0:
			want["deleted"] = append(want["deleted"], max(start, 1))
		case oldN == 0:
			for n := start; n < start+newN; n++ {
				want["added"] = append(want["added"], n)
			}
		default:
			for n := start; n < start+newN; n++ {
				want["modified"] = append(want["modified"], n)
			}
		}
	}
	var got map[string][]int
	marks := `(() => {
	  const out = {added: [], modified: [], deleted: []};
	  const nums = [...document.querySelectorAll("#editor-pane .cm-lineNumbers .cm-gutterElement")];
	  for (const el of document.querySelectorAll("#editor-pane .cm-git-gutter .cm-gutterElement")) {
	    const m = el.querySelector("span");
	    if (!m) continue;
	    const top = el.getBoundingClientRect().top;
	    const num = nums.find(n => Math.abs(n.getBoundingClientRect().top - top) < 2);
	    out[m.className.replace("git-", "")].push(Number(num.textContent));
	  }
	  return out;
	})()`
	e.waitJS(`document.querySelector("#editor-pane .cm-git-gutter span")`, "git markers in the gutter")
	e.js(marks, &got)
	for _, k := range []string{"added", "modified", "deleted"} {
		if !slices.Equal(got[k], want[k]) {
			t.Errorf("%s lines: gutter %v, git diff -U0 %v", k, got[k], want[k])
		}
	}
}

// Pull from a file:// remote updates a clean open tab, showing the tool's
// progress while it runs.
func TestPullUpdatesCleanTab(t *testing.T) {
	base := t.TempDir()
	remote := filepath.Join(base, "remote.git")
	git(t, base, "init", "-q", "--bare", "-b", "main", remote)
	seed := filepath.Join(base, "seed")
	git(t, base, "clone", "-q", remote, seed)
	os.WriteFile(filepath.Join(seed, "p.txt"), []byte("v1\n"), 0o644)
	git(t, seed, "add", "-A")
	git(t, seed, "commit", "-q", "-m", "v1")
	git(t, seed, "push", "-q", "origin", "main")

	e := newEnv(t, nil, opts{setup: func(root string) {
		git(t, base, "clone", "-q", remote, root)
		git(t, root, "config", "user.name", "Page Test")
		git(t, root, "config", "user.email", "page@test.invalid")
	}})
	e.click("treeitem", "p.txt")
	e.waitEditor("v1", "p.txt")

	os.WriteFile(filepath.Join(seed, "p.txt"), []byte("v2 from the remote\n"), 0o644)
	git(t, seed, "commit", "-q", "-am", "v2")
	git(t, seed, "push", "-q", "origin", "main")

	e.key("g", ctrlShift...)
	// Every text the busy line shows while the pull runs.
	e.js(`window.__busy = []; new MutationObserver(() => { const b = document.querySelector(".git-outcome .busy"); if (b) window.__busy.push(b.textContent) })
	  .observe(document.querySelector(".git-outcome"), {childList: true, subtree: true, characterData: true}); true`, nil)
	e.click("button", "Pull")
	e.waitEditor("v2 from the remote", "the pulled text in the open tab")
	e.waitJS(`document.querySelector(".git-outcome [role=status]") && !document.querySelector(".git-outcome .busy")`, "the pull's summary")
	var busy []string
	e.js(`window.__busy`, &busy)
	if !slices.ContainsFunc(busy, func(s string) bool { return strings.HasPrefix(s, "Pulling… fetch") }) {
		t.Fatalf("the pull's progress was not shown while it ran: %q", busy)
	}
}

// An agent's save appears in Activity with who made it; the filter for
// agents only leaves out other programs.
func TestActivityShowsAgentSaves(t *testing.T) {
	e := newEnv(t, map[string]string{"act.txt": "one\n"}, opts{})
	a := e.agent("claude-code")
	v := a.call("editor_open", map[string]any{"path": "act.txt", "tab": false})["version"].(string)
	a.call("editor_save", map[string]any{"path": "act.txt", "content": "one\ntwo\n", "expected_version": v})
	e.write("other.txt", "by another program\n")
	e.key("y", ctrlShift...)
	e.waitJS(`[...document.querySelectorAll(".change .who")].some(w => w.textContent.startsWith("claude-code#"))`, "the agent's save in Activity")
	var first string
	e.js(`document.querySelector(".change").textContent`, &first)
	if !strings.Contains(first, "act.txt") && !strings.Contains(first, "other.txt") {
		t.Fatalf("newest change: %q", first)
	}
	e.click("checkbox", "Agents only")
	e.waitJS(`[...document.querySelectorAll(".change .who")].every(w => w.textContent.startsWith("claude-code#"))`, "only agents' changes")
	e.clickAt(".change")
	e.waitJS(`document.querySelector("[role=dialog] pre.patch")?.textContent.includes("+two")`, "the change's patch")
}

// ? lists the keyboard shortcuts; the status bar follows the cursor.
func TestHelpAndStatusBar(t *testing.T) {
	e := newEnv(t, map[string]string{"s.txt": "one\r\ntwo\r\n"}, opts{})
	e.click("treeitem", "s.txt")
	e.waitEditor("two", "s.txt")
	e.focusEditor()
	e.key(kb.ArrowDown)
	e.key(kb.End)
	e.waitJS(`document.querySelector(".status .cursor").textContent === "Ln 2, Col 4"`, "the cursor in the status bar")
	var file string
	e.js(`document.querySelector(".status .file").textContent`, &file)
	if file != "CRLF · plaintext" {
		t.Fatalf("status bar file part: %q", file)
	}
	e.key(kb.Home, input.ModifierShift)
	e.waitJS(`document.querySelector(".status .cursor").textContent === "Ln 2, Col 1 (3 selected)"`, "the selection's size in the status bar")
	// Ctrl+G goes to a line, as in VS Code.
	e.key("g", input.ModifierCtrl)
	e.activeIs(".cm-gotoLine input, .cm-panel input", "the go-to-line field")
	e.typeText("1")
	e.key(kb.Enter)
	e.waitJS(`document.querySelector(".status .cursor").textContent === "Ln 1, Col 1"`, "the cursor on line 1")
	e.click("treeitem", "s.txt") // the focus leaves the editor
	e.typeText("?")
	e.node("dialog", "Keyboard shortcuts")
	if got := e.text("dialog", "Keyboard shortcuts"); !strings.Contains(got, "Go to file") || !strings.Contains(got, "Search across files") {
		t.Fatalf("shortcuts: %q", got)
	}
}

// Replace across files with RE2's own syntax: the preview shows the same
// matches as the search's hits (a JavaScript regexp reads [[:digit:]] as
// another class and found nothing here), groups expand as RE2's ${1}, and
// the files are written with exactly the preview's text; the replace opens
// no tabs.
func TestReplaceUsesTheSearchsRE2(t *testing.T) {
	e := newEnv(t, map[string]string{"a.txt": "v12 and v3\n", "b.txt": "x v7\r\n", "c.txt": "v: none\n"}, opts{})
	a := e.agent("agent")
	e.key("f", ctrlShift...)
	e.node("searchbox", "Search")
	e.click("checkbox", "Regex")
	e.click("searchbox", "Search")
	e.typeText(`v([[:digit:]]+)`)
	e.waitJS(`document.querySelectorAll(".hit").length === 2`, "the RE2 pattern's 2 hit lines")
	e.click("textbox", "Replace")
	e.typeText("#${1}")
	e.click("button", "Replace all…")
	e.node("dialog", "Replace across files")
	var patches string
	e.js(`[...document.querySelectorAll("[role=dialog] pre.patch")].map(p => p.textContent).join("\n")`, &patches)
	for _, want := range []string{"-v12 and v3", "+#12 and #3", "-x v7", "+x #7"} {
		if !strings.Contains(patches, want) {
			t.Fatalf("preview lacks %q:\n%s", want, patches)
		}
	}
	if strings.Contains(patches, "c.txt") {
		t.Fatalf("the preview changes a file without a hit:\n%s", patches)
	}
	e.click("button", "Replace in 2 files")
	e.waitJS(`document.querySelector("#panel-search [role=status]").textContent.includes("Replaced in 2 files")`, "the replace reported")
	for p, want := range map[string]string{"a.txt": "#12 and #3\n", "b.txt": "x #7\r\n", "c.txt": "v: none\n"} {
		if got := e.read(p); got != want {
			t.Errorf("%s: %q, want %q", p, got, want)
		}
	}
	if got := a.bufferPaths(); len(got) != 0 {
		t.Fatalf("the replace opened tabs: %v", got)
	}
}
