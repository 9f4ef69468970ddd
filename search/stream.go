package search

// Files too large to read whole (over max_file_bytes) are searched in
// pieces: a piece ends at a line break, the rest of its last line is
// carried into the next, and line numbers run on from piece to piece. A
// worker holds one piece at a time (streamChunk, grown only for a line
// longer than that, up to streamMaxLine), whatever the file's size.

import (
	"bytes"
	"io"
	"sync"
)

const (
	streamChunk   = 1 << 20
	streamMaxLine = 8 << 20
)

// Skip reasons, as editor::search reports them.
const (
	SkipBinary     = "binary: a NUL byte"
	SkipLongLine   = "a line longer than 8 MiB"
	SkipNotRegular = "not a regular file"
	SkipUnreadable = "unreadable"
)

// chunks keeps the pieces' buffers from one search to the next: a
// megabyte made and cleared for each large file was a tenth of a capped
// search's time.
var chunks = sync.Pool{New: func() any { b := make([]byte, streamChunk); return &b }}

// longLine is held by the one scan whose buffer has grown past a piece
// for a long line (up to streamMaxLine), until it is done with the file:
// the halves of a file with several such lines, or two such files on two
// workers, held 8 MiB each at once.
var longLine = make(chan struct{}, 1)

// putChunk gives back a piece buffer got by scanStream (one grown for a
// long line is let go).
func putChunk(b []byte) {
	if cap(b) == streamChunk {
		chunks.Put(&b)
	}
}

// scanStream returns the first max matching lines of the file r of about
// size bytes, reading it piece by piece into *buf. why is set when the
// file was not searched to its end: binary content (a NUL byte; hits
// before it are kept, as ripgrep does), a line too long to hold, or a read
// error.
func (sc *scanner) scanStream(r io.ReaderAt, max int, buf *[]byte) (hits []Hit, lines int, why string) {
	if cap(*buf) == 0 {
		*buf = *chunks.Get().(*[]byte)
	}
	grown := false
	defer func() {
		if grown {
			*buf = nil // the grown buffer goes; the next file takes a piece
			<-longLine
		}
	}()
	b := (*buf)[:cap(*buf)]
	var off int64
	carry, line := 0, 1
	for len(hits) < max {
		n, err := r.ReadAt(b[carry:], off)
		off += int64(n)
		eof := err != nil || n == 0
		if err != nil && err != io.EOF {
			return hits, line - 1, SkipUnreadable + ": " + err.Error()
		}
		data := b[:carry+n]
		if bytes.IndexByte(data[carry:], 0) >= 0 {
			return hits, line - 1, SkipBinary
		}
		part := data
		if !eof {
			nl := bytes.LastIndexByte(data, '\n')
			if nl < 0 {
				if len(b) >= streamMaxLine {
					return hits, line - 1, SkipLongLine
				}
				if !grown {
					longLine <- struct{}{}
					grown = true
				}
				nb := make([]byte, min(2*len(b), streamMaxLine))
				copy(nb, data)
				b, *buf = nb, nb
				carry = len(data)
				continue
			}
			part = data[:nl+1]
		}
		n0 := len(hits)
		hits = sc.scan(part, max, hits)
		for i := n0; i < len(hits); i++ {
			hits[i].Line += line - 1
		}
		line += bytes.Count(part, []byte{'\n'})
		if eof {
			break
		}
		carry = copy(b, data[len(part):])
	}
	return hits, line - 1, ""
}
