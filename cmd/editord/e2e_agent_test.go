package main

// An agent's task end to end (issue 11): rename an identifier across the
// three files of a small Go service that use it, through a real MCP client
// against the real binary, the way a model works: find, search, read the
// lines around a hit, edit in place, review the hunks, commit. It counts
// the bytes the model sends (tool name and arguments) and receives (the
// text blocks), and the same for the whole-file way (open each file
// whole, save it whole, with the JSON text blocks of before).

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// agentRepo writes a Go service of seven files into root and commits it.
// parseConfig is defined in config.go and used in main.go and
// config_test.go; the rest is plausible code that never names it.
func agentRepo(t *testing.T, root string) map[string]string {
	t.Helper()
	files := map[string]string{}
	var b strings.Builder
	w := func(format string, a ...any) { fmt.Fprintf(&b, format+"\n", a...) }
	body := func(kind string, n int) {
		for i := range n {
			w("// %s%d handles one %s request: it checks the caller, reads the body,", kind, i, kind)
			w("// and answers with JSON. Errors are wrapped with the request id.")
			w("func %s%d(w http.ResponseWriter, r *http.Request) {", kind, i)
			w("\tid := r.Header.Get(\"X-Request-Id\")")
			w("\tif err := checkCaller(r); err != nil {")
			w("\t\thttp.Error(w, fmt.Sprintf(\"%%s: %%v\", id, err), http.StatusForbidden)")
			w("\t\treturn")
			w("\t}")
			w("\tvar req %sRequest%d", kind, i)
			w("\tif err := json.NewDecoder(r.Body).Decode(&req); err != nil && err != io.EOF {")
			w("\t\thttp.Error(w, err.Error(), http.StatusBadRequest)")
			w("\t\treturn")
			w("\t}")
			w("\tjson.NewEncoder(w).Encode(map[string]any{\"id\": id, \"ok\": true, \"n\": %d})", i)
			w("}")
			w("")
		}
	}
	flush := func(name string) {
		files[name] = b.String()
		b.Reset()
	}

	w("package app\n\nimport (\n\t\"encoding/json\"\n\t\"fmt\"\n\t\"io\"\n\t\"os\"\n\t\"time\"\n)\n")
	w("// Config is what the service reads at start-up.")
	w("type Config struct {")
	for i := range 30 {
		w("\tField%02d string        `json:\"field_%02d\"` // setting %d, see docs/config.md", i, i, i)
	}
	w("\tTimeout time.Duration `json:\"timeout\"`")
	w("}\n")
	w("// parseConfig reads the configuration file at path and fills in defaults.")
	w("func parseConfig(path string) (*Config, error) {")
	w("\tdata, err := os.ReadFile(path)")
	w("\tif err != nil {")
	w("\t\treturn nil, fmt.Errorf(\"reading config %%s: %%w\", path, err)")
	w("\t}")
	w("\tvar c Config")
	w("\tif err := json.Unmarshal(data, &c); err != nil {")
	w("\t\treturn nil, fmt.Errorf(\"config %%s: %%w\", path, err)")
	w("\t}")
	w("\tif c.Timeout == 0 {")
	w("\t\tc.Timeout = 30 * time.Second")
	w("\t}")
	w("\treturn &c, nil")
	w("}\n")
	for i := range 40 {
		w("// Validate%02d checks setting %d && reports what is wrong with it (<nil> when fine).", i, i)
		w("func (c *Config) Validate%02d() error {", i)
		w("\tif c.Field%02d == \"\" {", i%30)
		w("\t\treturn fmt.Errorf(\"field_%02d is empty\")", i%30)
		w("\t}")
		w("\treturn nil")
		w("}\n")
	}
	flush("config.go")

	w("package app\n\nimport (\n\t\"log\"\n\t\"net/http\"\n)\n")
	w("func main() {")
	w("\tcfg, err := parseConfig(\"config.json\")")
	w("\tif err != nil {")
	w("\t\tlog.Fatal(err)")
	w("\t}")
	w("\tsrv := newServer(cfg)")
	w("\tlog.Fatal(http.ListenAndServe(\":8080\", srv))")
	w("}")
	flush("main.go")

	w("package app\n\nimport (\n\t\"os\"\n\t\"path/filepath\"\n\t\"testing\"\n)\n")
	for i, c := range []string{`{}`, `{"timeout": 5000000000}`, `{"field_01": "x"}`} {
		w("func TestConfig%d(t *testing.T) {", i)
		w("\tp := filepath.Join(t.TempDir(), \"c.json\")")
		w("\tos.WriteFile(p, []byte(`%s`), 0o644)", c)
		w("\tc, err := parseConfig(p)")
		w("\tif err != nil || c == nil {")
		w("\t\tt.Fatalf(\"%%v %%v\", c, err)")
		w("\t}")
		w("}\n")
	}
	flush("config_test.go")

	for _, f := range []string{"server", "handlers", "middleware", "store"} {
		w("package app\n\nimport (\n\t\"encoding/json\"\n\t\"fmt\"\n\t\"io\"\n\t\"net/http\"\n)\n")
		body(f, 12)
		flush(f + ".go")
	}
	files["go.mod"] = "module example.com/app\n\ngo 1.22\n"
	files["README.md"] = "# app\n\nA small service. Configure it with config.json (see parseConfig in config.go).\n"
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(root, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gitRun(t, root, "init", "-q", "-b", "main")
	gitRun(t, root, "config", "user.name", "Agent Test")
	gitRun(t, root, "config", "user.email", "agent@example.com")
	gitRun(t, root, "add", "-A")
	gitRun(t, root, "commit", "-q", "-m", "initial")
	return files
}

// meter counts what a model would send and receive.
type meter struct {
	s        *session
	sent     int
	received int
	log      []string
}

// call sends one tool call and returns its result; it counts the tool
// name and the arguments as sent, and the text block as received.
func (m *meter) call(tool string, args map[string]any) (map[string]any, string) {
	m.s.t.Helper()
	a, _ := json.Marshal(args)
	out, isErr := m.s.call(tool, args)
	if isErr {
		m.s.t.Fatalf("%s %s: %v", tool, a, out)
	}
	m.sent += len(tool) + len(a)
	m.received += len(m.s.text)
	m.log = append(m.log, fmt.Sprintf("%-20s sent %5d  received %5d", tool, len(tool)+len(a), len(m.s.text)))
	return out, m.s.text
}

// oldText is what a text block held before issue 11: the response as
// JSON (json.Marshal, HTML escaped, as it was then).
func oldText(v map[string]any) int {
	b, _ := json.Marshal(v)
	return len(b)
}

func TestE2EAgentRenameAcrossFiles(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	root := workspaceDir(t)
	agentRepo(t, root)
	s := serveClient(t, root, t.TempDir())
	m := &meter{s: s}

	// 1. Where is it defined, and who uses it?
	m.call("editor_find", map[string]any{"query": "config"})
	_, hits := m.call("editor_search", map[string]any{"pattern": "parseConfig(", "literal": true, "include_glob": []string{"*.go"}})
	// The text lists each file, then line:col: text.
	hitRE := regexp.MustCompile(`(?m)^([^\s:]+\.go)\n((?:\d+:\d+: .*\n)+)`)
	found := map[string][]int{}
	for _, g := range hitRE.FindAllStringSubmatch(hits, -1) {
		for _, l := range strings.Split(strings.TrimSpace(g[2]), "\n") {
			var n int
			fmt.Sscanf(l, "%d:", &n)
			found[g[1]] = append(found[g[1]], n)
		}
	}
	if len(found) != 3 || len(found["config_test.go"]) != 3 || len(found["main.go"]) != 1 || len(found["config.go"]) != 1 {
		t.Fatalf("search text does not show the uses as path / line:col: text:\n%s", hits)
	}

	// 2. Read the definition's surroundings (a few lines, no tab).
	def := found["config.go"][0]
	_, lines := m.call("editor_open", map[string]any{"path": "config.go", "offset": def - 1, "limit": 3, "tab": false})
	if !strings.Contains(lines, fmt.Sprintf("%6d\tfunc parseConfig(path string) (*Config, error) {", def)) {
		t.Fatalf("open text is not numbered lines:\n%s", lines)
	}

	// 3. Edit in place: the definition with its comment, and every use.
	before := map[string]string{}
	for f := range found {
		b, _ := os.ReadFile(filepath.Join(root, f))
		before[f] = string(b)
	}
	edits := map[string]map[string]any{
		"config.go": {"path": "config.go", "edits": []map[string]any{
			{"old_text": "// parseConfig reads", "new_text": "// loadConfig reads"},
			{"old_text": "func parseConfig(", "new_text": "func loadConfig("},
		}},
		"main.go":        {"path": "main.go", "edits": []map[string]any{{"old_text": "parseConfig(", "new_text": "loadConfig("}}},
		"config_test.go": {"path": "config_test.go", "edits": []map[string]any{{"old_text": "parseConfig(p)", "new_text": "loadConfig(p)", "replace_all": true}}},
	}
	for _, f := range []string{"config.go", "main.go", "config_test.go"} {
		res, _ := m.call("editor_edit", edits[f])
		if res["applied"] != true {
			t.Fatalf("edit %s: %v", f, res)
		}
		after, _ := os.ReadFile(filepath.Join(root, f))
		// The patch the model saw is the real change: git apply agrees.
		patch := res["patch"].(string)
		if !strings.Contains(m.s.text, patch) {
			t.Fatalf("the text block of edit is not its patch:\n%s", m.s.text)
		}
		if got := gitApply(t, f, before[f], patch); got != string(after) {
			t.Fatalf("git apply of the edit patch of %s differs from the file", f)
		}
	}

	// 4. Review and commit.
	_, review := m.call("editor_git_hunks", map[string]any{"path": "config.go", "against": "head"})
	if !strings.Contains(review, "+func loadConfig(path string) (*Config, error) {") {
		t.Fatalf("hunks text is not the patch:\n%s", review)
	}
	_, st := m.call("editor_git_status", map[string]any{})
	if !strings.HasPrefix(st, "## main\n") || !strings.Contains(st, " M config.go\n") {
		t.Fatalf("status text:\n%s", st)
	}
	res, _ := m.call("editor_git_commit", map[string]any{"message": "Rename parseConfig to loadConfig"})
	if res["committed"] != true {
		t.Fatalf("commit: %v", res)
	}
	for f := range found {
		b, _ := os.ReadFile(filepath.Join(root, f))
		if strings.Contains(string(b), "parseConfig") || !strings.Contains(string(b), "loadConfig") {
			t.Fatalf("%s was not renamed:\n%s", f, b)
		}
	}
	for _, l := range m.log {
		t.Log(l)
	}
	total := m.sent + m.received
	t.Logf("rename in 3 files, in place: sent %d + received %d = %d bytes", m.sent, m.received, total)

	// The way before issue 11, measured on a fresh copy: the same find and
	// search, then each file opened whole and saved whole, every text block
	// the JSON response (as it was then).
	root2 := workspaceDir(t)
	agentRepo(t, root2)
	s2 := serveClient(t, root2, t.TempDir())
	oldSent, oldReceived := 0, 0
	oldCall := func(tool string, args map[string]any) map[string]any {
		a, _ := json.Marshal(args)
		out := s2.mustCall(tool, args)
		oldSent += len(tool) + len(a)
		oldReceived += oldText(out)
		return out
	}
	oldCall("editor_find", map[string]any{"query": "config"})
	oldCall("editor_search", map[string]any{"pattern": "parseConfig(", "literal": true, "include_glob": []string{"*.go"}})
	for _, f := range []string{"config.go", "main.go", "config_test.go"} {
		o := oldCall("editor_open", map[string]any{"path": f})
		oldCall("editor_save", map[string]any{"path": f, "content": strings.ReplaceAll(o["content"].(string), "parseConfig", "loadConfig"), "expected_version": o["version"]})
	}
	oldCall("editor_git_status", map[string]any{})
	oldCall("editor_git_commit", map[string]any{"message": "Rename parseConfig to loadConfig"})
	t.Logf("rename in 3 files, whole files with JSON text blocks (before): sent %d + received %d = %d bytes", oldSent, oldReceived, oldSent+oldReceived)
	if total > 10_000 {
		t.Fatalf("the rename moved %d bytes through the model, over 10 KB", total)
	}
}

// gitApply applies patch to a file holding before with the real git apply.
func gitApply(t *testing.T, path, before, patch string) string {
	t.Helper()
	dir := t.TempDir()
	p := filepath.Join(dir, path)
	os.WriteFile(p, []byte(before), 0o644)
	os.WriteFile(filepath.Join(dir, "x.patch"), []byte(patch), 0o644)
	cmd := exec.Command("git", "apply", "x.patch")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git apply refused the patch of %s: %v\n%s\n%s", path, err, out, patch)
	}
	b, _ := os.ReadFile(p)
	return string(b)
}

