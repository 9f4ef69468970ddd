package protocol

import (
	"context"
	"net/http"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/editord/editord/editor"
)

// A tools/list answers with the tools of the toolsets this request lists
// (editor/toolsets.go): the configured ones ([tools] toolsets, core by
// default), those its session added with editor_tools, and those the
// request names itself, in an X-MCP-Toolsets header (comma-separated, as
// github-mcp-server reads it; the person's page sends "all") or in
// _meta["io.editord/toolsets"] (a list, for a client on 2026-07-28, which
// keeps no session). Calls are not filtered: every tool answers by name,
// listed or not, so no advice ever names a tool that refuses.

// toolsetsHeader and toolsetsMeta are where a request names toolsets.
const (
	toolsetsHeader = "X-MCP-Toolsets"
	toolsetsMeta   = "io.editord/toolsets"
)

// listedToolsets is the toolsets a tools/list request lists.
func (s *Server) listedToolsets(ctx context.Context, header http.Header, meta *mcp.Meta) map[string]bool {
	names := append([]string{}, s.svc.Config().Tools.Toolsets...)
	names = append(names, s.cs.of(ctx).Toolsets()...)
	if header != nil {
		for _, v := range header.Values(toolsetsHeader) {
			names = append(names, strings.Split(v, ",")...)
		}
	}
	if meta != nil {
		if v, ok := meta.AdditionalFields[toolsetsMeta].([]any); ok {
			for _, n := range v {
				if s, ok := n.(string); ok {
					names = append(names, s)
				}
			}
		}
	}
	out := map[string]bool{}
	for _, n := range names {
		// A name the client made up lists nothing; it is no reason to
		// refuse the whole list.
		if ok, err := editor.ParseToolsets([]string{n}); err == nil {
			for _, t := range ok {
				out[t] = true
			}
		}
	}
	return out
}

// filterTools keeps the listed toolsets' tools in a tools/list result.
func (s *Server) filterTools(ctx context.Context, req *mcp.ListToolsRequest, res *mcp.ListToolsResult) {
	if res == nil {
		return
	}
	listed := s.listedToolsets(ctx, req.Header, req.Params.Meta)
	kept := res.Tools[:0]
	for _, t := range res.Tools {
		f := s.tools[t.Name]
		if f == nil || listed[editor.ToolsetOf(f.ID)] {
			kept = append(kept, t)
		}
	}
	res.Tools = kept
}

// toolsMoved tells the client of session sess that its tool list changed,
// unless it listens on a 2026-07-28 subscriptions/listen stream that did
// not ask for list changes (a notification there is opt-in; mcp-go treats
// a session without such a stream as one of an earlier revision).
func toolsMoved(srv *server.MCPServer, sess server.ClientSession) func() {
	return func() {
		if f, ok := sess.(server.SessionWithSubscriptionFilter); ok {
			if filter, active := f.SubscriptionFilter(); active && !filter.ToolsListChanged {
				return
			}
		}
		srv.SendNotificationToSpecificClient(sess.SessionID(), mcp.MethodNotificationToolsListChanged, nil)
	}
}
