// Package protocol is the MCP binding: it turns the editor's catalog into
// MCP tools, maps function ids to wire names and back, and shapes results
// and errors. It knows nothing about files.
package protocol

import "strings"

// ToolName is the MCP wire name of a function id: "editor::git::undo-commit"
// becomes "editor_git_undo_commit". MCP clients refuse ':' in tool names.
func ToolName(id string) string {
	return strings.NewReplacer("::", "_", "-", "_").Replace(id)
}
