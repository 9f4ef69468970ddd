package protocol

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// HTTPOptions configures the Streamable HTTP transport.
type HTTPOptions struct {
	Addr        string // host:port; loopback unless AllowRemote
	Token       string // bearer token every request must carry
	AllowRemote bool   // permit a non-loopback listen address

	// Timeouts; zero means the defaults below (tests shorten them).
	HeaderTimeout, ReadTimeout, IdleTimeout time.Duration
}

// The HTTP server's timeouts. A connection must send its request headers
// within httpHeaderTimeout and its whole request within httpReadTimeout
// (the largest body the request limit allows, about 100 MB by default,
// needs under 2 MB/s for it; loopback is the default address); a
// keep-alive connection with no request for httpIdleTimeout is closed.
// There is no write timeout: the SSE stream of a GET /mcp stays open as
// long as its client listens (Go clears the read deadline once a request
// has been read, so the read timeout does not end it either).
const (
	httpHeaderTimeout = 10 * time.Second
	httpReadTimeout   = 60 * time.Second
	httpIdleTimeout   = 30 * time.Second
	httpMaxHeader     = 64 << 10
)

// HTTPHandler serves MCP Streamable HTTP at /mcp for many clients at once,
// behind an Origin check (browsers on other sites must not drive a local
// server) and a bearer token, and the person's editor page at /.
func HTTPHandler(s *Server, token string) http.Handler {
	h, _ := httpHandler(s, token, false)
	return h
}

// httpHandler is HTTPHandler and the MCP transport inside it, whose
// sessions ServeHTTP closes when it ends. remote is --allow-remote: the
// server's own page is then accepted whatever host it was reached by.
func httpHandler(s *Server, token string, remote bool) (http.Handler, *server.StreamableHTTPServer) {
	// mcp-go refuses a loopback connection whose Host is not localhost
	// (DNS rebinding). With --allow-remote the page may be reached by the
	// machine's name over loopback (Debian maps it to 127.0.1.1), so that
	// check is off there: guard's origin check and the token remain.
	live := newHTTPSessions()
	mcpHTTP := server.NewStreamableHTTPServer(s.MCP, server.WithEndpointPath("/mcp"), server.WithHeartbeatInterval(30*time.Second),
		server.WithDisableLocalhostProtection(remote),
		server.WithSessionIdManager(live),
		server.WithEventStore(newRingStore(ringEvents, ringBytes)))
	mux := http.NewServeMux()
	mux.Handle("/mcp", guard(limitBodies(s.sessionGate(unescapeHTTP(mcpHTTP), live), LimitsFor(s.svc.Config()), s.unknownTool), token, remote))
	mux.Handle("/", pageHandler())
	return secureHeaders(mux), mcpHTTP
}

func guard(next http.Handler, token string, remote bool) http.Handler {
	want := []byte("Bearer " + token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// A refused request does not keep its connection: a client that
		// is not allowed in gets no kept-alive socket to hold (300 of
		// them were still open 45 s after their 401).
		if o := r.Header.Get("Origin"); o != "" && !pageOrigin(o, r, remote) {
			w.Header().Set("Connection", "close")
			http.Error(w, fmt.Sprintf("Forbidden: Origin %q is not this server's own page", o), http.StatusForbidden)
			return
		}
		got := []byte(r.Header.Get("Authorization"))
		if subtle.ConstantTimeCompare(got, want) != 1 {
			w.Header().Set("Connection", "close")
			w.Header().Set("WWW-Authenticate", `Bearer realm="editord"`)
			http.Error(w, "Unauthorized: send Authorization: Bearer <token> (the token is in the state dir's http.token, or the --token given to editord serve)", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func orDefault(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

// pageOrigin accepts a browser's Origin when it is the server's own page:
// the host the request was sent to, and (unless remote) a loopback one.
// Loopback only is what defeats DNS rebinding on a local server (a
// rebinding page's Origin is the Host it sent, a name that is not
// loopback). With --allow-remote the page is reached by the machine's
// name or address, so its own origin is accepted whatever its host; every
// other origin is still refused, and the bearer token guards the rest.
func pageOrigin(origin string, r *http.Request, remote bool) bool {
	return sameOrigin(origin, r) && (remote || localOrigin(origin))
}

// localOrigin accepts pages served from this machine.
func localOrigin(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	return isLoopback(u.Hostname())
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// ServeHTTP listens on opt.Addr until ctx ends, then shuts down as
// ServeStdio does: no new connections or requests, the calls in flight
// have their contexts cancelled (a save past its guard still completes, one
// waiting for a lock is refused) and their answers are sent, the SSE
// streams of GET /mcp (the page's, any client's) are closed, and it returns
// within ShutdownGrace even if a call is stuck where no context reaches.
// ready, if not nil, receives the bound address once listening.
func ServeHTTP(ctx context.Context, s *Server, opt HTTPOptions, ready func(addr string)) error {
	host, _, err := net.SplitHostPort(opt.Addr)
	if err != nil {
		return fmt.Errorf("--http %q: want host:port, e.g. 127.0.0.1:8765", opt.Addr)
	}
	if !isLoopback(host) && !opt.AllowRemote {
		return fmt.Errorf("--http %s is not a loopback address; pass --allow-remote to serve other machines", opt.Addr)
	}
	if opt.Token == "" {
		return errors.New("a bearer token is required")
	}
	ln, err := net.Listen("tcp", opt.Addr)
	if err != nil {
		return err
	}
	handler, mcpHTTP := httpHandler(s, opt.Token, opt.AllowRemote)
	// The calls' contexts end when the server does; the requests' own do
	// not, so that a cancelled call's answer still reaches its client.
	ending, endCalls := context.WithCancel(context.Background())
	defer endCalls()
	s.MCP.Use(cancelWith(ending))
	hs := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: orDefault(opt.HeaderTimeout, httpHeaderTimeout),
		ReadTimeout:       orDefault(opt.ReadTimeout, httpReadTimeout),
		IdleTimeout:       orDefault(opt.IdleTimeout, httpIdleTimeout),
		MaxHeaderBytes:    httpMaxHeader,
	}
	if ready != nil {
		ready(ln.Addr().String())
	}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	endCalls()
	return shutdownHTTP(hs, mcpHTTP, ShutdownGrace)
}

// shutdownHTTP stops hs: it stops listening and waits for the requests in
// flight, closing the MCP sessions meanwhile, which ends their SSE streams
// (a GET /mcp never ends by itself, so without this a graceful shutdown
// waited for its whole timeout). The sessions are closed again while it
// waits, for a GET that was being read when shutdown began. After grace
// the connections left are closed and it returns nil: a call stuck there
// is abandoned to the process's exit, as in endPromptly.
func shutdownHTTP(hs *http.Server, mcpHTTP *server.StreamableHTTPServer, grace time.Duration) error {
	shut := make(chan error, 1)
	go func() { shut <- hs.Shutdown(context.Background()) }()
	mcpHTTP.CloseSessions(context.Background())
	t := time.NewTimer(grace)
	defer t.Stop()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case err := <-shut:
			return err
		case <-tick.C:
			mcpHTTP.CloseSessions(context.Background())
		case <-t.C:
			hs.Close()
			return nil
		}
	}
}

// cancelWith ends the context of every tool call when ending ends.
func cancelWith(ending context.Context) server.ToolHandlerMiddleware {
	return func(next server.ToolHandlerFunc) server.ToolHandlerFunc {
		return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			ctx, cancel := context.WithCancel(ctx)
			defer cancel()
			stop := context.AfterFunc(ending, cancel)
			defer stop()
			return next(ctx, req)
		}
	}
}
