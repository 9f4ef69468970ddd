package protocol

import (
	"context"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/editord/editord/editor"
)

// recentChanges is how many events the changes resource holds.
const recentChanges = 100

const (
	workspaceURI = "editor://workspace"
	changesURI   = "editor://changes"
)

// resources serves the shared workspace view and the recent changes as
// subscribable MCP resources.
func resources(svc *editor.Service) []server.ServerResource {
	read := func(uri string, get func(ctx context.Context) (any, error)) server.ResourceHandlerFunc {
		return func(ctx context.Context, _ mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			v, err := get(ctx)
			if err != nil {
				return nil, err
			}
			text, err := marshalJSON(v)
			if err != nil {
				return nil, err
			}
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: uri, MIMEType: "application/json", Text: string(text)}}, nil
		}
	}
	return []server.ServerResource{
		{
			Resource: mcp.NewResource(workspaceURI, "workspace",
				mcp.WithResourceDescription("The shared workspace: root, open buffers (the tab set) and expanded folders, as every surface sees them. Subscribe to hear when it changes."),
				mcp.WithMIMEType("application/json")),
			Handler: read(workspaceURI, func(ctx context.Context) (any, error) {
				return svc.WorkspaceGet(ctx, &editor.WorkspaceGetRequest{})
			}),
		},
		{
			Resource: mcp.NewResource(changesURI, "changes",
				mcp.WithResourceDescription("The last 100 editor::changed events (the change journal), oldest first. Subscribe to hear of every write; call editor_changes with a cursor to read only new ones."),
				mcp.WithMIMEType("application/json")),
			Handler: read(changesURI, func(ctx context.Context) (any, error) {
				last, err := svc.Store().LastSeq()
				if err != nil {
					return nil, err
				}
				return svc.Changes(ctx, &editor.ChangesRequest{Since: fmt.Sprint(max(last-recentChanges, 0))})
			}),
		},
	}
}
