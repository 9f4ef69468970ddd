package editor

import (
	"context"

	"github.com/editord/editord/gitops"
)

type GitBranchRequest struct {
	Action string `json:"action,omitempty" enum:"list,create,switch,delete" default:"list" desc:"list, create, switch or delete."`
	Name   string `json:"name,omitempty" desc:"The branch."`
	Rev    string `json:"rev,omitempty" default:"HEAD" desc:"create: where it starts."`
	Force  bool   `json:"force,omitempty" default:"false" desc:"delete: even if unmerged."`
}

type GitBranch struct {
	Name     string  `json:"name" desc:"main, or origin/main for a remote-tracking branch."`
	Remote   bool    `json:"remote" desc:"True for a remote-tracking branch."`
	Current  bool    `json:"current" desc:"True for the checked-out branch."`
	SHA      string  `json:"sha" desc:"The commit it points at."`
	Subject  string  `json:"subject" desc:"That commit's subject."`
	Upstream *string `json:"upstream" desc:"Local branches: the upstream (origin/main); null when none."`
	Ahead    int     `json:"ahead" desc:"Commits the branch has that its upstream lacks."`
	Behind   int     `json:"behind" desc:"Commits the upstream has that the branch lacks (as of the last fetch)."`
}

type GitBranchResponse struct {
	Action   string      `json:"action" desc:"The action, as requested."`
	OK       bool        `json:"ok" desc:"True when done; false when refused (summary says why and what to do)."`
	Summary  string      `prose:"true" json:"summary" desc:"What happened, or why not."`
	SHA      string      `json:"sha" desc:"create/switch: the branch's commit; delete: the commit it pointed at."`
	Branches []GitBranch `json:"branches,omitempty" desc:"list: local branches, then remote-tracking ones, by name."`
}

func init() {
	define("editor::git::branch",
		"Branches: list (upstream, ahead/behind), create at rev, switch (refused when git switch refuses; buffers follow), delete (unmerged only with force).",
		destructive, (*Service).GitBranch)
}

func (s *Service) GitBranch(ctx context.Context, req *GitBranchRequest) (*GitBranchResponse, error) {
	action := req.Action
	if action == "" {
		action = "list"
	}
	switch action {
	case "list":
		if req.Name != "" || req.Rev != "" || req.Force {
			return nil, invalid("list takes no name, rev or force")
		}
	case "create", "switch", "delete":
		if req.Name == "" {
			return nil, invalid("action %s needs name, the branch (editor::git::branch with action list lists them)", action)
		}
		if req.Rev != "" && action != "create" {
			return nil, invalid("rev is for action create only")
		}
		if req.Force && action != "delete" {
			return nil, invalid("force is for action delete only")
		}
	default:
		return nil, invalid("action must be list, create, switch or delete, not %q", req.Action)
	}
	if action == "list" {
		_, r, err := s.gitRepo()
		if err != nil {
			return nil, err
		}
		defer r.Close()
		bs, err := r.Branches(ctx)
		if err != nil {
			return nil, err
		}
		out := &GitBranchResponse{Action: action, OK: true, Branches: make([]GitBranch, 0, len(bs))}
		for _, b := range bs {
			row := GitBranch{Name: b.Name, Remote: b.Remote, Current: b.Current, SHA: b.SHA, Subject: b.Subject, Ahead: b.Ahead, Behind: b.Behind}
			if b.Upstream != "" {
				up := b.Upstream
				row.Upstream = &up
			}
			out.Branches = append(out.Branches, row)
		}
		out.Summary = plural(len(bs), "branch", "branches")
		return out, nil
	}
	var out *GitBranchResponse
	err := s.gitWrite(ctx, action == "switch", func(root string, r *gitops.Repo) error {
		var res *gitops.BranchResult
		var err error
		switch action {
		case "create":
			res, err = r.CreateBranch(ctx, req.Name, req.Rev)
		case "switch":
			ev := s.gitEvents(ctx, root, r, "editor::git::branch")
			res, err = r.SwitchBranch(ctx, req.Name, ev.add)
			ev.flush()
		case "delete":
			res, err = r.DeleteBranch(ctx, req.Name, req.Force)
		}
		if err != nil {
			return throughLinkOut(root, err)
		}
		out = &GitBranchResponse{Action: action, OK: res.OK, Summary: res.Summary, SHA: res.SHA}
		return nil
	})
	return out, err
}
