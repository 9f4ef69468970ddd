package protocol

// Issue 15 item 6: HTTP read, header and idle timeouts, and no kept-alive
// connection for a refused request. The server runs with short timeouts so
// that the connections it must end end quickly; each check waits for the
// server to close the connection (with a generous deadline), it does not
// time anything.

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/editord/editord/editor"
)

// serveTestToken is the token of startTestHTTP's servers: ServeHTTP wants
// at least workspace.MinTokenLen characters.
const serveTestToken = "http-test-token-0123456789abcdef"

func startTestHTTP(t *testing.T, opt HTTPOptions) string {
	t.Helper()
	addr, _ := serveTestHTTP(t, editor.DefaultConfig(), opt)
	return addr
}

// serveTestHTTP serves a fresh workspace configured by cfg over HTTP on a
// free loopback port with serveTestToken until the test ends; it returns
// the address and the server.
func serveTestHTTP(t *testing.T, cfg editor.Config, opt HTTPOptions) (string, *Server) {
	t.Helper()
	base, _ := filepath.EvalSymlinks(t.TempDir())
	root := filepath.Join(base, "ws")
	os.MkdirAll(root, 0o755)
	svc, err := editor.New(cfg, editor.Options{Root: root, StateDir: filepath.Join(base, "state")})
	if err != nil {
		t.Fatal(err)
	}
	srv := NewServer(svc, "test")
	ctx, cancel := context.WithCancel(context.Background())
	addr := make(chan string, 1)
	done := make(chan error, 1)
	opt.Addr, opt.Token = "127.0.0.1:0", serveTestToken
	go func() { done <- ServeHTTP(ctx, srv, opt, func(a string) { addr <- a }) }()
	t.Cleanup(func() {
		cancel()
		<-done
		svc.Close()
	})
	select {
	case a := <-addr:
		return a, srv
	case err := <-done:
		t.Fatal(err)
	}
	return "", nil
}

// closedByServer reports whether the server ends the connection (EOF or
// reset) before the deadline, reading and discarding whatever comes.
func closedByServer(t *testing.T, c net.Conn, within time.Duration) bool {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(within))
	_, err := io.Copy(io.Discard, c)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return false
	}
	return true
}

func TestHTTPRefusedConnectionsAreClosed(t *testing.T) {
	addr := startTestHTTP(t, HTTPOptions{})
	for _, tc := range []struct{ name, req string }{
		{"no token", "POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"},
		{"wrong token", "GET /mcp HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer nope\r\n\r\n"},
		{"foreign origin", "GET /mcp HTTP/1.1\r\nHost: x\r\nOrigin: https://evil.example\r\nAuthorization: Bearer " + serveTestToken + "\r\n\r\n"},
	} {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(c, tc.req)
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		resp.Body.Close()
		if resp.StatusCode != 401 && resp.StatusCode != 403 || !resp.Close {
			t.Errorf("%s: %d, Connection: %q; want 401/403 and Connection: close", tc.name, resp.StatusCode, resp.Header.Get("Connection"))
		}
		// The default idle timeout is 30 s: only closing it after the
		// answer ends the connection within 5 s.
		if !closedByServer(t, c, 5*time.Second) {
			t.Errorf("%s: the connection is still open after the refusal", tc.name)
		}
		c.Close()
	}
}

func TestHTTPTimeouts(t *testing.T) {
	addr := startTestHTTP(t, HTTPOptions{HeaderTimeout: 200 * time.Millisecond, ReadTimeout: 500 * time.Millisecond, IdleTimeout: 300 * time.Millisecond})
	dial := func() net.Conn {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	// Headers that never end.
	c := dial()
	io.WriteString(c, "POST /mcp HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer")
	if !closedByServer(t, c, 10*time.Second) {
		t.Error("a request whose headers never end keeps its connection")
	}
	// A body that never ends.
	c = dial()
	io.WriteString(c, "POST /mcp HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "+serveTestToken+"\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"jsonrpc\":")
	if !closedByServer(t, c, 10*time.Second) {
		t.Error("a request whose body never ends keeps its connection")
	}
	// An idle keep-alive connection after a served request.
	c = dial()
	io.WriteString(c, "POST /mcp HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "+serveTestToken+"\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 2\r\n\r\n{}")
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if !closedByServer(t, c, 10*time.Second) {
		t.Error("an idle keep-alive connection is never closed")
	}

	// The SSE stream of a session outlives every timeout.
	c = dial()
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"timeouts","version":"1"}}}`
	io.WriteString(c, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "+serveTestToken+"\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"+
		"Content-Length: "+strconv.Itoa(len(init))+"\r\n\r\n"+init)
	br = bufio.NewReader(c)
	resp, err = http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	session := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != 200 || session == "" {
		t.Fatalf("initialize: %d, session %q", resp.StatusCode, session)
	}
	sse := dial()
	io.WriteString(sse, "GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "+serveTestToken+"\r\nAccept: text/event-stream\r\nMcp-Session-Id: "+session+"\r\nMcp-Protocol-Version: 2025-06-18\r\n\r\n")
	sbr := bufio.NewReader(sse)
	sresp, err := http.ReadResponse(sbr, nil)
	if err != nil || sresp.StatusCode != 200 {
		t.Fatalf("GET stream: %v %v", sresp, err)
	}
	time.Sleep(1500 * time.Millisecond) // past the read, header and idle timeouts
	sse.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
	_, err = sbr.ReadByte()
	var ne net.Error
	if !errors.As(err, &ne) || !ne.Timeout() {
		t.Errorf("the SSE stream ended (%v); it must stay open while its client listens", err)
	}
}
