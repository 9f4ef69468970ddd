//go:build linux

package sandbox

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/editord/editord/shell"
)

var probed struct {
	once sync.Once
	err  error
	abi  int
}

// Available reports whether commands can be confined here: a Landlock ABI
// of at least minABI, user namespaces, and a box that holds. It makes one
// real box the first time (a few milliseconds) and remembers the outcome;
// the error is sandbox_unavailable with the cause.
func Available() error {
	probed.once.Do(func() {
		probed.abi = landlockABI()
		if probed.abi < minABI {
			probed.err = shell.Errorf(shell.CodeSandboxUnavailable, "",
				"commands cannot run here: the kernel's Landlock ABI is %d and the sandbox needs %d or later (Linux 6.2+, with landlock in the lsm= boot list)", probed.abi, minABI)
			return
		}
		probed.err = probeBox()
	})
	return probed.err
}

// ABI is the kernel's Landlock ABI version, once Available has run.
func ABI() int {
	Available()
	return probed.abi
}

// probeBox sets up a real box (namespaces, mounts, limits, Landlock) whose
// init checks from inside that it holds, then ends without a command.
func probeBox() error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	p, err := start(ctx, Spec{Path: "/", Args: []string{"probe"}, Dir: "/"}, true)
	if err != nil {
		return shell.Errorf(shell.CodeSandboxUnavailable, "", "commands cannot run here: the sandbox could not be made (%s)", shell.AsError(err, "").Message)
	}
	res := p.Wait()
	if res.ExitCode != 0 {
		return shell.Errorf(shell.CodeSandboxUnavailable, "", "commands cannot run here: the sandbox's probe failed (%s)", fmt.Sprint(res.ExitCode, " ", res.Signal))
	}
	return nil
}
