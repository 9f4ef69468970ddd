package protocol

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestLineReaderLimits: lines within the limits pass byte for byte; a line
// over them is answered with its id and dropped, and the next line is
// served.
func TestLineReaderLimits(t *testing.T) {
	lim := Limits{MaxBytes: 6*1000 + 200, MaxString: 1000, MaxValues: 50}
	big := strings.Repeat("x", 1001)
	esc := strings.Repeat(`\u003c`, 1000) // 6,000 bytes that decode to 1,000
	lines := []struct {
		line   string
		ok     bool
		id     string
		reason string
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"ping"}`, true, "", ""},
		{`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"arguments":{"content":"` + big + `"}}}`, false, "2", "string"},
		{`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"arguments":{"content":"` + esc + `"}}}`, true, "", ""},
		// The TypeScript SDK puts the id last.
		{`{"method":"tools/call","params":{"arguments":{"id":99,"content":"` + big + `"}},"jsonrpc":"2.0","id":"req-4"}`, false, `"req-4"`, "string"},
		{`{"jsonrpc":"2.0","id":5,"method":"x","params":{"a":"` + esc + `x"}}`, false, "5", "string"},
		{`{"jsonrpc":"2.0","id":6,"params":[` + strings.Repeat("1,", 60) + `1]}`, false, "6", "values"},
		{strings.Repeat("{", 100), false, "null", "values"},
		{`{"jsonrpc":"2.0","id":7,"p":"` + strings.Repeat(`\"`, 999) + `"}`, true, "", ""},
		{`{"jsonrpc":"2.0","id":8,"a":"` + strings.Repeat("y", 900) + `","b":"` + strings.Repeat("y", 900) + `","c":"` + strings.Repeat("\\n", 900) + `","d":"` + strings.Repeat("\\n", 900) + `","e":"` + strings.Repeat("\\n", 900) + `"}`, false, "8", "bytes"},
		{`{"jsonrpc":"2.0","id":9,"method":"last"}`, true, "", ""},
	}
	var in bytes.Buffer
	for _, l := range lines {
		in.WriteString(l.line + "\n")
	}
	type refusal struct{ id, msg string }
	var refused []refusal
	r := NewLineReader(&in, lim, func(id json.RawMessage, msg string) {
		if id == nil {
			id = json.RawMessage("null")
		}
		refused = append(refused, refusal{string(id), msg})
	})
	var passed []string
	for {
		line, err := r.ReadLine()
		if len(line) > 0 {
			passed = append(passed, strings.TrimSuffix(string(line), "\n"))
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	var wantPassed []string
	var wantRefused []refusal
	for _, l := range lines {
		if l.ok {
			wantPassed = append(wantPassed, l.line)
		} else {
			wantRefused = append(wantRefused, refusal{l.id, l.reason})
		}
	}
	if len(passed) != len(wantPassed) {
		t.Fatalf("%d lines passed, want %d", len(passed), len(wantPassed))
	}
	for i := range passed {
		if passed[i] != wantPassed[i] {
			t.Errorf("line %d changed on its way: %.80q", i, passed[i])
		}
	}
	if len(refused) != len(wantRefused) {
		t.Fatalf("refused %v, want %v", refused, wantRefused)
	}
	for i, got := range refused {
		want := wantRefused[i]
		if got.id != want.id || !strings.Contains(got.msg, want.msg) || !strings.Contains(got.msg, "1000 bytes in one string") {
			t.Errorf("refusal %d: id %s, %q; want id %s and a message about %s naming the limits", i, got.id, got.msg, want.id, want.msg)
		}
	}
}

// TestLineReaderAsStream: Read hands the passed lines on as one stream, the
// way mcp-go's loop reads them.
func TestLineReaderAsStream(t *testing.T) {
	lim := Limits{MaxBytes: 100, MaxString: 10, MaxValues: 10}
	in := "{\"id\":1}\n{\"id\":2,\"a\":\"" + strings.Repeat("z", 50) + "\"}\n{\"id\":3}"
	var ids []string
	r := NewLineReader(strings.NewReader(in), lim, func(id json.RawMessage, _ string) { ids = append(ids, string(id)) })
	got, err := io.ReadAll(r)
	if err != nil || string(got) != "{\"id\":1}\n{\"id\":3}" || len(ids) != 1 || ids[0] != "2" {
		t.Fatalf("got %q %v, refused %v", got, err, ids)
	}
}

// TestLimitBodies: an HTTP body over the limits is refused while it
// streams (or at once by its Content-Length) with the limit named, and the
// connection is not kept.
func TestLimitBodies(t *testing.T) {
	lim := Limits{MaxBytes: 6000, MaxString: 1000, MaxValues: 100}
	h := limitBodies(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.ReadAll(r.Body); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		w.Write([]byte("ok"))
	}), lim, nil)
	for _, tc := range []struct {
		body    string
		length  int64 // -1: chunked
		status  int
		mention string
	}{
		{`{"a":"small"}`, -1, 200, "ok"},
		{`{"a":"` + strings.Repeat("x", 2000) + `"}`, -1, 400, "1000 bytes in one string"},
		{`{"a":"` + strings.Repeat("x", 7000) + `"}`, 7008, 413, "over 6000"},
	} {
		body := &countingReader{r: strings.NewReader(tc.body)}
		req := httptest.NewRequest("POST", "/mcp", io.NopCloser(body))
		req.ContentLength = tc.length
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != tc.status || !strings.Contains(rec.Body.String(), tc.mention) {
			t.Errorf("%d-byte body: %d %q, want %d mentioning %q", len(tc.body), rec.Code, rec.Body, tc.status, tc.mention)
		}
		if tc.status != 200 && rec.Header().Get("Connection") != "close" {
			t.Errorf("a refused body keeps its connection")
		}
		if tc.status == 413 && body.n != 0 {
			t.Errorf("a body refused by its length was read")
		}
	}
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}
