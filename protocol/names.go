package protocol

import (
	"regexp"
	"strings"

	"github.com/editord/editord/editor"
)

// ToolName is the MCP wire name of a function id: "editor::git::undo-commit"
// becomes "editor_git_undo_commit". MCP clients refuse ':' in tool names.
func ToolName(id string) string {
	return strings.NewReplacer("::", "_", "-", "_").Replace(id)
}

// functionID matches a function id in prose: editor::open,
// editor::git::undo-commit, or a family such as editor::git::*.
var functionID = regexp.MustCompile(`editor(?:::[A-Za-z*][A-Za-z0-9*-]*)+`)

// listingLine is a line that quotes a file as editor::open's text does
// ("{n:6}\t{line}"): data, never renamed.
var listingLine = regexp.MustCompile(`^[ 0-9]{6}\t`)

// ToolNames rewrites the function ids in a message (the editor writes
// ids) to the tool names an MCP client calls: "check with editor::tree"
// becomes "check with editor_tree". Only ids of the catalog (or families
// such as editor::git::*) are rewritten, and never on a line that quotes a
// file, so data that happens to hold an id stays as it is.
func ToolNames(msg string) string {
	if !strings.Contains(msg, "editor::") {
		return msg
	}
	lines := strings.SplitAfter(msg, "\n")
	for i, l := range lines {
		if listingLine.MatchString(l) {
			continue
		}
		lines[i] = functionID.ReplaceAllStringFunc(l, func(id string) string {
			if _, ok := editor.Lookup(id); ok || strings.HasSuffix(id, "*") {
				return ToolName(id)
			}
			return id
		})
	}
	return strings.Join(lines, "")
}
