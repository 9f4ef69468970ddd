//go:build linux

package sandbox

import (
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Starting an init costs a clone into new namespaces, an exec of editord
// with its runtime and package initialisation, and (as root) a move into
// a pids cgroup, which waits for an RCU grace period: about 20 ms on an
// idle machine, before the command's first instruction. None of it
// depends on the command, so once a command has run the next init is
// started ahead, while nothing waits for it: a spare, idle on its spec
// pipe, taken by the next Start. A spare lives at most spareMaxAge (its
// mount namespace is a copy of the host's from when it was made), and a
// command that runs on a terminal starts its own init (its stdio is the
// terminal's, fixed when the init starts).

// outputPipeBytes is the size asked for the pipes of a command's output
// (Linux's default is 64 KiB; 1 MiB is the default cap for a user).
const outputPipeBytes = 1 << 20

// copyBufferBytes is how much of a command's output is copied at a time.
const copyBufferBytes = 256 << 10

// spareMaxAge bounds how long a spare waits to be taken.
const spareMaxAge = 2 * time.Minute

// anInit is a sandbox init started and waiting for its spec.
type anInit struct {
	cmd     *exec.Cmd
	specW   *os.File // the spec goes here; closing it starts the init
	statusR *os.File
	// Our ends of the command's standard streams (nil on a terminal).
	stdinW, stdoutR, stderrR *os.File
	network                  bool
	procs                    int         // the process limit it was made for
	cg                       *pidsCgroup // the pids cgroup the init is in, or nil
	limit                    string      // the process limit's mechanism: rlimit, cgroup or none
	expire                   *time.Timer // a spare's end
}

// launchInit starts an init in new namespaces (a network namespace unless
// network), with tty as its standard streams or else pipes of its own,
// and, as root, moves it into a pids cgroup bounding procs processes
// (that the kernel does while the init starts up).
func launchInit(network bool, tty *os.File, procs int) (*anInit, error) {
	in := &anInit{network: network, procs: procs, limit: "rlimit"}
	var childEnds []*os.File
	pipe := func() (r, w *os.File, err error) {
		r, w, err = os.Pipe()
		if err == nil {
			childEnds = append(childEnds, r, w)
		}
		return r, w, err
	}
	closeAll := func() {
		for _, f := range append(childEnds, in.specW, in.statusR, in.stdinW, in.stdoutR, in.stderrR) {
			if f != nil {
				f.Close()
			}
		}
	}
	specR, specW, err := pipe()
	if err != nil {
		return nil, err
	}
	statusR, statusW, err := pipe()
	if err != nil {
		closeAll()
		return nil, err
	}
	in.specW, in.statusR = specW, statusR
	cmd := exec.Command("/proc/self/exe")
	cmd.Args = []string{"editord-sandbox"}
	// A race-enabled build (tests) would otherwise sleep a second at exit.
	// No collection and one P while the runtime and every package of
	// editord initialise (the init turns collection back on, see
	// initMain): 5.5 ms of CPU instead of 7.1 per init.
	cmd.Env = []string{envInit + "=init", "GORACE=atexit_sleep_ms=0", "GOGC=off", "GOMAXPROCS=1"}
	cmd.ExtraFiles = []*os.File{specR, statusW} // fds 3 and 4
	if tty != nil {
		cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	} else {
		var stdinR, stdoutW, stderrW *os.File
		if stdinR, in.stdinW, err = pipe(); err == nil {
			if in.stdoutR, stdoutW, err = pipe(); err == nil {
				in.stderrR, stderrW, err = pipe()
			}
		}
		if err != nil {
			closeAll()
			return nil, err
		}
		cmd.Stdin, cmd.Stdout, cmd.Stderr = stdinR, stdoutW, stderrW
		for _, f := range []*os.File{stdoutW, stderrW} {
			// Best effort: a system may cap a pipe's size lower.
			unix.FcntlInt(f.Fd(), unix.F_SETPIPE_SZ, outputPipeBytes)
		}
	}
	flags := syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS | syscall.CLONE_NEWPID | syscall.CLONE_NEWIPC | syscall.CLONE_NEWUTS
	if !network {
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
	err = cmd.Start()
	for _, f := range childEnds {
		if f != specW && f != statusR && f != in.stdinW && f != in.stdoutR && f != in.stderrR {
			f.Close()
		}
	}
	childEnds = nil
	if err != nil {
		closeAll()
		return nil, err
	}
	in.cmd = cmd
	if os.Geteuid() == 0 {
		// The kernel exempts root from RLIMIT_NPROC (even as root of a
		// user namespace): count processes in a cgroup instead. The init
		// reads nothing but its spec until it has one, so it starts nothing
		// before it is in.
		in.limit = "none"
		if cg, err := newPidsCgroup(procs); err == nil {
			if cg.add(cmd.Process.Pid) == nil {
				in.cg, in.limit = cg, "cgroup"
			} else {
				cg.remove()
			}
		}
	}
	return in, nil
}

// discard stops an init that will run nothing, and removes its cgroup.
func (in *anInit) discard() {
	in.cmd.Process.Kill()
	for _, f := range []*os.File{in.specW, in.statusR, in.stdinW, in.stdoutR, in.stderrR} {
		if f != nil {
			f.Close()
		}
	}
	in.cmd.Wait()
	in.cg.remove()
}

// spares holds at most one spare init, while on.
var spares struct {
	mu      sync.Mutex
	on      bool
	spare   *anInit
	filling chan struct{} // while one is being started; closed when it is
}

// KeepSpare turns spare inits on (a serving process: its next command
// starts sooner) or off (the default: a process that runs one command
// and exits would only waste one). Off discards the spare and waits until
// it and every cgroup made for a command are gone.
func KeepSpare(on bool) {
	spares.mu.Lock()
	spares.on = on
	for !on && spares.filling != nil {
		ch := spares.filling
		spares.mu.Unlock()
		<-ch
		spares.mu.Lock()
	}
	old := spares.spare
	if !on && old != nil && old.expire.Stop() {
		spares.spare = nil
	} else {
		old = nil
	}
	spares.mu.Unlock()
	if old != nil {
		old.discard()
	}
	if !on {
		cgRemovals.Wait()
	}
}

// takeInit is an init for a command on pipes: the spare when there is one
// for this network setting (waiting for one being started), else a new one.
func takeInit(network bool, procs int) (in *anInit, spare bool, err error) {
	spares.mu.Lock()
	for spares.filling != nil {
		ch := spares.filling
		spares.mu.Unlock()
		<-ch
		spares.mu.Lock()
	}
	in = spares.spare
	if in != nil && in.network == network && in.expire.Stop() {
		spares.spare = nil
		spares.mu.Unlock()
		if in.cg != nil && in.cg.max != procs {
			if err := in.cg.setMax(procs); err != nil {
				go in.discard()
				in, err := launchInit(network, nil, procs)
				return in, false, err
			}
		}
		in.procs = procs
		return in, true, nil
	}
	spares.mu.Unlock()
	in, err = launchInit(network, nil, procs)
	return in, false, err
}

// refillSpare starts a spare for the next command in the background,
// unless one is there or on its way (one for the other network setting
// is replaced).
func refillSpare(network bool, procs int) {
	spares.mu.Lock()
	if !spares.on || spares.filling != nil || (spares.spare != nil && spares.spare.network == network) {
		spares.mu.Unlock()
		return
	}
	old := spares.spare
	spares.spare = nil
	if old != nil && !old.expire.Stop() {
		old = nil // expiring: its timer discards it
	}
	ch := make(chan struct{})
	spares.filling = ch
	spares.mu.Unlock()
	if old != nil {
		go old.discard()
	}
	go func() {
		in, err := launchInit(network, nil, procs)
		spares.mu.Lock()
		defer spares.mu.Unlock()
		defer func() {
			spares.filling = nil
			close(ch)
		}()
		if err != nil {
			return
		}
		if !spares.on {
			in.discard() // turned off meanwhile
			return
		}
		spares.spare = in
		in.expire = time.AfterFunc(spareMaxAge, func() {
			spares.mu.Lock()
			if spares.spare == in {
				spares.spare = nil
			}
			spares.mu.Unlock()
			in.discard()
		})
	}()
}

// add moves process pid (with all its threads) into the cgroup.
func (cg *pidsCgroup) add(pid int) error {
	return os.WriteFile(cg.dir+"/cgroup.procs", []byte(strconv.Itoa(pid)), 0)
}

// setMax changes how many processes the cgroup allows.
func (cg *pidsCgroup) setMax(max int) error {
	if err := os.WriteFile(cg.dir+"/pids.max", []byte(strconv.Itoa(max)), 0); err != nil {
		return err
	}
	cg.max = max
	return nil
}
