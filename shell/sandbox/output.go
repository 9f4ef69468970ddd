package sandbox

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/editord/editord/shell"
)

// Log keeps one output stream of a command: on disk, whole up to a bound
// and past it the newest part (the end of a build's output is what says
// why it failed), in segments named BASE.OFFSET (OFFSET is the stream
// offset of the segment's first byte), at most two of them; and its last
// bytes in memory, for the reply. Memory stays bounded whatever the
// command prints. Any process can page the stream with ReadLog.
type Log struct {
	mu       sync.Mutex
	base     string
	seg      int64 // bytes per segment: half the bound
	cur      *os.File
	curStart int64
	total    int64
	segs     []int64 // starts of the segments on disk, oldest first
	tail     []byte
	tailMax  int
	err      error // the first disk error: the stream is no longer kept
	// changed is closed by the next write (or the end), for Changed.
	changed chan struct{}
	ended   bool
}

// NewLog starts the stream base on disk, keeping at least max/2 and at
// most max bytes of it there and its last tail bytes in memory.
func NewLog(base string, max int64, tail int) (*Log, error) {
	if max < 2 {
		max = 2
	}
	l := &Log{base: base, seg: max / 2, tailMax: tail, tail: make([]byte, 0, 2*tail)}
	if err := l.open(0); err != nil {
		return nil, err
	}
	return l, nil
}

func (l *Log) open(start int64) error {
	name := l.base + "." + strconv.FormatInt(start, 10)
	f, err := os.OpenFile(name, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return shell.AsError(err, name)
	}
	l.cur, l.curStart = f, start
	l.segs = append(l.segs, start)
	return nil
}

// Write keeps p. It never fails the command's output: trouble with the
// disk stops the keeping on disk (Err reports it), not the command.
func (l *Log) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.changed != nil {
		close(l.changed)
		l.changed = nil
	}
	l.keepTail(p)
	rest := p
	for len(rest) > 0 && l.err == nil && l.cur != nil {
		room := l.curStart + l.seg - l.total
		if room <= 0 {
			l.rotate()
			continue
		}
		chunk := rest
		if int64(len(chunk)) > room {
			chunk = chunk[:room]
		}
		if _, err := l.cur.Write(chunk); err != nil {
			l.err = shell.AsError(err, l.cur.Name())
			break
		}
		l.total += int64(len(chunk))
		rest = rest[len(chunk):]
	}
	if l.err != nil || l.cur == nil {
		l.total += int64(len(rest))
	}
	return len(p), nil
}

// rotate starts a new segment and drops all but the previous one.
func (l *Log) rotate() {
	l.cur.Close()
	l.cur = nil
	for len(l.segs) > 1 {
		os.Remove(l.base + "." + strconv.FormatInt(l.segs[0], 10))
		l.segs = l.segs[1:]
	}
	if err := l.open(l.total); err != nil {
		l.err = err
	}
}

func (l *Log) keepTail(p []byte) {
	if l.tailMax <= 0 {
		return
	}
	if len(p) >= l.tailMax {
		l.tail = append(l.tail[:0], p[len(p)-l.tailMax:]...)
		return
	}
	if len(l.tail)+len(p) > cap(l.tail) {
		keep := l.tailMax - len(p)
		l.tail = append(l.tail[:0], l.tail[len(l.tail)-keep:]...)
	}
	l.tail = append(l.tail, p...)
}

// Tail returns the last bytes written (at most the tail size) and the
// stream's length so far.
func (l *Log) Tail() ([]byte, int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	t := l.tail
	if len(t) > l.tailMax {
		t = t[len(t)-l.tailMax:]
	}
	return append([]byte(nil), t...), l.total
}

// Total is the stream's length so far.
func (l *Log) Total() int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.total
}

// Err is the disk trouble that stopped the keeping, if any.
func (l *Log) Err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
}

// Changed is closed once the stream grows or ends: a reader in this
// process follows it without polling. Once the stream has ended it is nil
// (a wait on it is a wait for something else).
func (l *Log) Changed() <-chan struct{} {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ended {
		return nil
	}
	if l.changed == nil {
		l.changed = make(chan struct{})
	}
	return l.changed
}

// Close ends the stream.
func (l *Log) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.ended = true
	if l.changed != nil {
		close(l.changed)
		l.changed = nil
	}
	if l.cur == nil {
		return nil
	}
	err := l.cur.Close()
	l.cur = nil
	return err
}

// ReadLog reads at most n bytes of the stream kept under base from offset
// off. first is the offset of the oldest byte still kept (an off before it
// reads from first), total the stream's length on disk. An absent stream
// is not_found.
func ReadLog(base string, off int64, n int) (data []byte, first, total int64, err error) {
	for try := 0; ; try++ {
		data, first, total, err = readLog(base, off, n)
		// A segment dropped between the listing and the read: list again.
		if err == nil || !os.IsNotExist(err) || try == 2 {
			break
		}
	}
	if err != nil {
		return nil, 0, 0, shell.AsError(err, base)
	}
	return data, first, total, nil
}

func readLog(base string, off int64, n int) ([]byte, int64, int64, error) {
	starts, err := segments(base)
	if err != nil {
		return nil, 0, 0, err
	}
	if len(starts) == 0 {
		return nil, 0, 0, fmt.Errorf("%s: %w", base, os.ErrNotExist)
	}
	last := starts[len(starts)-1]
	fi, err := os.Stat(base + "." + strconv.FormatInt(last, 10))
	if err != nil {
		return nil, 0, 0, err
	}
	first, total := starts[0], last+fi.Size()
	off = max(off, first)
	var out []byte
	for i, s := range starts {
		if len(out) >= n || off >= total {
			break
		}
		end := total
		if i+1 < len(starts) {
			end = starts[i+1]
		}
		if off >= end {
			continue
		}
		f, err := os.Open(base + "." + strconv.FormatInt(s, 10))
		if err != nil {
			return nil, 0, 0, err
		}
		want := min(int64(n-len(out)), end-off)
		buf := make([]byte, want)
		got, err := f.ReadAt(buf, off-s)
		f.Close()
		if err != nil && err != io.EOF {
			return nil, 0, 0, err
		}
		out = append(out, buf[:got]...)
		off += int64(got)
		if int64(got) < want {
			break // the segment is still being written
		}
	}
	return out, first, total, nil
}

// segments lists the offsets of base's segments, oldest first.
func segments(base string) ([]int64, error) {
	ents, err := os.ReadDir(filepath.Dir(base))
	if err != nil {
		return nil, err
	}
	prefix := filepath.Base(base) + "."
	var out []int64
	for _, e := range ents {
		if rest, ok := strings.CutPrefix(e.Name(), prefix); ok {
			if n, err := strconv.ParseInt(rest, 10, 64); err == nil {
				out = append(out, n)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out, nil
}
