//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"
)

// helperEnv makes the test binary, run as a sandboxed command, act out one
// of the helper modes below instead of running tests.
const helperEnv = "EDITORD_SANDBOX_TEST_HELPER"

// helper acts out mode with args, printing "done" when the attempt
// succeeded and "refused: ERR" when it failed, and returns 0 (or 2 for a
// mode it does not know).
func helper(mode string, args []string) int {
	arg := func(i int) string {
		if i < len(args) {
			return args[i]
		}
		return ""
	}
	var err error
	switch mode {
	case "write":
		err = os.WriteFile(arg(0), []byte("escaped\n"), 0o644)
	case "append":
		var f *os.File
		if f, err = os.OpenFile(arg(0), os.O_WRONLY|os.O_APPEND, 0); err == nil {
			_, err = f.WriteString("escaped\n")
			f.Close()
		}
	case "read":
		var data []byte
		if data, err = os.ReadFile(arg(0)); err == nil {
			fmt.Printf("content: %q\n", data)
		}
	case "list":
		var ents []os.DirEntry
		if ents, err = os.ReadDir(arg(0)); err == nil {
			fmt.Printf("entries: %d\n", len(ents))
		}
	case "mkdir":
		err = os.Mkdir(arg(0), 0o755)
	case "remove":
		err = os.Remove(arg(0))
	case "rename":
		err = os.Rename(arg(0), arg(1))
	case "link":
		err = os.Link(arg(0), arg(1))
	case "symlink":
		err = os.Symlink(arg(0), arg(1))
	case "chmod":
		err = os.Chmod(arg(0), 0o644)
	case "dial":
		var c net.Conn
		if c, err = net.DialTimeout(arg(0), arg(1), 5*time.Second); err == nil {
			c.Close()
		}
	case "fork":
		// Start up to N children that wait on their stdin; report how many
		// could be started.
		n, _ := strconv.Atoi(arg(0))
		started := 0
		for ; started < n; started++ {
			c := exec.Command("/proc/self/exe")
			c.Env = []string{helperEnv + "=wait"}
			c.Stdin = os.Stdin
			if err = c.Start(); err != nil {
				break
			}
		}
		fmt.Printf("started: %d\n", started)
	case "wait":
		// Blocks until stdin ends (never, for a pipe held open).
		buf := make([]byte, 1)
		os.Stdin.Read(buf)
		return 0
	case "orphan":
		// A grandchild in a session of its own (escaping the process
		// group), marked with a token in its arguments; then wait forever.
		c := exec.Command("/proc/self/exe", "linger", arg(0))
		c.Env = []string{helperEnv + "=linger"}
		c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err = c.Start(); err == nil {
			fmt.Println("orphan started")
			select {}
		}
	case "linger":
		select {}
	case "spin":
		for {
		}
	default:
		fmt.Fprintf(os.Stderr, "unknown helper mode %q\n", mode)
		return 2
	}
	if err != nil {
		var errno syscall.Errno
		if errors.As(err, &errno) {
			fmt.Printf("refused: %s\n", errno.Error())
		} else {
			fmt.Printf("refused: %v\n", err)
		}
		return 0
	}
	fmt.Println("done")
	return 0
}
