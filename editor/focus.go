package editor

import (
	"context"
	"strings"
	"time"

	"github.com/editord/editord/shell"
	"github.com/editord/editord/workspace"
)

type FocusRequest struct {
	Path      string               `json:"path" desc:"File of the active tab, root-relative."`
	Line      int                  `json:"line" desc:"Cursor line, 1-based."`
	Column    int                  `json:"column" desc:"Cursor column, 1-based, in characters."`
	Selection *workspace.Selection `json:"selection,omitempty" desc:"The selected range, when something is selected."`
}

type FocusResponse struct {
	Focus *workspace.Focus `json:"focus" desc:"The focus now recorded."`
}

func init() {
	define("editor::workspace::focus",
		"Record where the person is (active tab and cursor), as their editor does, debounced; "+
			"agents read it as focus in editor::workspace::get.",
		idempotent, (*Service).Focus)
}

func (s *Service) Focus(ctx context.Context, req *FocusRequest) (*FocusResponse, error) {
	root, l, err := s.target(req.Path, "path")
	if err != nil {
		return nil, err
	}
	if err := s.visible(l, ""); err != nil {
		return nil, err
	}
	if req.Line < 1 || req.Column < 1 {
		return nil, invalid("line and column are 1-based: got line %d, column %d", req.Line, req.Column)
	}
	if sel := req.Selection; sel != nil && (sel.StartLine < 1 || sel.StartColumn < 1 || sel.EndLine < 1 || sel.EndColumn < 1) {
		return nil, invalid("selection lines and columns are 1-based")
	}
	f := &workspace.Focus{Path: l.stored, Line: req.Line, Column: req.Column, Selection: req.Selection,
		By: by(ctx), Time: time.Now().UTC().Format(time.RFC3339Nano)}
	_, err = s.store.Update(ctx, func(r *workspace.Record) (bool, error) {
		r.Session(root).Focus = f
		return true, nil
	})
	if err != nil {
		return nil, err
	}
	return &FocusResponse{Focus: f}, nil
}

// visible refuses what no surface may see: a path outside the jail or one
// a deny glob matches. Functions that record a path without reading it
// (focus, drafts) and the git functions, which read through their own
// filesystem, check it here, as the file functions' jail does. note, when
// set, ends the deny message (what the function does with such a path).
func (s *Service) visible(l loc, note string) error {
	if !s.jail.Contains(l.abs) {
		return shell.Errorf(shell.CodeOutsideJail, l.stored, "%s is outside the jail (%s); use a path inside the workspace", display(l.stored), strings.Join(s.jail.Roots(), ", "))
	}
	if s.jail.Denied(l.abs, false) {
		if note != "" {
			note = "; " + note
		}
		return shell.Errorf(shell.CodeDenied, l.stored, "%s matches a deny rule in the jail configuration%s", display(l.stored), note)
	}
	return nil
}
