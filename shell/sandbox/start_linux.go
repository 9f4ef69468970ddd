//go:build linux

package sandbox

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/editord/editord/shell"
)

// Process is a command running in a sandbox.
type Process struct {
	in      *anInit
	status  *bufio.Reader
	pid     int // the init's, in the host's PID namespace
	start   time.Time
	done    chan struct{}
	res     Result
	copies  sync.WaitGroup // the standard streams' copying
	pty     *os.File       // the terminal's master, for a command on one
	piped   bool           // stdin and stdout are the caller's (StartPiped)
	scratch string
	// ownScratch: the sandbox made scratch, and removes it at the end.
	ownScratch bool
	// refill: a spare init is started for the next command at the end.
	refill    bool
	fromSpare bool // the init was a spare
	mu        sync.Mutex
	stopped   string // "timeout" or "killed": why we stopped it
}

// Start runs sp's command in a new sandbox. The context bounds it: when ctx
// ends, the command and everything it started are killed.
func Start(ctx context.Context, sp Spec) (*Process, error) {
	if err := Available(); err != nil {
		return nil, err
	}
	return start(ctx, sp, false)
}

func start(ctx context.Context, sp Spec, probe bool) (*Process, error) {
	p := &Process{done: make(chan struct{}), scratch: sp.Scratch, piped: sp.piped}
	if p.scratch == "" {
		dir, err := os.MkdirTemp("", "editord-box-")
		if err != nil {
			return nil, shell.Errorf(shell.CodeSandboxUnavailable, "", "the sandbox needs a temporary folder: %v", err)
		}
		p.scratch, p.ownScratch = dir, true
	}
	if err := p.begin(ctx, sp, probe); err != nil {
		p.cleanup()
		return nil, err
	}
	return p, nil
}

// begin hands the command to an init (a spare one, or one started now)
// and waits until it has started the command.
func (p *Process) begin(ctx context.Context, sp Spec, probe bool) error {
	is := initSpec{Path: sp.Path, Args: sp.Args, Dir: sp.Dir, Env: sp.Env, Read: sp.Read, Write: sp.Write,
		Hide: sp.Hide, ReadOnly: sp.ReadOnly, Network: sp.Network, Limits: sp.Limits.withDefaults(), Probe: probe}
	if sp.Timeout > 0 {
		is.CPU = uint64(sp.Timeout/time.Second) + 1
	}
	var err error
	if is.VoidFile, is.VoidDir, err = makeVoids(p.scratch); err != nil {
		return err
	}
	is.Masks = masks(sp)
	for _, c := range sp.Cover {
		f, err := writeCover(p.scratch, c.Content)
		if err != nil {
			return err
		}
		is.Covers = append(is.Covers, [2]string{f, c.Path})
	}
	// As root, the process limit is the init's pids cgroup, not an rlimit.
	is.NoRlimit = os.Geteuid() == 0
	var slave *os.File
	if sp.Terminal != nil {
		if p.pty, slave, is.TTY, err = openPTY(*sp.Terminal); err != nil {
			return shell.Errorf(shell.CodeSandboxUnavailable, sp.Dir, "the command's terminal could not be made: %v", err)
		}
		defer slave.Close() // the init holds it once started
	}
	spec, err := json.Marshal(is)
	if err != nil {
		return err
	}
	for try := 0; ; try++ {
		var in *anInit
		spare := false
		if slave != nil {
			in, err = launchInit(sp.Network, slave, is.Limits.Processes)
		} else {
			in, spare, err = takeInit(sp.Network, is.Limits.Processes)
		}
		if err != nil {
			return shell.Errorf(shell.CodeSandboxUnavailable, sp.Dir, "the sandbox could not start (%v); commands cannot run on this machine", err)
		}
		p.in, p.pid = in, in.cmd.Process.Pid
		p.refill, p.fromSpare = slave == nil, spare
		p.res.ProcessLimit = in.limit
		p.status = bufio.NewReader(in.statusR)
		p.start = time.Now()
		_, werr := in.specW.Write(spec)
		in.specW.Close()
		line, _ := p.status.ReadString('\n')
		word, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
		if word == "started" || (probe && word == "ok") {
			p.stream(sp)
			go p.wait(ctx, sp.Timeout)
			return nil
		}
		in.discard()
		if spare && word != "error" && try == 0 {
			continue // the spare had died meanwhile: start one now
		}
		msg := rest
		if word != "error" {
			msg = fmt.Sprintf("the sandbox's init ended before starting the command (%s)", in.cmd.ProcessState)
			if werr != nil {
				msg += fmt.Sprintf("; sending it the spec: %v", werr)
			}
		}
		code := shell.CodeSandboxUnavailable
		if strings.HasPrefix(msg, "starting ") {
			code = shell.CodeNotFound
		}
		return shell.Errorf(code, sp.Path, "%s", msg)
	}
}

