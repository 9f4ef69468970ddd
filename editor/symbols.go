package editor

import (
	"context"
	"encoding/json"
	"path"

	"github.com/editord/editord/editor/lsp"
)

type SymbolsRequest struct {
	Path     string `json:"path,omitempty" desc:"A file: its outline."`
	Query    string `json:"query,omitempty" desc:"Or: a workspace search by name (fuzzy)."`
	Language string `json:"language,omitempty" desc:"With query: go, typescript or python (default: guessed from the root)."`
	Limit    int    `json:"limit,omitempty" default:"200" desc:"At most this many (up to 5000)."`
}

type SymbolsResponse struct {
	Symbols     []Symbol `json:"symbols" desc:"An outline in file order (depth nests it), or a query's matches, best first."`
	Total       int      `json:"total" desc:"Symbols found inside the jail (a query's: all that match, limit or not)."`
	Truncated   bool     `json:"truncated" desc:"True when limit cut the list."`
	OutsideJail int      `json:"outside_jail" desc:"Matches outside the jail, not shown."`
	Root        string   `json:"root" desc:"The workspace root the call used: relative paths are relative to it."`
}

// Symbol is one declared name.
type Symbol struct {
	Name      string `json:"name" desc:"The symbol's name."`
	Kind      string `json:"kind" desc:"function, method, struct, class, interface, variable, constant, field, ..."`
	Detail    string `json:"detail,omitempty" desc:"What the server adds (a signature, a type)."`
	Container string `json:"container,omitempty" desc:"The enclosing symbol or package."`
	Depth     int    `json:"depth" desc:"Nesting in an outline: 0 for top-level symbols."`
	Path      string `json:"path" desc:"The file, root-relative."`
	Line      int    `json:"line" desc:"1-based line of its name."`
	Column    int    `json:"column" desc:"1-based column of its name, in characters."`
	EndLine   int    `json:"end_line" desc:"Last line of its whole declaration (body included)."`
}

const (
	symbolsDefault = 200
	symbolsCap     = 5000
)

func init() {
	define("editor::symbols",
		"Symbols: a file's outline from its language server (path), or a workspace search by name (query; Go's from editord's index), as kind, name, path:line.",
		readOnly, (*Service).Symbols)
}

func (s *Service) Symbols(ctx context.Context, req *SymbolsRequest) (*SymbolsResponse, error) {
	if (req.Path == "") == (req.Query == "") {
		return nil, invalid("pass path (a file's outline) or query (a workspace symbol search), one of them")
	}
	limit, err := countArg("limit", req.Limit, symbolsDefault, symbolsCap)
	if err != nil {
		return nil, err
	}
	var out *SymbolsResponse
	if req.Path != "" {
		out, err = s.outline(ctx, req.Path)
	} else {
		out, err = s.workspaceSymbols(ctx, req.Query, req.Language, limit)
	}
	if err != nil {
		return nil, err
	}
	if len(out.Symbols) > limit {
		out.Symbols = out.Symbols[:limit]
	}
	out.Truncated = out.Total > len(out.Symbols)
	return out, nil
}

func (s *Service) outline(ctx context.Context, p string) (*SymbolsResponse, error) {
	in, err := s.intelFile(ctx, p)
	if err != nil {
		return nil, err
	}
	var raw []json.RawMessage
	params := map[string]any{"textDocument": map[string]any{"uri": lsp.URI(in.l.abs)}}
	if err := in.call(ctx, "textDocument/documentSymbol", params, &raw); err != nil {
		return nil, err
	}
	out := &SymbolsResponse{Symbols: []Symbol{}, Root: in.root}
	var walk func(ds []lsp.DocumentSymbol, container string, depth int)
	walk = func(ds []lsp.DocumentSymbol, container string, depth int) {
		for _, d := range ds {
			line, col := in.text.FromLSP(d.SelectionRange.Start)
			end, _ := in.text.FromLSP(d.Range.End)
			out.Symbols = append(out.Symbols, Symbol{Name: d.Name, Kind: lsp.SymbolKindName(d.Kind), Detail: d.Detail,
				Container: container, Depth: depth, Path: in.l.stored, Line: line, Column: col, EndLine: end})
			walk(d.Children, d.Name, depth+1)
		}
	}
	for _, item := range raw {
		var probe struct {
			Location json.RawMessage `json:"location"`
		}
		_ = json.Unmarshal(item, &probe)
		if probe.Location == nil {
			var d lsp.DocumentSymbol
			if json.Unmarshal(item, &d) == nil {
				walk([]lsp.DocumentSymbol{d}, "", 0)
			}
			continue
		}
		// The flat form: no nesting but a container's name.
		var si lsp.SymbolInformation
		var l lsp.Location
		if json.Unmarshal(item, &si) == nil && json.Unmarshal(si.Location, &l) == nil {
			line, col := in.text.FromLSP(l.Range.Start)
			end, _ := in.text.FromLSP(l.Range.End)
			out.Symbols = append(out.Symbols, Symbol{Name: si.Name, Kind: lsp.SymbolKindName(si.Kind), Container: si.ContainerName,
				Path: in.l.stored, Line: line, Column: col, EndLine: end})
		}
	}
	out.Total = len(out.Symbols)
	return out, nil
}