// TestE2EStdioNotHTMLEscaped: what editord writes on stdio keeps <, >
// and & as they are.
func TestE2EStdioNotHTMLEscaped(t *testing.T) {
	s := startRaw(t, workspaceDir(t), t.TempDir(), true)
	s.nextID++
	s.send(map[string]any{"jsonrpc": "2.0", "id": s.nextID, "method": "tools/call", "params": map[string]any{"name": "editor_diff", "arguments": map[string]any{"before": "x<y\n", "after": "x&&y>z\n"}}})
	timeout := time.After(20 * time.Second)
	for {
		select {
		case line, ok := <-s.lines:
			if !ok {
				t.Fatalf("the server exited: %s", s.stderr)
			}
			if !strings.Contains(string(line), fmt.Sprintf(`"id":%d`, s.nextID)) {
				continue
			}
			if strings.Contains(string(line), `\u003c`) || strings.Contains(string(line), `\u0026`) || !strings.Contains(string(line), "+x&&y>z") {
				t.Fatalf("the wire escapes HTML: %s", line)
			}
			return
		case <-timeout:
			t.Fatal("no response")
		}
	}
}

// TestE2EEditOneLineOf1MB: changing one line of a 1 MB file moves the
// request and a patch, not the file (issue 11: at most 2 KB).
func TestE2EEditOneLineOf1MB(t *testing.T) {
	root := workspaceDir(t)
	var b strings.Builder
	for i := 0; b.Len() < 1<<20; i++ {
		fmt.Fprintf(&b, "line %06d: the quick brown fox jumps over the lazy dog, again and again\n", i)
	}
	os.WriteFile(filepath.Join(root, "big.txt"), []byte(b.String()), 0o644)
	m := &meter{s: serveClient(t, root, t.TempDir())}
	_, lines := m.call("editor_open", map[string]any{"path": "big.txt", "offset": 7000, "limit": 1, "tab": false})
	res, text := m.call("editor_edit", map[string]any{"path": "big.txt", "edits": []map[string]any{{"old_text": "line 007000: the quick", "new_text": "line 007000: the QUICK"}}})
	if res["applied"] != true || !strings.Contains(text, "+line 007000: the QUICK") {
		t.Fatalf("%v\n%s", res, text)
	}
	for _, l := range m.log {
		t.Log(l)
	}
	edit := m.sent + m.received - len(lines) - len(`editor_open{"limit":1,"offset":7000,"path":"big.txt","tab":false}`)
	t.Logf("one line of a 1 MB file: reading the line moved %d bytes, the edit %d", m.sent+m.received-edit, edit)
	if edit > 2048 {
		t.Fatalf("the edit moved %d bytes", edit)
	}
}
