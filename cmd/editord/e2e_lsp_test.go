package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// Code intelligence through the real binary, a real MCP client and the
// project's pinned gopls (make lsp; .ci/run installs it).

// goplsForTests is the pinned gopls, or skips (fails under CI) without it.
func goplsForTests(t *testing.T) string {
	t.Helper()
	wd, _ := os.Getwd()
	p := filepath.Join(wd, "..", "..", "testdata", "lsp", "bin", "gopls")
	if _, err := os.Stat(p); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is not installed; .ci/run installs it (make lsp)", p)
		}
		t.Skipf("%s is not installed; run make lsp", p)
	}
	return filepath.Clean(p)
}

// serveWithConfig is serveClient with a config file.
func serveWithConfig(t *testing.T, root, config string) *session {
	t.Helper()
	cfg := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(cfg, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	return startSession(t, nil, "editord-e2e", mcp.LATEST_PROTOCOL_VERSION, nil,
		"serve", "--root", root, "--state-dir", t.TempDir(), "--config", cfg)
}

// writeFiles writes files (root-relative path → content) under root.
func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755)
		if err := os.WriteFile(filepath.Join(root, p), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestE2ECodeIntelligence(t *testing.T) {
	gopls := goplsForTests(t)
	root := workspaceDir(t)
	writeFiles(t, root, map[string]string{
		"go.mod":     "module example.com/m\n\ngo 1.22\n",
		"lib/lib.go": "package lib\n\n// Greet says hello.\nfunc Greet() string { return \"hi\" }\n",
		"main.go":    "package main\n\nimport \"example.com/m/lib\"\n\nfunc main() { println(lib.Greet()) }\n",
	})
	s := serveWithConfig(t, root, "[lsp.go]\ncommand = [\""+gopls+"\"]\n")
	refs := s.mustCall("editor_references", map[string]any{"path": "main.go", "line": 5, "column": 29})
	if refs["total"] != float64(2) {
		t.Fatalf("references %v", refs)
	}
	want := "2 references\nlib/lib.go:4:6: func Greet() string { return \"hi\" }\nmain.go:5:27: func main() { println(lib.Greet()) }\n"
	if s.text != want {
		t.Fatalf("text block:\n%s\nwant:\n%s", s.text, want)
	}
	s.mustCall("editor_symbols", map[string]any{"path": "lib/lib.go"})
	if s.text != "lib/lib.go\n4: function Greet func() string\n" {
		t.Fatalf("outline text block %q", s.text)
	}
	dry := s.mustCall("editor_rename", map[string]any{"path": "lib/lib.go", "line": 4, "column": 6, "new_name": "Hello"})
	if !strings.HasPrefix(s.text, "dry run: 3 occurrences in 2 files; nothing written. To write, call editor_rename again") {
		t.Fatalf("dry run text block %q", s.text)
	}
	versions := map[string]any{}
	for _, f := range dry["files"].([]any) {
		f := f.(map[string]any)
		versions[f["path"].(string)] = f["version"]
	}
	s.mustCall("editor_rename", map[string]any{"path": "lib/lib.go", "line": 4, "column": 6, "new_name": "Hello", "versions": versions})
	if got, _ := os.ReadFile(filepath.Join(root, "main.go")); !strings.Contains(string(got), "lib.Hello()") {
		t.Fatalf("main.go after the rename: %s", got)
	}
}

// A server that is not installed is a clear refusal naming how to install
// it; a misspelt key of an [lsp] table is refused at start.
func TestE2ECodeIntelligenceMissingServer(t *testing.T) {
	root := workspaceDir(t)
	os.WriteFile(filepath.Join(root, "a.go"), []byte("package a\n"), 0o644)
	s := serveWithConfig(t, root, "[lsp.go]\ncommand = [\"gopls-not-installed-anywhere\"]\n")
	out, isErr := s.call("editor_symbols", map[string]any{"path": "a.go"})
	e, _ := out["error"].(map[string]any)
	if !isErr || e["code"] != "not_found" || !strings.Contains(s.text, "go install golang.org/x/tools/gopls@") {
		t.Fatalf("missing server: %v %q", out, s.text)
	}
	cfg := filepath.Join(t.TempDir(), "bad.toml")
	os.WriteFile(cfg, []byte("[lsp.go]\ncomand = [\"gopls\"]\n"), 0o644)
	_, _, err := loadConfig(cfg)
	if err == nil || !strings.Contains(err.Error(), "lsp.go.comand") {
		t.Fatalf("misspelt key: %v", err)
	}
}

// A Go workspace symbol query, answered from editord's index, follows
// other programs: a file written, a folder made with a file in it, a file
// removed (each seen by the watcher and journaled) are in the next answer.
func TestE2ESymbolsAfterAnExternalChange(t *testing.T) {
	gopls := goplsForTests(t)
	root := workspaceDir(t)
	writeFiles(t, root, map[string]string{
		"go.mod":     "module example.com/m\n\ngo 1.22\n",
		"lib/lib.go": "package lib\n\nfunc Greet() string { return \"hi\" }\n",
	})
	s := serveWithConfig(t, root, "[lsp.go]\ncommand = [\""+gopls+"\"]\n")
	query := map[string]any{"query": "Greet", "language": "go"}
	names := func() string {
		var n []string
		for _, sym := range s.mustCall("editor_symbols", query)["symbols"].([]any) {
			sym := sym.(map[string]any)
			n = append(n, sym["name"].(string)+"@"+sym["path"].(string))
		}
		slices.Sort(n)
		return strings.Join(n, " ")
	}
	if got := names(); got != "Greet@lib/lib.go" {
		t.Fatalf("first answer %q", got)
	}
	if got := names(); got != "Greet@lib/lib.go" {
		t.Fatalf("asked again %q", got)
	}
	cursor := s.mustCall("editor_changes", map[string]any{})["cursor"].(string)
	if err := os.WriteFile(filepath.Join(root, "lib", "more.go"), []byte("package lib\n\nfunc GreetAll() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the watcher to journal lib/more.go", func() bool {
		for _, ev := range s.mustCall("editor_changes", map[string]any{"since": cursor})["changes"].([]any) {
			if ev.(map[string]any)["path"] == "lib/more.go" {
				return true
			}
		}
		return false
	})
	if got := names(); got != "Greet@lib/lib.go GreetAll@lib/more.go" {
		t.Fatalf("after another program wrote lib/more.go: %q", got)
	}
	cursor = s.mustCall("editor_changes", map[string]any{})["cursor"].(string)
	os.MkdirAll(filepath.Join(root, "greeter"), 0o755)
	if err := os.WriteFile(filepath.Join(root, "greeter", "g.go"), []byte("package greeter\n\ntype Greeter struct{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(root, "lib", "more.go"))
	waitFor(t, "the watcher to journal greeter/g.go and lib/more.go's removal", func() bool {
		seen := map[string]bool{}
		for _, ev := range s.mustCall("editor_changes", map[string]any{"since": cursor})["changes"].([]any) {
			ev := ev.(map[string]any)
			seen[ev["path"].(string)+" "+ev["kind"].(string)] = true
		}
		return seen["lib/more.go deleted"] && (seen["greeter/g.go created"] || seen["greeter created"])
	})
	if got := names(); got != "Greet@lib/lib.go Greeter@greeter/g.go" {
		t.Fatalf("after another program made greeter/g.go and removed lib/more.go: %q", got)
	}
}
