package protocol

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"
)

// TestWriteJSONString: the fast path's string encoding decodes to the
// same text encoding/json's does (invalid UTF-8 as U+FFFD).
func TestWriteJSONString(t *testing.T) {
	for _, s := range []string{"", "plain", "quote \" and \\ back", "tabs\tnew\nlines\r\n", "\x00\x01\x1f\x7f",
		"<html> & stuff", "é ü 日本 🙂", "\u2028\u2029", "bad \xff\xfe utf8 \xe2\x82", strings.Repeat("x", 70000) + "\"end"} {
		var b bytes.Buffer
		writeJSONString(&b, s)
		var got string
		if err := json.Unmarshal(b.Bytes(), &got); err != nil {
			t.Fatalf("%q: %s is not JSON: %v", s, b.Bytes(), err)
		}
		want := strings.ToValidUTF8(s, "\uFFFD")
		if !utf8.ValidString(s) {
			std, _ := json.Marshal(s)
			json.Unmarshal(std, &want)
		}
		if got != want {
			t.Errorf("%q came back as %q", s, got)
		}
	}
}

// TestEncodeToolResponse: the fast path's response is the JSON mcp-go
// writes for the same result.
func TestEncodeToolResponse(t *testing.T) {
	for _, res := range []*mcp.CallToolResult{
		{Content: []mcp.Content{mcp.NewTextContent("a \"text\"\n")}, StructuredContent: json.RawMessage(`{"a":1,"b":"<x>"}`)},
		ErrorResult(io.EOF),
		{Content: []mcp.Content{mcp.NewImageContent("AAAA", "image/png")}},
	} {
		msg, err := encodeToolResponse(json.RawMessage(` 7`), res)
		if err != nil {
			t.Fatal(err)
		}
		b := bytes.NewBuffer(bytes.Join(msg, nil))
		if !bytes.HasSuffix(b.Bytes(), []byte("}\n")) {
			t.Fatalf("no newline: %s", b.Bytes())
		}
		want, _ := json.Marshal(mcp.JSONRPCResponse{JSONRPC: "2.0", ID: mcp.NewRequestId(int64(7)), Result: res})
		var g, w any
		json.Unmarshal(b.Bytes(), &g)
		json.Unmarshal(want, &w)
		gb, _ := json.Marshal(g)
		wb, _ := json.Marshal(w)
		if string(gb) != string(wb) {
			t.Errorf("fast path wrote\n%s\nmcp-go writes\n%s", gb, wb)
		}
	}
}

// TestParseToolCall: the one-pass reading of a tools/call agrees with
// encoding/json on what it accepts, and gives up on anything unusual.
func TestParseToolCall(t *testing.T) {
	for _, tc := range []struct {
		line string
		ok   bool
		name string
		args string
	}{
		{`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"editor_open","arguments":{"path":"a \"b\"\\"}}}`, true, "editor_open", `{"path":"a \"b\"\\"}`},
		{` { "method" : "tools/call" , "params" : { "arguments" : {} , "name" : "x\u0079" } , "id" : "s" , "jsonrpc" : "2.0" } `, true, "xy", `{}`},
		{`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"n"}}`, true, "n", ``},
		{`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"n","_meta":{}}}`, false, "", ""},
		{`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"n"},"extra":1}`, false, "", ""},
		{`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"n","arguments":{"a":1}}`, false, "", ""},
		{`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":[1]}`, false, "", ""},
		{`[1,2]`, false, "", ""},
		{`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"n"}} trailing`, false, "", ""},
		{`{"jsonrpc":"2.0","id":-Inf,"method":"tools/call","params":{"name":"n"}}`, false, "", ""},
		{`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"n"}}` + "\r\n", true, "n", ""},
		// The arguments are delimited here, validated by the decoder.
		{`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"n","arguments":{"a":tru}}}`, true, "n", `{"a":tru}`},
	} {
		c, ok := parseToolCall([]byte(tc.line))
		if ok != tc.ok || (ok && (c.Params.Name != tc.name || string(c.Params.Arguments) != tc.args)) {
			t.Errorf("%s: ok %v name %q args %s", tc.line, ok, c.Params.Name, c.Params.Arguments)
		}
	}
}
