package main

import (
	"os"

	"golang.org/x/sys/unix"
)

// pipeSize is what stdio pipes are grown to (Linux's default is 64 KiB, and
// an unprivileged process may go up to /proc/sys/fs/pipe-max-size, 1 MiB
// by default): a 1 MiB save or open then crosses the pipe in one write
// instead of sixteen hand-overs between the client and the server.
const pipeSize = 1 << 20

// growPipes grows the pipes among the given streams; anything else (a
// terminal, a file, a refusal) is left as it is.
func growPipes(streams ...any) {
	for _, s := range streams {
		f, ok := s.(*os.File)
		if !ok {
			continue
		}
		if fi, err := f.Stat(); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
			continue
		}
		unix.FcntlInt(f.Fd(), unix.F_SETPIPE_SZ, pipeSize)
	}
}
