package protocol

import (
	"fmt"

	"github.com/editord/editord/editor"
	"github.com/editord/editord/workspace"
)

// Text blocks for what the person's editor reports: drafts and focus.
func init() {
	renderers["editor::buffers::draft"] = typed(renderDraft)
	renderers["editor::workspace::focus"] = func(r *rend, v any) bool {
		r.line(focusLine(v.(*editor.FocusResponse).Focus))
		return true
	}
}

func renderDraft(r *rend, d *editor.DraftResponse) bool {
	if !d.Dirty {
		r.linef("%s: no draft (no unsaved edits kept)", display(d.Path))
		return true
	}
	r.linef("%s: draft over version %s, kept by %s at %s", display(d.Path), d.DraftBase, d.By, d.Time)
	if d.Content != nil {
		numberedLines(r, *d.Content, 1)
	}
	return true
}

// focusLine says where the person is: "focus: src/a.go:12:5 ...".
func focusLine(f *workspace.Focus) string {
	if f == nil {
		return "focus: unknown (no editor has reported one)"
	}
	s := fmt.Sprintf("focus: %s:%d:%d", f.Path, f.Line, f.Column)
	if sel := f.Selection; sel != nil {
		s += fmt.Sprintf(", selection %d:%d–%d:%d", sel.StartLine, sel.StartColumn, sel.EndLine, sel.EndColumn)
	}
	return s + fmt.Sprintf(" (reported by %s at %s)", f.By, f.Time)
}

func display(p string) string {
	if p == "" {
		return "."
	}
	return p
}
