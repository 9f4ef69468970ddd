package editor

import (
	"context"

	"github.com/editord/editord/diff"
)

type DiffRequest struct {
	Before       string `json:"before" desc:"Old text."`
	After        string `json:"after" desc:"New text."`
	Path         string `json:"path,omitempty" default:"file" desc:"Name in the patch headers (default file)."`
	ContextLines *int   `json:"context_lines,omitempty" default:"3" desc:"Unchanged lines around changes (default 3)."`
}

type DiffResponse struct {
	Patch     string      `json:"patch" desc:"Unified diff, accepted by git apply and patch -p1. Empty when identical or truncated."`
	Hunks     []diff.Hunk `json:"hunks" desc:"One entry per @@ block: 1-based ranges (0 for an empty side) and per-hunk counts."`
	Added     int         `json:"added" desc:"Lines added."`
	Removed   int         `json:"removed" desc:"Lines removed."`
	Identical bool        `json:"identical" desc:"True when the two texts are byte-for-byte equal."`
	Truncated bool        `json:"truncated" desc:"True when a side was over max_diff_bytes (2,000,000) and no diff was computed. It does not mean no changes."`
}

func init() {
	define("editor::diff",
		"Unified diff of two texts you pass (reads nothing); git apply accepts it. "+
			"A side over max_diff_bytes (2,000,000) gives truncated: true and no patch.",
		readOnly, (*Service).Diff)
}

func (s *Service) Diff(ctx context.Context, req *DiffRequest) (*DiffResponse, error) {
	ctxLines := s.cfg.Limits.DiffContextLines
	if req.ContextLines != nil {
		if *req.ContextLines < 0 {
			return nil, invalid("context_lines must be 0 or more, not %d", *req.ContextLines)
		}
		ctxLines = *req.ContextLines
	}
	path := req.Path
	if path == "" {
		path = "file"
	}
	r := diff.Unified(req.Before, req.After, diff.Options{Path: path, Context: ctxLines, MaxBytes: s.cfg.Limits.MaxDiffBytes})
	return &DiffResponse{Patch: r.Patch, Hunks: r.Hunks, Added: r.Added, Removed: r.Removed, Identical: r.Identical, Truncated: r.Truncated}, nil
}
