package shell

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"
)

func TestRun(t *testing.T) {
	f := newFixture(t)
	f.dir("sub")
	f.link("sub", "sublink")
	f.link(f.canary, "out")
	f.file("a.txt", "a")
	cases := []struct {
		name       string
		args       []string
		opt        RunOptions
		wantOut    string
		wantErr    string
		code       Code
		exitStatus int // nonzero: want an *exec.ExitError with it
	}{
		{name: "output", args: []string{"-c", "echo out; echo err >&2"}, wantOut: "out\n", wantErr: "err\n"},
		{name: "stdin", args: []string{"-c", "cat"}, opt: RunOptions{Stdin: []byte("in\r\nput")}, wantOut: "in\r\nput"},
		{name: "no stdin reads nothing", args: []string{"-c", "cat"}, wantOut: ""},
		{name: "env", args: []string{"-c", "printf %s \"$EDITORD_X\""}, opt: RunOptions{Env: []string{"EDITORD_X=y z"}}, wantOut: "y z"},
		{name: "dir", args: []string{"-c", "pwd -P"}, opt: RunOptions{Dir: f.abs("sub")}, wantOut: f.abs("sub") + "\n"},
		{name: "dir through a link", args: []string{"-c", "pwd -P"}, opt: RunOptions{Dir: f.abs("sublink")}, wantOut: f.abs("sub") + "\n"},
		{name: "no dir runs in the jail", args: []string{"-c", "pwd -P"}, wantOut: f.root + "\n"},
		{name: "dir outside", args: []string{"-c", "pwd"}, opt: RunOptions{Dir: f.canary}, code: CodeOutsideJail},
		{name: "dir dotdot outside", args: []string{"-c", "pwd"}, opt: RunOptions{Dir: f.root + "/.."}, code: CodeOutsideJail},
		{name: "dir link outside", args: []string{"-c", "pwd"}, opt: RunOptions{Dir: f.abs("out")}, code: CodeOutsideJail},
		{name: "dir relative", args: []string{"-c", "pwd"}, opt: RunOptions{Dir: "sub"}, code: CodeInvalidArgument},
		{name: "dir missing", args: []string{"-c", "pwd"}, opt: RunOptions{Dir: f.abs("nope")}, code: CodeNotFound},
		{name: "dir is a file", args: []string{"-c", "pwd"}, opt: RunOptions{Dir: f.abs("a.txt")}, code: CodeNotADirectory},
		{name: "exit status", args: []string{"-c", "echo partial; exit 3"}, wantOut: "partial\n", exitStatus: 3},
		{name: "output cap", args: []string{"-c", "head -c 100000 /dev/zero | tr '\\0' x; head -c 5000 /dev/zero >&2"},
			opt: RunOptions{MaxOut: 1000}, wantOut: strings.Repeat("x", 1000), wantErr: strings.Repeat("\x00", 1000)},
		{name: "default cap is 1 MiB", args: []string{"-c", "head -c 1100000 /dev/zero"}, wantOut: strings.Repeat("\x00", 1<<20)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, errOut, err := f.j.Run(context.Background(), "sh", c.args, c.opt)
			if c.exitStatus != 0 {
				var ee *exec.ExitError
				if !errors.As(err, &ee) || ee.ExitCode() != c.exitStatus {
					t.Fatalf("want exit status %d, got %v", c.exitStatus, err)
				}
			} else {
				wantCode(t, err, c.code)
			}
			if c.code != "" {
				return
			}
			if string(out) != c.wantOut {
				t.Fatalf("stdout %q (%d bytes), want %q", trim(out), len(out), trim([]byte(c.wantOut)))
			}
			if string(errOut) != c.wantErr {
				t.Fatalf("stderr %q (%d bytes), want %q", trim(errOut), len(errOut), trim([]byte(c.wantErr)))
			}
		})
	}
	if _, _, err := f.j.Run(context.Background(), "editord-no-such-program", nil, RunOptions{}); err == nil {
		t.Fatal("a missing program ran")
	}
}

func trim(b []byte) string {
	if len(b) > 40 {
		return string(b[:40]) + "…"
	}
	return string(b)
}

func TestRunTimeout(t *testing.T) {
	f := newFixture(t)
	cases := []struct {
		name   string
		script string
	}{
		{"sleeping child", "exec sleep 10"},
		// sh forks sleep, which keeps stdout open after sh is killed: the
		// whole process group must go, or Run waits for the grandchild.
		{"grandchild holding the output open", "sleep 10; echo done"},
		{"background grandchild", "sleep 10 & wait"},
		{"ignores SIGTERM", "trap '' TERM; sleep 10; echo done"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			_, _, err := f.j.Run(context.Background(), "sh", []string{"-c", c.script}, RunOptions{Timeout: 150 * time.Millisecond})
			wantCode(t, err, CodeTimeout)
			if d := time.Since(start); d > 3*time.Second {
				t.Fatalf("Run returned after %v for a 150ms timeout", d)
			}
		})
	}
	t.Run("caller's context cancelled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(100*time.Millisecond, cancel)
		start := time.Now()
		_, _, err := f.j.Run(ctx, "sh", []string{"-c", "sleep 10; echo done"}, RunOptions{})
		if err == nil {
			t.Fatal("a cancelled run succeeded")
		}
		if d := time.Since(start); d > 3*time.Second {
			t.Fatalf("Run returned after %v", d)
		}
	})
	t.Run("fast run within the timeout", func(t *testing.T) {
		out, _, err := f.j.Run(context.Background(), "sh", []string{"-c", "echo ok"}, RunOptions{Timeout: 5 * time.Second})
		wantCode(t, err, "")
		if string(out) != "ok\n" {
			t.Fatalf("out %q", out)
		}
	})
}
