package main

// Suite 7 of issue 6, the part measured on the real binary: the peak
// resident memory (getrusage's ru_maxrss, the VmHWM of the child) of one
// `editord call` against a 10 GB sparse file, a 100 MB single-line file
// and a folder of 200,000 entries (20,000 in the quick run). The
// allocation side of the same suite is editor/stress_bounds_test.go.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// peakCall runs `editord call` and returns its response, whether it was an
// error, its peak RSS in MiB and how long it took.
func peakCall(t *testing.T, root, state, id, args string) (map[string]any, bool, float64, time.Duration) {
	t.Helper()
	cmd := exec.Command(binary, "call", id, args, "--root", root, "--state-dir", state)
	cmd.Env = append(os.Environ(), "HOME="+state, "XDG_CONFIG_HOME="+state)
	var out bytes.Buffer
	cmd.Stdout = &out
	start := time.Now()
	cmd.Run()
	took := time.Since(start)
	var m map[string]any
	if err := json.Unmarshal(out.Bytes(), &m); err != nil {
		t.Fatalf("editord call %s: %v\n%.500s", id, err, out.Bytes())
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		t.Skip("no rusage on this system")
	}
	_, isErr := m["error"]
	return m, isErr, float64(ru.Maxrss) / 1024, took // Linux reports KiB
}

func TestStressBoundsPeakRSS(t *testing.T) {
	root := workspaceDir(t)
	state := t.TempDir()
	_, _, idle, _ := peakCall(t, root, state, "editor::workspace::get", `{}`)
	t.Logf("%-44s peak RSS %6.1f MiB", "baseline (workspace::get)", idle)
	check := func(what string, peak float64, took time.Duration, bound float64) {
		t.Helper()
		t.Logf("%-44s peak RSS %6.1f MiB (+%5.1f over the baseline) in %v", what, peak, peak-idle, took.Round(time.Millisecond))
		if peak-idle > bound {
			t.Errorf("%s: peak RSS %.1f MiB over the baseline, bound %.0f", what, peak-idle, bound)
		}
	}

	// 10 GB sparse, text at the start.
	f, err := os.Create(filepath.Join(root, "huge.log"))
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(strings.Repeat("a log line that goes on and on\n", 100_000))
	if err := f.Truncate(10 << 30); err != nil {
		t.Skipf("sparse file: %v", err)
	}
	f.Close()
	m, isErr, peak, took := peakCall(t, root, state, "editor::open", `{"path": "huge.log"}`)
	if isErr || m["truncated"] != true {
		t.Errorf("open of 10 GB: %.300v", m)
	}
	check("open a 10 GB sparse file", peak, took, 48)
	m, isErr, peak, took = peakCall(t, root, state, "editor::save", fmt.Sprintf(`{"path": "huge.log", "content": "x", "expected_version": %q}`, m["version"]))
	if !isErr || !strings.Contains(fmt.Sprint(m), "too_large") {
		t.Errorf("save over 10 GB: %.300v", m)
	}
	check("save over a 10 GB sparse file", peak, took, 80)

	// 100 MB on one line.
	f, _ = os.Create(filepath.Join(root, "one.line"))
	block := bytes.Repeat([]byte("é"), 512<<10)
	for range 100 {
		f.Write(block)
	}
	f.WriteString("needle")
	f.Close()
	os.WriteFile(filepath.Join(root, "small.txt"), []byte("needle\n"), 0o644)
	m, isErr, peak, took = peakCall(t, root, state, "editor::open", `{"path": "one.line"}`)
	if isErr || m["truncated"] != true {
		t.Errorf("open of a 100 MB line: %.300v", m)
	}
	check("open a 100 MB single-line file", peak, took, 48)
	m, isErr, peak, took = peakCall(t, root, state, "editor::search", `{"pattern": "needle"}`)
	// Searched in bounded memory: the 100 MB line is named in skipped with
	// the reason (issue 12), and is no hit.
	if isErr || strings.Contains(fmt.Sprint(m["files"]), "one.line") || !strings.Contains(fmt.Sprint(m["skipped"]), "one.line") || !strings.Contains(fmt.Sprint(m), "small.txt") {
		t.Errorf("search beside a 100 MB line: %.300v", m)
	}
	check("search beside a 100 MB single-line file", peak, took, 48)
	os.Remove(filepath.Join(root, "huge.log"))
	os.Remove(filepath.Join(root, "one.line"))

	// A wide folder.
	n := stN(20_000, 200_000)
	dir := filepath.Join(root, "wide")
	os.Mkdir(dir, 0o755)
	for i := range n {
		f, err := os.OpenFile(filepath.Join(dir, fmt.Sprintf("file-%07d.txt", i)), os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	m, isErr, peak, took = peakCall(t, root, state, "editor::tree", `{"path": "wide", "max_depth": 1}`)
	if isErr || m["truncated"] != true {
		t.Errorf("tree of %d entries: %.300v", n, m)
	}
	check(fmt.Sprintf("tree of a %d-entry folder", n), peak, took, 40+float64(n)/1000)
	_, isErr, peak, took = peakCall(t, root, state, "editor::find", `{"query": "file-0000042"}`)
	if isErr {
		t.Error("find failed")
	}
	check(fmt.Sprintf("find among %d entries", n), peak, took, 40+float64(n)/500)
}
