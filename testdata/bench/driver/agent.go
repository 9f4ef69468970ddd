package main

// The agent group: what an agent pays, in calls and in bytes a model reads,
// for its everyday tasks, next to the filesystem MCP server doing the same
// (issue 26). A model reads the tool list (instructions, and each tool's
// name, description and input schema) on every turn, and the text block of
// every result; it sends a call per step. The tasks run on a small Go
// service built here, a git repository whose parseConfig is defined in one
// file and used in four others:
//
//   - orientation: what is here (editor: the workspace and its tree; the
//     filesystem server: its allowed directories and the directory tree);
//   - rename parseConfig to loadConfig in the 5 files (editor: a replace
//     dry run, which finds the files itself, and the write; the filesystem
//     server has no content search: read the Go files, edit_file each file
//     that uses it);
//   - review and commit that change (editor: git::hunks without path, then
//     git::commit; the filesystem server has no git).
//
// Goals: the default tool list at most 12,000 bytes; the rename in at most
// 3 calls and 2,500 bytes read; the review and commit in at most 4 calls.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

func benchAgent(r *report) {
	dir := agentRepo()
	ed := startRaw(*binPath, "serve", "--root", dir, "--state-dir", newStateDir())
	defer ed.close()
	var fs *rawClient
	if *fsServer != "" && have("node") {
		fs = startRaw("node", *fsServer, dir)
		defer fs.close()
	}

	edList, edTools := listCost(ed)
	ref, rs := "filesystem MCP server: not installed", ""
	if fs != nil {
		b, n := listCost(fs)
		ref, rs = fmt.Sprintf("filesystem MCP server %d bytes (%d tools)", b, n), fmt.Sprintf("%.2f", float64(edList)/float64(b))
	}
	r.add("tools/list: bytes a model reads (instructions + name, description, input schema of each tool listed by default)",
		fmt.Sprintf("%d bytes (%d tools)", edList, edTools), ref, rs, "≤ 12,000 bytes", verdict(float64(edList), 12000))

	// Orientation.
	m := &meter{c: ed}
	m.call("editor_workspace_get", map[string]any{})
	m.call("editor_tree", map[string]any{})
	fm := &meter{c: fs}
	if fs != nil {
		fm.call("list_allowed_directories", map[string]any{})
		fm.call("directory_tree", map[string]any{"path": dir, "excludePatterns": []any{".git"}}) // .git left out, generously
	}
	r.add("orientation: calls, bytes read (workspace and tree)", m.String(), fm.ref("list_allowed_directories, directory_tree"), "", "", "")

	// Rename in 5 files.
	m = &meter{c: ed}
	dry := m.call("editor_replace", map[string]any{"pattern": "parseConfig", "with": "loadConfig", "literal": true, "whole_word": true})
	write := map[string]any{}
	for _, f := range dry["files"].([]any) {
		f := f.(map[string]any)
		write[f["path"].(string)] = f["version"]
	}
	m.call("editor_replace", map[string]any{"pattern": "parseConfig", "with": "loadConfig", "literal": true, "whole_word": true, "write": write})
	renamed := usesOf(dir, "loadConfig")
	if len(write) != 5 || len(renamed) != 5 || len(usesOf(dir, "parseConfig")) != 0 {
		panic(fmt.Sprintf("the rename through editord left %v renamed, %v not", renamed, usesOf(dir, "parseConfig")))
	}
	ok := verdict(boolf(m.calls <= 3 && m.read <= 2500), 0)
	// The filesystem server, on the same tree before the rename.
	gitIn(dir, "stash", "-q")
	fm = &meter{c: fs}
	if fs != nil {
		var goFiles []string
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".go") {
				goFiles = append(goFiles, p)
			}
			return nil
		})
		sort.Strings(goFiles)
		fm.call("read_multiple_files", map[string]any{"paths": goFiles})
		for _, p := range goFiles {
			b, _ := os.ReadFile(p)
			var edits []map[string]any
			seen := map[string]bool{}
			for _, line := range strings.Split(string(b), "\n") {
				if strings.Contains(line, "parseConfig") && !seen[line] {
					seen[line] = true
					edits = append(edits, map[string]any{"oldText": line, "newText": strings.ReplaceAll(line, "parseConfig", "loadConfig")})
				}
			}
			if len(edits) > 0 {
				fm.call("edit_file", map[string]any{"path": p, "edits": edits})
			}
		}
		if len(usesOf(dir, "loadConfig")) != 5 {
			panic("the rename through the filesystem server did not reach the 5 files")
		}
		gitIn(dir, "checkout", "-q", "--", ".")
	}
	gitIn(dir, "stash", "pop", "-q")
	r.add("rename in 5 files: calls, bytes read (≤ 3 calls, ≤ 2,500 bytes)", m.String(), fm.ref("read_multiple_files, edit_file per file"), "", "≤ 3 calls, ≤ 2,500 B", ok)

	// Review and commit one's own change (the rename).
	m = &meter{c: ed}
	m.call("editor_git_hunks", map[string]any{"against": "head", "context_lines": 3})
	res := m.call("editor_git_commit", map[string]any{"message": "Rename parseConfig to loadConfig"})
	if res["committed"] != true || !strings.Contains(fmt.Sprint(res["summary"]), "5 files changed") {
		panic(fmt.Sprintf("commit: %v", res))
	}
	r.add("review and commit one's own change: calls, bytes read (≤ 4 calls)", m.String(), "filesystem MCP server: no git", "", "≤ 4 calls", verdict(float64(m.calls), 4))
}

// meter counts the calls an agent makes and the bytes of text it reads.
type meter struct {
	c           *rawClient
	calls, read int
	names       []string
}

