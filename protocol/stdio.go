package protocol

// The stdio loop. mcp-go's stdio server parses a message three or four
// times before a tool sees it (a raw pass, one per kind of response it
// might be, its own base message, the protocol-era probe, the typed
// request with the arguments decoded into a map that the handler then
// encodes again), and encodes a result twice: a 1 MiB save cost 2.4x the
// filesystem server's. Upstream cannot be changed from here, so this loop
// reads every line itself and serves tools/call, the one message that
// carries file contents, on a fast path: the message is decoded once
// (jsonrpc, id, method, params.name, params.arguments kept raw), the
// catalog function runs (the same toolResult as mcp-go's handler), and the
// response is written with its text escaped once. Every other line
// (initialize, lists, resources, pings, notifications, responses to our
// requests, and any tools/call that is not plain: bad JSON, _meta) goes
// to mcp-go's own stdio server unchanged (a call naming no tool is
// answered here, unknowntool.go), through a
// pipe, so the protocol stays mcp-go's; both write whole lines through
// one lock. notifications/cancelled reaches the fast path's calls too, and
// when the input ends every call in flight is cancelled, as mcp-go does.
// Lines come from the request-limit reader (limit.go), so nothing over the
// limits is decoded here either, and the end is prompt (shutdown.go).

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strconv"
	"sync"

	"github.com/editord/editord/editor/wire"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// stdioWorkers bounds the tool calls served at once (mcp-go's pool size).
const stdioWorkers = 16

// serveLines is the loop of ServeStdio (server.go): lines (already held
// to the request limits) go to the fast path or to mcp-go's stdio server,
// whose output is unescaped (editor/wire's UnescapeHTML); both write whole lines to out.
func serveLines(ctx context.Context, s *Server, lines *LineReader, out *lockedWriter) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	pr, pw := io.Pipe()
	std := server.NewStdioServer(s.MCP)
	server.WithWorkerPoolSize(stdioWorkers)(std)
	listened := make(chan error, 1)
	go func() { listened <- std.Listen(ctx, pr, wire.UnescapeHTML(out)) }()
	f := &fastPath{s: s, w: out, base: ctx, inflight: map[string]context.CancelFunc{}, slots: make(chan struct{}, stdioWorkers)}
	var err error
	for {
		var line []byte
		line, err = lines.ReadLine()
		if len(line) > 0 && !f.serve(line) {
			if reply := s.unknownTool(line); reply != nil {
				out.Write(reply) // unknowntool.go
			} else if _, werr := pw.Write(line); werr != nil {
				err = werr
				break
			}
		}
		if err != nil {
			break
		}
	}
	// The input ended (or broke): give up the calls in flight, as mcp-go
	// does, then let its loop end.
	f.cancelAll()
	f.wg.Wait()
	pw.Close()
	lerr := <-listened
	if err == nil || err == io.EOF {
		err = lerr
	}
	if err == io.EOF || err == context.Canceled {
		return nil
	}
	return err
}

func (l *lockedWriter) writeJSON(v any) error {
	b, err := marshalJSON(v)
	if err != nil {
		return err
	}
	_, err = l.Write(append(b, '\n'))
	return err
}

// fastPath serves plain tools/call messages.
type fastPath struct {
	s        *Server
	w        *lockedWriter
	base     context.Context
	ctx      context.Context // base with the stdio session, once mcp-go has registered it
	mu       sync.Mutex
	inflight map[string]context.CancelFunc // by the request id's JSON
	wg       sync.WaitGroup
	slots    chan struct{}
}

