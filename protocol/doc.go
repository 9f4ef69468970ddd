// Package protocol is the MCP binding: it turns the editor's catalog into
// MCP tools, maps function ids to wire names and back, and shapes results
// and errors. It knows nothing about files.
//
// Its place in the stack (docs/design.md): cmd → protocol → editor →
// search, workspace, gitops → shell, diff.
// cmd/editord wires it; it calls editor only, through the catalog, and
// serves the person's page (protocol/web) beside /mcp. Every tool is
// generated from editor's catalog: a new tool needs no code here but its
// text rendering for models (render*.go).
package protocol
