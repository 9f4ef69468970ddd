package protocol

// Request size limits (issue 15 item 5). Every request, a stdio line or an
// HTTP body, is followed byte by byte as it arrives by a small JSON
// scanner that keeps no copy of it, and refused as soon as it is certain
// to be over the limits, so that a 300 MB body or a 100 MB line never
// reaches the JSON decoders (which made several copies of it: 813 MB and
// 805 MB resident). What is refused is answered with a JSON-RPC error that
// names the limit, and the stream goes on with the next request.
//
// The limits follow from what a function can accept at all:
//
//   - MaxString: no string value may decode to more bytes than the largest
//     text any function takes (max_write_bytes for save and edit content,
//     max_diff_bytes for editor::diff's sides, max_file_bytes for drafts);
//     such a request would be refused as too_large after decoding anyway.
//     The scanner counts a lower bound of the decoded length (an escape is
//     at least one byte), so it never refuses a string that would fit.
//   - MaxBytes: the whole message is at most 6 × MaxString + 1 MiB. JSON
//     escaping makes text at most 6 times longer (a control character, or
//     "<" from an HTML-safe encoder, becomes \u00XX), so the largest
//     acceptable content always fits, with a megabyte for the envelope and
//     the other fields. Text that is mostly plain is refused by MaxString
//     long before this.
//   - MaxValues: at most 262,144 JSON values (counted as commas and
//     opening brackets), so that a message of millions of tiny values (a
//     decoded []any costs tens of bytes per element) or a line of nesting
//     cannot cost more than its length suggests. No function takes
//     anything near that many.
//
// The reader is independent of mcp-go's stdio loop (LineReader.ReadLine is
// the primitive, Read only adapts it), so it can move with that loop.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"

	"github.com/editord/editord/editor"
)

// Limits bound one request.
type Limits struct {
	MaxBytes  int64 // the whole message
	MaxString int64 // one string value, decoded
	MaxValues int64 // JSON values in the message
}

// envelopeBytes is the room a message gets beside its largest string.
const envelopeBytes = 1 << 20

// maxValues is Limits.MaxValues.
const maxValues = 1 << 18

// LimitsFor derives the request limits from the configuration.
func LimitsFor(cfg editor.Config) Limits {
	str := max(cfg.Jail.MaxWriteBytes, int64(cfg.Limits.MaxDiffBytes), int64(cfg.Limits.MaxFileBytes), 1<<20)
	return Limits{MaxBytes: 6*str + envelopeBytes, MaxString: str, MaxValues: maxValues}
}

// reqScanner follows one JSON message as it streams by: its length, the
// decoded length of the string being read, the number of values, and the
// top-level "id" (so that a refusal can be correlated). It keeps no copy of
// the message: its memory is constant.
type reqScanner struct {
	lim    Limits
	n      int64 // bytes seen
	values int64
	depth  int
	inStr  bool
	skip   int   // bytes of an escape still to pass (\uXXXX: 5 after the backslash)
	strLen int64 // decoded length (lower bound) of the current string
	over   string

	// The top-level id: top says the message is an object; key collects a
	// top-level key ("id" is all we look for), and idVal the raw value
	// that follows it.
	top      bool
	wantKey  bool // at depth 1, the next string is a key
	inKey    bool
	key      []byte
	inID     bool
	idVal    []byte
	id       json.RawMessage
	idTooBig bool
}

func newReqScanner(lim Limits) *reqScanner { return &reqScanner{lim: lim} }

// feed scans p; it returns false once the message is over a limit (over
// then says which), and keeps following the structure for the id.
func (s *reqScanner) feed(p []byte) bool {
	// The next quote and backslash at or after i (-1: none in p; found
	// again only once passed, so that the search stays linear).
	nq, nb := -2, -2
	for i := 0; i < len(p); {
		if s.inStr && s.skip == 0 && !s.inKey && !s.inID {
			// Plain bytes of a string, up to its next quote or backslash,
			// a stretch at a time (what step does byte by byte for them):
			// a save's megabytes are mostly this.
			if nq != -1 && nq < i {
				nq = indexFrom(p, i, '"')
			}
			if nb != -1 && nb < i {
				nb = indexFrom(p, i, '\\')
			}
			end := len(p)
			if nq >= 0 {
				end = min(end, nq)
			}
			if nb >= 0 {
				end = min(end, nb)
			}
			if k := end - i; k > 0 {
				s.n += int64(k)
				s.strLen += int64(k)
				if s.over == "" && s.strLen > s.lim.MaxString {
					s.over = fmt.Sprintf("a string in it decodes to more than %d bytes", s.lim.MaxString)
				}
				i += k
				continue
			}
		}
		s.n++
		s.step(p[i])
		i++
	}
	if s.over == "" {
		switch {
		case s.n > s.lim.MaxBytes:
			s.over = fmt.Sprintf("the message is over %d bytes", s.lim.MaxBytes)
		case s.values > s.lim.MaxValues:
			s.over = fmt.Sprintf("the message holds more than %d JSON values", s.lim.MaxValues)
		}
	}
	return s.over == ""
}

