package shell

// Long-lived children (a language server, editor/lsp): a process whose
// stdin and stdout are pipes the caller speaks a protocol over, started in a
// folder of the jail with an environment the caller states in full (nothing
// of editord's own environment leaks in unless the caller passes it on). It
// runs in a process group of its own, so that ending it ends what it
// started too (gopls runs `go list`), and it ends when the context given to
// Start ends, so a service that stops leaves nothing running.

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// StartOptions describe a long-lived child.
type StartOptions struct {
	Dir string   // absolute; must be a folder inside the jail; "" is the first jail root
	Env []string // the whole environment of the child (KEY=value); nil is an empty one
	// StderrTail is how much of the end of stderr is kept for Proc.Stderr;
	// 0 means 16 KiB.
	StderrTail int
}

// Proc is a running child with pipes to its stdin and stdout.
type Proc struct {
	Stdin  io.WriteCloser
	Stdout io.ReadCloser

	cmd  *exec.Cmd
	tail *Tail
	done chan struct{}
	err  error // set before done is closed
	kill sync.Once
}

// Start runs path (an absolute executable, see LookPath) with args. The
// child is killed, with its whole process group, when ctx ends or Kill is
// called; Done is closed once it has exited and its pipes are drained.
func (j *Jail) Start(ctx context.Context, path string, args []string, opt StartOptions) (*Proc, error) {
	dir := opt.Dir
	if dir == "" {
		dir = j.roots[0].path
	}
	t, err := j.prepare(dir, true, false)
	if err != nil {
		return nil, err
	}
	if fi, err := t.r.root.Stat(t.rel); err != nil {
		return nil, AsError(err, t.abs)
	} else if !fi.IsDir() {
		return nil, Errorf(CodeNotADirectory, t.abs, "%s is a file; a program runs in a folder", t.abs)
	}
	if !filepath.IsAbs(path) {
		return nil, Errorf(CodeInvalidArgument, path, "%s is not an absolute path; find the program with LookPath first", path)
	}
	cmd := exec.Command(path, args...)
	cmd.Dir = t.realAbs()
	cmd.Env = append([]string{}, opt.Env...)
	// Its own group, to be ended whole; a server that outlives editord (a
	// SIGKILL) still ends when its stdin closes.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	max := opt.StderrTail
	if max <= 0 {
		max = 16 << 10
	}
	tail := NewTail(max)
	cmd.Stderr = tail
	// A grandchild that left the group and holds stderr open must not keep
	// Wait from returning once the child is gone.
	cmd.WaitDelay = time.Second
	if err := cmd.Start(); err != nil {
		return nil, AsError(err, path)
	}
	p := &Proc{Stdin: stdin, Stdout: stdout, cmd: cmd, tail: tail, done: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	go func() {
		select {
		case <-ctx.Done():
			p.Kill()
		case <-p.done:
		}
	}()
	return p, nil
}

// Kill ends the child and everything in its process group at once.
func (p *Proc) Kill() {
	p.kill.Do(func() {
		if p.cmd.Process != nil {
			_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
		}
	})
}

// Done is closed once the child has exited.
func (p *Proc) Done() <-chan struct{} { return p.done }

// Err is how the child exited; valid once Done is closed.
func (p *Proc) Err() error {
	select {
	case <-p.done:
		return p.err
	default:
		return nil
	}
}

// Pid is the child's process id (its group's too).
func (p *Proc) Pid() int { return p.cmd.Process.Pid }

// Stderr is the end of what the child wrote to stderr.
func (p *Proc) Stderr() string { return p.tail.String() }

// Wait waits for the child to exit or for d to pass, and reports whether
// it exited.
func (p *Proc) Wait(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.done:
		return true
	case <-t.C:
		return false
	}
}

// Tail keeps the last max bytes written to it: a child's stderr, for the
// message that says why it ended.
type Tail struct {
	mu  sync.Mutex
	b   []byte
	max int
}

// NewTail keeps the last max bytes written.
func NewTail(max int) *Tail { return &Tail{max: max} }

func (t *Tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if over := len(t.b) - t.max; over > 0 {
		t.b = append(t.b[:0], t.b[over:]...)
	}
	return len(p), nil
}

func (t *Tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}

// Environ is editord's own environment, for a caller that passes parts of
// it on to a child (StartOptions.Env is the child's whole environment).
func Environ() []string { return os.Environ() }

// LookPath finds an executable by name in the folders of pathList (a PATH
// value), as a shell would; a name with a slash is taken as it is (made
// absolute). A relative folder in pathList is skipped: which program runs
// must not depend on the working folder.
func LookPath(name, pathList string) (string, error) {
	if strings.Contains(name, "/") {
		abs, err := filepath.Abs(name)
		if err != nil {
			return "", err
		}
		if err := executable(abs); err != nil {
			return "", err
		}
		return abs, nil
	}
	for _, dir := range filepath.SplitList(pathList) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue
		}
		p := filepath.Join(dir, name)
		if executable(p) == nil {
			return p, nil
		}
	}
	return "", Errorf(CodeNotFound, name, "%s is not on PATH", name)
}

// executable reports whether p is a regular file someone may execute.
func executable(p string) error {
	fi, err := os.Stat(p)
	if err != nil {
		return AsError(err, p)
	}
	if !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 {
		return Errorf(CodeNotFound, p, "%s is not an executable file", p)
	}
	return nil
}

// FindAbove looks for rel in the folder of program's real path (links
// resolved) and in each folder above it, and returns the first file found:
// how a program installed by npm finds a package installed beside it.
func FindAbove(program, rel string) (string, bool) {
	real, err := filepath.EvalSymlinks(program)
	if err != nil {
		return "", false
	}
	for dir := filepath.Dir(real); ; dir = filepath.Dir(dir) {
		p := filepath.Join(dir, rel)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			return p, true
		}
		if filepath.Dir(dir) == dir {
			return "", false
		}
	}
}
