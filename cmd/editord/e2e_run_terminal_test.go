package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// readUntil follows a job's stdout from offset until it holds want (or
// the job ends, or a generous deadline passes), returning all it read
// and the offset past it.
func readUntil(t *testing.T, s *session, job string, offset float64, want string) (string, float64) {
	t.Helper()
	var got strings.Builder
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		page := s.mustCall("editor_run_output", map[string]any{"job": job, "offset": offset, "wait_ms": 5000})
		got.WriteString(page["content"].(string))
		offset = page["next_offset"].(float64)
		if strings.Contains(got.String(), want) {
			return got.String(), offset
		}
		if page["eof"] == true {
			break
		}
	}
	t.Fatalf("%s's output never showed %q:\n%q", job, want, got.String())
	return "", 0
}

// A shell on a terminal, started by one process's agent in the
// background and typed on from another process (as the page's server
// types what the person types): the echo and the answers come out on
// stdout, a resize reaches the terminal, exit ends the job, and typing
// on an ended job or one without a terminal types nothing.
func TestE2ERunTerminal(t *testing.T) {
	needSandbox(t)
	root := workspaceDir(t)
	state := filepath.Join(t.TempDir(), "state")
	config := filepath.Join(t.TempDir(), "config.toml")
	os.WriteFile(config, []byte("[run]\nprograms = [\"sh\", \"true\"]\npath = \"/usr/bin:/bin\"\n"), 0o644)
	agent := serveWith(t, "agent", nil, "--root", root, "--state-dir", state, "--config", config, "--allow-run")
	person := serveWith(t, "person", nil, "--root", root, "--state-dir", state, "--config", config, "--allow-run")
	if !toolNames(t, agent)["editor_run_input"] {
		t.Fatal("editor_run_input not listed with --allow-run")
	}

	job := agent.mustCall("editor_run", map[string]any{"argv": []string{"sh"}, "env": map[string]string{"PS1": "sh> "}, "background": true, "terminal": true, "rows": 20, "cols": 60})
	if job["state"] != "running" || job["terminal"] != true {
		t.Fatalf("run: %v", job)
	}
	id := job["job"].(string)
	st := person.mustCall("editor_run_status", map[string]any{"job": id})
	if j := st["jobs"].([]any)[0].(map[string]any); j["terminal"] != true || j["rows"] != float64(20) || j["cols"] != float64(60) {
		t.Fatalf("status: %v", st)
	}
	_, off := readUntil(t, person, id, 0, "sh> ")

	// The person types a command; its echo (the terminal's) and its answer come back.
	in := person.mustCall("editor_run_input", map[string]any{"job": id, "text": "echo $((6*7)) $TERM; stty size\r"})
	if in["sent"] != float64(len("echo $((6*7)) $TERM; stty size\r")) || in["state"] != "running" {
		t.Fatalf("input: %v", in)
	}
	if !strings.Contains(person.text, "typed 31 bytes") {
		t.Fatalf("input's text block: %q", person.text)
	}
	got, off := readUntil(t, person, id, off, "20 60")
	if !strings.Contains(got, "echo $((6*7)) $TERM; stty size\r\n") || !strings.Contains(got, "42 xterm-256color\r\n") {
		t.Fatalf("echo and answer:\n%q", got)
	}

	// A resize (from the agent this time) before the text typed.
	agent.mustCall("editor_run_input", map[string]any{"job": id, "rows": 33, "cols": 101, "text": "stty size\r"})
	readUntil(t, agent, id, off, "33 101")
	if j := person.mustCall("editor_run_status", map[string]any{"job": id})["jobs"].([]any)[0].(map[string]any); j["rows"] != float64(33) || j["cols"] != float64(101) {
		t.Fatalf("the size after a resize: %v", j)
	}

	// ^C interrupts what runs, not the shell; exit ends it. The child says
	// "started" itself: by then it is the terminal's foreground group, so
	// the ^C cannot reach the shell in the moment between its fork and its
	// child taking the terminal (an echo from the shell could).
	agent.mustCall("editor_run_input", map[string]any{"job": id, "text": "sh -c 'echo started; exec sleep 600'\r"})
	readUntil(t, agent, id, off, "started\r\n")
	agent.mustCall("editor_run_input", map[string]any{"job": id, "text": "\x03echo after $?\r"})
	readUntil(t, agent, id, off, "after 130")
	agent.mustCall("editor_run_input", map[string]any{"job": id, "text": "exit 3\r"})
	deadline := time.Now().Add(30 * time.Second)
	for {
		j := person.mustCall("editor_run_status", map[string]any{"job": id})["jobs"].([]any)[0].(map[string]any)
		if j["state"] != "running" {
			if j["state"] != "exited" || j["exit_code"] != float64(3) {
				t.Fatalf("after exit: %v", j)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the shell did not end after exit: %v", j)
		}
		time.Sleep(20 * time.Millisecond)
	}
	late := person.mustCall("editor_run_input", map[string]any{"job": id, "text": "echo late\r"})
	if late["sent"] != float64(0) || late["state"] != "exited" {
		t.Fatalf("input after the end: %v", late)
	}

	// A job without a terminal takes no input; bad sizes are refused.
	plain := agent.mustCall("editor_run", map[string]any{"argv": []string{"true"}})
	for _, args := range []map[string]any{
		{"job": plain["job"], "text": "x"},
		{"job": id, "rows": 10},
		{"job": id},
	} {
		out, isErr := person.call("editor_run_input", args)
		if e, _ := out["error"].(map[string]any); !isErr || e["code"] != "invalid_argument" {
			t.Fatalf("input %v: %v", args, out)
		}
	}
}
