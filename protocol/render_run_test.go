package protocol

import (
	"strings"
	"testing"

	"github.com/editord/editord/editor"
)

func TestRenderRun(t *testing.T) {
	code := 1
	long := strings.Repeat("x", 12000) + "\nFAIL\tpkg 0.1s\n"
	files := make([]editor.RunChanged, 100)
	for i := range files {
		files[i] = editor.RunChanged{Path: "gen/f" + strings.Repeat("0", 3) + ".go", Kind: "created", Added: 3}
	}
	o := &editor.RunResponse{Job: "run-1", Argv: []string{"go", "test", "./..."}, Cwd: "sub", State: "exited", ExitCode: &code,
		DurationMS: 1234, Stdout: long, StdoutBytes: 5_000_000, Stderr: "boom\n", StderrBytes: 5,
		Changed: &editor.RunChanges{Created: 150, Files: files, More: 50}}
	got := RenderText("editor::run", o, ToolName)
	for _, want := range []string{"$ go test ./... (in sub)", "run-1: exit 1 after 1.234s", "--- stdout: the last 12015 of 5000000 bytes (editor_run_output with job \"run-1\"",
		"FAIL\tpkg 0.1s", "--- stderr\nboom", "changed: 150 created, 0 modified, 0 deleted", "created gen/f000.go +3 -0"} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in:\n%.2000s", want, got)
		}
	}
	if len(got) > textBudget {
		t.Fatalf("%d bytes", len(got))
	}
	bg := RenderText("editor::run", &editor.RunResponse{Job: "run-2", Argv: []string{"make"}, State: "running"}, FunctionIDs)
	if !strings.Contains(bg, "run-2: started in the background; follow it with editor::run::status or editor::run::output") {
		t.Fatalf("background:\n%s", bg)
	}
}
