package editor

import (
	"context"
)

// Warm prepares, in the background of a server that just started, what
// the first calls need: the file tree, git's index and find's candidates
// (the first editor::find and editor::search), then git's status (the
// first editor::git::status). A first call that comes meanwhile shares
// the work in progress instead of repeating it. It returns when done or
// when ctx ends; errors are left for the calls themselves to report.
func (s *Service) Warm(ctx context.Context) {
	root, err := s.root()
	if err != nil || ctx.Err() != nil {
		return
	}
	s.find.Warm(root, s.cfg.Limits.MaxFindCandidates)
	if ctx.Err() != nil {
		return
	}
	s.GitStatus(ctx, &GitStatusRequest{})
}
