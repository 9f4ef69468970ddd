package editor

import (
	"context"
	"fmt"
	"strings"

	"github.com/editord/editord/gitops"
)

type GitStageRequest struct {
	Paths   []string `json:"paths" desc:"Files or folders, root-relative; \".\" for the whole root."`
	Unstage bool     `json:"unstage,omitempty" default:"false" desc:"Put HEAD's version back in the index instead, as git restore --staged does (the files on disk are not touched)."`
}

type GitStageResponse struct {
	Changed []string `json:"changed" desc:"Paths whose staged state changed, root-relative and sorted; empty when there was nothing to do."`
	Summary string   `prose:"true" json:"summary" desc:"What happened, in a line."`
}

func init() {
	define("editor::git::stage",
		"Stage files or folders as they are on disk, as git add does (a conflicted file once its markers are gone); "+
			"unstage: true puts HEAD's version back in the index instead. The files are not touched.",
		destructive, (*Service).GitStage)
}

func (s *Service) GitStage(ctx context.Context, req *GitStageRequest) (*GitStageResponse, error) {
	if len(req.Paths) == 0 {
		return nil, invalid("paths is empty; pass the files or folders to stage, or \".\" for the whole root")
	}
	var out *GitStageResponse
	err := s.gitWrite(ctx, false, func(root string, r *gitops.Repo) error {
		var rels []string
		for _, p := range req.Paths {
			rel, err := s.gitSelection(root, r, p)
			if err != nil {
				return err
			}
			rels = append(rels, rel)
		}
		stage := r.Stage
		if req.Unstage {
			stage = r.Unstage
		}
		changed, err := stage(ctx, rels)
		if err != nil {
			return throughLinkOut(root, err)
		}
		out = &GitStageResponse{Changed: make([]string, 0, len(changed))}
		for _, c := range changed {
			out.Changed = append(out.Changed, fromRepo(root, r, c))
		}
		out.Summary = stageSummary(req.Unstage, out.Changed)
		return nil
	})
	return out, err
}

func stageSummary(unstage bool, changed []string) string {
	verb := "staged"
	if unstage {
		verb = "unstaged"
	}
	if len(changed) == 0 {
		if unstage {
			return "nothing to unstage: the index already holds HEAD's version of these paths"
		}
		return "nothing to stage: the index already holds these paths as they are on disk"
	}
	list := changed
	more := ""
	if len(list) > 10 {
		list, more = list[:10], fmt.Sprintf(" and %d more", len(changed)-10)
	}
	files := "files"
	if len(changed) == 1 {
		files = "file"
	}
	return fmt.Sprintf("%s %d %s: %s%s", verb, len(changed), files, strings.Join(list, ", "), more)
}
