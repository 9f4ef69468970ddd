package editor

import (
	"context"

	"github.com/editord/editord/search"
)

// replaceEverywhere is the dry run of editor::replace without paths: every
// file editor::search finds the pattern in (up to replaceMaxFiles), so a
// rename across files is two calls, the preview and the write, instead of
// a search, a preview and a write.
func (s *Service) replaceEverywhere(ctx context.Context, req *ReplaceRequest) (*ReplaceResponse, error) {
	root, err := s.root()
	if err != nil {
		return nil, err
	}
	res, err := s.find.Search(ctx, root, search.SearchOptions{
		Pattern:      req.Pattern,
		MatchOptions: search.MatchOptions{Literal: req.Literal, IgnoreCase: req.IgnoreCase, WholeWord: req.WholeWord},
		MaxMatches:   replaceMaxFiles,
		MaxFileBytes: s.cfg.Limits.MaxFileBytes,
		PerFile:      1,
	})
	if err != nil {
		return nil, err
	}
	if len(res.Files) == 0 {
		return &ReplaceResponse{Files: []ReplaceFile{}, Root: root}, nil
	}
	all := *req
	all.Paths = make([]string, len(res.Files))
	for i, f := range res.Files {
		all.Paths[i] = f.Path
	}
	return s.Replace(ctx, &all)
}
