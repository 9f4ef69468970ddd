//go:build linux

package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"syscall"

	"golang.org/x/sys/unix"
)

// envInit marks the re-executed binary as the sandbox's init.
const envInit = "EDITORD_SANDBOX"

// Init turns this process into a sandbox's init when it was started as
// one, and never returns then; otherwise it returns at once. Call it first
// thing in main (and in TestMain of packages whose tests run commands).
func Init() {
	if os.Getenv(envInit) != "init" {
		return
	}
	// The capability and securebits changes below are per thread, and the
	// command must be started from the thread that made them.
	runtime.LockOSThread()
	os.Exit(initMain())
}

// The init's file descriptors: the spec to read, the status to write.
const (
	fdSpec   = 3
	fdStatus = 4
)

// initMain sets the box up and runs the command in it, reporting on the
// status pipe: "started PID", then "exit CODE SIGNAL"; or "error MESSAGE"
// when the box could not be made (exit status 127).
func initMain() int {
	status := os.NewFile(fdStatus, "status")
	fail := func(format string, args ...any) int {
		fmt.Fprintf(status, "error "+format+"\n", args...)
		return 127
	}
	data, err := io.ReadAll(os.NewFile(fdSpec, "spec"))
	if err != nil {
		return fail("reading the spec: %v", err)
	}
	var sp initSpec
	if err := json.Unmarshal(data, &sp); err != nil {
		return fail("reading the spec: %v", err)
	}
	if err := mountBox(&sp); err != nil {
		return fail("%v", err)
	}
	if !sp.Network {
		// A loopback of its own, so that a test server on 127.0.0.1 works.
		if err := loopbackUp(); err != nil {
			return fail("bringing up the loopback: %v", err)
		}
	}
	if err := setLimits(&sp); err != nil {
		return fail("%v", err)
	}
	if err := dropPrivileges(); err != nil {
		return fail("%v", err)
	}
	if err := landlockBox(&sp); err != nil {
		return fail("landlock: %v", err)
	}
	if sp.Probe {
		return probeInside(&sp, status)
	}
	stdio := []*os.File{os.Stdin, os.Stdout, os.Stderr}
	sys := &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if sp.TTY != "" {
		// A session of its own whose controlling terminal is the pty, so
		// that ^C and job control reach its foreground process group.
		sys.Setsid, sys.Setctty, sys.Ctty = true, true, 0
	}
	proc, err := os.StartProcess(sp.Path, sp.Args, &os.ProcAttr{Dir: sp.Dir, Env: sp.Env, Files: stdio, Sys: sys})
	if err != nil {
		return fail("starting %s: %v", sp.Path, cause(err))
	}
	fmt.Fprintf(status, "started %d\n", proc.Pid)
	// Started with GOGC=off: the init may reap processes for hours.
	debug.SetGCPercent(100)
	// PID 1 reaps every orphan of the namespace; when the command itself
	// ends, so does the init, and the kernel kills what is left.
	for {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &ws, 0, nil)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return fail("waiting for %s: %v", sp.Path, err)
		}
		if pid != proc.Pid || !(ws.Exited() || ws.Signaled()) {
			continue
		}
		sig := ""
		if ws.Signaled() {
			sig = ws.Signal().String()
		}
		fmt.Fprintf(status, "exit %d %s\n", ws.ExitStatus(), sig)
		if ws.Exited() {
			return ws.ExitStatus()
		}
		return 128 + int(ws.Signal())
	}
}

// cause is the errno of err when it has one (the path is in the message).
func cause(err error) error {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return errno
	}
	return err
}

// probeInside checks that the box holds: a file cannot be made beside the
// void (its folder is outside every allowed path) and the void cannot be
// read (no capability overrides its mode).
func probeInside(sp *initSpec, status io.Writer) int {
	f, err := os.Create(filepath.Join(filepath.Dir(sp.VoidFile), "probe"))
	if err == nil {
		f.Close()
		fmt.Fprintf(status, "error Landlock did not take hold: a file could be created outside the allowed folders\n")
		return 127
	}
	if data, err := os.ReadFile(sp.VoidFile); err == nil {
		fmt.Fprintf(status, "error the void could be read (%d bytes): capabilities were not dropped\n", len(data))
		return 127
	}
	fmt.Fprintf(status, "ok\nexit 0\n")
	return 0
}

// loopbackUp sets the new network namespace's lo up.
func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return err
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return err
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	return unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr)
}

// setLimits applies the rlimits, which every process started later
// inherits.
func setLimits(sp *initSpec) error {
	l := sp.Limits.withDefaults()
	set := func(name string, res int, cur, max uint64) error {
		if err := unix.Setrlimit(res, &unix.Rlimit{Cur: cur, Max: max}); err != nil {
			return fmt.Errorf("setting %s to %d: %v", name, cur, err)
		}
		return nil
	}
	if !sp.NoRlimit {
		if err := set("RLIMIT_NPROC", unix.RLIMIT_NPROC, uint64(l.Processes), uint64(l.Processes)); err != nil {
			return err
		}
	}
	if err := set("RLIMIT_DATA", unix.RLIMIT_DATA, uint64(l.MemoryBytes), uint64(l.MemoryBytes)); err != nil {
		return err
	}
	if err := set("RLIMIT_FSIZE", unix.RLIMIT_FSIZE, uint64(l.FileBytes), uint64(l.FileBytes)); err != nil {
		return err
	}
	if err := set("RLIMIT_CORE", unix.RLIMIT_CORE, 0, 0); err != nil {
		return err
	}
	if sp.CPU > 0 {
		// SIGXCPU at the soft limit, SIGKILL a little later.
		if err := set("RLIMIT_CPU", unix.RLIMIT_CPU, sp.CPU, sp.CPU+5); err != nil {
			return err
		}
	}
	return nil
}

// The securebits of linux/securebits.h.
const (
	secbitNoroot             = 1 << 0
	secbitNorootLocked       = 1 << 1
	secbitNoSetuidFixup      = 1 << 2
	secbitNoSetuidFixupLock  = 1 << 3
	secbitKeepCapsLocked     = 1 << 5
	secbitNoCapAmbientRaise  = 1 << 6
	secbitNoCapAmbientLocked = 1 << 7
)

// dropPrivileges makes sure the command holds no capability, although it
// runs as root of its user namespace: root is not special on exec any
// more (locked), the bounding set is empty, and nothing is ambient.
func dropPrivileges() error {
	bits := secbitNoroot | secbitNorootLocked | secbitNoSetuidFixup | secbitNoSetuidFixupLock |
		secbitKeepCapsLocked | secbitNoCapAmbientRaise | secbitNoCapAmbientLocked
	if err := unix.Prctl(unix.PR_SET_SECUREBITS, uintptr(bits), 0, 0, 0); err != nil {
		return fmt.Errorf("setting securebits: %v", err)
	}
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil && !errors.Is(err, unix.EINVAL) {
		return fmt.Errorf("clearing ambient capabilities: %v", err)
	}
	for c := 0; c < 64; c++ {
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0); err != nil {
			if errors.Is(err, unix.EINVAL) {
				break // past the last capability this kernel knows
			}
			return fmt.Errorf("dropping capability %d: %v", c, err)
		}
	}
	return nil
}