// call runs one tool and returns its structured content (nil for a server
// that sends none).
func (m *meter) call(tool string, args map[string]any) map[string]any {
	raw, _ := m.c.tool(tool, args)
	var msg struct {
		Result struct {
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
			Structured map[string]any `json:"structuredContent"`
		} `json:"result"`
	}
	check(json.Unmarshal(raw, &msg))
	m.calls++
	for _, c := range msg.Result.Content {
		m.read += len(c.Text)
	}
	return msg.Result.Structured
}

func (m *meter) String() string { return fmt.Sprintf("%d calls, %d bytes", m.calls, m.read) }

// ref is the filesystem server's figures for a row.
func (m *meter) ref(how string) string {
	if m.c == nil {
		return "filesystem MCP server: not installed"
	}
	return fmt.Sprintf("filesystem MCP server %d calls, %d bytes (%s)", m.calls, m.read, how)
}

// listCost is what a model reads of a server's tool list: its
// instructions, and each tool's name, description and input schema.
func listCost(c *rawClient) (bytes, tools int) {
	var init struct {
		Result struct {
			Instructions string `json:"instructions"`
		} `json:"result"`
	}
	json.Unmarshal(c.init, &init)
	raw, _ := c.call("tools/list", map[string]any{})
	var list struct {
		Result struct {
			Tools []struct {
				Name        string          `json:"name"`
				Description string          `json:"description"`
				InputSchema json.RawMessage `json:"inputSchema"`
			} `json:"tools"`
		} `json:"result"`
	}
	check(json.Unmarshal(raw, &list))
	n := len(init.Result.Instructions)
	for _, t := range list.Result.Tools {
		var v any
		json.Unmarshal(t.InputSchema, &v)
		compact, _ := json.Marshal(v)
		n += len(t.Name) + len(t.Description) + len(compact)
	}
	return n, len(list.Result.Tools)
}

// agentRepo writes the Go service into a fresh git repository: parseConfig
// defined in config.go and used in four other files; three files without it.
func agentRepo() string {
	dir := filepath.Join(tmpBase, "agent-repo")
	os.RemoveAll(dir)
	files := map[string]string{
		"go.mod": "module example.com/svc\n\ngo 1.22\n",
		"config.go": "package svc\n\nimport (\n\t\"encoding/json\"\n\t\"os\"\n)\n\n// Config is what the service reads at start-up.\ntype Config struct {\n\tAddr    string `json:\"addr\"`\n\tTimeout int    `json:\"timeout\"`\n}\n\n" +
			"// parseConfig reads the configuration file at path.\nfunc parseConfig(path string) (*Config, error) {\n\tdata, err := os.ReadFile(path)\n\tif err != nil {\n\t\treturn nil, err\n\t}\n\tvar c Config\n\treturn &c, json.Unmarshal(data, &c)\n}\n",
		"main.go":               "package svc\n\nimport \"log\"\n\n// Main starts the service.\nfunc Main() {\n\tcfg, err := parseConfig(\"config.json\")\n\tif err != nil {\n\t\tlog.Fatal(err)\n\t}\n\tserve(cfg)\n}\n",
		"server.go":             "package svc\n\nimport \"net/http\"\n\nfunc serve(cfg *Config) {\n\thttp.ListenAndServe(cfg.Addr, nil)\n}\n\n// Reload re-reads the configuration.\nfunc Reload(path string) (*Config, error) { return parseConfig(path) }\n",
		"config_test.go":        "package svc\n\nimport \"testing\"\n\nfunc TestParse(t *testing.T) {\n\tif _, err := parseConfig(\"testdata/ok.json\"); err != nil {\n\t\tt.Fatal(err)\n\t}\n\tif _, err := parseConfig(\"testdata/missing.json\"); err == nil {\n\t\tt.Fatal(\"no error\")\n\t}\n}\n",
		"cmd/check/main.go":     "package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n\n\tsvc \"example.com/svc\"\n)\n\n// check validates a config file: the same parseConfig rules, via Reload.\nfunc main() {\n\tif _, err := svc.Reload(os.Args[1]); err != nil {\n\t\tfmt.Println(err)\n\t\tos.Exit(1)\n\t}\n}\n",
		"handlers.go":           "package svc\n\nimport \"net/http\"\n\n// Health answers OK.\nfunc Health(w http.ResponseWriter, r *http.Request) { w.Write([]byte(\"ok\")) }\n",
		"store.go":              "package svc\n\n// Store keeps items in memory.\ntype Store struct{ items map[string]string }\n\n// Get returns an item.\nfunc (s *Store) Get(k string) string { return s.items[k] }\n",
		"middleware.go":         "package svc\n\nimport \"net/http\"\n\n// Logged wraps a handler.\nfunc Logged(h http.Handler) http.Handler { return h }\n",
		"README.md":             "# svc\n\nA small service.\n",
		"testdata/ok.json":      "{\"addr\": \":8080\"}\n",
		"testdata/.placeholder": "",
	}
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		check(os.MkdirAll(filepath.Dir(p), 0o755))
		check(os.WriteFile(p, []byte(content), 0o644))
	}
	gitIn(dir, "init", "-q", "-b", "main")
	gitIn(dir, "config", "user.name", "Bench Agent")
	gitIn(dir, "config", "user.email", "agent@example.com")
	gitIn(dir, "add", "-A")
	gitIn(dir, "commit", "-q", "-m", "initial")
	return dir
}

// usesOf lists the files that name ident.
func usesOf(dir, ident string) []string {
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			if b, _ := os.ReadFile(p); strings.Contains(string(b), ident) {
				out = append(out, p)
			}
		}
		return nil
	})
	return out
}

func gitIn(dir string, args ...string) {
	res := run(dir, "git", args...)
	if res.err != nil {
		panic(fmt.Sprintf("git %v: %v\n%s", args, res.err, res.out))
	}
}
