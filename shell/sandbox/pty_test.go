//go:build linux

package sandbox

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a writer read while it is written.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func (s *syncBuffer) waitFor(t *testing.T, want string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(s.String(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %q in the terminal's output:\n%q", want, s.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// A command on a terminal: it is its controlling terminal (in a session
// of its own: /dev/tty opens, ^C interrupts), of the size asked for and
// then resized; what it prints, colours and all, and the echo of what is
// typed come out of one stream; what is typed reaches it.
func TestTerminal(t *testing.T) {
	b := newBox(t)
	sp := b.spec("sh", "-c", `tty; stty size; printf '\033[31mred\033[0m\n'; read x; echo "got $x"; read y; stty size; `+
		`stty size < /dev/tty && echo ctty > /dev/tty && trap 'echo interrupted' INT && echo sleeping && sleep 100; exit 3`)
	sp.Terminal = &TermSize{Rows: 30, Cols: 100}
	var out syncBuffer
	sp.Stdout = &out
	sp.Stdin = strings.NewReader("first\r")
	p, err := Start(context.Background(), sp)
	if err != nil {
		t.Fatal(err)
	}
	if p.fromSpare {
		t.Fatal("a terminal's command ran on a spare init (its stdio are pipes)")
	}
	out.waitFor(t, "got first")
	if err := p.Resize(TermSize{Rows: 40, Cols: 120}); err != nil {
		t.Fatal(err)
	}
	if err := p.Input([]byte("second\r")); err != nil {
		t.Fatal(err)
	}
	// ^C reaches the foreground process group through the terminal.
	out.waitFor(t, "sleeping")
	if err := p.Input([]byte{3}); err != nil {
		t.Fatal(err)
	}
	r := p.Wait()
	got := out.String()
	if r.ExitCode != 3 {
		t.Fatalf("%+v\n%q", r, got)
	}
	for _, want := range []string{"/dev/pts/", "30 100\r\n", "\x1b[31mred\x1b[0m\r\n", "first\r\n", "got first\r\n", "second\r\n", "40 120\r\n", "ctty\r\n", "interrupted\r\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("the terminal's output has no %q:\n%q", want, got)
		}
	}
	if strings.Contains(got, "not a tty") {
		t.Errorf("stdin was not a terminal:\n%q", got)
	}
	if err := p.Input([]byte("late\r")); err == nil {
		t.Error("typing on the terminal of an ended command succeeded")
	}

	// A command on pipes takes no input once started.
	p2, err := Start(context.Background(), b.spec("true"))
	if err != nil {
		t.Fatal(err)
	}
	if err := p2.Input([]byte("x")); err == nil {
		t.Error("typing to a command without a terminal succeeded")
	}
	p2.Wait()
}

// Input through the job's FIFO (as another process sends it): text in
// messages that never interleave, a resize; none once the channel closed.
func TestTerminalInputChannel(t *testing.T) {
	b := newBox(t)
	sp := b.spec("sh", "-c", `read x; echo "len ${#x}"; read y; stty size; echo "got $y"`)
	sp.Terminal = &TermSize{}
	var out syncBuffer
	sp.Stdout = &out
	p, err := Start(context.Background(), sp)
	if err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(b.scratch, "input")
	ch, err := OpenInput(fifo)
	if err != nil {
		t.Fatal(err)
	}
	var sizes []TermSize
	var sizesMu sync.Mutex
	go ch.Serve(p, func(ts TermSize) {
		sizesMu.Lock()
		sizes = append(sizes, ts)
		sizesMu.Unlock()
	})
	long := strings.Repeat("x", 3000) // a line of more than one message: the tty's line holds 4095
	if n, err := SendInput(fifo, []byte(long[:1000]), nil); err != nil || n != 1000 {
		t.Fatalf("sent %d: %v", n, err)
	}
	if n, err := SendInput(fifo, []byte(long[1000:]+"\r"), nil); err != nil || n != 2001 {
		t.Fatalf("sent %d: %v", n, err)
	}
	out.waitFor(t, "len 3000")
	if _, err := SendInput(fifo, []byte("hello\r"), &TermSize{Rows: 33, Cols: 77}); err != nil {
		t.Fatal(err)
	}
	out.waitFor(t, "got hello")
	if !strings.Contains(out.String(), "33 77") {
		t.Fatalf("the resize did not arrive first:\n%q", out.String())
	}
	sizesMu.Lock()
	if len(sizes) != 1 || sizes[0] != (TermSize{Rows: 33, Cols: 77}) {
		t.Fatalf("resized heard %v", sizes)
	}
	sizesMu.Unlock()
	p.Wait()
	ch.Close()
	if _, err := SendInput(fifo, []byte("late\r"), nil); err != ErrNotRunning {
		t.Fatalf("sending to a closed channel: %v", err)
	}
}
