package editor

import (
	"context"

	"github.com/editord/editord/editor/lsp"
)

type ReferencesRequest struct {
	Path               string `json:"path" desc:"File, root-relative."`
	Line               int    `json:"line" desc:"1-based line."`
	Column             int    `json:"column" desc:"1-based column, in characters."`
	IncludeDeclaration *bool  `json:"include_declaration,omitempty" default:"true" desc:"Include the declaration."`
	Limit              int    `json:"limit,omitempty" default:"200" desc:"At most this many (up to 5000)."`
}

type ReferencesResponse struct {
	References  []CodeLocation `json:"references" desc:"Every use of the name in the workspace, by path then position, each with its line's text."`
	Total       int            `json:"total" desc:"References found inside the jail (more than shown when truncated)."`
	Truncated   bool           `json:"truncated" desc:"True when limit cut the list; raise limit for the rest."`
	OutsideJail int            `json:"outside_jail" desc:"References outside the jail, not shown."`
	Root        string         `json:"root" desc:"The workspace root the call used: relative paths are relative to it."`
}

const (
	referencesDefault = 200
	referencesCap     = 5000
)

func init() {
	define("editor::references",
		"Every use of the symbol at path:line:column across the workspace, from its language server (real uses, not text matches): "+
			"path:line:column and the line.",
		readOnly, (*Service).References)
}

func (s *Service) References(ctx context.Context, req *ReferencesRequest) (*ReferencesResponse, error) {
	limit, err := countArg("limit", req.Limit, referencesDefault, referencesCap)
	if err != nil {
		return nil, err
	}
	in, pos, err := s.intelAt(ctx, req.Path, req.Line, req.Column)
	if err != nil {
		return nil, err
	}
	params := in.docPosition(pos)
	params["context"] = map[string]any{"includeDeclaration": req.IncludeDeclaration == nil || *req.IncludeDeclaration}
	var locs []lsp.Location
	if err := in.call(ctx, "textDocument/references", params, &locs); err != nil {
		return nil, err
	}
	out := &ReferencesResponse{Root: in.root}
	out.References, out.Total, out.OutsideJail = s.texts(in.srv, in.root).locations(locs, limit)
	out.Truncated = out.Total > len(out.References)
	return out, nil
}
