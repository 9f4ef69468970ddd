package protocol

// A tools/call naming no tool. mcp-go answers "tool 'editor::open' not
// found", which leaves a caller that read a function id (in the CLI's
// help, a README, a message written for the CLI) or misspelt a name no
// wiser. editord answers first, on both transports, with the JSON-RPC
// error the MCP specification gives for an unknown tool (-32602, invalid
// params: clients show its message, and Claude Code passes it to the model
// as the call's error) and a message naming the tool to call: the function
// id editor::open, editor.open, Editor_Open and a bare "open" all lead to
// editor_open.

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"github.com/editord/editord/editor"
	"github.com/mark3labs/mcp-go/mcp"
)

// unknownTool returns the reply to msg when it is a tools/call request
// naming no tool, nil for anything else (mcp-go answers that).
func (s *Server) unknownTool(msg []byte) []byte {
	if !bytes.Contains(msg, []byte(`tools/call`)) {
		return nil
	}
	var method, name string
	var id json.RawMessage
	_, ok := objectMembersEnd(msg, func(key string, v []byte) bool {
		switch key {
		case "method":
			return json.Unmarshal(v, &method) == nil
		case "id":
			id = v
		case "params":
			_, ok := objectMembersEnd(v, func(key string, v []byte) bool {
				if key == "name" {
					return json.Unmarshal(v, &name) == nil
				}
				return true
			})
			return ok
		}
		return true
	})
	if !ok || method != "tools/call" || len(id) == 0 || string(id) == "null" || s.tools[name] != nil || s.MCP.GetTool(name) != nil || !json.Valid(msg) {
		return nil
	}
	b, _ := marshalJSON(map[string]any{
		"jsonrpc": mcp.JSONRPC_VERSION,
		"id":      id,
		"error":   map[string]any{"code": mcp.INVALID_PARAMS, "message": unknownToolMessage(name, s.tools)},
	})
	return append(b, '\n')
}

// unknownToolMessage names the tool a caller most likely meant.
func unknownToolMessage(name string, tools map[string]*editor.Function) string {
	msg := "unknown tool " + strconv.Quote(name)
	if f, ok := editor.Lookup(name); ok {
		return msg + ": " + f.ID + " is a function id (the CLI's name); over MCP call the tool " + ToolName(f.ID)
	}
	for _, f := range editor.Catalog() {
		if ToolName(f.ID) == name && tools[name] == nil {
			return msg + ": it is off in this server's configuration (" + f.ID + " needs the config's [run] enabled = true, or editord serve --allow-run)"
		}
	}
	norm := strings.ToLower(name)
	for _, sep := range []string{"::", ".", "/", ":", "-", " "} {
		norm = strings.ReplaceAll(norm, sep, "_")
	}
	for _, cand := range []string{norm, "editor_" + norm} {
		if tools[cand] != nil {
			return msg + "; call the tool " + cand
		}
	}
	names := make([]string, 0, len(tools))
	for n := range tools {
		names = append(names, n)
	}
	sort.Strings(names)
	return msg + "; the tools are " + strings.Join(names, ", ")
}
