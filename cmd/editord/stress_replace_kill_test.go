package main

// Issue 19 item 5: a multi-file editor::replace killed midway. Each file
// is written atomically, the call is not: the journal's events say which
// files were written (step of steps, in path order), and the temp file a
// kill leaves behind is swept when a server starts (the watcher's first
// walk) once it is stale.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/editord/editord/editor"
	"github.com/editord/editord/workspace"
)

func TestStressReplaceKilledMidway(t *testing.T) {
	root, state := workspaceDir(t), t.TempDir()
	const files = 12
	// Big files, so that a write takes a while and the kill lands among them.
	body := strings.Repeat("needle in a line of hay, hay and more hay\n", 25_000)
	write := map[string]string{}
	for i := range files {
		p := fmt.Sprintf("d%02d/f.txt", i)
		os.MkdirAll(filepath.Join(root, filepath.Dir(p)), 0o755)
		if err := os.WriteFile(filepath.Join(root, p), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		v, _ := callCLI(t, root, state, "editor::open", `{"path":"`+p+`","tab":false,"limit":1}`)
		write[p] = v["version"].(string)
	}
	req, _ := json.Marshal(map[string]any{"pattern": "needle", "literal": true, "with": "NEEDLE", "write": write})
	journal := filepath.Join(state, "changes.jsonl")
	var events []workspace.Event
	for attempt := 0; ; attempt++ {
		cmd := exec.Command(binary, "call", "editor::replace", "-", "--root", root, "--state-dir", state)
		cmd.Stdin = strings.NewReader(string(req))
		cmd.Env = append(os.Environ(), "HOME="+state)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Kill it once its first file is journaled.
		deadline := time.Now().Add(30 * time.Second)
		for {
			if b, _ := os.ReadFile(journal); len(b) > 0 || time.Now().After(deadline) {
				break
			}
			time.Sleep(time.Millisecond)
		}
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		events = readJournal(t, journal)
		if len(events) < files || attempt == 5 {
			break
		}
		// It finished before the kill: start over with fresh files.
		os.Remove(journal)
		for p := range write {
			os.WriteFile(filepath.Join(root, p), []byte(body), 0o644)
		}
	}
	if len(events) == 0 || len(events) >= files {
		t.Fatalf("the kill did not land midway: %d events of %d files", len(events), files)
	}
	// Every event names its step among the files, in path order, and the
	// file it names holds what the event says; the files past the last
	// step are untouched.
	last := 0
	for _, ev := range events {
		if ev.Cause != "editor::replace" || ev.Steps != files || ev.Step <= last {
			t.Fatalf("event %d: cause %s, step %d of %d (after step %d)", ev.Seq, ev.Cause, ev.Step, ev.Steps, last)
		}
		last = ev.Step
		if got, _ := os.ReadFile(filepath.Join(root, ev.Path)); ev.Version == nil || editor.Version(got) != *ev.Version {
			t.Fatalf("event %d says %s was written, the file is not that", ev.Seq, ev.Path)
		}
	}
	for i := last + 1; i < files; i++ { // the file at step last+1 may be in flight
		p := fmt.Sprintf("d%02d/f.txt", i)
		if got, _ := os.ReadFile(filepath.Join(root, p)); string(got) != body {
			t.Fatalf("%s (step %d) changed after the last journaled step %d", p, i+1, last)
		}
	}
	t.Logf("killed after step %d of %d", last, files)

	// A temp file the kill left (or one planted, when the kill fell
	// between files), made stale, is gone once a server has started.
	temps := tempFilesIn(t, root)
	if len(temps) == 0 {
		p := filepath.Join(root, "d11", ".f.txt.editord-0123456789ab.tmp")
		os.WriteFile(p, []byte(strings.ReplaceAll(body, "needle", "NEEDLE")), 0o600)
		temps = append(temps, p)
	}
	old := time.Now().Add(-10 * time.Minute)
	for _, p := range temps {
		os.Chtimes(p, old, old)
	}
	srv := startHTTP(t, root, state)
	deadline := time.Now().Add(30 * time.Second)
	for len(tempFilesIn(t, root)) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("stale temp files survived a server's start: %v\n%s", tempFilesIn(t, root), srv.log())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func readJournal(t *testing.T, p string) []workspace.Event {
	t.Helper()
	f, err := os.Open(p)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []workspace.Event
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var ev workspace.Event
		if json.Unmarshal(sc.Bytes(), &ev) == nil {
			out = append(out, ev)
		}
	}
	return out
}
