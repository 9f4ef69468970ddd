package protocol

import (
	"context"
	"io/fs"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// MCP Apps (the io.modelcontextprotocol/ui extension): views of the
// person's page that a host can render inline, beside the tool result
// they belong to. Each is a ui:// resource holding one HTML document
// (built from protocol/web/src/apps into web/dist/apps, script and style
// inline: the host renders it in its own sandboxed iframe), and the tools
// whose results it shows name it in _meta.ui.resourceUri. A View reaches
// the server only through the host (tools/call), so it can do nothing an
// agent could not. Hosts that know nothing of apps ignore the _meta.
//
// One table: the view, and the functions whose results it shows. The
// review view (the page's, issue 21) joins it when the page has it.

// appMIME is the MIME type of an MCP App's HTML.
const appMIME = "text/html;profile=mcp-app"

type app struct {
	uri, name, file, description string
	functions                    []string
}

var apps = []app{
	{
		uri: "ui://editord/merge.html", name: "merge", file: "apps/merge.html",
		description: "The merge view: for a save refused as a conflict, the file on disk now beside the text that was to be saved, to merge and save guarded by the disk's version.",
		functions:   []string{"editor::save"},
	},
}

// appOf is the view that shows function id's results ("" for none).
func appOf(id string) string {
	for _, a := range apps {
		for _, f := range a.functions {
			if f == id {
				return a.uri
			}
		}
	}
	return ""
}

// toolMeta is a tool's _meta: its function id, and its view if it has one.
func toolMeta(id string) *mcp.Meta {
	fields := map[string]any{"function_id": id}
	if uri := appOf(id); uri != "" {
		fields["ui"] = map[string]any{"resourceUri": uri}
	}
	return &mcp.Meta{AdditionalFields: fields}
}

// appResources serves each view's HTML from the embedded page.
func appResources() []server.ServerResource {
	dist, err := fs.Sub(webDist, "web/dist")
	if err != nil {
		panic(err)
	}
	var out []server.ServerResource
	for _, a := range apps {
		html, err := fs.ReadFile(dist, a.file)
		if err != nil {
			panic("protocol: the page's build has no " + a.file + " (make web): " + err.Error())
		}
		uri := a.uri
		out = append(out, server.ServerResource{
			Resource: mcp.NewResource(uri, a.name, mcp.WithResourceDescription(a.description), mcp.WithMIMEType(appMIME)),
			Handler: func(context.Context, mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
				return []mcp.ResourceContents{mcp.TextResourceContents{URI: uri, MIMEType: appMIME, Text: string(html)}}, nil
			},
		})
	}
	return out
}
