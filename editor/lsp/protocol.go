package lsp

// The few LSP 3.17 types editord speaks, as the specification names them.
// Positions are zero-based lines and UTF-16 code units, the protocol's
// default encoding (every server speaks it); position.go converts.

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Position is a place in a document.
type Position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

// Range is [Start, End).
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// Location is a range in a document named by URI.
type Location struct {
	URI   string `json:"uri"`
	Range Range  `json:"range"`
}

// locationLink is what a server may answer a definition with instead.
type locationLink struct {
	TargetURI            string `json:"targetUri"`
	TargetRange          Range  `json:"targetRange"`
	TargetSelectionRange Range  `json:"targetSelectionRange"`
}

type textDocumentIdentifier struct {
	URI string `json:"uri"`
}

type textDocumentPositionParams struct {
	TextDocument textDocumentIdentifier `json:"textDocument"`
	Position     Position               `json:"position"`
}

// DocumentSymbol is one entry of a file's outline (the hierarchical form).
type DocumentSymbol struct {
	Name           string           `json:"name"`
	Detail         string           `json:"detail,omitempty"`
	Kind           int              `json:"kind"`
	Range          Range            `json:"range"`
	SelectionRange Range            `json:"selectionRange"`
	Children       []DocumentSymbol `json:"children,omitempty"`
}

// SymbolInformation is the flat form of a symbol (workspace symbols, and
// the outline of servers that do not nest).
type SymbolInformation struct {
	Name          string          `json:"name"`
	Kind          int             `json:"kind"`
	Location      json.RawMessage `json:"location"` // a Location, or {uri} alone (WorkspaceSymbol)
	ContainerName string          `json:"containerName,omitempty"`
}

// Diagnostic is one problem a server reports.
type Diagnostic struct {
	Range    Range           `json:"range"`
	Severity int             `json:"severity,omitempty"`
	Code     json.RawMessage `json:"code,omitempty"`
	Source   string          `json:"source,omitempty"`
	Message  string          `json:"message"`
}

type publishDiagnosticsParams struct {
	URI         string       `json:"uri"`
	Version     *int         `json:"version,omitempty"`
	Diagnostics []Diagnostic `json:"diagnostics"`
}

// TextEdit replaces Range with NewText.
type TextEdit struct {
	Range   Range  `json:"range"`
	NewText string `json:"newText"`
}

// WorkspaceEdit is a rename's answer: edits per document, in either of the
// protocol's two shapes.
type WorkspaceEdit struct {
	Changes         map[string][]TextEdit `json:"changes,omitempty"`
	DocumentChanges []json.RawMessage     `json:"documentChanges,omitempty"`
}

type textDocumentEdit struct {
	Kind         string `json:"kind,omitempty"` // set on create, rename and delete operations
	TextDocument struct {
		URI     string `json:"uri"`
		Version *int   `json:"version"`
	} `json:"textDocument"`
	Edits []TextEdit `json:"edits"`
}

// Hover is a hover's answer.
type Hover struct {
	Contents json.RawMessage `json:"contents"`
	Range    *Range          `json:"range,omitempty"`
}

// Markdown is a hover's contents as one Markdown text, whichever of the
// protocol's shapes the server chose (MarkupContent, a MarkedString, or a
// list of them).
func (h *Hover) Markdown() string {
	return markdown(h.Contents)
}

func markdown(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) == nil {
		parts := make([]string, 0, len(list))
		for _, item := range list {
			if p := markdown(item); p != "" {
				parts = append(parts, p)
			}
		}
		return strings.Join(parts, "\n\n")
	}
	var obj struct {
		Kind     string `json:"kind"`
		Language string `json:"language"`
		Value    string `json:"value"`
	}
	if json.Unmarshal(raw, &obj) != nil {
		return ""
	}
	if obj.Language != "" { // a MarkedString with a language: code
		return "```" + obj.Language + "\n" + obj.Value + "\n```"
	}
	return obj.Value
}

