package editor

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
)

// lineRange is what one streaming pass over a file learns: the lines of a
// range, and of the whole file its size, version, line count and endings.
type lineRange struct {
	content   []byte // lines [offset, end] with their endings
	end       int    // last line in content (offset-1 when none)
	total     int    // lines in the file
	truncated bool   // the range was cut at maxBytes
	size      int64
	version   string // of the whole file
	eol       string // of the whole file
	nul       bool   // a NUL byte anywhere in the file
	mtime     int64
}

// readLines reads r to its end once: it keeps lines offset.. (1-based; limit
// of them, 0 for all) while they fit in maxBytes, and hashes and counts
// everything. Memory is bounded by maxBytes plus one read buffer, whatever
// the file's size. A range whose first line alone is over maxBytes returns
// that line's beginning, cut on a UTF-8 boundary.
func readLines(r io.Reader, offset, limit int, maxBytes int64) (lineRange, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	h := fnv.New64a()
	out := lineRange{end: offset - 1}
	var lf, crlf int
	line := 0        // lines started so far
	lineStart := 0   // where the current line starts in content
	var prev byte    // last byte of the previous chunk, for "\r\n" across chunks
	atStart := true  // the next chunk starts a new line
	keeping := false // the current line is in the range and being kept
	stopped := false // the range is complete or cut
	for {
		chunk, err := br.ReadSlice('\n')
		if len(chunk) > 0 {
			h.Write(chunk)
			out.size += int64(len(chunk))
			if bytes.IndexByte(chunk, 0) >= 0 {
				out.nul = true
			}
			if atStart {
				line++
				keeping = false
				if !stopped && line >= offset && (limit == 0 || line < offset+limit) {
					keeping = true
					out.end = line
					lineStart = len(out.content)
				} else if line >= offset {
					stopped = true
				}
			}
			ends := chunk[len(chunk)-1] == '\n'
			if ends {
				if (len(chunk) > 1 && chunk[len(chunk)-2] == '\r') || (len(chunk) == 1 && prev == '\r') {
					crlf++
				} else {
					lf++
				}
			}
			if keeping {
				room := maxBytes - int64(len(out.content))
				if int64(len(chunk)) <= room {
					out.content = append(out.content, chunk...)
				} else {
					out.truncated, keeping, stopped = true, false, true
					if line == offset {
						// The range's first line alone is over the cap:
						// keep its beginning.
						out.content = cutUTF8(append(out.content, chunk[:room]...), int(maxBytes))
					} else {
						// Drop the line that does not fit, and what was
						// kept of it.
						out.content = out.content[:lineStart]
						out.end = line - 1
					}
				}
			}
			prev = chunk[len(chunk)-1]
			atStart = ends
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return lineRange{}, err
		}
	}
	out.total = line
	out.version = fmt.Sprintf("%x-%016x", out.size, h.Sum64())
	switch {
	case lf == 0 && crlf == 0:
		out.eol = "none"
	case crlf == 0:
		out.eol = "lf"
	case lf == 0:
		out.eol = "crlf"
	default:
		out.eol = "mixed"
	}
	return out, nil
}
