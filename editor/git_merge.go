package editor

import (
	"context"

	"github.com/editord/editord/gitops"
)

type GitMergeRequest struct {
	Action  string `json:"action,omitempty" enum:"merge,abort,continue" default:"merge" desc:"merge rev, or abort or continue one in progress."`
	Rev     string `json:"rev,omitempty" desc:"merge: the branch, tag or commit."`
	Message string `json:"message,omitempty" desc:"The merge commit's message (default git's)."`
}

type GitMergeResponse struct {
	Action      string   `json:"action" desc:"The action, as requested."`
	OK          bool     `json:"ok" desc:"True when merged, aborted or continued. False when refused (local changes in the way) or when conflicts remain; summary says which and what to do."`
	Summary     string   `prose:"true" json:"summary" desc:"What happened, or why not, and the next step."`
	Conflicts   []string `json:"conflicts" desc:"Root-relative paths left with conflict markers (stages 1-3 in the index)."`
	Commit      string   `json:"commit" desc:"The merge commit, or the new tip after a fast-forward; empty otherwise."`
	FastForward bool     `json:"fast_forward" desc:"True when the branch simply moved forward (no merge commit)."`
}

func init() {
	define("editor::git::merge",
		"git merge of rev: a fast-forward, a merge commit, or conflicts left as git leaves them; abort or continue one.",
		destructive, (*Service).GitMerge)
}

func (s *Service) GitMerge(ctx context.Context, req *GitMergeRequest) (*GitMergeResponse, error) {
	action := req.Action
	if action == "" {
		action = "merge"
	}
	switch action {
	case "merge":
		if req.Rev == "" {
			return nil, invalid("action merge needs rev, the branch, tag or commit to merge (editor::git::branch lists branches)")
		}
	case "abort", "continue":
		if req.Rev != "" {
			return nil, invalid("rev is for action merge only")
		}
	default:
		return nil, invalid("action must be merge, abort or continue, not %q", req.Action)
	}
	var out *GitMergeResponse
	err := s.gitWrite(ctx, true, func(root string, r *gitops.Repo) error {
		ev := s.gitEvents(ctx, root, r, "editor::git::merge")
		var res *gitops.MergeResult
		var err error
		switch action {
		case "merge":
			res, err = r.MergeRef(ctx, req.Rev, req.Message, ev.add)
		case "abort":
			res, err = r.MergeAbort(ctx, ev.add)
		case "continue":
			var c *gitops.CommitResult
			c, err = r.MergeContinue(ctx, req.Message)
			if c != nil {
				res = &gitops.MergeResult{OK: c.Committed, Summary: c.Summary, Commit: c.SHA}
			}
		}
		ev.flush()
		if err != nil {
			return throughLinkOut(root, err)
		}
		out = &GitMergeResponse{Action: action, OK: res.OK, Summary: res.Summary, Commit: res.Commit, FastForward: res.FastForward, Conflicts: fromRepoAll(root, r, res.Conflicts)}
		return nil
	})
	return out, err
}
