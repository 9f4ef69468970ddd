//go:build linux

package sandbox

import (
	"bufio"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/editord/editord/shell"
)

// A command on a terminal takes input from any process on the state dir
// (the page's server, an agent's editord): through a FIFO in its job's
// folder, which the process running it reads and types on the terminal.
// Each message is at most PIPE_BUF bytes, which the kernel writes whole,
// so messages from several writers never interleave: a kind byte, the
// payload's length (2 bytes), the payload.

const (
	inputText   = 't' // typed bytes
	inputResize = 'r' // rows and cols, 2 bytes each
	// inputMax is PIPE_BUF on Linux.
	inputMax = 4096
	// inputWait bounds a send to a command that reads none of it.
	inputWait = 5 * time.Second
)

// InputChannel is the FIFO's reading end, held by the process running
// the command.
type InputChannel struct {
	path string
	f    *os.File
}

// OpenInput makes the FIFO path and opens it for reading (and writing,
// so that it never reads an end while the command runs).
func OpenInput(path string) (*InputChannel, error) {
	if err := unix.Mkfifo(path, 0o600); err != nil {
		return nil, shell.AsError(err, path)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		os.Remove(path)
		return nil, shell.AsError(err, path)
	}
	return &InputChannel{path: path, f: f}, nil
}

// Serve types what arrives on p's terminal until the channel is closed;
// resized hears of each new size once the terminal has it.
func (c *InputChannel) Serve(p *Process, resized func(TermSize)) {
	r := bufio.NewReader(c.f)
	var head [3]byte
	buf := make([]byte, inputMax)
	for {
		if _, err := io.ReadFull(r, head[:]); err != nil {
			return
		}
		n := int(binary.BigEndian.Uint16(head[1:]))
		if _, err := io.ReadFull(r, buf[:n]); err != nil {
			return
		}
		switch head[0] {
		case inputText:
			p.Input(buf[:n])
		case inputResize:
			if n == 4 {
				ts := TermSize{Rows: int(binary.BigEndian.Uint16(buf)), Cols: int(binary.BigEndian.Uint16(buf[2:]))}.WithDefaults()
				if p.Resize(ts) == nil && resized != nil {
					resized(ts)
				}
			}
		}
	}
}

// Close removes the FIFO (a send fails from now on) and ends Serve.
func (c *InputChannel) Close() {
	os.Remove(c.path)
	c.f.Close()
}

// ErrNotRunning is SendInput's error when no process reads the FIFO: the
// command has ended (or never ran on a terminal).
var ErrNotRunning = errors.New("the command is not running on a terminal")

// SendInput types text on the terminal of the command whose FIFO is path
// and, when size is set, resizes it first. It returns the bytes of text
// sent: all of them, unless the command stops reading for inputWait.
func SendInput(path string, text []byte, size *TermSize) (int, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		if errors.Is(err, syscall.ENXIO) || errors.Is(err, os.ErrNotExist) {
			return 0, ErrNotRunning
		}
		return 0, shell.AsError(err, path)
	}
	defer f.Close()
	// A FIFO is in Go's poller: a full one parks the write until the
	// deadline instead of failing.
	f.SetWriteDeadline(time.Now().Add(inputWait))
	send := func(kind byte, payload []byte) error {
		msg := make([]byte, 3+len(payload))
		msg[0] = kind
		binary.BigEndian.PutUint16(msg[1:], uint16(len(payload)))
		copy(msg[3:], payload)
		_, err := f.Write(msg)
		return err
	}
	if size != nil {
		ts := size.WithDefaults()
		var p [4]byte
		binary.BigEndian.PutUint16(p[:], uint16(ts.Rows))
		binary.BigEndian.PutUint16(p[2:], uint16(ts.Cols))
		if err := send(inputResize, p[:]); err != nil {
			return 0, sendError(err, path)
		}
	}
	sent := 0
	for sent < len(text) {
		n := min(len(text)-sent, inputMax-3)
		if err := send(inputText, text[sent:sent+n]); err != nil {
			return sent, sendError(err, path)
		}
		sent += n
	}
	return sent, nil
}

func sendError(err error, path string) error {
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		return shell.Errorf(shell.CodeTimeout, "", "the command has not read its input for %s: type more once it reads again", inputWait)
	case errors.Is(err, syscall.EPIPE):
		return ErrNotRunning
	}
	return shell.AsError(err, path)
}
