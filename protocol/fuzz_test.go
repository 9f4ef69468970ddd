package protocol

// Fuzz targets: the messages protocol assembles or reads by hand (from
// editor/wire's pieces) against encoding/json on random input. go test
// runs their seeds as tests; make stress runs each with -fuzz.

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/editord/editord/editor"
)

// FuzzOpenJSON: openJSON writes what encoding/json writes for the same
// response, byte for byte.
func FuzzOpenJSON(f *testing.F) {
	f.Add("a.go", "package a\n", "go", "1-2", "lf", "/r", int64(10), int64(1700000000), false, 1, 1, 1)
	f.Add("<&>", "bad \xff\f\b\u2028", "", "", "crlf", "", int64(-1), int64(0), true, 0, -1, 0)
	f.Fuzz(func(t *testing.T, path, content, language, version, eol, root string, size, mtime int64, truncated bool, start, end, total int) {
		o := &editor.OpenResponse{Path: path, Content: content, Language: language, Size: size, Mtime: mtime, Version: version,
			Truncated: truncated, EOL: eol, StartLine: start, EndLine: end, TotalLines: total, Root: root}
		want, err := marshalJSON(o)
		if err != nil {
			t.Fatal(err)
		}
		if got := openJSON(o); !bytes.Equal(got, want) {
			t.Fatalf("openJSON\n%s\nencoding/json\n%s", got, want)
		}
	})
}

// FuzzSearchJSON: searchJSON writes what encoding/json writes for a
// search response of any shape, which the fuzzer's seed and text choose.
func FuzzSearchJSON(f *testing.F) {
	f.Add(uint64(1), "x\"y", "\x00<&>\xff\f")
	f.Fuzz(func(t *testing.T, seed uint64, a, b string) {
		rng := rand.New(rand.NewPCG(seed, seed>>7))
		texts := []string{a, b, "", a + b}
		pick := func() string { return texts[rng.IntN(len(texts))] }
		r := &editor.SearchResponse{Total: rng.IntN(5000), FilesScanned: rng.IntN(9), Truncated: rng.IntN(2) == 0, Root: pick(), SkippedTotal: rng.IntN(3)}
		for range rng.IntN(4) {
			file := editor.SearchFile{Path: pick(), Count: rng.IntN(2) * rng.IntN(9)}
			if rng.IntN(4) > 0 {
				file.Hits = []editor.SearchHit{}
			}
			for range rng.IntN(4) {
				h := editor.SearchHit{Line: rng.IntN(1 << 20), Column: rng.IntN(300), Text: pick()}
				if rng.IntN(4) > 0 {
					h.Ranges = [][2]int{}
				}
				for range rng.IntN(3) {
					h.Ranges = append(h.Ranges, [2]int{rng.IntN(40) - 2, rng.IntN(40)})
				}
				file.Hits = append(file.Hits, h)
			}
			if rng.IntN(3) == 0 {
				file.Context = []editor.ContextLine{}
			}
			for range rng.IntN(3) {
				file.Context = append(file.Context, editor.ContextLine{Line: rng.IntN(99), Text: pick()})
			}
			r.Files = append(r.Files, file)
		}
		if rng.IntN(2) == 0 {
			r.Skipped = []editor.SearchSkip{}
		}
		for range rng.IntN(3) {
			r.Skipped = append(r.Skipped, editor.SearchSkip{Path: pick(), Reason: pick()})
		}
		want, err := marshalJSON(r)
		if err != nil {
			t.Fatal(err)
		}
		got, err := searchJSON(r)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("searchJSON (%v)\n%s\nencoding/json\n%s", err, got, want)
		}
	})
}

// FuzzParseToolCall: what the stdio fast path reads from a line it takes
// for a tools/call is what encoding/json reads from it: the version, the
// id, the method, the tool and its arguments (which it only delimits; the
// argument decoder checks them).
func FuzzParseToolCall(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"editor_open","arguments":{"path":"a \"b\"\\"}}}`,
		` { "method" : "tools/call" , "params" : { "arguments" : {} , "name" : "x\u0079" } , "id" : "s" , "jsonrpc" : "2.0" } `,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"n","_meta":{}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"n","arguments":{"a":tru}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"n"},"id":4}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		c, ok := parseToolCall(line)
		if !ok {
			return
		}
		var want toolCall // as encoding/json reads it
		// The arguments are only delimited: compare with them taken out
		// when they are not valid JSON.
		args := bytes.TrimSpace(c.Params.Arguments)
		if len(args) > 0 && !json.Valid(args) {
			return
		}
		if err := json.Unmarshal(line, &want); err != nil {
			t.Fatalf("%q: taken for a call, but encoding/json says %v", line, err)
		}
		if c.JSONRPC != want.JSONRPC || c.Method != want.Method || c.Params.Name != want.Params.Name ||
			!sameJSON(c.ID, want.ID) || !sameJSON(c.Params.Arguments, want.Params.Arguments) {
			t.Fatalf("%q: fast %+v, encoding/json %+v", line, c, want)
		}
	})
}

// sameJSON reports whether two raw values are the same JSON text once
// compacted (both absent counts as the same).
func sameJSON(a, b json.RawMessage) bool {
	var ca, cb bytes.Buffer
	json.Compact(&ca, a)
	json.Compact(&cb, b)
	return ca.String() == cb.String()
}

// FuzzEncodeToolResponse: the stdio fast path's answer to a call is the
// JSON mcp-go writes for the same result, value for value.
func FuzzEncodeToolResponse(f *testing.F) {
	f.Add("a \"text\"\n", `{"a":1,"b":"<x>"}`, false, int64(7))
	f.Add("\f\b\xff\u2028", ``, true, int64(-1))
	f.Fuzz(func(t *testing.T, text, structured string, isError bool, id int64) {
		res := &mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent(text)}, IsError: isError}
		if structured != "" {
			var c bytes.Buffer
			if json.Compact(&c, []byte(structured)) != nil {
				return
			}
			res.StructuredContent = json.RawMessage(c.Bytes())
		}
		idJSON, _ := json.Marshal(id)
		msg, err := encodeToolResponse(idJSON, res)
		if err != nil {
			t.Fatal(err)
		}
		got := bytes.Join(msg, nil)
		want, err := json.Marshal(mcp.JSONRPCResponse{JSONRPC: "2.0", ID: mcp.NewRequestId(id), Result: res})
		if err != nil {
			return // mcp-go cannot write it either
		}
		var g, w any
		if err := json.Unmarshal(got, &g); err != nil {
			t.Fatalf("%q: the fast path wrote no JSON: %v\n%s", text, err, got)
		}
		json.Unmarshal(want, &w)
		gb, _ := json.Marshal(g)
		wb, _ := json.Marshal(w)
		if !bytes.Equal(gb, wb) {
			t.Fatalf("fast path wrote\n%s\nmcp-go writes\n%s", gb, wb)
		}
	})
}