// toolCall is the one decoding of a tools/call message. Unknown fields
// send it to mcp-go (which knows what they mean).
type toolCall struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"params"`
}

// parseToolCall reads a tools/call message in one walk over its members
// that skips values (strings quote to quote). Everything but the
// arguments is validated as it is read: the structure by the walk, each
// key and small value by encoding/json, and nothing may follow the
// message. The arguments (megabytes, for a save or a diff) are only
// delimited: the request decoder validates them as it reads them
// (editor's decodeArgs), and a call whose arguments turn out not to be
// JSON is answered with the parse error mcp-go gives such a line (serve).
// A validating pass over the whole line first cost a third of an
// editor::diff of two 1 MiB texts. The arguments are a slice of line. Any
// member it does not know makes it give up (false): mcp-go knows what
// such members mean.
func parseToolCall(line []byte) (toolCall, bool) {
	var c toolCall
	end, ok := objectMembersEnd(line, func(key string, val []byte) bool {
		switch key {
		case "jsonrpc":
			return json.Unmarshal(val, &c.JSONRPC) == nil
		case "id":
			c.ID = val
			return json.Valid(val)
		case "method":
			return json.Unmarshal(val, &c.Method) == nil
		case "params":
			return objectMembers(val, func(key string, val []byte) bool {
				switch key {
				case "name":
					return json.Unmarshal(val, &c.Params.Name) == nil
				case "arguments":
					c.Params.Arguments = val
					return true
				}
				return false
			})
		}
		return false
	})
	return c, ok && wire.Space(line, end) == len(line)
}

// serve handles line if it is a plain tools/call (true), or a cancellation
// of one (false: mcp-go sees it too).
func (f *fastPath) serve(line []byte) bool {
	method := peekMethod(line)
	if method == "notifications/cancelled" {
		f.cancelled(line)
		return false
	}
	if method != "tools/call" || !f.session() {
		return false
	}
	c, ok := parseToolCall(line)
	if !ok || c.JSONRPC != mcp.JSONRPC_VERSION || !plainID(c.ID) {
		return false
	}
	fn := f.s.tools[c.Params.Name]
	if fn == nil {
		return false
	}
	if a := bytes.TrimSpace(c.Params.Arguments); len(a) > 0 && a[0] != '{' && string(a) != "null" || !numbersFit(a) {
		return false // mcp-go answers these its own way (a number past float64 is a parse error)
	}
	// The line is ours (LineReader.ReadLine returns a new one each time),
	// so the arguments are used in place; nothing else of it is kept, so
	// that once decoded it can go while the call runs (a 50 MB save's
	// line is 50 MB).
	key, id, args := string(c.ID), bytes.Clone(c.ID), c.Params.Arguments
	ctx, cancel := context.WithCancel(f.ctx)
	f.mu.Lock()
	f.inflight[key] = cancel
	f.mu.Unlock()
	f.slots <- struct{}{}
	f.wg.Go(func() {
		defer func() { <-f.slots }()
		defer func() {
			f.mu.Lock()
			delete(f.inflight, key)
			f.mu.Unlock()
			cancel()
		}()
		res, notJSON := toolOutcome(ctx, f.s.svc, fn, f.s.cs, args)
		if notJSON {
			// The line was not JSON after all (parseToolCall leaves the
			// arguments to the decoder): answer as mcp-go answers such a
			// line.
			f.w.writeJSON(mcp.NewJSONRPCError(mcp.NewRequestId(nil), mcp.PARSE_ERROR, "Parse error", nil))
			return
		}
		msg, err := encodeToolResponse(id, res)
		if err != nil {
			f.w.writeJSON(map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(id), "error": map[string]any{"code": mcp.INTERNAL_ERROR, "message": err.Error()}})
			return
		}
		f.w.writePieces(msg)
	})
	return true
}

// session reports whether the stdio session is known (mcp-go registers it
// as its loop starts; a Server not made by NewServer never tells us, and
// then every line goes to mcp-go).
func (f *fastPath) session() bool {
	if f.ctx != nil {
		return true
	}
	select {
	case sess := <-f.s.stdio:
		f.ctx = f.s.MCP.WithContext(f.base, sess)
		return true
	default:
		return false
	}
}

// cancelled cancels the fast-path call a notifications/cancelled names.
func (f *fastPath) cancelled(line []byte) {
	var n struct {
		Params struct {
			RequestID json.RawMessage `json:"requestId"`
		} `json:"params"`
	}
	if json.Unmarshal(line, &n) != nil {
		return
	}
	f.mu.Lock()
	cancel := f.inflight[string(bytes.TrimSpace(n.Params.RequestID))]
	f.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

func (f *fastPath) cancelAll() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, cancel := range f.inflight {
		cancel()
	}
}

// peekMethod finds the method of a message cheaply, looking only at its
// start (clients write "method" before "params"); "" when it is not there,
// which sends the message to mcp-go.
func peekMethod(line []byte) string {
	head := line[:min(len(line), 256)]
	i := bytes.Index(head, []byte(`"method"`))
	if i < 0 {
		return ""
	}
	rest := bytes.TrimLeft(head[i+len(`"method"`):], " \t\r\n")
	if len(rest) == 0 || rest[0] != ':' {
		return ""
	}
	rest = bytes.TrimLeft(rest[1:], " \t\r\n")
	if len(rest) == 0 || rest[0] != '"' {
		return ""
	}
	end := bytes.IndexByte(rest[1:], '"')
	if end < 0 {
		return ""
	}
	return string(rest[1 : 1+end])
}

// plainID is a JSON-RPC id of the spec's kinds: a string or a number.
func plainID(id json.RawMessage) bool {
	id = bytes.TrimSpace(id)
	if len(id) == 0 {
		return false
	}
	switch c := id[0]; {
	case c == '"':
		var s string
		return json.Unmarshal(id, &s) == nil
	case c == '-' || (c >= '0' && c <= '9'):
		_, err := strconv.ParseFloat(string(id), 64)
		return err == nil
	}
	return false
}

// encodeToolResponse renders the JSON-RPC response carrying res, and a
// newline, as pieces to write in order. The common result (text blocks and
// structured content) is written directly, each text escaped once, and
// the structured content (a capped search's is megabytes) is a piece of
// its own, not copied; anything else goes through mcp-go's own encoding.
func encodeToolResponse(id json.RawMessage, res *mcp.CallToolResult) ([][]byte, error) {
	b := &bytes.Buffer{}
	b.WriteString(`{"jsonrpc":"2.0","id":`)
	b.Write(bytes.TrimSpace(id))
	b.WriteString(`,"result":`)
	plain := res.Meta == nil && res.ResultType == "" && len(res.InputRequests) == 0 && res.RequestState == "" && len(res.RawStructuredContent) == 0
	var texts []string
	for _, c := range res.Content {
		t, ok := c.(mcp.TextContent)
		if !ok || t.Annotations != nil || t.Meta != nil {
			plain = false
			break
		}
		texts = append(texts, t.Text)
	}
	sc, isRaw := res.StructuredContent.(json.RawMessage)
	if !plain || (res.StructuredContent != nil && !isRaw) {
		out, err := json.Marshal(res)
		if err != nil {
			return nil, err
		}
		b.Write(out)
		b.WriteString("}\n")
		return [][]byte{b.Bytes()}, nil
	}
	n := 128
	for _, t := range texts {
		n += len(t) + len(t)/8 + 32
	}
	b.Grow(n)
	b.WriteString(`{"content":[`)
	for i, t := range texts {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"type":"text","text":`)
		writeJSONString(b, t)
		b.WriteByte('}')
	}
	b.WriteByte(']')
	if len(sc) == 0 {
		if res.IsError {
			b.WriteString(`,"isError":true`)
		}
		b.WriteString("}}\n")
		return [][]byte{b.Bytes()}, nil
	}
	b.WriteString(`,"structuredContent":`)
	tail := "}}\n"
	if res.IsError {
		tail = `,"isError":true}}` + "\n"
	}
	// sc is our own json.Marshal output: valid, compact.
	return [][]byte{b.Bytes(), sc, []byte(tail)}, nil
}

// writeJSONString writes s as a JSON string, as encoding/json would
// without HTML escaping (invalid UTF-8 becomes U+FFFD).
func writeJSONString(b *bytes.Buffer, s string) {
	b.Grow(len(s) + 2)
	b.Write(appendJSONString(b.AvailableBuffer(), s))
}
