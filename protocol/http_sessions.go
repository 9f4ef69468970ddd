package protocol

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// httpSessions is the set of Streamable HTTP sessions this server issued
// (mcp-go's SessionIdManager): a session id nobody was given is refused
// with 404 before it can create any state (mcp-go's default manager
// accepts any well-formed id, and a GET with one registered a session).
//
// It also bounds them (issue 19 item 4: 3,000 initialize calls added
// 44 MiB, and every session stayed alive). A session is busy while a
// request of it runs, its GET stream included; one idle (not busy) for
// [http] session_idle_seconds ends, and at [http] max_sessions a new one
// takes the place of the least recently used idle one, or is refused when
// none is idle. A session ends as a DELETE would end it (end), so mcp-go,
// the event store, the hub and the callers all forget it.
type httpSessions struct {
	max  int
	idle time.Duration
	end  func(id string) // ends a session in mcp-go; set once the transport exists

	mu      sync.Mutex
	live    map[string]*liveSession
	pending int // initializes admitted, not yet through
}

type liveSession struct {
	busy int       // requests running
	last time.Time // when the last one ended (or the session began)
	// initializing is set from Generate until the initialize's reply is
	// written: its AfterInitialize hook has not yet run, and ending the
	// session now would let that hook record state for a session already
	// forgotten (a slow initialize outlived a short idle limit and leaked
	// its hub entries). Bounded by initializeGrace, so a reply that never
	// names its session cannot pin it.
	initializing bool
}

// initializeGrace is how long a session being initialized is safe from
// the idle sweep and from eviction.
const initializeGrace = 2 * time.Minute

// idleAt reports whether ls may be ended at now as an idle session.
func (ls *liveSession) idleAt(now time.Time) bool {
	return ls.busy == 0 && (!ls.initializing || now.Sub(ls.last) > initializeGrace)
}

var _ server.SessionIdManager = (*httpSessions)(nil)

func newHTTPSessions(max int, idle time.Duration) *httpSessions {
	return &httpSessions{max: max, idle: idle, live: map[string]*liveSession{}, end: func(string) {}}
}

// Generate issues the id of a session being initialized.
func (s *httpSessions) Generate() string {
	var b [16]byte
	rand.Read(b[:])
	id := "mcp-session-" + hex.EncodeToString(b[:])
	s.mu.Lock()
	s.live[id] = &liveSession{last: time.Now(), initializing: true}
	s.mu.Unlock()
	return id
}

// initialized marks the session whose initialize reply named id as
// through it: from now on it ages like any session.
func (s *httpSessions) initialized(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ls := s.live[id]; ls != nil {
		ls.initializing = false
		ls.last = time.Now()
	}
}

var errUnknownSession = errors.New("unknown session")

// Validate refuses an id this server did not issue or already ended.
func (s *httpSessions) Validate(id string) (terminated bool, err error) {
	if !s.known(id) {
		return false, fmt.Errorf("%w %q", errUnknownSession, id)
	}
	return false, nil
}

// Terminate ends a session (DELETE, expiry, shutdown).
func (s *httpSessions) Terminate(id string) (notAllowed bool, err error) {
	s.mu.Lock()
	delete(s.live, id)
	s.mu.Unlock()
	return false, nil
}

func (s *httpSessions) known(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.live[id] != nil
}

// begin marks a request of session id running; false when there is no
// such session.
func (s *httpSessions) begin(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	ls := s.live[id]
	if ls == nil {
		return false
	}
	ls.busy++
	return true
}

// done marks a request of session id ended.
func (s *httpSessions) done(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ls := s.live[id]; ls != nil {
		ls.busy--
		ls.last = time.Now()
	}
}

// admit makes room for a new session: below the cap it holds a place for
// it (release gives it back once the initialize is through); at the cap
// it ends the least recently used idle session first. false: every
// session is busy.
func (s *httpSessions) admit() (release func(), ok bool) {
	s.mu.Lock()
	var evict string
	if len(s.live)+s.pending >= s.max {
		var oldest time.Time
		now := time.Now()
		for id, ls := range s.live {
			if ls.idleAt(now) && (evict == "" || ls.last.Before(oldest)) {
				evict, oldest = id, ls.last
			}
		}
		if evict == "" {
			s.mu.Unlock()
			return nil, false
		}
		delete(s.live, evict)
	}
	s.pending++
	s.mu.Unlock()
	if evict != "" {
		s.end(evict)
	}
	return func() {
		s.mu.Lock()
		s.pending--
		s.mu.Unlock()
	}, true
}

// expire ends the sessions idle for longer than s.idle, every so often,
// until ctx ends.
func (s *httpSessions) expire(ctx context.Context) {
	t := time.NewTicker(min(max(s.idle/4, 50*time.Millisecond), time.Minute))
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		s.sweep(time.Now())
	}
}

func (s *httpSessions) sweep(now time.Time) {
	var ended []string
	s.mu.Lock()
	for id, ls := range s.live {
		if ls.idleAt(now) && now.Sub(ls.last) > s.idle {
			delete(s.live, id)
			ended = append(ended, id)
		}
	}
	s.mu.Unlock()
	for _, id := range ended {
		s.end(id)
	}
}

// count is how many sessions are alive.
func (s *httpSessions) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.live)
}

// endThrough ends a session the way a client's DELETE does, through the
// transport, so that everything that keeps state for it forgets it.
func endThrough(mcpHTTP http.Handler) func(id string) {
	return func(id string) {
		req, err := http.NewRequest(http.MethodDelete, "/mcp", nil)
		if err != nil {
			return
		}
		req.Header.Set(server.HeaderKeySessionID, id)
		mcpHTTP.ServeHTTP(&discardResponse{h: http.Header{}}, req)
	}
}

// discardResponse is the answer nobody reads.
type discardResponse struct{ h http.Header }

func (d *discardResponse) Header() http.Header         { return d.h }
func (d *discardResponse) Write(p []byte) (int, error) { return len(p), nil }
func (d *discardResponse) WriteHeader(int)             {}

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
			switch {
			case r.Method == http.MethodGet:
				http.Error(w, "Bad Request: a GET stream belongs to a session: send the Mcp-Session-Id header that initialize returned", http.StatusBadRequest)
				return
			case r.Method == http.MethodPost && isInitialize(postedBody(r)):
				release, ok := live.admit()
				if !ok {
					w.Header().Set("Retry-After", "10")
					http.Error(w, fmt.Sprintf("Service Unavailable: %d MCP sessions are open and busy ([http] max_sessions); end one (DELETE /mcp) or try again", live.max), http.StatusServiceUnavailable)
					return
				}
				defer release()
				next.ServeHTTP(w, r)
				if id := w.Header().Get(server.HeaderKeySessionID); id != "" {
					live.initialized(id)
				}
				return
			}
			next.ServeHTTP(w, r)
			return
		}
		if r.Method == http.MethodHead {
			next.ServeHTTP(w, r)
			return
		}
		if !live.begin(id) {
			http.Error(w, "Not Found: no such session (it ended, expired or was never issued): initialize a new one", http.StatusNotFound)
			return
		}
		defer live.done(id)
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

// isInitialize reports whether body is an initialize request.
func isInitialize(body []byte) bool {
	var msg struct {
		Method string `json:"method"`
	}
	return body != nil && json.Unmarshal(body, &msg) == nil && msg.Method == string(mcp.MethodInitialize)
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
