package main

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// `make run` serves testdata/sample-repo.sh's copy of the sample: a git
// repository the jail sees, with history and one uncommitted change, so a
// newcomer's Git panel, gutter and log have something in them (issue 23).
func TestSampleRepoHasHistory(t *testing.T) {
	dest := filepath.Join(t.TempDir(), "sample")
	if out, err := exec.Command("bash", "../../testdata/sample-repo.sh", dest).CombinedOutput(); err != nil {
		t.Fatalf("sample-repo.sh: %v\n%s", err, out)
	}
	state := t.TempDir()
	st, isErr := callCLI(t, dest, state, "editor::git::status", "{}")
	if isErr {
		t.Fatalf("git::status on the sample: %v", st)
	}
	if st["branch"] != "main" {
		t.Errorf("branch = %v, want main", st["branch"])
	}
	entries, _ := st["entries"].([]any)
	if len(entries) != 1 || entries[0].(map[string]any)["path"] != "README.md" {
		t.Errorf("status entries = %v, want README.md modified alone", entries)
	}
	log, isErr := callCLI(t, dest, state, "editor::git::log", "{}")
	if isErr {
		t.Fatalf("git::log on the sample: %v", log)
	}
	if commits, _ := log["entries"].([]any); len(commits) != 3 {
		t.Errorf("log has %d commits, want 3: %v", len(commits), log)
	}
	// Running it again over an existing copy refuses rather than mixing.
	if err := exec.Command("bash", "../../testdata/sample-repo.sh", dest).Run(); err == nil {
		t.Error("sample-repo.sh over an existing folder succeeded")
	}
}
