//go:build linux

package sandbox

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
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
	cmd     *exec.Cmd
	status  *bufio.Reader
	pid     int // the init's, in the host's PID namespace
	start   time.Time
	done    chan struct{}
	res     Result
	cg      *pidsCgroup
	scratch string
	// ownScratch: the sandbox made scratch, and removes it at the end.
	ownScratch bool
	mu         sync.Mutex
	stopped    string // "timeout" or "killed": why we stopped it
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
	p := &Process{done: make(chan struct{}), res: Result{ProcessLimit: "rlimit"}, scratch: sp.Scratch}
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

// begin starts the init and waits until it has started the command.
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
	for i, c := range sp.Cover {
		f := filepath.Join(p.scratch, fmt.Sprintf("cover-%d", i))
		if err := os.WriteFile(f, c.Content, 0o444); err != nil {
			return shell.AsError(err, f)
		}
		is.Covers = append(is.Covers, [2]string{f, c.Path})
	}
	if os.Geteuid() == 0 {
		// The kernel exempts root from RLIMIT_NPROC (even as root of a
		// user namespace): count processes in a cgroup instead.
		is.NoRlimit = true
		p.res.ProcessLimit = "none"
		if cg, err := newPidsCgroup(is.Limits.Processes); err == nil {
			p.cg, is.Cgroup = cg, cg.dir
			p.res.ProcessLimit = "cgroup"
		}
	}
	spec, err := json.Marshal(is)
	if err != nil {
		return err
	}
	specR, specW, err := os.Pipe()
	if err != nil {
		return err
	}
	statusR, statusW, err := os.Pipe()
	if err != nil {
		specR.Close()
		specW.Close()
		return err
	}
	cmd := exec.Command("/proc/self/exe")
	cmd.Args = []string{"editord-sandbox"}
	// A race-enabled build (tests) would otherwise sleep a second at exit.
	cmd.Env = []string{envInit + "=init", "GORACE=atexit_sleep_ms=0"}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = sp.Stdin, sp.Stdout, sp.Stderr
	cmd.ExtraFiles = []*os.File{specR, statusW} // fds 3 and 4
	flags := syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS | syscall.CLONE_NEWPID | syscall.CLONE_NEWIPC | syscall.CLONE_NEWUTS
	if !sp.Network {
		flags |= syscall.CLONE_NEWNET
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Cloneflags: uintptr(flags),
		// Root of the namespace is this user outside it: the command's
		// files are ours, and the init keeps the capabilities it needs to
		// mount (the command gets none, see dropPrivileges).
		UidMappings:                []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}},
		GidMappings:                []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}},
		GidMappingsEnableSetgroups: false,
		Pdeathsig:                  syscall.SIGKILL,
	}
	// Everything holding the output pipes is in the namespace, which dies
	// with the init; this only bounds a wait on a kernel that lags.
	cmd.WaitDelay = 5 * time.Second
	p.start = time.Now()
	err = cmd.Start()
	specR.Close()
	statusW.Close()
	if err != nil {
		specW.Close()
		statusR.Close()
		return shell.Errorf(shell.CodeSandboxUnavailable, sp.Dir, "the sandbox could not start (%v); commands cannot run on this machine", err)
	}
	p.cmd, p.pid = cmd, cmd.Process.Pid
	p.status = bufio.NewReader(statusR)
	_, werr := specW.Write(spec)
	specW.Close()
	line, _ := p.status.ReadString('\n')
	word, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
	if word == "started" || (probe && word == "ok") {
		go p.wait(ctx, sp.Timeout, statusR)
		return nil
	}
	p.kill("")
	cmd.Wait()
	statusR.Close()
	msg := rest
	if word != "error" {
		msg = fmt.Sprintf("the sandbox's init ended before starting the command (%s)", cmd.ProcessState)
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

// cleanup removes what the run made outside the box: its cgroup, and its
// scratch folder when the sandbox made it.
func (p *Process) cleanup() {
	p.cg.remove()
	if p.ownScratch {
		os.RemoveAll(p.scratch)
	}
}

// wait follows the process to its end: the timeout or the context stop
// it, and the init's last status line says how the command ended.
func (p *Process) wait(ctx context.Context, timeout time.Duration, statusR *os.File) {
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
	p.cmd.Wait()
	close(exited)
	line, _ := p.status.ReadString('\n')
	statusR.Close()
	p.cleanup()
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
