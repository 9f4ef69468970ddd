package protocol

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/server"

	"github.com/editord/editord/editor"
)

func TestRingStoreBoundsAndReplay(t *testing.T) {
	ctx := context.Background()
	s := newRingStore(4, 100)
	var ids []string
	for i := 0; i < 10; i++ {
		stream := "get"
		if i%2 == 1 {
			stream = "post"
		}
		id, err := s.StoreEvent(ctx, "a", stream, json.RawMessage(fmt.Sprintf(`{"n":%d}`, i)))
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	r := s.sessions["a"]
	if len(r.events) != 4 || r.bytes != 4*len(`{"n":0}`) {
		t.Fatalf("kept %d events, %d bytes; want the last 4", len(r.events), r.bytes)
	}
	// Replay follows the stream of the given id only.
	var got []string
	stream, err := s.ReplayEventsAfter(ctx, "a", ids[6], func(id string, m json.RawMessage) error {
		got = append(got, string(m))
		return nil
	})
	if err != nil || stream != "get" || strings.Join(got, ",") != `{"n":8}` {
		t.Fatalf("replay after 6: %q %v %v", stream, got, err)
	}
	// An id that was dropped, or of another session, is unknown.
	for _, tc := range []struct{ session, id string }{{"a", ids[0]}, {"b", ids[9]}} {
		if _, err := s.ReplayEventsAfter(ctx, tc.session, tc.id, nil); !errors.Is(err, server.ErrUnknownEventID) {
			t.Errorf("replay %s after %s: %v, want ErrUnknownEventID", tc.session, tc.id, err)
		}
	}
	// The byte bound: a large event pushes the small ones out, but the
	// newest is always kept.
	s.StoreEvent(ctx, "a", "get", json.RawMessage(`"`+strings.Repeat("x", 95)+`"`))
	if len(r.events) != 1 || r.bytes != 97 {
		t.Fatalf("after a 97-byte event: %d events, %d bytes", len(r.events), r.bytes)
	}
	s.StoreEvent(ctx, "a", "get", json.RawMessage(`"`+strings.Repeat("y", 200)+`"`))
	if len(r.events) != 1 || r.bytes != 202 {
		t.Fatalf("an event over the byte bound: %d events, %d bytes; want it alone", len(r.events), r.bytes)
	}
	s.PurgeSession(ctx, "a")
	if s.sessionCount() != 0 {
		t.Fatal("purge kept the session")
	}
}

// A session id this server did not issue is refused before it makes any
// state: mcp-go's default manager took any well-formed id, and a GET with
// one registered a session that (with an event store) outlived it.
func TestHTTPUnknownSessionRefused(t *testing.T) {
	svc, err := editor.New(editor.DefaultConfig(), editor.Options{Root: t.TempDir(), StateDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	srv := NewServer(svc, "test")
	hs := httptest.NewServer(HTTPHandler(srv, "tok"))
	defer hs.Close()
	madeUp := "mcp-session-5b1c3f0e-8f5d-4c1e-9a53-0d7e2f4b6a11"
	for _, tc := range []struct {
		method, sid, body string
		want              int
	}{
		{"GET", madeUp, "", 404},
		{"GET", "", "", 400},
		{"POST", madeUp, `{"jsonrpc":"2.0","id":1,"method":"ping"}`, 404},
		{"POST", madeUp, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, 404},
		{"POST", madeUp, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"editor_workspace_get","arguments":{}}}`, 404},
		{"DELETE", madeUp, "", 404},
	} {
		req, _ := http.NewRequest(tc.method, hs.URL+"/mcp", strings.NewReader(tc.body))
		req.Header.Set("Authorization", "Bearer tok")
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if tc.sid != "" {
			req.Header.Set("Mcp-Session-Id", tc.sid)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("%s with session %q: %d, want %d", tc.method, tc.sid, resp.StatusCode, tc.want)
		}
	}
	srv.cs.mu.Lock()
	callers := len(srv.cs.by)
	srv.cs.mu.Unlock()
	srv.hub.mu.Lock()
	hubState := len(srv.hub.versions) + len(srv.hub.streams) + len(srv.hub.waiting)
	srv.hub.mu.Unlock()
	if callers != 0 || hubState != 0 {
		t.Errorf("made-up sessions left state behind: %d callers, %d hub entries", callers, hubState)
	}
}
