package protocol

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/editord/editord/diff"
	"github.com/editord/editord/editor"
	"github.com/editord/editord/shell"
	"github.com/editord/editord/workspace"
)

func TestRenderOpen(t *testing.T) {
	o := &editor.OpenResponse{Path: "a.go", Content: "package a\r\n\r\n\tx := 1 && y < 2\r\n", Language: "go", Version: "v1", EOL: "crlf", StartLine: 10, EndLine: 12, TotalLines: 40}
	got := RenderText("editor::open", o, ToolName)
	want := "a.go (version v1, lines 10–12 of 40, go, eol crlf)\n" +
		"    10\tpackage a\n" +
		"    11\t\n" +
		"    12\t\tx := 1 && y < 2\n"
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func TestRenderOpenEmpty(t *testing.T) {
	o := &editor.OpenResponse{Path: "e.txt", Version: "0-cbf29ce484222325", Language: "plaintext", EOL: "none", StartLine: 1}
	if got := RenderText("editor::open", o, ToolName); got != "e.txt (version 0-cbf29ce484222325, empty, plaintext, eol none)\n" {
		t.Fatalf("%q", got)
	}
}

func TestRenderBudget(t *testing.T) {
	var b strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&b, "line number %d of a long file\n", i+1)
	}
	o := &editor.OpenResponse{Path: "big.txt", Content: b.String(), StartLine: 1, EndLine: 5000, TotalLines: 5000}
	got := RenderText("editor::open", o, ToolName)
	if len(got) > textBudget {
		t.Fatalf("%d bytes, over the budget", len(got))
	}
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	last := lines[len(lines)-1]
	var shown int
	fmt.Sscanf(strings.TrimSpace(lines[len(lines)-2]), "%d", &shown)
	if !strings.Contains(last, fmt.Sprintf("lines %d–5000 not shown", shown+1)) || !strings.Contains(last, fmt.Sprintf("editor_open with offset: %d", shown+1)) {
		t.Fatalf("the cut does not say how to read on: %q (last shown %d)", last, shown)
	}
	// The same for the CLI names functions by id.
	if cli := RenderText("editor::open", o, FunctionIDs); !strings.Contains(cli, "editor::open with offset") {
		t.Fatalf("CLI note: %q", cli[len(cli)-200:])
	}
	// A search with thousands of hits stays within the budget and counts what it left out.
	s := &editor.SearchResponse{Total: 3000}
	for i := range 300 {
		f := editor.SearchFile{Path: fmt.Sprintf("pkg/file%03d.go", i)}
		for j := range 10 {
			f.Hits = append(f.Hits, editor.SearchHit{Line: j + 1, Column: 2, Text: "\tif err != nil { return fmt.Errorf(\"wrap: %w\", err) }"})
		}
		s.Files = append(s.Files, f)
	}
	got = RenderText("editor::search", s, ToolName)
	if len(got) > textBudget || !strings.Contains(got, "not shown (the 32 KiB text budget)") || !strings.Contains(got, `output: "files"`) {
		t.Fatalf("%d bytes; tail %q", len(got), got[len(got)-300:])
	}
	// A renderer's overflow is cut by Render itself.
	if c := capText(strings.Repeat("x\n", 40000)); len(c) > textBudget || !strings.Contains(c, "more bytes not shown") {
		t.Fatalf("capText: %d bytes", len(c))
	}
}

