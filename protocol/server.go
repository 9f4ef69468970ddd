package protocol

import (
	"context"
	"encoding/json"
	"io"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/editord/editord/editor"
)

const instructions = `editord serves a shared code workspace: a root folder, the files open in it (the user's tabs) and the folders expanded in its tree.
Start with editor_workspace_get; editor_tools lists more (git log, branches, sync). Read with editor_open (offset/limit for part of a file); change files with editor_edit, not by resending them.
Two rules prevent data loss: write only what you read (editor_save with the version editor_open returned as expected_version; editor_edit's old_text is its own guard), and move files with editor_move, not a shell mv.`

// Server is the MCP face of one editor service.
type Server struct {
	MCP *server.MCPServer
	svc *editor.Service
	hub *hub
	cs  *callers
	// tools maps tool names to catalog functions, for the stdio fast path.
	tools map[string]*editor.Function
	// stdio receives the stdio session once mcp-go registers it.
	stdio chan server.ClientSession
	// live is the HTTP transport's sessions, once it is made.
	live *httpSessions
}

// NewServer builds an MCP server whose tools are the editor's catalog and
// whose resources are the shared workspace and its change journal.
func NewServer(svc *editor.Service, version string) *Server {
	h := newHub()
	cs := newCallers()
	stdio := make(chan server.ClientSession, 1)
	hooks := h.hooks(cs)
	h.listen.hooks(hooks) // listen.go
	tr := newTaskRuns()
	tr.hooks(hooks) // tasks.go
	hooks.AddOnRegisterSession(func(_ context.Context, sess server.ClientSession) {
		if sess.SessionID() == "stdio" {
			select {
			case stdio <- sess:
			default:
			}
		}
	})
	var self *Server
	hooks.AddAfterListTools(func(ctx context.Context, _ any, req *mcp.ListToolsRequest, res *mcp.ListToolsResult) {
		self.filterTools(ctx, req, res) // toolsets.go
	})
	s := server.NewMCPServer("editord", version,
		server.WithToolCapabilities(true),
		server.WithResourceCapabilities(true, false),
		server.WithTaskCapabilities(true, true, true), // tasks.go
		server.WithInstructions(instructions),
		server.WithRecovery(),
		server.WithLogging(),
		server.WithHooks(hooks),
		// notifications/editor/changed for 2026-07-28 clients (listen.go).
		server.WithExtensions(map[string]any{changesExtension: map[string]any{}}),
	)
	h.srv = s
	cs.srv = s
	tools := map[string]*editor.Function{}
	for _, f := range editor.Catalog() {
		s.AddTool(Tool(f), handler(svc, f, cs, tr))
		tools[ToolName(f.ID)] = f
	}
	s.AddResources(resources(svc)...)
	s.AddResources(appResources()...) // apps.go
	self = &Server{MCP: s, svc: svc, hub: h, cs: cs, tools: tools, stdio: stdio}
	return self
}

// Warn tells connected clients about recoverable trouble (a corrupt record
// moved aside, folders the watcher cannot cover) as a warning log message,
// naming tools as every message to an MCP client does.
func (s *Server) Warn(msg string) {
	s.MCP.SendNotificationToAllClients("notifications/message", map[string]any{
		"level": "warning", "logger": "editord", "data": ToolNames(msg),
	})
}

// Deliver follows the shared record and journal and notifies connected
// clients until ctx ends.
func (s *Server) Deliver(ctx context.Context) { s.hub.run(ctx, s.svc) }

// ServeStdio serves MCP on the given streams until in closes or ctx ends.
// Tool calls run in parallel, up to stdioWorkers at once; plain tools/call
// messages on our own fast path, everything else through mcp-go
// (stdio.go). Lines over the request limits (limit.go) are answered with
// a JSON-RPC error and never decoded. Nothing written is HTML-escaped
// (editor/wire's UnescapeHTML; the fast path writes without escaping). Ending cancels the
// calls in flight and returns within ShutdownGrace even if one of them is
// stuck (shutdown.go).
func ServeStdio(ctx context.Context, s *Server, in io.Reader, out io.Writer) error {
	lim := LimitsFor(s.svc.Config())
	base := &lockedWriter{w: out}
	return endPromptly(ctx, in, func(in io.Reader) error {
		lines := NewLineReader(in, lim, func(id json.RawMessage, msg string) {
			base.Write(errorLine(id, msg, lim))
		})
		return serveLines(ctx, s, lines, base)
	})
}

// lockedWriter makes each Write whole with respect to the others: mcp-go
// writes every message with one Write, and so does the refusal of an
// oversized line, so no two messages interleave on stdout.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// writePieces writes one message given in pieces, whole with respect to
// the other writes.
func (l *lockedWriter) writePieces(msg [][]byte) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, p := range msg {
		if _, err := l.w.Write(p); err != nil {
			return err
		}
	}
	return nil
}
