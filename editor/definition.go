package editor

import (
	"context"
	"encoding/json"

	"github.com/editord/editord/editor/lsp"
)

type DefinitionRequest struct {
	Path   string `json:"path" desc:"File, root-relative."`
	Line   int    `json:"line" desc:"1-based line."`
	Column int    `json:"column" desc:"1-based column, in characters."`
}

type DefinitionResponse struct {
	Definitions []CodeLocation `json:"definitions" desc:"Where the name is defined (usually one place), each with its line's text."`
	OutsideJail int            `json:"outside_jail" desc:"Definitions outside the jail (a standard library, a module cache), not shown."`
	Root        string         `json:"root" desc:"The workspace root the call used: relative paths are relative to it."`
}

func init() {
	define("editor::definition",
		"Where the name at path:line:column is defined, from the file's language server, on the person's unsaved text "+
			"(lines from 1 as editor::open numbers them, columns from 1 in characters).",
		readOnly, (*Service).Definition)
}

func (s *Service) Definition(ctx context.Context, req *DefinitionRequest) (*DefinitionResponse, error) {
	in, pos, err := s.intelAt(ctx, req.Path, req.Line, req.Column)
	if err != nil {
		return nil, err
	}
	var raw json.RawMessage
	if err := in.call(ctx, "textDocument/definition", in.docPosition(pos), &raw); err != nil {
		return nil, err
	}
	out := &DefinitionResponse{Root: in.root}
	out.Definitions, _, out.OutsideJail = s.texts(in.srv, in.root).locations(lsp.Locations(raw), 0)
	return out, nil
}
