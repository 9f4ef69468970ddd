package protocol

import (
	"context"
	"io"
	"sync"
	"time"
)

// ShutdownGrace is how long a server that is ending (its client closed
// stdin, or SIGTERM) waits for the calls in flight once their contexts are
// cancelled. A call that does not end by then is stuck where no context
// reaches (a system call); the server returns anyway, and the process
// exits with it, instead of waiting forever as it did when a FIFO held a
// git function in open(2).
const ShutdownGrace = 2 * time.Second

// endPromptly runs serve, which reads in until it ends and returns after
// its calls have ended. Once in reaches its end (or fails) or ctx ends,
// serve has ShutdownGrace to return; after that endPromptly returns nil
// without it (the stuck calls are abandoned to the process's exit).
func endPromptly(ctx context.Context, in io.Reader, serve func(in io.Reader) error) error {
	ended := make(chan struct{})
	r := &endReader{r: in, ended: ended}
	done := make(chan error, 1)
	go func() { done <- serve(r) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	case <-ended:
	}
	t := time.NewTimer(ShutdownGrace)
	defer t.Stop()
	select {
	case err := <-done:
		return err
	case <-t.C:
		return nil
	}
}

// endReader reports the end of its input (EOF or an error) on ended.
type endReader struct {
	r     io.Reader
	ended chan struct{}
	once  sync.Once
}

func (e *endReader) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err != nil {
		e.once.Do(func() { close(e.ended) })
	}
	return n, err
}
