package shell

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"time"
)

// RunOptions bounds a child process.
type RunOptions struct {
	Dir     string // absolute; must be inside the jail
	Stdin   []byte
	Env     []string // appended to the current environment
	Timeout time.Duration
	MaxOut  int // bytes kept of stdout and of stderr each; 0 means 1 MiB
}

// Run executes name with args and returns its output. The working folder
// must be inside the jail; a run past its timeout is killed and reported as
// timeout.
func (j *Jail) Run(ctx context.Context, name string, args []string, opt RunOptions) (stdout, stderr []byte, err error) {
	if opt.Dir != "" {
		if _, err := j.prepare(opt.Dir, true, false); err != nil {
			return nil, nil, err
		}
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
	cmd.Dir = opt.Dir
	if len(opt.Env) > 0 {
		cmd.Env = append(cmd.Environ(), opt.Env...)
	}
	if opt.Stdin != nil {
		cmd.Stdin = bytes.NewReader(opt.Stdin)
	}
	out, errOut := &capped{max: max}, &capped{max: max}
	cmd.Stdout, cmd.Stderr = out, errOut
	err = cmd.Run()
	if ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return out.b.Bytes(), errOut.b.Bytes(), Errorf(CodeTimeout, opt.Dir, "%s did not finish within %s", name, opt.Timeout)
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