// pipes are the command's stdin and stdout for StartPiped's caller.
func (p *Process) pipes() (io.WriteCloser, io.ReadCloser) { return p.in.stdinW, p.in.stdoutR }

// stream copies the command's standard streams (pipes, or its terminal)
// to and from the spec's.
func (p *Process) stream(sp Spec) {
	in := p.in
	if p.pty != nil {
		if sp.Stdin != nil {
			go io.Copy(p.pty, sp.Stdin) // typed, as if by hand
		}
		w := sp.Stdout
		if w == nil {
			w = io.Discard
		}
		p.copies.Add(1)
		go func() {
			defer p.copies.Done()
			// Ends with EIO once every holder of the terminal is gone.
			io.CopyBuffer(w, struct{ io.Reader }{p.pty}, make([]byte, copyBufferBytes))
		}()
		return
	}
	streams := []struct {
		r *os.File
		w io.Writer
	}{{in.stdoutR, sp.Stdout}, {in.stderrR, sp.Stderr}}
	switch {
	case sp.piped:
		streams = streams[1:] // stdin and stdout are the caller's (pipes)
	case sp.Stdin == nil:
		in.stdinW.Close()
	default:
		go func() {
			io.Copy(in.stdinW, sp.Stdin)
			in.stdinW.Close()
		}()
	}
	for _, c := range streams {
		w := c.w
		if w == nil {
			w = io.Discard
		}
		p.copies.Add(1)
		go func(r *os.File) {
			defer p.copies.Done()
			// A quarter of what the pipe holds (see launchInit) at a
			// time: a chatty command's output in fewer writes to its log.
			io.CopyBuffer(w, struct{ io.Reader }{r}, make([]byte, copyBufferBytes))
		}(c.r)
	}
}

// cleanup removes what the run made outside the box: its cgroup, and its
// scratch folder when the sandbox made it.
func (p *Process) cleanup() {
	if p.pty != nil {
		p.pty.Close()
	}
	if p.in != nil {
		p.in.cg.remove()
	}
	if p.ownScratch {
		os.RemoveAll(p.scratch)
	}
}

// wait follows the process to its end: the timeout or the context stop
// it, and the init's last status line says how the command ended.
func (p *Process) wait(ctx context.Context, timeout time.Duration) {
	defer close(p.done)
	var timer <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		timer = t.C
	}
	exited := make(chan struct{})
	go func() {
		select {
		case <-timer:
			p.kill("timeout")
		case <-ctx.Done():
			p.kill("killed")
		case <-exited:
		}
	}()
	in := p.in
	in.cmd.Wait()
	close(exited)
	if in.stdinW != nil || p.pty != nil {
		// Everything holding the output pipes is in the namespace, which
		// dies with the init; this only bounds a wait on a kernel that lags.
		copied := make(chan struct{})
		go func() {
			p.copies.Wait()
			close(copied)
		}()
		lag := time.NewTimer(5 * time.Second)
		select {
		case <-copied:
		case <-lag.C:
		}
		lag.Stop()
		if p.pty == nil {
			if !p.piped {
				in.stdoutR.Close() // else the caller's, to read to the end
			}
			in.stderrR.Close()
		}
	}
	line, _ := p.status.ReadString('\n')
	in.statusR.Close()
	p.cleanup()
	if p.refill {
		refillSpare(in.network, in.procs)
	}
	p.res.Duration = time.Since(p.start)
	p.res.ExitCode = -1
	if f := strings.Fields(line); len(f) >= 2 && f[0] == "exit" {
		if len(f) == 3 {
			p.res.Signal = f[2]
		} else if n, err := strconv.Atoi(f[1]); err == nil {
			p.res.ExitCode = n
		}
	} else if p.res.Signal == "" {
		p.res.Signal = "killed"
	}
	p.mu.Lock()
	switch p.stopped {
	case "timeout":
		p.res.TimedOut = true
	case "killed":
		p.res.Killed = true
	}
	p.mu.Unlock()
}

