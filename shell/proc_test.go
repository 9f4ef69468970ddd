package shell

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A long-lived child: pipes both ways, its environment exactly the one
// given, its folder inside the jail, and its whole process group ended
// with the context.
func TestStartPipesEnvAndGroupKill(t *testing.T) {
	f := newFixture(t)
	f.dir("sub")
	sh, err := LookPath("sh", os.Getenv("PATH"))
	if err != nil {
		t.Skip("no sh")
	}
	ctx, cancel := context.WithCancel(context.Background())
	// The child echoes its stdin, reports its folder and environment, and
	// leaves a grandchild in its group.
	script := `sleep 600 & echo "grandchild $!"; echo "pwd $(pwd)"; echo "env $FOO $HOME"; while read l; do echo "got $l"; done`
	p, err := f.j.Start(ctx, sh, []string{"-c", script}, StartOptions{Dir: f.abs("sub"), Env: []string{"FOO=bar", "PATH=/usr/bin:/bin"}})
	if err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(p.Stdout)
	line := func() string {
		s, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("read: %v (stderr %q)", err, p.Stderr())
		}
		return strings.TrimSpace(s)
	}
	var grandchild int
	fmt.Sscanf(line(), "grandchild %d", &grandchild)
	if got := line(); got != "pwd "+f.abs("sub") {
		t.Fatalf("folder: %q", got)
	}
	if got := line(); got != "env bar" {
		t.Fatalf("environment leaked or missing: %q", got)
	}
	fmt.Fprintln(p.Stdin, "hello")
	if got := line(); got != "got hello" {
		t.Fatalf("echo: %q", got)
	}
	cancel()
	select {
	case <-p.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the child outlived its context")
	}
	// The grandchild went with the group (it may linger as a zombie until
	// reaped by init, so wait for it to be gone or be one).
	deadline := time.Now().Add(10 * time.Second)
	for grandchild > 0 && syscall.Kill(grandchild, 0) == nil {
		if st, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", grandchild)); err == nil && strings.Contains(string(st), ") Z ") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("grandchild %d survived the kill", grandchild)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestStartRefusesFoldersOutsideTheJail(t *testing.T) {
	f := newFixture(t)
	sh, err := LookPath("sh", os.Getenv("PATH"))
	if err != nil {
		t.Skip("no sh")
	}
	_, err = f.j.Start(context.Background(), sh, []string{"-c", "true"}, StartOptions{Dir: f.canary})
	wantCode(t, err, CodeOutsideJail)
	_, err = f.j.Start(context.Background(), "sh", nil, StartOptions{})
	wantCode(t, err, CodeInvalidArgument)
}

func TestLookPathSkipsRelativeFolders(t *testing.T) {
	dir := t.TempDir()
	mustWrite(t, filepath.Join(dir, "tool"), "#!/bin/sh\n", 0o755)
	mustWrite(t, filepath.Join(dir, "plain"), "data\n", 0o644)
	t.Chdir(dir)
	if _, err := LookPath("tool", "."+string(os.PathListSeparator)+"bin"); err == nil {
		t.Fatal("found a program through a relative PATH entry")
	}
	if p, err := LookPath("tool", dir); err != nil || p != filepath.Join(dir, "tool") {
		t.Fatalf("LookPath: %q, %v", p, err)
	}
	if _, err := LookPath("plain", dir); err == nil {
		t.Fatal("found a file that is not executable")
	}
}
