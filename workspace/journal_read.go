package workspace

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"sync"

	"github.com/editord/editord/shell"
)

// Query selects events from the journal.
type Query struct {
	Since int64 // the cursor: events with a greater seq
	Limit int   // at most this many events (0: all)
	// Root and Path, when Path is set, keep only the events of Root whose
	// path (or, for a move, from) is Path or lies beneath it.
	Root, Path string
}

// Page is what Read returns.
type Page struct {
	Events []Event // oldest first
	Next   int64   // the cursor to pass next time
	// Reset is true when events after the cursor were already dropped from
	// the journal, or the journal restarted below the cursor (then Events
	// start from its beginning).
	Reset bool
	// More counts the events after Next that the query selects but Limit
	// left out.
	More int

	ino uint64 // the file read
	end int64  // byte offset just after the last line read
}

// Since returns the events after cursor, oldest first, and the cursor to
// pass next time. reset is true when events after the cursor were already
// dropped from the journal (or the journal restarted), so the caller knows
// it missed some instead of silently skipping them.
func (s *Store) Since(cursor int64) (evs []Event, next int64, reset bool, err error) {
	p, err := s.Read(Query{Since: cursor})
	if err != nil {
		return nil, cursor, false, err
	}
	return p.Events, p.Next, p.Reset, nil
}

// Read returns a page of events after q.Since. Its cost is that of the
// events it returns (and, with a Path, of the events it looks at), plus a
// binary search: never a read of the whole journal.
func (s *Store) Read(q Query) (Page, error) {
	h, err := s.jail.OpenAt(s.path(journalFile))
	if err != nil {
		if shell.CodeOf(err) == shell.CodeNotFound {
			return Page{Events: []Event{}, Reset: q.Since > 0}, nil
		}
		return Page{}, err
	}
	defer h.Close()
	return s.readFrom(&jfile{r: h, size: h.Info.Size}, h.Info.Ino, q)
}

// LastSeq is the seq of the newest event in the journal (0 for none).
func (s *Store) LastSeq() (int64, error) {
	h, err := s.jail.OpenAt(s.path(journalFile))
	if err != nil {
		if shell.CodeOf(err) == shell.CodeNotFound {
			return 0, nil
		}
		return 0, err
	}
	defer h.Close()
	last, _, err := (&jfile{r: h, size: h.Info.Size}).lastEvent()
	return last, err
}

func (s *Store) readFrom(j *jfile, ino uint64, q Query) (Page, error) {
	p := Page{Events: []Event{}, ino: ino}
	last, lastEnd, err := j.lastEvent()
	if err != nil {
		return p, err
	}
	p.Next, p.end = last, lastEnd
	if last == 0 {
		p.Reset = q.Since > 0
		return p, nil
	}
	first, err := j.firstEvent()
	if err != nil {
		return p, err
	}
	cursor := q.Since
	p.Reset = cursor > last || (cursor > 0 && first > cursor+1)
	from := cursor
	if cursor > last {
		from = 0 // the journal restarted below the cursor: everything in it is new
	}
	if from >= last {
		return p, nil
	}
	off := int64(0)
	if from >= first {
		off = s.locate(j, ino, first, from)
	}
	var pre [][]byte // a cheap test before decoding, with a Path
	if q.Path != "" || q.Root != "" {
		pre = pathNeedles(q.Path)
	}
	sc := j.scanner(off, 64<<10)
	prev := from
	for {
		line, _, ok := sc.next()
		if !ok {
			break
		}
		seq, good := seqOf(line)
		if !good || seq <= prev || seq > last {
			continue // garbage, a torn line, a duplicate, or past what we sized
		}
		if pre != nil && !containsAny(line, pre) {
			prev = seq
			continue
		}
		var ev Event
		if json.Unmarshal(line, &ev) != nil {
			continue
		}
		prev = seq
		if (q.Path != "" || q.Root != "") && !ev.selected(q.Root, q.Path) {
			continue
		}
		if q.Limit > 0 && len(p.Events) >= q.Limit {
			if pre == nil {
				p.More = int(last - p.Next) // seqs increase by one per event
				break
			}
			p.More++
			continue
		}
		p.Events = append(p.Events, ev)
		if q.Limit > 0 && len(p.Events) == q.Limit {
			p.Next, p.end = seq, sc.pos
		}
	}
	if q.Limit == 0 || len(p.Events) < q.Limit || p.More == 0 {
		p.Next, p.end = last, lastEnd
	}
	s.jidx.put(ino, first, p.Next, p.end)
	return p, nil
}

