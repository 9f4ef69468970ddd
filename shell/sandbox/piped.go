package sandbox

import (
	"context"
	"io"
	"os"
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
// place of sp.Stdin and sp.Stdout. The pipes are the command's own (the
// init passes them on), so nothing copies between them.
func StartPiped(ctx context.Context, sp Spec) (*Piped, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	sp.Stdin, sp.Stdout = inR, outW
	p, err := Start(ctx, sp)
	// The child holds its ends now (or never will).
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, err
	}
	go func() {
		<-p.Done()
		inW.Close()
	}()
	return &Piped{Process: p, Stdin: inW, Stdout: outR}, nil
}
