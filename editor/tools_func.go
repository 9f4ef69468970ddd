package editor

import (
	"context"
	"slices"
	"strings"
)

type ToolsRequest struct {
	Enable []string `json:"enable,omitempty" desc:"Toolsets to add to your tool list (\"all\" for every one)."`
}

// ToolsetInfo is one toolset as editor::tools lists it.
type ToolsetInfo struct {
	Name        string `json:"name" desc:"The toolset's name, for enable."`
	Description string `prose:"true" json:"description" desc:"What its functions do."`
	Listed      bool   `json:"listed" desc:"True when your tool list holds it."`
	Functions   string `prose:"true" json:"functions" desc:"Its functions, comma-separated."`
}

type ToolsResponse struct {
	Toolsets []ToolsetInfo `json:"toolsets" desc:"Every toolset this build has."`
	Note     string        `prose:"true" json:"note,omitempty" desc:"Why enable changed nothing, when it did not."`
}

func init() {
	define("editor::tools",
		"List the toolsets beyond the core tools (git, workspace, ...) and add some to your list with enable; "+
			"every tool works by name, listed or not.",
		readOnly, (*Service).Tools)
}

func (s *Service) Tools(ctx context.Context, req *ToolsRequest) (*ToolsResponse, error) {
	add, err := ParseToolsets(req.Enable)
	if err != nil {
		return nil, err
	}
	c := CallerFrom(ctx)
	out := &ToolsResponse{}
	if len(add) > 0 && !c.addToolsets(add) {
		out.Note = "this caller keeps no tool list to add to (editord call runs every function; an MCP client without a session, on 2026-07-28 over HTTP, asks with the X-MCP-Toolsets header or io.editord/toolsets in tools/list's _meta)"
	}
	listed, _ := ParseToolsets(append(slices.Clone(s.cfg.Tools.Toolsets), c.Toolsets()...))
	for _, t := range Toolsets {
		fns := functionsOf(t.Name)
		if len(fns) == 0 {
			continue // a toolset whose functions this build does not have
		}
		out.Toolsets = append(out.Toolsets, ToolsetInfo{Name: t.Name, Description: t.Description,
			Listed: slices.Contains(listed, t.Name), Functions: strings.Join(fns, ", ")})
	}
	return out, nil
}