// selected reports whether the event is of root, at or beneath path.
func (ev *Event) selected(root, path string) bool {
	if root != "" && ev.Root != root {
		return false
	}
	if path == "" {
		return true
	}
	return Within(ev.Path, path) || (ev.From != nil && Within(*ev.From, path))
}

// pathNeedles are byte strings one of which a journal line about path (or
// beneath it) holds: its path or from field's JSON as written, without the
// closing quote.
func pathNeedles(path string) [][]byte {
	q, _ := json.Marshal(path)
	q = q[:len(q)-1]
	return [][]byte{append([]byte(`"path":`), q...), append([]byte(`"from":`), q...)}
}

func containsAny(line []byte, needles [][]byte) bool {
	for _, n := range needles {
		if bytes.Contains(line, n) {
			return true
		}
	}
	return false
}

// jindex remembers, for one journal file, the byte offset just after the
// line of a seq, where earlier reads ended: a reader whose cursor is one of
// them starts there without searching. A file is only ever appended to
// (compaction makes a new one), so an offset stays true while the file
// does. The file is told by its inode and its first seq: a compaction's new
// file can reuse the old one's inode number, but it starts at a later seq.
type jindex struct {
	mu    sync.Mutex
	ino   uint64
	first int64
	ends  map[int64]int64
}

const jindexMax = 512

func (x *jindex) get(ino uint64, first, seq int64) (int64, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.ino != ino || x.first != first {
		return 0, false
	}
	off, ok := x.ends[seq]
	return off, ok
}