func TestRenderSearch(t *testing.T) {
	s := &editor.SearchResponse{Total: 3, Files: []editor.SearchFile{
		{Path: "a.go", Hits: []editor.SearchHit{{Line: 3, Column: 5, Text: "x && y"}, {Line: 9, Column: 1, Text: "z"}},
			Context: []editor.ContextLine{{Line: 2, Text: "before"}, {Line: 4, Text: "after"}, {Line: 8, Text: "b9"}}},
		{Path: "b/c.go", Hits: []editor.SearchHit{{Line: 1, Column: 1, Text: "one"}}},
	}}
	want := "3 matching lines in 2 files\na.go\n2- before\n3:5: x && y\n4- after\n--\n8- b9\n9:1: z\n\nb/c.go\n1:1: one\n"
	if got := RenderText("editor::search", s, ToolName); got != want {
		t.Fatalf("got\n%q\nwant\n%q", got, want)
	}
	files := &editor.SearchResponse{Total: 2, Truncated: true, Files: []editor.SearchFile{{Path: "a.go", Hits: []editor.SearchHit{}}, {Path: "b.go", Hits: []editor.SearchHit{}}}}
	if got := RenderText("editor::search", files, ToolName); !strings.HasPrefix(got, "2+ files match\na.go\nb.go\n… more matches exist") {
		t.Fatalf("files: %q", got)
	}
	count := &editor.SearchResponse{Total: 5, Files: []editor.SearchFile{{Path: "a.go", Hits: []editor.SearchHit{}, Count: 5}}}
	if got := RenderText("editor::search", count, ToolName); got != "5 matching lines in 1 file\na.go:5\n" {
		t.Fatalf("count: %q", got)
	}
}

func TestRenderTreeStatusChanges(t *testing.T) {
	tree := &editor.TreeResponse{Path: "", Truncated: true, Omitted: 7, Entries: []editor.TreeEntry{
		{Name: "src", Kind: "dir", Children: []editor.TreeEntry{{Name: "a.go", Kind: "file"}}, More: 7},
		{Name: "link", Kind: "symlink"}, {Name: "go.mod", Kind: "file"},
	}}
	got := RenderText("editor::tree", tree, ToolName)
	if want := "./\n  src/\n    a.go\n    … 7 more\n  link@\n  go.mod\n… 7 more entries within max_depth not listed"; !strings.HasPrefix(got, want) || !strings.Contains(got, "max_entries") {
		t.Fatalf("tree:\n%s", got)
	}
	br, up, from := "main", "origin/main", "old.go"
	st := &editor.GitStatusResponse{Branch: &br, Upstream: &up, Ahead: 1, Behind: 2, Entries: []editor.GitStatusEntry{
		{Path: "a.go", Index: "unchanged", Worktree: "modified"},
		{Path: "new.go", Index: "renamed", Worktree: "unchanged", RenamedFrom: &from},
		{Path: "x.txt", Index: "untracked", Worktree: "untracked"},
	}}
	if got := RenderText("editor::git::status", st, ToolName); got != "## main...origin/main [ahead 1, behind 2]\n M a.go\nR  old.go -> new.go\n?? x.txt\n" {
		t.Fatalf("status:\n%q", got)
	}
	v := "v2"
	ch := &editor.ChangesResponse{Cursor: "8", Changes: []workspace.Event{
		{Seq: 7, By: "claude-code#3f2a", Kind: "modified", Path: "a.go", Added: 1, Removed: 1, Version: &v, Patch: "--- a/a.go\n+++ b/a.go\n@@ -1 +1 @@\n-x\n+y\n"},
		{Seq: 8, By: "external", Kind: "moved", From: &from, Path: "new.go"},
	}}
	want := "7 claude-code#3f2a modified a.go +1 -1\n--- a/a.go\n+++ b/a.go\n@@ -1 +1 @@\n-x\n+y\n8 external moved old.go -> new.go +0 -0\ncursor: 8 (pass it as since next time)\n"
	if got := RenderText("editor::changes", ch, ToolName); got != want {
		t.Fatalf("changes:\n%q\nwant\n%q", got, want)
	}
	// Many big patches: every event keeps its line, patches stop at the budget.
	big := &editor.ChangesResponse{Cursor: "100"}
	for i := range 100 {
		big.Changes = append(big.Changes, workspace.Event{Seq: int64(i + 1), By: "cli", Kind: "modified", Path: fmt.Sprintf("f%d", i), Patch: strings.Repeat("+line\n", 2000)})
	}
	got = RenderText("editor::changes", big, ToolName)
	if len(got) > textBudget || !strings.Contains(got, "100 cli modified f99 +0 -0") || !strings.Contains(got, "patches of ") || !strings.Contains(got, "editor_git_hunks") {
		t.Fatalf("%d bytes, tail %q", len(got), got[max(0, len(got)-400):])
	}
}

