package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"strings"

	"github.com/editord/editord/shell"
)

// typescript-language-server runs the tsserver of the workspace's own
// node_modules/typescript when there is one, ahead of the one installed
// beside it: a repository could ship a tsserver.js of its choosing, and
// it would run. So editord always names the TypeScript to run
// (initialization_options.tsserver.path): the configured one, else the
// one installed beside the server, never the workspace's. Automatic type
// acquisition (which runs npm) is off unless the configuration turns it on.
// Answers come from the project's semantic server only (useSyntaxServer
// never): the syntax-only one that answers while a project loads does not
// follow imports.

// tsserverWanted reports whether cfg runs typescript-language-server.
func tsserverWanted(cfg ServerConfig) bool {
	return len(cfg.Command) > 0 && strings.HasPrefix(filepath.Base(cfg.Command[0]), "typescript-language-server")
}

// withTsserver is init with tsserver.path set to the TypeScript beside
// program when the configuration names none.
func withTsserver(init map[string]any, program string) (map[string]any, error) {
	out := maps.Clone(init)
	if out == nil {
		out = map[string]any{}
	}
	ts, _ := out["tsserver"].(map[string]any)
	ts = maps.Clone(ts)
	if ts == nil {
		ts = map[string]any{}
	}
	if p, _ := ts["path"].(string); p == "" {
		found, ok := shell.FindAbove(program, filepath.Join("node_modules", "typescript", "lib", "tsserver.js"))
		if !ok {
			return nil, fmt.Errorf("no TypeScript installed beside %s (editord does not run a workspace's own): install typescript next to it, or set initialization_options.tsserver.path", program)
		}
		ts["path"] = found
	}
	if _, set := ts["useSyntaxServer"]; !set {
		// The syntax-only server answers while the project loads, with
		// answers that stop at a file's imports: wait for the real one.
		ts["useSyntaxServer"] = "never"
	}
	out["tsserver"] = ts
	if _, set := out["disableAutomaticTypingAcquisition"]; !set {
		out["disableAutomaticTypingAcquisition"] = true
	}
	return out, nil
}

// typescript-language-server publishes a document's problems only when
// they change (an edit that leaves them as they were publishes nothing),
// and without a version, so a wait for its publications cannot tell "no
// news" from "not checked yet". Its tsserver answers the question
// directly: the synchronous diagnostics requests, asked through the
// server's typescript.tsserverRequest command.

// tsDiagnostic is tsserver's shape of a problem: 1-based line and offset
// (UTF-16 units).
type tsDiagnostic struct {
	Start    struct{ Line, Offset int } `json:"start"`
	End      struct{ Line, Offset int } `json:"end"`
	Text     string                     `json:"text"`
	Code     int                        `json:"code"`
	Category string                     `json:"category"`
	Source   string                     `json:"source"`
}

// tsDiagnostics asks tsserver for the syntactic and semantic problems of
// the open document abs.
func (s *Server) tsDiagnostics(ctx context.Context, abs string) ([]Diagnostic, error) {
	var out []Diagnostic
	for _, req := range []string{"syntacticDiagnosticsSync", "semanticDiagnosticsSync"} {
		var resp struct {
			Body []tsDiagnostic `json:"body"`
		}
		err := s.Call(ctx, "workspace/executeCommand", map[string]any{
			"command":   "typescript.tsserverRequest",
			"arguments": []any{req, map[string]any{"file": URI(abs)}},
		}, &resp)
		if err != nil {
			return nil, err
		}
		for _, d := range resp.Body {
			sev := 1
			switch d.Category {
			case "warning":
				sev = 2
			case "suggestion":
				sev = 4
			case "message":
				sev = 3
			}
			src := d.Source
			if src == "" {
				src = "ts"
			}
			code, _ := json.Marshal(d.Code)
			out = append(out, Diagnostic{
				Range: Range{Start: Position{Line: d.Start.Line - 1, Character: d.Start.Offset - 1},
					End: Position{Line: d.End.Line - 1, Character: d.End.Offset - 1}},
				Severity: sev, Code: code, Source: src, Message: d.Text,
			})
		}
	}
	return out, nil
}