func (x *jindex) put(ino uint64, first, seq, off int64) {
	if seq <= 0 || off <= 0 {
		return
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.ino != ino || x.first != first || x.ends == nil || len(x.ends) >= jindexMax {
		x.ino, x.first, x.ends = ino, first, map[int64]int64{}
	}
	x.ends[seq] = off
}

// locateLinear is the span below which locate stops halving and reads on.
const locateLinear = 32 << 10

// locate returns a line start at or before the first line whose seq is
// greater than cursor, at most about locateLinear before it.
func (s *Store) locate(j *jfile, ino uint64, first, cursor int64) int64 {
	if off, ok := s.jidx.get(ino, first, cursor); ok && off <= j.size {
		return off
	}
	lo, hi := int64(0), j.size
	for hi-lo > locateLinear {
		mid := lo + (hi-lo)/2
		start, seq, ok := j.probe(mid, hi)
		switch {
		case !ok:
			hi = mid
		case seq <= cursor:
			lo = start
		default:
			hi = start
		}
	}
	return lo
}

// jfile is one open journal file of a fixed size (what was there when it
// was opened; later appends are read next time).
type jfile struct {
	r    io.ReaderAt
	size int64
}

// seqOf parses the seq a journal line starts with ({"seq":N,).
func seqOf(line []byte) (int64, bool) {
	const p = `{"seq":`
	if !bytes.HasPrefix(line, []byte(p)) {
		return 0, false
	}
	n, i := int64(0), len(p)
	for ; i < len(line) && line[i] >= '0' && line[i] <= '9'; i++ {
		if n > (1<<62)/10 {
			return 0, false
		}
		n = n*10 + int64(line[i]-'0')
	}
	if i == len(p) || i >= len(line) || (line[i] != ',' && line[i] != '}') {
		return 0, false
	}
	return n, n > 0
}

// goodLine reports whether a complete line (ending in '\n') is a whole
// event: a seq, and valid JSON.
func goodLine(line []byte) (int64, bool) {
	seq, ok := seqOf(line)
	if !ok || !bytes.HasSuffix(line, []byte("}\n")) || !json.Valid(line) {
		return 0, false
	}
	return seq, true
}

// lineScanner reads complete lines from an offset on.
type lineScanner struct {
	br  *bufio.Reader
	pos int64 // offset just after the last complete line returned
	acc []byte
}

func (j *jfile) scanner(off int64, bufSize int) *lineScanner {
	return &lineScanner{br: bufio.NewReaderSize(io.NewSectionReader(j.r, off, j.size-off), bufSize), pos: off}
}

// next returns the next complete line (with its '\n') and where it starts;
// the slice is valid until the next call. A last line without '\n' (being
// written, or torn) is not returned.
func (l *lineScanner) next() ([]byte, int64, bool) {
	start, read := l.pos, int64(0)
	l.acc = l.acc[:0]
	for {
		frag, err := l.br.ReadSlice('\n')
		read += int64(len(frag))
		switch err {
		case nil:
			l.pos = start + read
			if len(l.acc) == 0 {
				return frag, start, true
			}
			l.acc = append(l.acc, frag...)
			return l.acc, start, true
		case bufio.ErrBufferFull:
			l.acc = append(l.acc, frag...)
		default:
			return nil, start, false
		}
	}
}

// probe returns the first line starting in [mid, hi) that has a seq.
func (j *jfile) probe(mid, hi int64) (start, seq int64, ok bool) {
	off := mid
	if mid > 0 {
		off = mid - 1 // a line starts at mid exactly when byte mid-1 is '\n'
	}
	sc := j.scanner(off, 4<<10)
	if mid > 0 {
		if _, _, ok := sc.next(); !ok {
			return 0, 0, false
		}
	}
	for sc.pos < hi {
		line, at, ok := sc.next()
		if !ok {
			return 0, 0, false
		}
		if seq, good := seqOf(line); good {
			return at, seq, true
		}
	}
	return 0, 0, false
}

// firstEvent is the seq of the first whole event in the file (0: none).
func (j *jfile) firstEvent() (int64, error) {
	sc := j.scanner(0, 16<<10)
	for {
		line, _, ok := sc.next()
		if !ok {
			return 0, nil
		}
		if seq, good := goodLine(line); good {
			return seq, nil
		}
	}
}

// lastEvent is the seq of the last whole event in the file (0: none), and
// the offset just after its line. It reads the file's tail, further back
// only while no whole event is found in it.
func (j *jfile) lastEvent() (seq, end int64, err error) {
	for n := int64(tailProbe); ; n *= 2 {
		from := max(j.size-n, 0)
		buf := make([]byte, j.size-from)
		k, err := j.r.ReadAt(buf, from)
		if err != nil && err != io.EOF {
			return 0, 0, err
		}
		buf = buf[:k]
		// Complete lines only: what follows the last '\n' is being written
		// or torn; the first line is cut unless the window starts the file.
		e := bytes.LastIndexByte(buf, '\n') + 1
		for e > 0 {
			b := bytes.LastIndexByte(buf[:e-1], '\n') + 1
			if b == 0 && from > 0 {
				break
			}
			if s, good := goodLine(buf[b:e]); good {
				return s, from + int64(e), nil
			}
			e = b
		}
		if from == 0 {
			return 0, 0, nil
		}
	}
}

// lastLines returns the last keep whole events' lines of the file, with
// the lines that are not whole events dropped. It reads back from the end
// only as far as those lines go.
func (j *jfile) lastLines(keep int) ([]byte, error) {
	for n := int64(1 << 20); ; n *= 2 {
		from := max(j.size-n, 0)
		buf := make([]byte, j.size-from)
		k, err := j.r.ReadAt(buf, from)
		if err != nil && err != io.EOF {
			return nil, err
		}
		buf = buf[:k]
		// Walk back over complete lines, counting whole events.
		e := bytes.LastIndexByte(buf, '\n') + 1
		count, startAt := 0, e
		for e > 0 && count < keep {
			b := bytes.LastIndexByte(buf[:e-1], '\n') + 1
			if b == 0 && from > 0 {
				break
			}
			if _, good := goodLine(buf[b:e]); good {
				count++
			}
			startAt, e = b, b
		}
		if count < keep && from > 0 {
			continue
		}
		// Keep the whole events in [startAt, end of the last line), in place.
		end := bytes.LastIndexByte(buf, '\n') + 1
		out := buf[:0]
		for i := startAt; i < end; {
			nl := bytes.IndexByte(buf[i:end], '\n') + i + 1
			if _, good := goodLine(buf[i:nl]); good {
				out = append(out, buf[i:nl]...)
			}
			i = nl
		}
		return out, nil
	}
}
