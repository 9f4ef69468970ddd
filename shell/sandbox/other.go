//go:build !linux

package sandbox

import (
	"context"
	"errors"
	"io"

	"github.com/editord/editord/shell"
)

// Init does nothing where there is no sandbox.
func Init() {}

// Available: commands are confined with Linux's namespaces and Landlock.
func Available() error {
	return shell.Errorf(shell.CodeSandboxUnavailable, "", "commands cannot run here: the sandbox needs Linux (Landlock and user namespaces)")
}

// ABI is 0: no Landlock.
func ABI() int { return 0 }

// Process is a command running in a sandbox (never, here).
type Process struct{ done chan struct{} }

// Start refuses: there is no sandbox here.
func Start(ctx context.Context, sp Spec) (*Process, error) { return nil, Available() }

func (p *Process) Kill()                 {}
func (p *Process) Wait() Result          { return Result{} }
func (p *Process) Done() <-chan struct{} { return p.done }
func (p *Process) Pid() int              { return 0 }
func (p *Process) Input([]byte) error    { return Available() }
func (p *Process) Resize(TermSize) error { return Available() }

func (p *Process) pipes() (io.WriteCloser, io.ReadCloser) { return nil, nil }

// KeepSpare: there are no inits to keep.
func KeepSpare(bool) {}

// KillInit: there is no sandbox to stop here.
func KillInit(pid int) bool { return false }

// InputChannel is a terminal's input (never, here).
type InputChannel struct{}

// OpenInput refuses: there is no sandbox here.
func OpenInput(string) (*InputChannel, error)          { return nil, Available() }
func (c *InputChannel) Serve(*Process, func(TermSize)) {}
func (c *InputChannel) Close()                         {}

// ErrNotRunning is SendInput's error when no command reads the input.
var ErrNotRunning = errors.New("the command is not running on a terminal")

// SendInput: no command runs here.
func SendInput(string, []byte, *TermSize) (int, error) { return 0, ErrNotRunning }
