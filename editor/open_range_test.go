package editor

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/editord/editord/shell"
)

func tcOpen(t *testing.T, s *Service, args string) (*OpenResponse, error) {
	t.Helper()
	out, err := tcCall(t, s, "editor::open", args)
	if err != nil {
		return nil, err
	}
	return out.(*OpenResponse), nil
}

func TestOpenRange(t *testing.T) {
	e := tcNew(t)
	var b strings.Builder
	for i := 1; i <= 100; i++ {
		fmt.Fprintf(&b, "line %d\r\n", i)
	}
	whole := b.String()
	e.write("f.txt", whole)
	r, err := tcOpen(t, e.s, `{"path":"f.txt","offset":10,"limit":3,"tab":false}`)
	tcWantCode(t, err, "")
	if r.Content != "line 10\r\nline 11\r\nline 12\r\n" || r.StartLine != 10 || r.EndLine != 12 || r.TotalLines != 100 {
		t.Fatalf("%+v", r)
	}
	if r.Version != Version([]byte(whole)) || r.Size != int64(len(whole)) || r.EOL != "crlf" || r.Truncated {
		t.Fatalf("version, size and eol must be the whole file's: %+v", r)
	}
	if len(e.buffers(e.s)) != 0 {
		t.Fatal("tab: false recorded a buffer")
	}
	// Without tab: false the buffer is recorded, with the whole file's version.
	r, err = tcOpen(t, e.s, `{"path":"f.txt","offset":99}`)
	tcWantCode(t, err, "")
	if r.Content != "line 99\r\nline 100\r\n" || r.EndLine != 100 {
		t.Fatalf("%+v", r)
	}
	v, _ := e.s.BuffersList(context.Background(), nil)
	if len(v.Buffers) != 1 || v.Buffers[0].Version != Version([]byte(whole)) {
		t.Fatalf("buffers %+v", v.Buffers)
	}
	// limit alone starts at line 1; a range past the end is empty.
	r, _ = tcOpen(t, e.s, `{"path":"f.txt","limit":1}`)
	if r.Content != "line 1\r\n" || r.StartLine != 1 || r.EndLine != 1 {
		t.Fatalf("%+v", r)
	}
	r, _ = tcOpen(t, e.s, `{"path":"f.txt","offset":101,"limit":5}`)
	if r.Content != "" || r.StartLine != 101 || r.EndLine != 100 || r.TotalLines != 100 {
		t.Fatalf("%+v", r)
	}
	// A whole read reports its lines too.
	r, _ = tcOpen(t, e.s, `{"path":"f.txt"}`)
	if r.Content != whole || r.StartLine != 1 || r.EndLine != 100 || r.TotalLines != 100 {
		t.Fatalf("%+v", r)
	}
	// A ranged read's version guards an edit.
	r, _ = tcOpen(t, e.s, `{"path":"f.txt","offset":50,"limit":1,"tab":false}`)
	_, err = tcEdit(t, e.s, `{"path":"f.txt","expected_version":"`+r.Version+`","edits":[{"old_text":"line 50\n","new_text":"fifty\n"}]}`)
	tcWantCode(t, err, "")
	if !strings.Contains(e.read("f.txt"), "line 49\r\nfifty\r\nline 51\r\n") {
		t.Fatal("edit guarded by a ranged read's version did not land")
	}
	for _, bad := range []string{`{"path":"f.txt","offset":-1}`, `{"path":"f.txt","limit":-2}`} {
		_, err := tcOpen(t, e.s, bad)
		tcWantCode(t, err, shell.CodeInvalidArgument)
	}
}

