package main

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updateReadme = flag.Bool("update", false, "rewrite the generated parts of README.md")

const (
	tableBegin = "<!-- functions:begin"
	tableEnd   = "<!-- functions:end -->"
)

// TestReadmeFunctionTable keeps the README's function table equal to the
// catalog; run `go test ./cmd/editord -run Readme -update` to refresh it.
func TestReadmeFunctionTable(t *testing.T) {
	const path = "../../README.md"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	i := strings.Index(s, tableBegin)
	j := strings.Index(s, tableEnd)
	if i < 0 || j < i {
		t.Fatal("README.md lacks the functions:begin/end markers")
	}
	i += strings.Index(s[i:], "\n") + 1
	want := functionTable()
	if s[i:j] == want {
		return
	}
	if !*updateReadme {
		t.Fatalf("README.md's function table is out of date; run go test ./cmd/editord -run Readme -update")
	}
	if err := os.WriteFile(path, []byte(s[:i]+want+s[j:]), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestReadmeOpensWithCommands: a newcomer's first two commands come first.
func TestReadmeOpensWithCommands(t *testing.T) {
	data, _ := os.ReadFile("../../README.md")
	head := strings.Join(strings.SplitN(string(data), "\n", 8)[:7], "\n")
	for _, cmd := range []string{"make run", "make test"} {
		if !strings.Contains(head, cmd) {
			t.Errorf("README.md's first lines lack %q", cmd)
		}
	}
}

// TestFunctionsJSONNotHTMLEscaped: editord functions --json prints the
// schemas as the wire carries them, "<path>" and all.
func TestFunctionsJSONNotHTMLEscaped(t *testing.T) {
	var out, errb strings.Builder
	if rc := functionsCmd([]string{"--json"}, &out, &errb); rc != 0 {
		t.Fatalf("rc %d: %s", rc, errb.String())
	}
	if strings.Contains(out.String(), `\u003c`) || strings.Contains(out.String(), `\u0026`) || !strings.Contains(out.String(), "--- a/<path>") {
		t.Fatal("editord functions --json escapes HTML")
	}
}

// TestCallText: `editord call FUNCTION JSON --text` prints the text a
// model reads, as the README says: a listing for editor::tree, not JSON,
// and for a refused call its message, naming function ids (the CLI's
// names), not tools.
func TestCallText(t *testing.T) {
	root, state := t.TempDir(), t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "src", "main.go"), []byte("package main\n"), 0o644)
	var out, errb strings.Builder
	if rc := callCmd([]string{"editor::tree", "{}", "--root", root, "--state-dir", state, "--text"}, strings.NewReader(""), &out, &errb); rc != 0 {
		t.Fatalf("rc %d: %s", rc, errb.String())
	}
	if got := out.String(); strings.HasPrefix(strings.TrimSpace(got), "{") || !strings.Contains(got, "src/") || !strings.Contains(got, "main.go") {
		t.Fatalf("editor::tree --text:\n%s", got)
	}
	out.Reset()
	errb.Reset()
	if rc := callCmd([]string{"editor::open", `{"path":"nope.txt"}`, "--root", root, "--state-dir", state, "--text"}, strings.NewReader(""), &out, &errb); rc != 1 {
		t.Fatalf("a refused call: rc %d", rc)
	}
	if got := out.String(); !strings.Contains(got, "does not exist") || !strings.Contains(got, "editor::tree") || strings.Contains(got, "editor_tree") || strings.HasPrefix(got, "{") {
		t.Fatalf("a refused call's text should be its message, naming function ids:\n%s", got)
	}
}