// kill stops the init, and with it the whole PID namespace. why, when
// set, is remembered as the reason (the first one wins).
func (p *Process) kill(why string) {
	p.mu.Lock()
	if p.stopped == "" {
		p.stopped = why
	}
	p.mu.Unlock()
	syscall.Kill(p.pid, syscall.SIGKILL)
}

// Input types data on the command's terminal.
func (p *Process) Input(data []byte) error {
	if p.pty == nil {
		return shell.Errorf(shell.CodeInvalidArgument, "", "the command does not run on a terminal: it takes no input once started")
	}
	_, err := p.pty.Write(data)
	return err
}

// Resize changes the size of the command's terminal.
func (p *Process) Resize(ts TermSize) error {
	if p.pty == nil {
		return shell.Errorf(shell.CodeInvalidArgument, "", "the command does not run on a terminal")
	}
	return setSize(p.pty, ts)
}

// Kill stops the command and everything it started.
func (p *Process) Kill() { p.kill("killed") }

// Wait returns how the command ended, once it has.
func (p *Process) Wait() Result {
	<-p.done
	return p.res
}

// Done is closed when the command has ended.
func (p *Process) Done() <-chan struct{} { return p.done }

// Pid is the init's process id on the host.
func (p *Process) Pid() int { return p.pid }

// makeVoids creates the empty, unreadable file and folder that cover
// hidden paths.
func makeVoids(scratch string) (file, dir string, err error) {
	file, dir = filepath.Join(scratch, "void"), filepath.Join(scratch, "void.d")
	if err := os.MkdirAll(scratch, 0o700); err != nil {
		return "", "", shell.AsError(err, scratch)
	}
	f, err := os.OpenFile(file, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0)
	switch {
	case err == nil:
		f.Close()
	case !os.IsExist(err):
		return "", "", shell.AsError(err, file)
	}
	if err := os.Mkdir(dir, 0); err != nil && !os.IsExist(err) {
		return "", "", shell.AsError(err, dir)
	}
	// An earlier run's voids are reused; an umask or a hand may have left
	// other modes.
	for _, p := range []string{file, dir} {
		if err := os.Chmod(p, 0); err != nil {
			return "", "", shell.AsError(err, p)
		}
	}
	return file, dir, nil
}

// writeCover puts content in scratch under a name of its own (its hash),
// unless it is there: a scratch folder is shared by commands running at
// once, and a cover bind-mounted in one box must not change.
func writeCover(scratch string, content []byte) (string, error) {
	sum := sha256.Sum256(content)
	f := filepath.Join(scratch, "cover-"+hex.EncodeToString(sum[:12]))
	if fi, err := os.Lstat(f); err == nil && fi.Mode().IsRegular() && fi.Size() == int64(len(content)) {
		return f, nil
	}
	tmp, err := os.CreateTemp(scratch, ".cover-*")
	if err != nil {
		return "", shell.AsError(err, scratch)
	}
	_, err = tmp.Write(content)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o444)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), f)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return "", shell.AsError(err, f)
	}
	return f, nil
}

// KillInit stops the sandbox whose init has host process id pid (a job of
// another editord process). The process must be a sandbox's init, so a
// recycled pid is never signalled; false when it is not (any more).
func KillInit(pid int) bool {
	if pid <= 0 {
		return false
	}
	cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil || string(cmdline) != "editord-sandbox\x00" {
		return false
	}
	return syscall.Kill(pid, syscall.SIGKILL) == nil
}

// maskable are the folders of the host's services' sockets (the Docker
// daemon's, D-Bus's, a user's runtime folder with its agents): a command
// has no business there, and Landlock before ABI 9 does not govern
// connecting to a pathname socket, so the box covers them with an empty
// tmpfs, unless the command is given something beneath one.
var maskable = []string{"/run"}

func masks(sp Spec) []string {
	var out []string
next:
	for _, m := range append(append([]string{}, maskable...), sp.Mask...) {
		if fi, err := os.Lstat(m); err != nil || !fi.IsDir() {
			continue
		}
		for _, p := range append(append([]string{sp.Path, sp.Dir}, sp.Read...), sp.Write...) {
			if p == m || strings.HasPrefix(p, m+"/") {
				continue next
			}
		}
		out = append(out, m)
	}
	return out
}
