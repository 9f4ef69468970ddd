package editor

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/editord/editord/editor/lsp"
)

type DiagnosticsRequest struct {
	Path     string `json:"path,omitempty" desc:"A file; omit for the workspace."`
	Language string `json:"language,omitempty" desc:"Without path: go, typescript or python (default: guessed from the root)."`
	WaitMS   int    `json:"wait_ms,omitempty" default:"15000" desc:"Wait at most this long for the server's check (up to 120000)."`
	Limit    int    `json:"limit,omitempty" default:"200" desc:"At most this many (up to 5000)."`
}

type DiagnosticsResponse struct {
	Diagnostics []CodeDiagnostic `json:"diagnostics" desc:"Problems, errors first, then by path and position."`
	Errors      int              `json:"errors" desc:"Errors in all (shown or not)."`
	Warnings    int              `json:"warnings" desc:"Warnings in all."`
	Total       int              `json:"total" desc:"Problems of every severity found inside the jail."`
	Truncated   bool             `json:"truncated" desc:"True when limit cut the list."`
	Settled     bool             `json:"settled" desc:"False when the server was still checking at wait_ms: call again for the rest."`
	Root        string           `json:"root" desc:"The workspace root the call used: relative paths are relative to it."`
}

// CodeDiagnostic is one problem.
type CodeDiagnostic struct {
	CodeLocation
	Severity string `json:"severity" desc:"error, warning, information or hint."`
	Message  string `json:"message" desc:"What the server says is wrong."`
	Source   string `json:"source,omitempty" desc:"Which checker said so (compiler, vet, ts, Pyright)."`
	Code     string `json:"code,omitempty" desc:"The checker's code for the problem."`
}

const (
	diagnosticsWait    = 15 * time.Second
	diagnosticsWaitCap = 120 * time.Second
	diagnosticsDefault = 200
	diagnosticsCap     = 5000
)

func init() {
	define("editor::diagnostics",
		"Errors and warnings from the language servers: one file as the person's unsaved text has it (path), or the workspace; errors first.",
		readOnly, (*Service).Diagnostics)
}

func (s *Service) Diagnostics(ctx context.Context, req *DiagnosticsRequest) (*DiagnosticsResponse, error) {
	limit, err := countArg("limit", req.Limit, diagnosticsDefault, diagnosticsCap)
	if err != nil {
		return nil, err
	}
	wait := diagnosticsWait
	if req.WaitMS < 0 {
		return nil, invalid("wait_ms must be 0 or more, not %d", req.WaitMS)
	} else if req.WaitMS > 0 {
		wait = min(time.Duration(req.WaitMS)*time.Millisecond, diagnosticsWaitCap)
	}
	wctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	out := &DiagnosticsResponse{Diagnostics: []CodeDiagnostic{}, Settled: true}
	if req.Path != "" {
		if err := s.fileDiagnostics(ctx, wctx, req.Path, out); err != nil {
			return nil, err
		}
	} else if err := s.workspaceDiagnostics(ctx, wctx, req.Language, out); err != nil {
		return nil, err
	}
	rank := map[string]int{"error": 0, "warning": 1, "information": 2, "hint": 3}
	slices.SortStableFunc(out.Diagnostics, func(a, b CodeDiagnostic) int {
		if d := rank[a.Severity] - rank[b.Severity]; d != 0 {
			return d
		}
		if c := strings.Compare(a.Path, b.Path); c != 0 {
			return c
		}
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		return a.Column - b.Column
	})
	for _, d := range out.Diagnostics {
		switch d.Severity {
		case "error":
			out.Errors++
		case "warning":
			out.Warnings++
		}
	}
	out.Total = len(out.Diagnostics)
	if len(out.Diagnostics) > limit {
		out.Diagnostics, out.Truncated = out.Diagnostics[:limit], true
	}
	return out, nil
}

func (s *Service) fileDiagnostics(ctx, wctx context.Context, p string, out *DiagnosticsResponse) error {
	in, err := s.intelFile(ctx, p)
	if err != nil {
		return err
	}
	out.Root = in.root
	t := s.texts(in.srv, in.root)
	if list, ok, err := in.srv.PullDiagnostics(wctx, in.l.abs); ok || err != nil {
		if err != nil {
			return intelError(err, in.l.stored)
		}
		s.addDiagnostics(t, in.l.abs, list, out)
		return nil
	}
	// The server's word on the text it now holds.
	if !in.srv.WaitDiagnostics(wctx, in.l.abs) {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		out.Settled = false
	}
	list, _ := in.srv.FileDiagnostics(in.l.abs)
	s.addDiagnostics(t, in.l.abs, list, out)
	return nil
}

func (s *Service) workspaceDiagnostics(ctx, wctx context.Context, language string, out *DiagnosticsResponse) error {
	root, err := s.root()
	if err != nil {
		return err
	}
	out.Root = root
	names, err := s.intelRootServers(root, language)
	if err != nil {
		return err
	}
	for _, name := range names {
		srv, err := s.intelServer(ctx, name, root)
		if err != nil {
			return err
		}
		// A server that has just started reports progress while it loads
		// the workspace (what it publishes meanwhile is partial), once it
		// has begun to.
		if since := time.Since(srv.Started); since < time.Second {
			settle := time.NewTimer(time.Second - since)
			select {
			case <-settle.C:
			case <-wctx.Done():
			}
			settle.Stop()
		}
		if !srv.WaitIdle(wctx) {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			out.Settled = false
		}
		t := s.texts(srv, root)
		all := srv.AllDiagnostics()
		for _, p := range sortedPaths(all) {
			s.addDiagnostics(t, p, all[p], out)
		}
	}
	return nil
}

// addDiagnostics maps one file's problems into out.
func (s *Service) addDiagnostics(t *texts, abs string, list []lsp.Diagnostic, out *DiagnosticsResponse) {
	for _, d := range list {
		cl, ok := t.location(lsp.Location{URI: lsp.URI(abs), Range: d.Range})
		if !ok {
			continue
		}
		out.Diagnostics = append(out.Diagnostics, CodeDiagnostic{CodeLocation: cl, Severity: lsp.SeverityName(d.Severity),
			Message: d.Message, Source: d.Source, Code: diagnosticCode(d.Code)})
	}
}

// diagnosticCode is a diagnostic's code, a number or a string.
func diagnosticCode(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	if len(raw) > 0 && string(raw) != "null" {
		return string(raw)
	}
	return ""
}

func sortedPaths[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