// Every function renders its zero response without panicking, and a
// response type without a renderer gets readable key: value lines with
// nothing HTML-escaped.
func TestRenderEveryFunction(t *testing.T) {
	for _, f := range editor.Catalog() {
		resp := reflect.New(f.Response).Interface()
		if txt := RenderText(f.ID, resp, ToolName); txt == "" {
			t.Errorf("%s: empty text", f.ID)
		}
	}
	type other struct {
		OK      bool            `json:"ok"`
		Summary string          `json:"summary"`
		Body    string          `json:"body"`
		List    []string        `json:"list"`
		Opt     *string         `json:"opt,omitempty"`
		Hunks   []diff.Hunk     `json:"hunks"`
		Raw     json.RawMessage `json:"raw"`
	}
	got := RenderText("editor::future", &other{OK: true, Summary: "a < b && c", Body: "two\nlines\n", List: []string{"<x>"}, Raw: json.RawMessage(`{"k":1}`)}, ToolName)
	want := "ok: true\nsummary: a < b && c\nbody:\ntwo\nlines\nlist: [\"<x>\"]\nhunks: null\nraw: {\"k\":1}\n"
	if got != want {
		t.Fatalf("fallback:\n%q\nwant\n%q", got, want)
	}
}

func TestToolNamesInMessages(t *testing.T) {
	for in, want := range map[string]string{
		"check the path with editor::tree or editor::find":       "check the path with editor_tree or editor_find",
		"run editor::git::undo-commit, then editor::git::*.":     "run editor_git_undo_commit, then editor_git_*.",
		"editor::changed events are not a function":              "editor::changed events are not a function",
		"Closest:\n    12\tcall(editor::open)\nuse editor::open": "Closest:\n    12\tcall(editor::open)\nuse editor_open",
		"no id here": "no id here",
	} {
		if got := ToolNames(in); got != want {
			t.Errorf("ToolNames(%q) = %q, want %q", in, got, want)
		}
	}
	res := ErrorResult(shell.Errorf(shell.CodeNotFound, "x", "x does not exist; check the path with editor::tree"))
	if txt := res.Content[0].(mcp.TextContent).Text; txt != "x does not exist; check the path with editor_tree" {
		t.Fatalf("error text %q", txt)
	}
	if b, _ := json.Marshal(res.StructuredContent); !strings.Contains(string(b), "editor_tree") {
		t.Fatalf("error structured content %s", b)
	}
	// No description served over MCP names a function by id, and none
	// advises something no client has.
	for _, f := range editor.Catalog() {
		b, _ := json.Marshal(Tool(f))
		var tool struct {
			Description string          `json:"description"`
			Input       json.RawMessage `json:"inputSchema"`
			Output      json.RawMessage `json:"outputSchema"`
		}
		json.Unmarshal(b, &tool)
		for _, s := range []string{tool.Description, string(tool.Input), string(tool.Output)} {
			if m := functionID.FindString(s); m != "" {
				if _, ok := editor.Lookup(m); ok {
					t.Errorf("%s: description names %s by id", f.ID, m)
				}
			}
			if strings.Contains(s, "shell::") {
				t.Errorf("%s: description advises a shell function no client has: %s", f.ID, s)
			}
		}
	}
}

