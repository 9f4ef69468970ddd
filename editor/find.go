package editor

import (
	"context"

	"github.com/editord/editord/search"
)

type FindRequest struct {
	Query            string `json:"query" desc:"Letters in order, case-insensitive (\"usrctl\", \"tree/mod.rs\"); a space is anything between (\"cluster autoscaler main.go\")."`
	Limit            int    `json:"limit,omitempty" default:"50" desc:"Matches to return (default 50, at most 10,000)."`
	IncludeUntracked *bool  `json:"include_untracked,omitempty" default:"true" desc:"Also untracked, not ignored files (default true)."`
}

// FindMatch is one ranked path.
type FindMatch struct {
	Path      string `json:"path" desc:"Root-relative path, exactly as on disk (spaces, unicode and quotes kept)."`
	Score     int    `json:"score" desc:"Higher is better; compare scores within one response only."`
	Positions []int  `json:"positions" desc:"Byte offsets into path of the matched query characters, for highlighting."`
}

type FindResponse struct {
	Matches   []FindMatch `json:"matches" desc:"Best first; ties go to the shorter path, then byte order."`
	Scanned   int         `json:"scanned" desc:"How many candidate paths were ranked."`
	Truncated bool        `json:"truncated" desc:"True when the workspace has more than max_find_candidates (200,000) candidates: only the first ones in byte order were ranked fuzzily, though a file asked for by its exact path or file name is found beyond them."`
	FromGit   bool        `json:"from_git" desc:"True when candidates came from git's index (tracked files, plus untracked ones when include_untracked); false when from a walk honouring .gitignore outside a repository."`
	Root      string      `json:"root" desc:"The workspace root the call used: relative paths are relative to it."`
}

// findLimitCap bounds one response.
const findLimitCap = 10_000

func init() {
	define("editor::find",
		"Find files by approximate name, like go-to-file: {\"query\": \"usrctl\"} finds src/user_controller.go; "+
			"matches in the file name rank first. "+
			"Candidates: git's files and untracked, not ignored ones (else a .gitignore-aware walk). "+
			"For contents use editor::search.",
		readOnly, (*Service).Find)
}

func (s *Service) Find(ctx context.Context, req *FindRequest) (*FindResponse, error) {
	root, err := s.root()
	if err != nil {
		return nil, err
	}
	limit, err := countArg("limit", req.Limit, s.cfg.Limits.FindLimit, findLimitCap)
	if err != nil {
		return nil, err
	}
	untracked := req.IncludeUntracked == nil || *req.IncludeUntracked
	res, err := s.find.Find(ctx, root, search.FindOptions{
		Query:            req.Query,
		Limit:            limit,
		IncludeUntracked: untracked,
		MaxCandidates:    s.cfg.Limits.MaxFindCandidates,
	})
	if err != nil {
		return nil, err
	}
	out := &FindResponse{Matches: make([]FindMatch, len(res.Matches)), Scanned: res.Scanned, Truncated: res.Truncated, FromGit: res.FromGit, Root: root}
	for i, m := range res.Matches {
		out.Matches[i] = FindMatch{Path: m.Path, Score: m.Score, Positions: m.Positions}
	}
	return out, nil
}