func (s *Service) workspaceSymbols(ctx context.Context, query, language string, limit int) (*SymbolsResponse, error) {
	root, err := s.root()
	if err != nil {
		return nil, err
	}
	names, err := s.intelRootServers(root, language)
	if err != nil {
		return nil, err
	}
	out := &SymbolsResponse{Symbols: []Symbol{}, Root: root}
	goServer, _ := s.lsp.For("go")
	for _, name := range names {
		if name == goServer {
			a, total, err := s.goSymbols(ctx, root, query, limit)
			if err != nil {
				return nil, err
			}
			out.Symbols = append(out.Symbols, a.symbols...)
			out.Total += total
			continue
		}
		srv, err := s.intelServer(ctx, name, root)
		if err != nil {
			return nil, err
		}
		if err := s.intelAnchor(ctx, srv, root); err != nil {
			return nil, err
		}
		a, err := s.symbolSearch(ctx, srv, root, query)
		if err != nil {
			return nil, err
		}
		out.Symbols = append(out.Symbols, a.symbols...)
		out.Total += len(a.symbols)
		out.OutsideJail += a.outside
	}
	return out, nil
}

// intelAnchor holds a file of srv's languages open when it holds none:
// typescript-language-server answers a workspace query only from the
// projects of its open files ("No Project" with none, as after a write
// closed them). The person's own buffer of that language is preferred,
// else the first such file editor::find lists.
func (s *Service) intelAnchor(ctx context.Context, srv *lsp.Server, root string) error {
	if len(srv.Open()) > 0 {
		return nil
	}
	serves := func(p string) bool {
		name, ok := s.lsp.For(Language(p))
		return ok && name == srv.Name
	}
	var pick string
	if ses := s.store.Load().Sessions[root]; ses != nil {
		for _, b := range ses.Buffers {
			if !path.IsAbs(b.Path) && serves(b.Path) {
				pick = b.Path
				break
			}
		}
	}
	if pick == "" {
		files, err := s.find.Files(ctx, root, s.cfg.Limits.MaxFindCandidates)
		if err != nil {
			return err
		}
		for _, f := range files {
			if serves(f) {
				pick = f
				break
			}
		}
	}
	if pick == "" {
		return nil
	}
	l, err := locate(root, pick, "path")
	if err != nil || s.visible(l, "") != nil {
		return nil
	}
	content, draft, err := s.currentText(root, l)
	if err != nil {
		return nil // unreadable: the server answers what it can
	}
	_, _, err = srv.Sync(l.abs, lsp.LanguageID(l.stored, Language(l.stored)), content, draft)
	return intelError(err, l.stored)
}

// symbolAnswer is one server's answer to a workspace symbol query, mapped.
type symbolAnswer struct {
	symbols []Symbol
	outside int
}

// symbolSearch asks srv for the symbols matching query.
func (s *Service) symbolSearch(ctx context.Context, srv *lsp.Server, root, query string) (symbolAnswer, error) {
	var raw []lsp.SymbolInformation
	cctx, cancel := context.WithTimeout(ctx, intelTimeout)
	err := srv.Call(cctx, "workspace/symbol", map[string]any{"query": query}, &raw)
	cancel()
	if err != nil {
		return symbolAnswer{}, intelError(err, "")
	}
	return s.texts(srv, root).symbols(raw), nil
}

// symbols maps a workspace symbol answer's locations.
func (t *texts) symbols(raw []lsp.SymbolInformation) symbolAnswer {
	var a symbolAnswer
	defer t.batch()()
	for _, si := range raw {
		var l lsp.Location
		if json.Unmarshal(si.Location, &l) != nil {
			continue
		}
		cl, ok := t.location(l)
		if !ok {
			a.outside++
			continue
		}
		a.symbols = append(a.symbols, Symbol{Name: si.Name, Kind: lsp.SymbolKindName(si.Kind), Container: si.ContainerName,
			Path: cl.Path, Line: cl.Line, Column: cl.Column, EndLine: cl.EndLine})
	}
	return a
}
