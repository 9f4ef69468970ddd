package editor

import (
	"context"

	"github.com/editord/editord/editor/lsp"
)

type HoverRequest struct {
	Path   string `json:"path" desc:"File, root-relative."`
	Line   int    `json:"line" desc:"1-based line."`
	Column int    `json:"column" desc:"1-based column, in characters."`
}

type HoverResponse struct {
	Contents string        `json:"contents" desc:"What the language server says of the name: its signature and documentation, as Markdown; empty when it says nothing."`
	Range    *CodeLocation `json:"range,omitempty" desc:"The span the hover is about, when the server names it."`
	Root     string        `json:"root" desc:"The workspace root the call used: relative paths are relative to it."`
}

// hoverMax bounds a hover's text; documentation can be long.
const hoverMax = 16 << 10

func init() {
	define("editor::hover",
		"Type, signature and documentation of the name at path:line:column, from its language server (Markdown).",
		readOnly, (*Service).Hover)
}

func (s *Service) Hover(ctx context.Context, req *HoverRequest) (*HoverResponse, error) {
	in, pos, err := s.intelAt(ctx, req.Path, req.Line, req.Column)
	if err != nil {
		return nil, err
	}
	var h *lsp.Hover
	if err := in.call(ctx, "textDocument/hover", in.docPosition(pos), &h); err != nil {
		return nil, err
	}
	out := &HoverResponse{Root: in.root}
	if h == nil {
		return out, nil
	}
	out.Contents = h.Markdown()
	if len(out.Contents) > hoverMax {
		out.Contents = cutLineTo(out.Contents, hoverMax) + "\n…"
	}
	if h.Range != nil {
		if cl, ok := s.texts(in.srv, in.root).location(lsp.Location{URI: lsp.URI(in.l.abs), Range: *h.Range}); ok {
			out.Range = &cl
		}
	}
	return out, nil
}

// cutLineTo cuts s to at most n bytes on a character boundary.
func cutLineTo(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}
