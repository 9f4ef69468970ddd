package protocol

import (
	"context"
	"encoding/json"
	"io"
	"sync"

	"github.com/mark3labs/mcp-go/server"

	"github.com/editord/editord/editor"
)

const instructions = `editord serves a shared code workspace: a root folder, the files open in it (the user's tabs) and the folders expanded in its tree.
Start with editor_workspace_get. Read with editor_open (offset/limit for part of a file; tab: false leaves the user's tabs alone); change files with editor_edit (exact text), not by resending them.
Two rules prevent data loss: write only what you read (editor_save with the version editor_open returned as expected_version; editor_edit's old_text is its own guard), and move files with editor_move, not a shell mv.`

// Server is the MCP face of one editor service.
type Server struct {
	MCP *server.MCPServer
	svc *editor.Service
	hub *hub
}

// NewServer builds an MCP server whose tools are the editor's catalog and
// whose resources are the shared workspace and its change journal.
func NewServer(svc *editor.Service, version string) *Server {
	h := newHub()
	cs := newCallers()
	s := server.NewMCPServer("editord", version,
		server.WithToolCapabilities(false),
		server.WithResourceCapabilities(true, false),
		server.WithInstructions(instructions),
		server.WithRecovery(),
		server.WithLogging(),
		server.WithHooks(h.hooks(cs)),
	)
	h.srv = s
	for _, f := range editor.Catalog() {
		s.AddTool(Tool(f), handler(svc, f, cs))
	}
	s.AddResources(resources(svc)...)
	return &Server{MCP: s, svc: svc, hub: h}
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
// Tool calls run in parallel on a pool of workers. Lines over the request
// limits (limit.go) are answered with a JSON-RPC error and never reach
// mcp-go. Nothing written is HTML-escaped (wire.go).
func ServeStdio(ctx context.Context, s *Server, in io.Reader, out io.Writer) error {
	std := server.NewStdioServer(s.MCP)
	server.WithWorkerPoolSize(16)(std)
	lim := LimitsFor(s.svc.Config())
	w := &lockedWriter{w: unescapeHTML(out)}
	lines := NewLineReader(in, lim, func(id json.RawMessage, msg string) {
		w.Write(errorLine(id, msg, lim))
	})
	return std.Listen(ctx, lines, w)
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
