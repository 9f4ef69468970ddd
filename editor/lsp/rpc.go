package lsp

// JSON-RPC 2.0 over a language server's stdio, framed as LSP frames it
// (a Content-Length header, a blank line, the body). One reader goroutine
// routes responses to the call waiting for them, hands notifications and
// the server's own requests to a handler, and fails every waiting call
// when the stream ends (the server exited or crashed).

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
)

// maxFrame bounds one message from a server: a workspace's diagnostics or
// a rename of a much-used name are megabytes, never a gigabyte.
const maxFrame = 256 << 20

// message is any JSON-RPC message; which fields are set tells its kind.
type message struct {
	JSONRPC string           `json:"jsonrpc"`
	ID      *json.RawMessage `json:"id,omitempty"`
	Method  string           `json:"method,omitempty"`
	Params  json.RawMessage  `json:"params,omitempty"`
	Result  json.RawMessage  `json:"result,omitempty"`
	Error   *RPCError        `json:"error,omitempty"`
}

// RPCError is an error a server answered a request with.
type RPCError struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *RPCError) Error() string { return e.Message }

// Codes a server answers with that mean "not now" rather than "broken".
const (
	codeContentModified  = -32801
	codeRequestCancelled = -32800
	codeServerNotReady   = -32002
)

// handler serves what a server sends unasked: notifications (reply is nil)
// and requests (reply must be called once).
type handler func(method string, params json.RawMessage, reply func(result any, err *RPCError))

// conn is one JSON-RPC connection.
type conn struct {
	w      io.Writer
	wmu    sync.Mutex
	handle handler

	mu      sync.Mutex
	next    int64
	pending map[int64]chan *message
	closed  error // set once the stream ended; every later call fails with it
	done    chan struct{}
}

func newConn(r io.Reader, w io.Writer, h handler) *conn {
	c := &conn{w: w, handle: h, pending: map[int64]chan *message{}, done: make(chan struct{})}
	go c.read(bufio.NewReaderSize(r, 64<<10))
	return c
}

// errClosed is a call on a connection whose server has gone.
var errClosed = errors.New("the language server's connection is closed")

func (c *conn) read(r *bufio.Reader) {
	var err error
	for {
		var body []byte
		if body, err = readFrame(r); err != nil {
			break
		}
		var m message
		if json.Unmarshal(body, &m) != nil {
			continue // not JSON-RPC: skip it rather than drop the server
		}
		switch {
		case m.Method != "" && m.ID != nil:
			id := *m.ID
			go c.handle(m.Method, m.Params, func(result any, rerr *RPCError) {
				c.reply(id, result, rerr)
			})
		case m.Method != "":
			// In order: diagnostics of one file must not overtake each other.
			c.handle(m.Method, m.Params, nil)
		case m.ID != nil:
			id, perr := strconv.ParseInt(string(*m.ID), 10, 64)
			if perr != nil {
				continue
			}
			c.mu.Lock()
			ch := c.pending[id]
			delete(c.pending, id)
			c.mu.Unlock()
			if ch != nil {
				ch <- &m
			}
		}
	}
	c.mu.Lock()
	if err == io.EOF {
		err = errClosed
	}
	c.closed = fmt.Errorf("%w: %v", errClosed, err)
	for id, ch := range c.pending {
		close(ch)
		delete(c.pending, id)
	}
	c.mu.Unlock()
	close(c.done)
}

// readFrame reads one message body.
func readFrame(r *bufio.Reader) ([]byte, error) {
	length := -1
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return nil, err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			if length < 0 {
				continue // stray blank line before a header
			}
			break
		}
		name, value, ok := strings.Cut(line, ":")
		if ok && strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.Atoi(strings.TrimSpace(value))
			if err != nil || n < 0 || n > maxFrame {
				return nil, fmt.Errorf("bad Content-Length %q", value)
			}
			length = n
		}
	}
	body := make([]byte, length)
	_, err := io.ReadFull(r, body)
	return body, err
}

func (c *conn) write(m any) error {
	body, err := json.Marshal(m)
	if err != nil {
		return err
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if _, err := fmt.Fprintf(c.w, "Content-Length: %d\r\n\r\n", len(body)); err != nil {
		return err
	}
	_, err = c.w.Write(body)
	return err
}

func (c *conn) reply(id json.RawMessage, result any, rerr *RPCError) {
	m := map[string]any{"jsonrpc": "2.0", "id": id}
	if rerr != nil {
		m["error"] = rerr
	} else {
		m["result"] = result
	}
	_ = c.write(m)
}

// notify sends a notification.
func (c *conn) notify(method string, params any) error {
	return c.write(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// call sends a request and decodes its result into out (which may be nil).
// When ctx ends first the server is told to cancel, and ctx's error is
// returned.
func (c *conn) call(ctx context.Context, method string, params, out any) error {
	c.mu.Lock()
	if c.closed != nil {
		err := c.closed
		c.mu.Unlock()
		return err
	}
	c.next++
	id := c.next
	ch := make(chan *message, 1)
	c.pending[id] = ch
	c.mu.Unlock()
	if err := c.write(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params}); err != nil {
		c.forget(id)
		return fmt.Errorf("%w: %v", errClosed, err)
	}
	select {
	case m, ok := <-ch:
		if !ok {
			c.mu.Lock()
			err := c.closed
			c.mu.Unlock()
			return err
		}
		if m.Error != nil {
			return m.Error
		}
		if out == nil || len(m.Result) == 0 {
			return nil
		}
		return json.Unmarshal(m.Result, out)
	case <-ctx.Done():
		c.forget(id)
		_ = c.notify("$/cancelRequest", map[string]any{"id": id})
		return ctx.Err()
	}
}

func (c *conn) forget(id int64) {
	c.mu.Lock()
	delete(c.pending, id)
	c.mu.Unlock()
}