// indexFrom is the index of c in p at or after i, or -1.
func indexFrom(p []byte, i int, c byte) int {
	if k := bytes.IndexByte(p[i:], c); k >= 0 {
		return i + k
	}
	return -1
}

func (s *reqScanner) step(c byte) {
	if s.inStr {
		switch {
		case s.skip > 0:
			s.skip--
			if s.skip == 4 && c != 'u' {
				s.skip = 0 // a two-character escape: done
			}
		case c == '\\':
			s.strLen++
			s.skip = 5
		case c == '"':
			s.inStr = false
			if s.inKey {
				s.inKey = false
				s.wantKey = false
			}
		default:
			s.strLen++
		}
		if s.inKey && s.inStr && len(s.key) <= 2 {
			s.key = append(s.key, c)
		}
		if s.inID {
			s.collectID(c)
		}
		if s.over == "" && s.strLen > s.lim.MaxString {
			s.over = fmt.Sprintf("a string in it decodes to more than %d bytes", s.lim.MaxString)
		}
		return
	}
	if s.inID {
		switch c {
		case ',', '}':
			s.inID = false
			if !s.idTooBig {
				s.id = append(json.RawMessage(nil), bytes.TrimSpace(s.idVal)...)
			}
		default:
			s.collectID(c)
		}
	}
	switch c {
	case '"':
		s.inStr, s.strLen = true, 0
		if s.top && s.depth == 1 && s.wantKey {
			s.inKey, s.key = true, s.key[:0]
		}
	case '{', '[':
		s.values++
		if s.depth == 0 && c == '{' {
			s.top = true
		}
		s.depth++
		s.wantKey = s.top && s.depth == 1
	case '}', ']':
		s.depth--
	case ',':
		s.values++
		s.wantKey = s.top && s.depth == 1
	case ':':
		if s.top && s.depth == 1 && string(s.key) == "id" {
			s.inID, s.idVal, s.idTooBig = true, s.idVal[:0], false
		}
		s.key = s.key[:0]
	}
}

// collectID keeps the raw bytes of the top-level id, up to a sane length
// (an id is a number or a short string).
func (s *reqScanner) collectID(c byte) {
	if len(s.idVal) >= 256 {
		s.idTooBig = true
		return
	}
	s.idVal = append(s.idVal, c)
}

// reqID is the message's id if it was seen and is a number or a string.
func (s *reqScanner) reqID() json.RawMessage {
	var v any
	if len(s.id) == 0 || json.Unmarshal(s.id, &v) != nil {
		return nil
	}
	switch v.(type) {
	case float64, string:
		return s.id
	}
	return nil
}

// refusal is the message of a refused request.
func (s *reqScanner) refusal() string {
	return fmt.Sprintf("request refused: %s (editord's request limit, set by the jail's max_write_bytes: at most %d bytes in all and %d bytes in one string); nothing was done, and the server goes on serving. Send less, e.g. split a large file into several edits",
		s.over, s.lim.MaxBytes, s.lim.MaxString)
}

// errorLine is the JSON-RPC error answering a refused request.
func errorLine(id json.RawMessage, msg string, lim Limits) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0",
		"id":      id,
		"error": map[string]any{
			"code":    -32600, // invalid request
			"message": msg,
			"data":    map[string]any{"max_bytes": lim.MaxBytes, "max_string_bytes": lim.MaxString, "max_values": lim.MaxValues},
		},
	})
	return append(b, '\n')
}

// LineReader yields the newline-delimited messages of a stream within the
// limits. A line over them is never held whole: it is dropped from the
// moment it is certainly over, scanned on to its end for its id, and
// answered through Refused; reading goes on with the next line.
type LineReader struct {
	r       *bufio.Reader
	lim     Limits
	refused func(id json.RawMessage, msg string)
	line    []byte // what Read still has to hand out of the current line
}

// NewLineReader reads lines from r; refused answers each refused line.
func NewLineReader(r io.Reader, lim Limits, refused func(id json.RawMessage, msg string)) *LineReader {
	return &LineReader{r: bufio.NewReaderSize(r, 64<<10), lim: lim, refused: refused}
}

