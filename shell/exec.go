package shell

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"syscall"
	"time"
)

// RunOptions bounds a child process.
type RunOptions struct {
	Dir     string // absolute; must be a folder inside the jail; "" is the first jail root
	Stdin   []byte
	Env     []string // appended to the current environment
	Timeout time.Duration
	MaxOut  int // bytes kept of stdout and of stderr each; 0 means 1 MiB
}

// Run executes name with args and returns its output. The working folder
// must be inside the jail (no Dir means the first jail root, never the
// process's own working folder). A run past its timeout, or whose ctx ends,
// is killed with its whole process group, so a grandchild holding the
// output open cannot keep Run waiting; the timeout is reported as timeout.
func (j *Jail) Run(ctx context.Context, name string, args []string, opt RunOptions) (stdout, stderr []byte, err error) {
	dir := opt.Dir
	if dir == "" {
		dir = j.roots[0].path
	}
	t, err := j.prepare(dir, true, false)
	if err != nil {
		return nil, nil, err
	}
	if fi, err := t.r.root.Stat(t.rel); err != nil {
		return nil, nil, AsError(err, t.abs)
	} else if !fi.IsDir() {
		return nil, nil, Errorf(CodeNotADirectory, t.abs, "%s is a file; a command runs in a folder", t.abs)
	}
	if opt.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opt.Timeout)
		defer cancel()
	}
	max := opt.MaxOut
	if max <= 0 {
		max = 1 << 20
	}
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = t.realAbs()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		// The whole group: the child and anything it started.
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	// If a descendant escaped the group and still holds the output pipes,
	// stop waiting for it shortly after the kill.
	cmd.WaitDelay = time.Second
	if len(opt.Env) > 0 {
		cmd.Env = append(cmd.Environ(), opt.Env...)
	}
	if opt.Stdin != nil {
		cmd.Stdin = bytes.NewReader(opt.Stdin)
	}
	out, errOut := &capped{max: max}, &capped{max: max}
	cmd.Stdout, cmd.Stderr = out, errOut
	err = cmd.Run()
	if err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		limit := "its deadline"
		if opt.Timeout > 0 {
			limit = opt.Timeout.String()
		}
		return out.b.Bytes(), errOut.b.Bytes(), Errorf(CodeTimeout, t.abs, "%s did not finish within %s and was stopped", name, limit)
	}
	return out.b.Bytes(), errOut.b.Bytes(), err
}

// capped keeps the first max bytes and discards the rest, so a chatty child
// cannot exhaust memory.
type capped struct {
	b   bytes.Buffer
	max int
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - c.b.Len(); room > 0 {
		if len(p) > room {
			c.b.Write(p[:room])
		} else {
			c.b.Write(p)
		}
	}
	return len(p), nil
}
