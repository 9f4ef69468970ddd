//go:build linux

package sandbox

import (
	"fmt"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// openPTY opens a new pseudo-terminal of size ts: the master, which
// editord keeps, and the slave, which becomes a command's terminal.
// Both stay non-blocking for Go's poller (no Fd calls), so closing the
// master ends a read in progress.
func openPTY(ts TermSize) (master, slave *os.File, name string, err error) {
	master, err = os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		return nil, nil, "", err
	}
	var n int
	err = control(master, func(fd int) error {
		if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
			return fmt.Errorf("unlocking the terminal: %v", err)
		}
		var err error
		n, err = unix.IoctlGetInt(fd, unix.TIOCGPTN)
		return err
	})
	if err != nil {
		master.Close()
		return nil, nil, "", err
	}
	name = "/dev/pts/" + strconv.Itoa(n)
	slave, err = os.OpenFile(name, os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		master.Close()
		return nil, nil, "", err
	}
	if err := setSize(master, ts); err != nil {
		master.Close()
		slave.Close()
		return nil, nil, "", err
	}
	return master, slave, name, nil
}

// setSize sets the terminal's size; the kernel tells its foreground
// process group (SIGWINCH).
func setSize(f *os.File, ts TermSize) error {
	ts = ts.WithDefaults()
	return control(f, func(fd int) error {
		return unix.IoctlSetWinsize(fd, unix.TIOCSWINSZ, &unix.Winsize{Row: uint16(ts.Rows), Col: uint16(ts.Cols)})
	})
}

// control runs op on f's descriptor without taking it out of the poller.
func control(f *os.File, op func(fd int) error) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var opErr error
	if err := rc.Control(func(fd uintptr) { opErr = op(int(fd)) }); err != nil {
		return err
	}
	return opErr
}
