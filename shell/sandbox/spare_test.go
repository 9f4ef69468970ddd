//go:build linux

package sandbox

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// waitSpare waits until a spare init for network is ready and returns it.
func waitSpare(t *testing.T, network bool) *anInit {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		spares.mu.Lock()
		in := spares.spare
		spares.mu.Unlock()
		if in != nil && in.network == network {
			return in
		}
		if time.Now().After(deadline) {
			t.Fatal("no spare init was started after a command ended")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func startIn(t *testing.T, sp Spec) (*Process, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	var out, errOut bytes.Buffer
	sp.Stdout, sp.Stderr = &out, &errOut
	p, err := Start(context.Background(), sp)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	return p, &out, &errOut
}

// A command on a spare init runs as on a new one: its streams, its exit
// status, the box's rules and its process limit.
func TestSpareInit(t *testing.T) {
	b := newBox(t)
	b.run(b.spec("true"))
	spare := waitSpare(t, false)
	sp := b.spec("sh", "-c", "cat; echo err >&2; echo made > b.txt; echo x > "+filepath.Join(b.outside, "x")+"; exit 4")
	sp.Stdin = strings.NewReader("from stdin\n")
	sp.Limits.Processes = 77 // not the spare's: its cgroup is set at the take
	p, out, errOut := startIn(t, sp)
	if !p.fromSpare || p.pid != spare.cmd.Process.Pid {
		t.Fatalf("the command did not run on the spare init (pid %d, spare's %d)", p.pid, spare.cmd.Process.Pid)
	}
	if p.in.cg != nil && p.in.cg.max != 77 {
		t.Fatalf("the spare's cgroup allows %d processes, want 77", p.in.cg.max)
	}
	r := p.Wait()
	if r.ExitCode != 4 || out.String() != "from stdin\n" || !strings.HasPrefix(errOut.String(), "err\n") {
		t.Fatalf("result %+v, stdout %q, stderr %q", r, out, errOut)
	}
	if !strings.Contains(errOut.String(), "Permission denied") {
		t.Fatalf("writing outside the jail from a spare init: stderr %q", errOut)
	}
	if _, err := os.Stat(filepath.Join(b.outside, "x")); err == nil {
		t.Fatal("a command on a spare init wrote outside the jail")
	}
	if data, err := os.ReadFile(filepath.Join(b.jail, "b.txt")); err != nil || string(data) != "made\n" {
		t.Fatalf("b.txt: %q %v", data, err)
	}

	// A spare that died meanwhile is replaced by a new init.
	spare = waitSpare(t, false)
	spare.cmd.Process.Kill()
	p, out, _ = startIn(t, b.spec("echo", "after"))
	if p.fromSpare {
		t.Fatal("the command was given to a dead spare")
	}
	if r := p.Wait(); r.ExitCode != 0 || out.String() != "after\n" {
		t.Fatalf("after a dead spare: %+v %q", r, out)
	}

	// A command with the host's network needs an init outside a network
	// namespace: not the spare.
	waitSpare(t, false)
	sp = b.spec("true")
	sp.Network = true
	p, _, _ = startIn(t, sp)
	if p.fromSpare {
		t.Fatal("a command with the network ran on a spare made without it")
	}
	p.Wait()

	// Off: the spare is gone, process and cgroup.
	spare = waitSpare(t, true)
	KeepSpare(false)
	defer KeepSpare(true)
	if spare.cmd.ProcessState == nil {
		t.Fatal("the spare init was not reaped")
	}
	if spare.cg != nil {
		if _, err := os.Stat(spare.cg.dir); !os.IsNotExist(err) {
			t.Fatalf("the spare's cgroup %s is left: %v", spare.cg.dir, err)
		}
	}
	spares.mu.Lock()
	left := spares.spare
	spares.mu.Unlock()
	if left != nil {
		t.Fatal("a spare is kept while spares are off")
	}
	b.run(b.spec("true"))
	spares.mu.Lock()
	left, filling := spares.spare, spares.filling
	spares.mu.Unlock()
	if left != nil || filling != nil {
		t.Fatal("a spare was started while spares are off")
	}
}
