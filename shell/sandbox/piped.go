package sandbox

import (
	"context"
	"io"
)

// Piped is a long-lived command in a sandbox (a language server) that its
// caller speaks a protocol with over its stdin and stdout. Stdin is closed
// when the command ends; Stdout is the caller's to close once it has read
// it to the end (what the command wrote last is still there to read).
type Piped struct {
	*Process
	Stdin  io.WriteCloser
	Stdout io.ReadCloser
}

// StartPiped is Start with pipes to the command's stdin and stdout in
// place of sp.Stdin and sp.Stdout: the init's own, handed to the caller,
// so nothing copies between them.
func StartPiped(ctx context.Context, sp Spec) (*Piped, error) {
	sp.piped, sp.Stdin, sp.Stdout = true, nil, nil
	p, err := Start(ctx, sp)
	if err != nil {
		return nil, err
	}
	stdin, stdout := p.pipes()
	go func() {
		<-p.Done()
		stdin.Close()
	}()
	return &Piped{Process: p, Stdin: stdin, Stdout: stdout}, nil
}