// ReadLine returns the next line within the limits, with its newline (the
// last one may lack it, with io.EOF). Each line is a new slice, the
// caller's to keep (the stdio fast path uses a call's arguments in place).
func (l *LineReader) ReadLine() ([]byte, error) {
	for {
		sc := newReqScanner(l.lim)
		var kept pieces
		for {
			chunk, err := l.r.ReadSlice('\n')
			if sc.over == "" {
				if sc.feed(chunk) {
					kept.add(chunk)
				} else {
					kept = pieces{} // over: let go of what was kept
				}
			} else {
				sc.feed(chunk) // only for the id
			}
			if errors.Is(err, bufio.ErrBufferFull) {
				continue
			}
			if err != nil || sc.over == "" {
				return kept.join(), err
			}
			break // the end of a refused line
		}
		l.refused(sc.reqID(), sc.refusal())
	}
}

// Read hands out the lines of ReadLine as a byte stream, for a loop that
// splits lines itself (mcp-go's stdio server).
func (l *LineReader) Read(p []byte) (int, error) {
	if len(l.line) == 0 {
		line, err := l.ReadLine()
		if len(line) == 0 {
			if err == nil {
				err = io.ErrNoProgress
			}
			return 0, err
		}
		l.line = line
		// err (EOF after a last line without newline) comes again next time.
	}
	n := copy(p, l.line)
	l.line = l.line[n:]
	if len(l.line) == 0 {
		l.line = nil // let the line go once handed out
	}
	return n, nil
}

// limitBodies refuses HTTP request bodies over the limits: at once when
// Content-Length says so, else while the body streams in. The body is read
// here, as the reader's chunks, before mcp-go sees it: a body refused
// midway never had a buffer grown to its size (mcp-go's io.ReadAll grows
// one by append and leaves a trail of outgrown ones: a chunked 300 MiB
// POST refused at the 16 MiB string limit peaked at +70 MiB of RSS).
// Either way the connection is closed after the answer rather than read
// to its end.
//
// answer, when not nil, may answer an accepted body itself (a tools/call
// naming no tool, Server.unknownTool): nil lets next serve it.
func limitBodies(next http.Handler, lim Limits, answer func(body []byte) []byte) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Body == nil {
			next.ServeHTTP(w, r)
			return
		}
		sc := newReqScanner(lim)
		status := http.StatusBadRequest
		var body []byte
		if r.ContentLength > lim.MaxBytes {
			sc.n = r.ContentLength
			sc.over = fmt.Sprintf("the body is %d bytes, over %d", r.ContentLength, lim.MaxBytes)
			status = http.StatusRequestEntityTooLarge
		} else {
			var err error
			if body, err = readBody(r.Body, sc); err != nil && sc.over == "" {
				http.Error(w, "reading the request body: "+err.Error(), http.StatusBadRequest)
				return
			}
		}
		if sc.over != "" {
			line := errorLine(sc.reqID(), sc.refusal(), lim)
			w.Header().Set("Connection", "close")
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Content-Length", strconv.Itoa(len(line)))
			w.WriteHeader(status)
			w.Write(line)
			return
		}
		if answer != nil {
			if reply := answer(body); reply != nil {
				w.Header().Set("Content-Type", "application/json")
				w.Write(reply)
				return
			}
		}
		r = r.WithContext(context.WithValue(r.Context(), postedBodyKey{}, body))
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
		next.ServeHTTP(w, r)
	})
}

// postedBodyKey carries a POST's body, as limitBodies read it, to the
// handlers after it (postedBody), which would otherwise copy it again.
type postedBodyKey struct{}

// postedBody is the body limitBodies read for r, or nil.
func postedBody(r *http.Request) []byte {
	b, _ := r.Context().Value(postedBodyKey{}).([]byte)
	return b
}

// readBody reads r through sc, keeping its chunks until it is known to be
// within the limits, then joins them; it stops at the first refusal.
func readBody(r io.Reader, sc *reqScanner) ([]byte, error) {
	var kept pieces
	buf := make([]byte, 64<<10)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			if !sc.feed(buf[:n]) {
				return nil, nil
			}
			kept.add(buf[:n])
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	return kept.join(), nil
}

// pieces keeps a request as copies of the reader's chunks, joined once it
// is known to be within the limits. One buffer grown by append copies
// less, but leaves a trail of outgrown buffers: a 100 MiB line refused at
// the 16 MiB string limit peaked at +64 MiB of RSS that way
// (TestStressRequestLimitStdio, TestStressRequestLimitHTTP).
type pieces struct {
	parts [][]byte
	size  int
}

func (p *pieces) add(b []byte) {
	p.parts = append(p.parts, bytes.Clone(b))
	p.size += len(b)
}

// join returns the request in one new slice.
func (p *pieces) join() []byte {
	if len(p.parts) == 1 {
		return p.parts[0]
	}
	out := make([]byte, 0, p.size)
	for _, b := range p.parts {
		out = append(out, b...)
	}
	return out
}
