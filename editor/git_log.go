package editor

import (
	"context"

	"github.com/editord/editord/gitops"
)

type GitLogRequest struct {
	Path   string `json:"path,omitempty" desc:"One file's history, through renames."`
	Rev    string `json:"rev,omitempty" default:"HEAD" desc:"Where history starts."`
	Limit  *int   `json:"limit,omitempty" default:"50" desc:"Commits per page (max 10000)."`
	Cursor *int   `json:"cursor,omitempty" default:"0" desc:"next_cursor of the previous page."`
}

type GitLogEntry struct {
	SHA     string   `json:"sha" desc:"The commit's full SHA."`
	Parents []string `json:"parents" desc:"Parent SHAs; two or more for a merge."`
	Author  string   `json:"author" desc:"Author name."`
	Email   string   `json:"email" desc:"Author email."`
	Date    int64    `json:"date" desc:"Author date, Unix seconds."`
	Subject string   `json:"subject" desc:"First line of the message."`
	Added   int      `json:"added" desc:"Lines added against the first parent (git log --numstat; 0 for merges and binary files)."`
	Removed int      `json:"removed" desc:"Lines removed against the first parent."`
	Files   int      `json:"files" desc:"Files changed against the first parent."`
	Path    string   `json:"path,omitempty" desc:"With path: the file's name in this commit (it changes across renames)."`
}

type GitLogResponse struct {
	Entries    []GitLogEntry `json:"entries" desc:"Commits, newest first, as git log orders them."`
	NextCursor *int          `json:"next_cursor" desc:"Pass as cursor for the next page; null when this page is the last."`
}

func init() {
	define("editor::git::log",
		"git log --numstat, paged: sha, parents, author, date, subject, +/- lines; with path, one file's through renames.",
		readOnly, (*Service).GitLog)
}

func (s *Service) GitLog(ctx context.Context, req *GitLogRequest) (*GitLogResponse, error) {
	limit, skip := 50, 0
	if req.Limit != nil {
		if *req.Limit < 1 || *req.Limit > 10000 {
			return nil, invalid("limit must be 1 to 10000, not %d", *req.Limit)
		}
		limit = *req.Limit
	}
	if req.Cursor != nil {
		if *req.Cursor < 0 {
			return nil, invalid("cursor must be 0 or more (the next_cursor of a previous page), not %d", *req.Cursor)
		}
		skip = *req.Cursor
	}
	root, r, err := s.gitRepo()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	opt := gitops.LogOptions{Rev: req.Rev, Skip: skip, Limit: limit}
	if req.Path != "" {
		if _, opt.Path, err = s.gitPath(root, r, req.Path, "path"); err != nil {
			return nil, err
		}
	}
	ents, more, err := r.Log(ctx, opt)
	if err != nil {
		return nil, err
	}
	out := &GitLogResponse{Entries: make([]GitLogEntry, 0, len(ents))}
	for _, e := range ents {
		row := GitLogEntry{SHA: e.SHA, Parents: e.Parents, Author: e.Author, Email: e.Email, Date: e.Date, Subject: e.Subject,
			Added: e.Added, Removed: e.Removed, Files: e.Files}
		if row.Parents == nil {
			row.Parents = []string{}
		}
		if e.Path != "" {
			row.Path = fromRepo(root, r, e.Path)
		}
		out.Entries = append(out.Entries, row)
	}
	if more {
		next := skip + len(ents)
		out.NextCursor = &next
	}
	return out, nil
}
