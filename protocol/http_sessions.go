package protocol

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// httpSessions is the set of Streamable HTTP sessions this server issued
// (mcp-go's SessionIdManager): a session id nobody was given is refused
// with 404 before it can create any state (mcp-go's default manager
// accepts any well-formed id, and a GET with one registered a session).
type httpSessions struct {
	mu   sync.Mutex
	live map[string]bool
}

var _ server.SessionIdManager = (*httpSessions)(nil)

func newHTTPSessions() *httpSessions { return &httpSessions{live: map[string]bool{}} }

// Generate issues the id of a session being initialized.
func (s *httpSessions) Generate() string {
	var b [16]byte
	rand.Read(b[:])
	id := "mcp-session-" + hex.EncodeToString(b[:])
	s.mu.Lock()
	s.live[id] = true
	s.mu.Unlock()
	return id
}

var errUnknownSession = errors.New("unknown session")

// Validate refuses an id this server did not issue or already ended.
func (s *httpSessions) Validate(id string) (terminated bool, err error) {
	if !s.known(id) {
		return false, fmt.Errorf("%w %q", errUnknownSession, id)
	}
	return false, nil
}

// Terminate ends a session (DELETE, shutdown).
func (s *httpSessions) Terminate(id string) (notAllowed bool, err error) {
	s.mu.Lock()
	delete(s.live, id)
	s.mu.Unlock()
	return false, nil
}

func (s *httpSessions) known(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.live[id]
}

// sessionGate stands before mcp-go's Streamable HTTP handler:
//
//   - a request naming a session this server did not issue is refused
//     (404, which tells a client to initialize again), and a GET must name
//     one (mcp-go would make up a session for it);
//   - it tells the hub when a session's GET stream is open (its headers
//     are written, which mcp-go does after attaching the stream) and when
//     it ends, so that notifications are sent only while one can carry
//     them (hub.send);
//   - it answers a session's notifications (a POST without an id) itself.
//     mcp-go starts a forwarder for every POST that reads the session's
//     notification queue beside the GET stream's pump, and for a POST
//     that gets no response it does not wait for that forwarder to exit:
//     one that runs late takes a notification and writes it to a response
//     already finished, where it is lost. A notification needs nothing of
//     the transport: its handler gets the session's id and answers
//     nothing.
//
// Requests of protocol 2026-07-28 and later, which have no sessions, pass
// untouched.
func (s *Server) sessionGate(next http.Handler, live *httpSessions) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if mcp.IsModernProtocol(r.Header.Get(mcp.HeaderProtocolVersion)) {
			next.ServeHTTP(w, r)
			return
		}
		id := r.Header.Get(server.HeaderKeySessionID)
		if id == "" {
			if r.Method == http.MethodGet {
				http.Error(w, "Bad Request: a GET stream belongs to a session: send the Mcp-Session-Id header that initialize returned", http.StatusBadRequest)
				return
			}
			next.ServeHTTP(w, r)
			return
		}
		if !live.known(id) && r.Method != http.MethodHead {
			http.Error(w, "Not Found: no such session (it ended, expired or was never issued): initialize a new one", http.StatusNotFound)
			return
		}
		switch r.Method {
		case http.MethodGet:
			sw := &streamResponse{ResponseWriter: w, opened: func() { s.hub.streamOpened(id) }}
			next.ServeHTTP(sw, r)
			if sw.open {
				s.hub.streamClosed(id)
			}
			return
		case http.MethodPost:
			if s.answerNotification(w, r, id) {
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// answerNotification handles a POST that carries a notification and
// reports whether it did; anything else is left to mcp-go.
func (s *Server) answerNotification(w http.ResponseWriter, r *http.Request, id string) bool {
	body := postedBody(r)
	if body == nil {
		return false
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		return false // mcp-go refuses it before starting anything
	}
	if v := r.Header.Get(mcp.HeaderProtocolVersion); v != "" && !mcp.IsValidProtocolVersion(v) {
		return false // likewise
	}
	var msg struct {
		ID any `json:"id"`
	}
	if json.Unmarshal(body, &msg) != nil || msg.ID != nil {
		return false
	}
	ctx := s.MCP.WithContext(r.Context(), noteSession(id))
	if resp := s.MCP.HandleMessage(ctx, body); resp != nil {
		out, _ := json.Marshal(resp)
		w.Header().Set("Content-Type", "application/json")
		w.Write(out)
		return true
	}
	w.WriteHeader(http.StatusAccepted)
	return true
}

// noteSession is the session a notification is handled in: its id is all
// a notification's handler uses (notifications/cancelled finds the call
// to cancel by session and request id).
type noteSession string

func (s noteSession) Initialize()                                         {}
func (s noteSession) Initialized() bool                                   { return true }
func (s noteSession) NotificationChannel() chan<- mcp.JSONRPCNotification { return nil }
func (s noteSession) SessionID() string                                   { return string(s) }

// streamResponse tells when a GET's stream is open: mcp-go writes its
// headers once the stream is attached to the session.
type streamResponse struct {
	http.ResponseWriter
	open   bool
	opened func()
}

func (w *streamResponse) WriteHeader(code int) {
	w.ResponseWriter.WriteHeader(code)
	if code == http.StatusOK && !w.open {
		w.open = true
		w.opened()
	}
}

// Flush keeps streaming (SSE) working through the wrapper.
func (w *streamResponse) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the real writer.
func (w *streamResponse) Unwrap() http.ResponseWriter { return w.ResponseWriter }