func TestOpenRangeOfLargeFile(t *testing.T) {
	e := tcNew(t, func(c *Config) { c.Limits.MaxFileBytes = 100; c.Jail.MaxReadBytes = 5000 })
	var b strings.Builder
	for i := 1; i <= 200; i++ {
		fmt.Fprintf(&b, "%04d\n", i) // 5 bytes a line: 1000 bytes
	}
	whole := b.String()
	e.write("big.txt", whole)
	// A range that fits is served whole, with the whole file's version; the
	// file is too big to be a buffer.
	r, err := tcOpen(t, e.s, `{"path":"big.txt","offset":150,"limit":4}`)
	tcWantCode(t, err, "")
	if r.Content != "0150\n0151\n0152\n0153\n" || r.Truncated || r.TotalLines != 200 || r.Version != Version([]byte(whole)) || r.Size != 1000 {
		t.Fatalf("%+v", r)
	}
	if len(e.buffers(e.s)) != 0 {
		t.Fatal("a file over max_file_bytes became a buffer")
	}
	// A range over max_file_bytes is cut at the last whole line that fits.
	r, _ = tcOpen(t, e.s, `{"path":"big.txt","offset":11,"limit":50}`)
	if !r.Truncated || r.EndLine != 30 || len(r.Content) != 100 || !strings.HasSuffix(r.Content, "0030\n") {
		t.Fatalf("%+v", r)
	}
	// A whole read is the prefix, as before, but counts every line.
	r, _ = tcOpen(t, e.s, `{"path":"big.txt"}`)
	if !r.Truncated || r.Content != whole[:100] || r.TotalLines != 200 || r.EndLine != 20 || r.Version != Version([]byte(whole[:100])) {
		t.Fatalf("%+v", r)
	}
	// One line over the cap: its beginning, cut on a rune boundary.
	e.write("long.txt", "short\n"+strings.Repeat("é", 80)+"\nend\n")
	r, _ = tcOpen(t, e.s, `{"path":"long.txt","offset":2,"limit":1}`)
	if !r.Truncated || r.Content != strings.Repeat("é", 50) || r.EndLine != 2 {
		t.Fatalf("%+v", r)
	}
	// Over max_read_bytes nothing is served.
	e.write("huge.txt", strings.Repeat("x\n", 3000))
	_, err = tcOpen(t, e.s, `{"path":"huge.txt","offset":1,"limit":1}`)
	tcWantCode(t, err, shell.CodeTooLarge)
	// A NUL anywhere makes the file binary, even outside the range.
	e.write("bin.txt", "ok\n"+strings.Repeat("a\n", 100)+"\x00\n")
	_, err = tcOpen(t, e.s, `{"path":"bin.txt","offset":1,"limit":1}`)
	tcWantCode(t, err, shell.CodeBinary)
}

// readLines must agree with splitting the whole text, for any text, range
// and read pattern (one byte at a time crosses every chunk boundary).
func TestReadLinesMatchesSplit(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"a", "bc", "\n", "\r\n", "\r", "é", strings.Repeat("x", 70000)}
	for iter := range 300 {
		var b strings.Builder
		for range rnd.IntN(12) {
			b.WriteString(pieces[rnd.IntN(len(pieces))])
		}
		text := b.String()
		var lines []string
		for rest := text; rest != ""; {
			i := strings.IndexByte(rest, '\n')
			if i < 0 {
				lines = append(lines, rest)
				break
			}
			lines = append(lines, rest[:i+1])
			rest = rest[i+1:]
		}
		offset, limit := 1+rnd.IntN(5), rnd.IntN(4)
		end := len(lines)
		if limit > 0 {
			end = min(end, offset-1+limit)
		}
		want := ""
		if offset <= len(lines) {
			want = strings.Join(lines[offset-1:max(end, offset-1)], "")
		}
		var rd = bytes.NewReader([]byte(text))
		var src interface{ Read([]byte) (int, error) } = rd
		if iter%2 == 1 {
			src = iotest.OneByteReader(rd)
		}
		got, err := readLines(src, offset, limit, 1<<30)
		if err != nil {
			t.Fatal(err)
		}
		if string(got.content) != want || got.total != len(lines) || got.version != Version([]byte(text)) || got.eol != EOL([]byte(text)) || got.size != int64(len(text)) {
			t.Fatalf("text %q offset %d limit %d: got %q total %d eol %s, want %q total %d eol %s", text, offset, limit, got.content, got.total, got.eol, want, len(lines), EOL([]byte(text)))
		}
		if wantEnd := max(end, offset-1); got.end != wantEnd {
			t.Fatalf("text %q offset %d limit %d: end %d want %d", text, offset, limit, got.end, wantEnd)
		}
	}
}
