package protocol

import (
	"context"
	"io"

	"github.com/mark3labs/mcp-go/server"

	"github.com/editord/editord/editor"
)

const instructions = `editord serves a shared code workspace: a root folder, the files open in it (the user's tabs) and the folders expanded in its tree.
Start with editor_workspace_get to see the root and what the user has open.
Two rules prevent data loss: save with the version editor_open returned (expected_version), and move files with editor_move, not a shell mv.`

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
// moved aside, folders the watcher cannot cover) as a warning log message.
func (s *Server) Warn(msg string) {
	s.MCP.SendNotificationToAllClients("notifications/message", map[string]any{
		"level": "warning", "logger": "editord", "data": msg,
	})
}

// Deliver follows the shared record and journal and notifies connected
// clients until ctx ends.
func (s *Server) Deliver(ctx context.Context) { s.hub.run(ctx, s.svc) }

// ServeStdio serves MCP on the given streams until in closes or ctx ends.
// Tool calls run in parallel on a pool of workers. Ending cancels the
// calls in flight and returns within ShutdownGrace even if one of them is
// stuck (shutdown.go).
func ServeStdio(ctx context.Context, s *Server, in io.Reader, out io.Writer) error {
	std := server.NewStdioServer(s.MCP)
	server.WithWorkerPoolSize(16)(std)
	return endPromptly(ctx, in, func(in io.Reader) error { return std.Listen(ctx, in, out) })
}