// The structured content is the response object, exactly, with nothing
// HTML-escaped; the text block is the rendering.
func TestHandlerTextAndStructured(t *testing.T) {
	svc, err := editor.New(editor.DefaultConfig(), editor.Options{Root: t.TempDir(), StateDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	f, _ := editor.Lookup("editor::diff")
	h := handler(svc, f, newCallers(), newTaskRuns())
	res, err := h(context.Background(), mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "editor_diff", Arguments: map[string]any{"before": "a<b\n", "after": "a&&b>c\n"}}})
	if err != nil || res.IsError {
		t.Fatalf("%v %+v", err, res)
	}
	raw := res.StructuredContent.(json.RawMessage)
	if strings.Contains(string(raw), `\u00`) || !strings.Contains(string(raw), "+a&&b>c") {
		t.Fatalf("structured content escapes HTML: %s", raw)
	}
	if txt := res.Content[0].(mcp.TextContent).Text; !strings.HasPrefix(txt, "--- a/file\n+++ b/file\n@@ -1,1 +1,1 @@\n-a<b\n+a&&b>c\n") {
		t.Fatalf("text %q", txt)
	}
}

func TestRenderStatusCut(t *testing.T) {
	br := "main"
	st := &editor.GitStatusResponse{Branch: &br}
	for i := range 3000 {
		st.Entries = append(st.Entries, editor.GitStatusEntry{Path: fmt.Sprintf("pkg/sub%d/file_with_a_long_name_%04d.go", i%3, i), Index: "unchanged", Worktree: "modified"})
	}
	got := RenderText("editor::git::status", st, ToolName)
	if len(got) > textBudget || !strings.Contains(got, "more changed paths not shown") || !strings.Contains(got, "by folder: pkg/sub") {
		t.Fatalf("%d bytes, tail %q", len(got), got[len(got)-300:])
	}
}