// SymbolKind names, as the specification numbers them (1-based).
var symbolKinds = [...]string{"", "file", "module", "namespace", "package", "class", "method", "property",
	"field", "constructor", "enum", "interface", "function", "variable", "constant", "string", "number",
	"boolean", "array", "object", "key", "null", "enum_member", "struct", "event", "operator", "type_parameter"}

// SymbolKindName is the name of an LSP SymbolKind ("function").
func SymbolKindName(k int) string {
	if k > 0 && k < len(symbolKinds) {
		return symbolKinds[k]
	}
	return "symbol"
}

// SeverityName is the name of an LSP DiagnosticSeverity.
func SeverityName(s int) string {
	switch s {
	case 1:
		return "error"
	case 2:
		return "warning"
	case 3:
		return "information"
	case 4:
		return "hint"
	}
	return "error" // the protocol: absent means the client decides
}

// Locations reads the answer of a definition-like request: null, a
// Location, a list of them, or a list of LocationLinks (their target's
// name is the location).
func Locations(raw json.RawMessage) []Location {
	var list []json.RawMessage
	if len(raw) > 0 && raw[0] == '[' {
		if json.Unmarshal(raw, &list) != nil {
			return nil
		}
	} else if len(raw) > 0 && raw[0] == '{' {
		list = []json.RawMessage{raw}
	}
	out := make([]Location, 0, len(list))
	for _, item := range list {
		var probe struct {
			URI       string `json:"uri"`
			TargetURI string `json:"targetUri"`
		}
		if json.Unmarshal(item, &probe) != nil {
			continue
		}
		if probe.TargetURI != "" {
			var l locationLink
			if json.Unmarshal(item, &l) == nil {
				out = append(out, Location{URI: l.TargetURI, Range: l.TargetSelectionRange})
			}
			continue
		}
		var l Location
		if json.Unmarshal(item, &l) == nil && l.URI != "" {
			out = append(out, l)
		}
	}
	return out
}

// Edits are a WorkspaceEdit's text edits by absolute path. An edit that
// creates, renames or deletes a file is refused: those are moves, which
// editord makes through its own functions.
func (we *WorkspaceEdit) Edits() (map[string][]TextEdit, error) {
	out := map[string][]TextEdit{}
	add := func(uri string, edits []TextEdit) error {
		p, ok := Path(uri)
		if !ok {
			return fmt.Errorf("the server's edit names %s, which is not a file", uri)
		}
		out[p] = append(out[p], edits...)
		return nil
	}
	for _, raw := range we.DocumentChanges {
		var d textDocumentEdit
		if err := json.Unmarshal(raw, &d); err != nil {
			return nil, err
		}
		if d.Kind != "" {
			return nil, fmt.Errorf("the server's rename would %s a file", d.Kind)
		}
		if err := add(d.TextDocument.URI, d.Edits); err != nil {
			return nil, err
		}
	}
	if len(we.DocumentChanges) == 0 {
		for uri, edits := range we.Changes {
			if err := add(uri, edits); err != nil {
				return nil, err
			}
		}
	}
	for p, edits := range out {
		if len(edits) == 0 {
			delete(out, p)
		}
	}
	return out, nil
}

// Apply applies edits (ranges in text's original positions, not
// overlapping, as the protocol requires) to text.
func Apply(text string, edits []TextEdit) (string, error) {
	t := NewText(text)
	type span struct {
		from, to int
		repl     string
		order    int
	}
	spans := make([]span, len(edits))
	for i, e := range edits {
		spans[i] = span{t.Offset(e.Range.Start), t.Offset(e.Range.End), e.NewText, i}
		if spans[i].to < spans[i].from {
			return "", fmt.Errorf("edit %d ends before it starts", i)
		}
	}
	// Edits at one place keep the order the server gave them.
	sort.SliceStable(spans, func(i, j int) bool { return spans[i].from < spans[j].from })
	var b strings.Builder
	b.Grow(len(text))
	at := 0
	for i, sp := range spans {
		if sp.from < at {
			return "", fmt.Errorf("edits %d and %d overlap", spans[i-1].order, sp.order)
		}
		b.WriteString(text[at:sp.from])
		b.WriteString(sp.repl)
		at = sp.to
	}
	b.WriteString(text[at:])
	return b.String(), nil
}
