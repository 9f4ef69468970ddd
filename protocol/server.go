package protocol

import (
	"context"

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
	cs  *callers
	// tools maps tool names to catalog functions, for the stdio fast path.
	tools map[string]*editor.Function
	// stdio receives the stdio session once mcp-go registers it.
	stdio chan server.ClientSession
}

// NewServer builds an MCP server whose tools are the editor's catalog and
// whose resources are the shared workspace and its change journal.
func NewServer(svc *editor.Service, version string) *Server {
	h := newHub()
	cs := newCallers()
	stdio := make(chan server.ClientSession, 1)
	hooks := h.hooks(cs)
	hooks.AddOnRegisterSession(func(_ context.Context, sess server.ClientSession) {
		if sess.SessionID() == "stdio" {
			select {
			case stdio <- sess:
			default:
			}
		}
	})
	s := server.NewMCPServer("editord", version,
		server.WithToolCapabilities(false),
		server.WithResourceCapabilities(true, false),
		server.WithInstructions(instructions),
		server.WithRecovery(),
		server.WithLogging(),
		server.WithHooks(hooks),
	)
	h.srv = s
	tools := map[string]*editor.Function{}
	for _, f := range editor.Catalog() {
		s.AddTool(Tool(f), handler(svc, f, cs))
		tools[ToolName(f.ID)] = f
	}
	s.AddResources(resources(svc)...)
	return &Server{MCP: s, svc: svc, hub: h, cs: cs, tools: tools, stdio: stdio}
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
