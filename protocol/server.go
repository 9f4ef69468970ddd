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

// NewServer builds an MCP server whose tools are the editor's catalog.
func NewServer(svc *editor.Service, version string) *server.MCPServer {
	s := server.NewMCPServer("editord", version,
		server.WithToolCapabilities(false),
		server.WithInstructions(instructions),
		server.WithRecovery(),
	)
	for _, f := range editor.Catalog() {
		s.AddTool(Tool(f), handler(svc, f))
	}
	return s
}

// ServeStdio serves MCP on the given streams until in closes or ctx ends.
// Tool calls run in parallel on a pool of workers.
func ServeStdio(ctx context.Context, s *server.MCPServer, in io.Reader, out io.Writer) error {
	std := server.NewStdioServer(s)
	server.WithWorkerPoolSize(16)(std)
	return std.Listen(ctx, in, out)
}
