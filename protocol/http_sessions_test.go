package protocol

// Issue 19 item 4: HTTP sessions end when idle without a live stream, are
// capped, and a made-up session id adds no state (eventstore_test.go).

import (
	"bufio"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/editord/editord/editor"
)

// startSessionsHTTP serves with [http] max_sessions and
// session_idle_seconds set; it returns the URL of /mcp and the server.
func startSessionsHTTP(t *testing.T, maxSessions, idleSeconds int) (string, *Server) {
	t.Helper()
	cfg := editor.DefaultConfig()
	cfg.HTTP.MaxSessions, cfg.HTTP.SessionIdleSeconds = maxSessions, idleSeconds
	addr, srv := serveTestHTTP(t, cfg, HTTPOptions{})
	return "http://" + addr + "/mcp", srv
}

func sessionRequest(t *testing.T, url, method, sid, body string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+serveTestToken)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if sid != "" {
		req.Header.Set("Mcp-Session-Id", sid)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func initSession(t *testing.T, url string) (sid string, status int) {
	t.Helper()
	resp := sessionRequest(t, url, "POST", "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"s","version":"1"}}}`)
	resp.Body.Close()
	return resp.Header.Get("Mcp-Session-Id"), resp.StatusCode
}

func ping(t *testing.T, url, sid string) int {
	t.Helper()
	resp := sessionRequest(t, url, "POST", sid, `{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	resp.Body.Close()
	return resp.StatusCode
}

// stream opens sid's GET stream and returns once it is attached.
func stream(t *testing.T, url, sid string) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	req.Header.Set("Authorization", "Bearer "+serveTestToken)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", sid)
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET stream of %s: %v %v", sid, resp, err)
	}
	go bufio.NewReader(resp.Body).WriteTo(devNull{})
	return func() { cancel(); resp.Body.Close() }
}

type devNull struct{}

func (devNull) Write(p []byte) (int, error) { return len(p), nil }

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within 30 s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestHTTPSessionsCapped(t *testing.T) {
	url, srv := startSessionsHTTP(t, 3, 3600)
	var ids []string
	for range 3 {
		sid, code := initSession(t, url)
		if code != 200 || sid == "" {
			t.Fatalf("initialize: %d", code)
		}
		ids = append(ids, sid)
	}
	// The first has a stream open (busy); the second is the least
	// recently used idle one and gives its place to a fourth.
	stop := stream(t, url, ids[0])
	ping(t, url, ids[2])
	fourth, code := initSession(t, url)
	if code != 200 || fourth == "" {
		t.Fatalf("a fourth session at the cap: %d", code)
	}
	if ping(t, url, ids[1]) != 404 || ping(t, url, ids[0]) != 200 || ping(t, url, ids[2]) != 200 {
		t.Fatalf("want the least recently used idle session ended, the streaming one kept")
	}
	if n := srv.live.count(); n != 3 {
		t.Fatalf("%d sessions alive, cap 3", n)
	}
	// Every session busy: a new one is refused.
	stops := []func(){stop, stream(t, url, ids[2]), stream(t, url, fourth)}
	if _, code := initSession(t, url); code != 503 {
		t.Fatalf("initialize with every session streaming: %d, want 503", code)
	}
	for _, s := range stops {
		s()
	}
	// Streams closed: a new one takes the place of an idle one again.
	waitFor(t, "a session freed by its stream's end", func() bool { _, code := initSession(t, url); return code == 200 })
}

// Abandoned sessions (initialize, then nothing) are bounded by the cap and
// end when idle; what every layer keeps for them goes with them.
func TestHTTPSessionsAbandonedEnd(t *testing.T) {
	url, srv := startSessionsHTTP(t, 64, 1)
	for i := range 500 {
		if _, code := initSession(t, url); code != 200 {
			t.Fatalf("initialize %d: %d", i, code)
		}
	}
	if n := srv.live.count(); n > 64 {
		t.Fatalf("%d sessions alive after 500 abandoned, cap 64", n)
	}
	kept, _ := initSession(t, url)
	stop := stream(t, url, kept)
	defer stop()
	waitFor(t, "the idle sessions to end", func() bool { return srv.live.count() == 1 })
	if ping(t, url, kept) != 200 {
		t.Fatal("the session with a live stream ended")
	}
	// A session's layers let go of it after it leaves the live set (the
	// hub's unregister runs on the ended session's goroutine): wait for
	// that, bounded, rather than look once.
	var hubState, callers int
	left := func() bool {
		srv.hub.mu.Lock()
		hubState = len(srv.hub.versions) + len(srv.hub.waiting) + len(srv.hub.http)
		srv.hub.mu.Unlock()
		srv.cs.mu.Lock()
		callers = len(srv.cs.by)
		srv.cs.mu.Unlock()
		return hubState <= 3 && callers <= 1
	}
	for deadline := time.Now().Add(30 * time.Second); !left(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("ended sessions left state after 30 s: %d hub entries, %d callers", hubState, callers)
		}
	}
}

// A session whose initialize is still running is neither swept as idle
// nor evicted: its AfterInitialize hook would record state for a session
// already forgotten.
func TestHTTPSessionInitializingIsNotEnded(t *testing.T) {
	s := newHTTPSessions(1, time.Millisecond)
	var ended []string
	s.end = func(id string) { ended = append(ended, id) }
	id := s.Generate()
	s.sweep(time.Now().Add(time.Minute))
	if _, ok := s.admit(); ok || !s.known(id) || len(ended) != 0 {
		t.Fatalf("a session being initialized was ended (ended %v, known %v)", ended, s.known(id))
	}
	s.initialized(id)
	s.sweep(time.Now().Add(time.Minute))
	if s.known(id) || len(ended) != 1 {
		t.Fatalf("an idle initialized session was kept (ended %v)", ended)
	}
	stuck := s.Generate()
	s.sweep(time.Now().Add(initializeGrace + time.Minute))
	if s.known(stuck) {
		t.Fatal("a session whose initialize never named it outlived initializeGrace")
	}
}
