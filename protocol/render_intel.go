package protocol

import (
	"fmt"
	"strings"

	"github.com/editord/editord/editor"
)

// The renderings of code intelligence (docs/contract.md §8, as search renders
// hits): a location is `path:line:column: text`; an outline is indented by
// depth; diagnostics are `path:line:column: severity: message`; a rename
// is a line per file, then its patch.

func init() {
	renderers["editor::definition"] = typed(renderDefinition)
	renderers["editor::references"] = typed(renderReferences)
	renderers["editor::hover"] = typed(renderHover)
	renderers["editor::symbols"] = typed(renderSymbols)
	renderers["editor::diagnostics"] = typed(renderDiagnostics)
	renderers["editor::rename"] = typed(renderRename)
}

func locationLine(l editor.CodeLocation) string {
	return fmt.Sprintf("%s:%d:%d: %s", l.Path, l.Line, l.Column, strings.TrimSpace(l.Text))
}

// outsideNote says how many locations were left out for being outside the
// jail.
func outsideNote(r *rend, n int) {
	if n > 0 {
		r.linef("(%s outside the jail not shown: a standard library or module cache)", plural(n, "location", "locations"))
	}
}

func renderDefinition(r *rend, o *editor.DefinitionResponse) bool {
	if len(o.Definitions) == 0 && o.OutsideJail == 0 {
		r.line("no definition found")
	}
	for _, d := range o.Definitions {
		r.line(locationLine(d))
	}
	outsideNote(r, o.OutsideJail)
	return true
}

func renderReferences(r *rend, o *editor.ReferencesResponse) bool {
	r.linef("%s", plural(o.Total, "reference", "references"))
	for i, l := range o.References {
		if !r.line(locationLine(l)) {
			r.budgetCut(len(o.References)-i, "references")
			return true
		}
	}
	if o.Truncated {
		r.note("… %d more references not shown; raise limit (up to 5000) for them", o.Total-len(o.References))
	}
	outsideNote(r, o.OutsideJail)
	return true
}

func renderHover(r *rend, o *editor.HoverResponse) bool {
	if o.Contents == "" {
		r.line("nothing to show here")
		return true
	}
	for _, l := range strings.Split(o.Contents, "\n") {
		if !r.line(l) {
			r.note("… the rest of the hover is in the structured content")
			break
		}
	}
	return true
}

func renderSymbols(r *rend, o *editor.SymbolsResponse) bool {
	if len(o.Symbols) == 0 {
		r.line("no symbols")
	}
	outline := len(o.Symbols) > 0 && o.Symbols[0].Path != "" && allOnePath(o.Symbols)
	if outline {
		r.line(o.Symbols[0].Path)
	}
	for i, s := range o.Symbols {
		var line string
		if outline {
			line = fmt.Sprintf("%s%d: %s %s", strings.Repeat("  ", s.Depth), s.Line, s.Kind, s.Name)
		} else {
			line = fmt.Sprintf("%s:%d:%d: %s %s", s.Path, s.Line, s.Column, s.Kind, s.Name)
			if s.Container != "" {
				line += " (" + s.Container + ")"
			}
		}
		if s.Detail != "" && len(s.Detail) < 200 {
			line += " " + s.Detail
		}
		if !r.line(line) {
			r.budgetCut(len(o.Symbols)-i, "symbols")
			return true
		}
	}
	if o.Truncated {
		r.note("… %d more symbols not shown; raise limit (up to 5000), or narrow the query", o.Total-len(o.Symbols))
	}
	outsideNote(r, o.OutsideJail)
	return true
}

func allOnePath(ss []editor.Symbol) bool {
	for _, s := range ss {
		if s.Path != ss[0].Path {
			return false
		}
	}
	return true
}

func renderDiagnostics(r *rend, o *editor.DiagnosticsResponse) bool {
	head := fmt.Sprintf("%s, %s (%s in all)", plural(o.Errors, "error", "errors"), plural(o.Warnings, "warning", "warnings"), plural(o.Total, "problem", "problems"))
	if !o.Settled {
		head += "; the server was still checking: call again for the rest"
	}
	r.line(head)
	for i, d := range o.Diagnostics {
		line := fmt.Sprintf("%s:%d:%d: %s: %s", d.Path, d.Line, d.Column, d.Severity, strings.ReplaceAll(d.Message, "\n", " "))
		if d.Source != "" {
			line += " (" + d.Source + ")"
		}
		if !r.line(line) {
			r.budgetCut(len(o.Diagnostics)-i, "problems")
			return true
		}
	}
	if o.Truncated {
		r.note("… %d more problems not shown; raise limit (up to 5000) for them", o.Total-len(o.Diagnostics))
	}
	return true
}

func renderRename(r *rend, o *editor.RenameResponse) bool {
	switch {
	case o.Applied:
		r.linef("renamed: %s in %s written", plural(o.Edits, "occurrence", "occurrences"), plural(len(o.Files), "file", "files"))
	case o.Conflict:
		r.linef("not renamed, nothing written: %s", o.Reason)
	default:
		r.linef("dry run: %s in %s; nothing written. To write, call %s again with versions: {path: version} as listed", plural(o.Edits, "occurrence", "occurrences"), plural(len(o.Files), "file", "files"), r.name("editor::rename"))
	}
	for i, f := range o.Files {
		line := fmt.Sprintf("%s: version %s, %s", f.Path, f.Version, plural(f.Edits, "edit", "edits"))
		switch {
		case f.Draft:
			line += " (has unsaved edits: save or discard them first)"
		case f.Conflict:
			line += " (changed since the dry run)"
		}
		if !r.line(line) {
			r.budgetCut(len(o.Files)-i, "files")
			return true
		}
	}
	if o.Applied {
		return true
	}
	for i, f := range o.Files {
		if f.Patch == "" {
			continue
		}
		if r.room() < len(f.Patch) {
			r.note("… the patches of %d more files are in the structured content (the %d KiB text budget)", len(o.Files)-i, textBudget>>10)
			return true
		}
		patchLines(r, f.Patch)
	}
	return true
}
