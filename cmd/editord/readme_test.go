package main

import (
	"flag"
	"os"
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
