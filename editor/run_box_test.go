package editor

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A state dir inside the jail is hidden from commands whole, the
// sandbox's own folder (its voids and covers) among it, but for the
// commands' home and temp folders; what the box covers from there is
// still covered, run after run.
func TestRunStateDirInTheJail(t *testing.T) {
	git := tcGit(t)
	e := rcNew(t, "sh")
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"remote", "add", "origin", "https://x-access-token:ghp_SECRET@github.com/o/r.git"}} {
		if out, err := exec.Command(git, append([]string{"-C", e.root}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	e.write(".env", "TOKEN=secret\n")
	state := filepath.Join(e.root, ".editord")
	s, err := New(e.cfg, Options{Root: e.root, StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	script := strings.Join([]string{
		"cat .env",
		"ls .editord/box",
		"cat .editord/workspace.json",
		"echo x > .editord/box/planted",
		"echo x > .editord/run/home/ok",
		"git config --get remote.origin.url",
		"echo done",
	}, "; ")
	for run := range 2 { // the second finds the box's folder made
		r := rcRun(t, s, context.Background(), &RunRequest{Argv: []string{"sh", "-c", script}})
		if r.ExitCode == nil || *r.ExitCode != 0 || r.Stdout != "https://github.com/o/r.git\ndone\n" {
			t.Fatalf("run %d: %+v", run, r)
		}
		if n := strings.Count(r.Stderr, "Permission denied"); n != 4 {
			t.Fatalf("run %d: want 4 refusals, got:\n%s", run, r.Stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(state, "box", "planted")); err == nil {
		t.Fatal("a command wrote into the sandbox's folder")
	}
	if _, err := os.Stat(filepath.Join(state, "run", "home", "ok")); err != nil {
		t.Fatalf("the command's home was not writable: %v", err)
	}
}