// TestToolNamesInResults: a result's prose (a git summary naming the next
// step, why a search skipped a file) names tools over MCP, in the text
// block and the structured content alike; the CLI keeps function ids; data
// (a file's lines, a search hit) is never renamed.
func TestToolNamesInResults(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	root := t.TempDir()
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"-c", "user.name=a", "-c", "user.email=a@b", "commit", "-q", "--allow-empty", "-m", "x"}} {
		if out, err := exec.Command("git", append([]string{"-C", root}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	os.WriteFile(filepath.Join(root, "a.go"), []byte("// see editor::git::branch\n"), 0o644)
	// A commit whose subject names a function: blame's "summary" is that
	// subject, data, and must not be renamed.
	for _, args := range [][]string{{"add", "a.go"}, {"-c", "user.name=a", "-c", "user.email=a@b", "commit", "-q", "-m", "fix editor::open offsets"}} {
		if out, err := exec.Command("git", append([]string{"-C", root}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	svc, err := editor.New(editor.DefaultConfig(), editor.Options{Root: root, StateDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	call := func(id string, args map[string]any) (string, string) {
		f, _ := editor.Lookup(id)
		res, err := handler(svc, f, newCallers(), newTaskRuns())(context.Background(), mcp.CallToolRequest{Params: mcp.CallToolParams{Name: ToolName(id), Arguments: args}})
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %+v", id, err, res)
		}
		raw, _ := json.Marshal(res.StructuredContent)
		return res.Content[0].(mcp.TextContent).Text, string(raw)
	}
	txt, raw := call("editor::git::branch", map[string]any{"action": "switch", "name": "nope"})
	for _, s := range []string{txt, raw} {
		if !strings.Contains(s, "editor_git_branch action list") || strings.Contains(s, "editor::") {
			t.Errorf("branch summary over MCP: %s", s)
		}
	}
	_, raw = call("editor::git::blame", map[string]any{"path": "a.go"})
	if !strings.Contains(raw, `"summary":"fix editor::open offsets"`) {
		t.Errorf("a commit's subject was renamed in blame: %s\n%s", txt, raw)
	}
	txt, raw = call("editor::search", map[string]any{"pattern": "editor::git"})
	if !strings.Contains(txt, "1:8: // see editor::git::branch") || !strings.Contains(raw, "see editor::git::branch") {
		t.Errorf("a search hit was renamed: %s\n%s", txt, raw)
	}
	f, _ := editor.Lookup("editor::git::branch")
	resp, err := f.Call(context.Background(), svc, json.RawMessage(`{"action":"switch","name":"nope"}`))
	if err != nil {
		t.Fatal(err)
	}
	if cli := RenderText(f.ID, resp, FunctionIDs); !strings.Contains(cli, "editor::git::branch action list") {
		t.Errorf("the CLI text should keep function ids: %s", cli)
	}
}

// TestRenderTabsPaged: a page of the tab set says how many buffers there
// are in all and which offset gets the rest; a view without more says
// nothing of paging.
func TestRenderTabsPaged(t *testing.T) {
	bufs := func(n int) []workspace.Buffer {
		var out []workspace.Buffer
		for i := range n {
			out = append(out, workspace.Buffer{Path: fmt.Sprintf("f%03d.go", i), Version: "v"})
		}
		return out
	}
	list := &editor.BuffersListResponse{Root: "/w", Buffers: bufs(100), BuffersTotal: 150, More: 50}
	got := RenderText("editor::buffers::list", list, ToolName)
	if !strings.Contains(got, "100 of 150 open buffers:\n") || !strings.HasSuffix(got, "… 50 more buffers past this page; call editor_buffers_list with offset: 100\n") {
		t.Errorf("buffers::list page:\n%s", got)
	}
	view := &editor.WorkspaceView{Root: "/w", Buffers: bufs(100), Expanded: []string{"a", "b"}, BuffersTotal: 150, ExpandedTotal: 2, More: 50}
	got = RenderText("editor::workspace::get", view, ToolName)
	if !strings.Contains(got, "100 of 150 open buffers:\n") || !strings.HasSuffix(got, "call editor_workspace_get with offset: 100\n") || strings.Contains(got, "more: 50") {
		t.Errorf("workspace::get page:\n%s", got)
	}
	view = &editor.WorkspaceView{Root: "/w", Buffers: bufs(1), Expanded: []string{}, BuffersTotal: 1}
	if got := RenderText("editor::workspace::get", view, ToolName); got != "root: /w\n1 open buffer:\n  f000.go  v\n" {
		t.Errorf("workspace::get, one buffer:\n%q", got)
	}
	view.Detached = []workspace.Buffer{{Path: "gone.go", Version: "v", Dirty: true}}
	if got := RenderText("editor::workspace::get", view, ToolName); !strings.HasSuffix(got, "1 unsaved draft of a file not open (closed or deleted elsewhere; open the file to see it):\n  gone.go\n") {
		t.Errorf("workspace::get, a detached draft:\n%q", got)
	}
}

// TestRenderCutsCount: a tree or a files/count search cut at the budget
// counts what it left out, and a files search is not told to pass output
// files.
func TestRenderCutsCount(t *testing.T) {
	tree := &editor.TreeResponse{Truncated: true, Omitted: 5}
	for i := range 3000 {
		tree.Entries = append(tree.Entries, editor.TreeEntry{Name: fmt.Sprintf("a_rather_long_file_name_%04d.go", i), Kind: "file"})
	}
	got := RenderText("editor::tree", tree, ToolName)
	shown := strings.Count(got, ".go\n")
	if want := fmt.Sprintf("… %d more entries not shown", 3000-shown+5); len(got) > textBudget || !strings.Contains(got, want) {
		t.Errorf("tree cut: want %q in the tail %q", want, got[len(got)-200:])
	}
	files := &editor.SearchResponse{Total: 3000}
	for i := range 3000 {
		files.Files = append(files.Files, editor.SearchFile{Path: fmt.Sprintf("pkg/a_rather_long_file_name_%04d.go", i), Hits: []editor.SearchHit{}})
	}
	got = RenderText("editor::search", files, ToolName)
	shown = strings.Count(got, ".go\n")
	if want := fmt.Sprintf("… %d files not shown", 3000-shown); !strings.Contains(got, want) || strings.Contains(got, `output: "files"`) {
		t.Errorf("files cut: want %q in the tail %q", want, got[len(got)-200:])
	}
}

// TestRenderShowCut: a file at a revision cut at the budget names the call
// that reads on, as editor::open's rendering does.
func TestRenderShowCut(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 5000; i++ {
		fmt.Fprintf(&b, "line %d of a file that is long enough\n", i)
	}
	o := &editor.GitShowResponse{Path: "a.txt", Rev: "HEAD~1", Content: b.String(), Exists: true, StartLine: 1, EndLine: 5000, TotalLines: 5000}
	got := RenderText("editor::git::show", o, ToolName)
	if !strings.HasPrefix(got, "a.txt at HEAD~1 (lines 1–5000 of 5000)\n     1\tline 1 of") || !strings.Contains(got, "not shown (the 32 KiB text budget); call editor_git_show with offset: ") || len(got) > textBudget {
		t.Fatalf("%d bytes; head %q tail %q", len(got), got[:80], got[len(got)-200:])
	}
	o = &editor.GitShowResponse{Path: "a.txt", Rev: "HEAD", Content: "b\n", Exists: true, StartLine: 2, EndLine: 2, TotalLines: 3}
	if got := RenderText("editor::git::show", o, ToolName); got != "a.txt at HEAD (lines 2–2 of 3)\n     2\tb\n" {
		t.Fatalf("%q", got)
	}
}

// TestRenderStashShowCut: a stash's patch of many files cut at the budget
// names the files not shown and how to see one's part.
func TestRenderStashShowCut(t *testing.T) {
	var b strings.Builder
	for i := range 500 {
		fmt.Fprintf(&b, "diff --git a/pkg/f%03d.go b/pkg/f%03d.go\n--- a/pkg/f%03d.go\n+++ b/pkg/f%03d.go\n@@ -1,3 +1,4 @@\n+// audit\n a\n b\n c\n", i, i, i, i)
	}
	o := &editor.GitStashResponse{Action: "show", OK: true, Summary: "stash@{0}: 500 files", Patch: b.String()}
	got := RenderText("editor::git::stash", o, ToolName)
	if len(got) > textBudget || !regexp.MustCompile(`files not shown, in whole or in part: pkg/f\d{3}\.go, .* and \d+ more \(\d+\); pass paths to see only theirs\n$`).MatchString(got) {
		t.Fatalf("tail %q", got[len(got)-400:])
	}
}

// TestRenderChangesMore: a page of events cut by limit counts the events
// left and names the cursor that gets them.
func TestRenderChangesMore(t *testing.T) {
	ch := &editor.ChangesResponse{Cursor: "100", More: 736, Changes: []workspace.Event{{Seq: 100, By: "cli", Kind: "deleted", Path: "a.go"}}}
	if got, want := RenderText("editor::changes", ch, ToolName), "100 cli deleted a.go +0 -0\n… 736 more events after these (limit); call editor_changes with since: 100 for them\n"; got != want {
		t.Fatalf("%q\nwant %q", got, want)
	}
}

// TestRenderFallbackLists: a result without a renderer of its own (a
// merge) lists its paths one per line and counts those the budget cut; a
// summary naming thousands of conflicts shows its beginning rather than
// nothing.
func TestRenderFallbackLists(t *testing.T) {
	m := &editor.GitMergeResponse{Action: "merge", Conflicts: []string{}}
	var parts []string
	for i := range 5000 {
		p := fmt.Sprintf("pkg/sub/file_%04d.go", i)
		m.Conflicts = append(m.Conflicts, p)
		parts = append(parts, "CONFLICT (content): Merge conflict in "+p)
	}
	m.Summary = strings.Join(parts, "; ") + ". Automatic merge failed"
	got := RenderText("editor::git::merge", m, ToolName)
	if len(got) > textBudget || !strings.Contains(got, "summary: CONFLICT (content): Merge conflict in pkg/sub/file_0000.go; ") ||
		!strings.Contains(got, "conflicts (5000):\n  pkg/sub/file_0000.go\n") || !regexp.MustCompile(`… \d+ more conflicts not shown`).MatchString(got) {
		t.Fatalf("%d bytes: head %q tail %q", len(got), got[:300], got[len(got)-300:])
	}
}

// TestRenderReplace: a replace's text is a line per file and, in a
// preview, the lines it changes as they will read, numbered; not the
// response as one line of JSON; a preview says how to write.
func TestRenderReplace(t *testing.T) {
	o := &editor.ReplaceResponse{Files: []editor.ReplaceFile{
		{Path: "a.go", Version: "v1", Replaced: 2, Patch: "--- a/a.go\n+++ b/a.go\n@@ -1,1 +1,1 @@\n-x && y\n+z && y\n"},
		{Path: "b.go", Version: "v2"},
		{Path: "c.bin", Skipped: "binary"},
	}}
	want := "dry run: 2 replacements in 3 files; nothing written. To write, call editor_replace with write: {path: version} for the files to change\n" +
		"a.go: version v1, 2 replacements\n     1\tz && y\n" +
		"b.go: no match (version v2)\nc.bin: skipped (binary)\n"
	if got := RenderText("editor::replace", o, ToolName); got != want {
		t.Fatalf("%q\nwant\n%q", got, want)
	}
	o = &editor.ReplaceResponse{Written: 1, Files: []editor.ReplaceFile{
		{Path: "a.go", Version: "v3", Replaced: 2, Written: true, Patch: "--- a/a.go\n+++ b/a.go\n@@ -1,1 +1,1 @@\n-x\n+z\n"},
		{Path: "b.go", Version: "v9", Conflict: true},
	}}
	if got := RenderText("editor::replace", o, ToolName); !strings.HasPrefix(got, "wrote 1 of 2 files (2 replacements); 1 conflict\na.go: written, version v3, 2 replacements\nb.go: conflict") || !strings.Contains(got, "b.go: conflict, changed since the dry run (now version v9); nothing written\n") {
		t.Fatalf("%q", got)
	}
	var many editor.ReplaceResponse
	for i := range 3000 {
		many.Files = append(many.Files, editor.ReplaceFile{Path: fmt.Sprintf("pkg/f%04d.go", i), Version: "v", Replaced: 1, Patch: "--- a/x\n+++ b/x\n@@ -1,1 +1,1 @@\n-a\n+b\n"})
	}
	if got := RenderText("editor::replace", &many, ToolName); len(got) > textBudget || !regexp.MustCompile(`… \d+ more files not shown`).MatchString(got) {
		t.Fatalf("%d bytes, tail %q", len(got), got[len(got)-200:])
	}
}

// TestErrorMessagesAreCapped: a message quoting a huge argument (a 100 KB
// revision or cursor) is cut, in the text and the structured content.
func TestErrorMessagesAreCapped(t *testing.T) {
	res := ErrorResult(shell.Errorf(shell.CodeInvalidArgument, "", "unknown revision %q; pass HEAD", strings.Repeat("x", 100_000)))
	txt := res.Content[0].(mcp.TextContent).Text
	raw, _ := json.Marshal(res.StructuredContent)
	if len(txt) > 5000 || len(raw) > 5200 || !strings.HasSuffix(txt, "more bytes of this message not shown)") {
		t.Fatalf("text %d bytes, structured %d: %q", len(txt), len(raw), txt[len(txt)-80:])
	}
}

func TestChangedLines(t *testing.T) {
	patch := "--- a/f\n+++ b/f\n@@ -3,4 +3,4 @@\n ctx\n-old one\n+new one\n ctx\n-x\n+y\n@@ -20,2 +20,3 @@\n keep\n+added\n keep\n\\ No newline at end of file\n"
	got := strings.Join(changedLines(patch), "\n")
	want := "     4\tnew one\n     6\ty\n    21\tadded"
	if got != want {
		t.Fatalf("%q\nwant\n%q", got, want)
	}
}
