package editor

import (
	"context"

	"github.com/editord/editord/shell"
)

type GitRestoreRequest struct {
	Path            string  `json:"path" desc:"File, root-relative."`
	Rev             string  `json:"rev,omitempty" default:":" desc:"Source: \":\" the staged version (default) or a revision."`
	ExpectedVersion *string `json:"expected_version,omitempty" desc:"The file's version (editor::open)."`
	Force           bool    `json:"force,omitempty" default:"false" desc:"Overwrite without a guard."`
}

type GitRestoreResponse struct {
	Path          string  `json:"path" desc:"The file, root-relative."`
	Rev           string  `json:"rev" desc:"The source, as given (\":\" by default)."`
	Restored      bool    `json:"restored" desc:"True when the working file now holds the source's content."`
	Conflict      bool    `json:"conflict" desc:"True when nothing was written because the file is not at expected_version (or no guard was sent); see conflict_patch."`
	Created       bool    `json:"created" desc:"True when the file did not exist and was created."`
	Version       string  `json:"version" desc:"The file's version afterwards (on conflict: the disk's)."`
	Added         int     `json:"added" desc:"Lines added to the working file."`
	Removed       int     `json:"removed" desc:"Lines removed from the working file."`
	ConflictPatch *string `json:"conflict_patch,omitempty" desc:"On conflict: the diff from the disk's content to the restored one."`
}

func init() {
	define("editor::git::restore",
		"git restore: a file from the index or a revision into the worktree, guarded like editor::save.",
		destructive, (*Service).GitRestore)
}

func (s *Service) GitRestore(ctx context.Context, req *GitRestoreRequest) (*GitRestoreResponse, error) {
	rev := req.Rev
	if rev == "" {
		rev = ":"
	}
	root, r, err := s.gitRepo()
	if err != nil {
		return nil, err
	}
	l, rel, err := s.gitPath(root, r, req.Path, "path")
	if err != nil {
		r.Close()
		return nil, err
	}
	data, exists, err := r.Show(rev, rel, s.cfg.Limits.MaxFileBytes)
	r.Close()
	if err != nil {
		return nil, err
	}
	if !exists {
		return nil, shell.Errorf(shell.CodeNotFound, l.stored, "%s does not exist at %s; nothing to restore from there (editor::git::log with path shows where it changed)", display(l.stored), revLabel(rev))
	}
	if !isText(data) {
		return nil, shell.Errorf(shell.CodeBinary, l.stored, "%s is binary (or not UTF-8) at %s; editor::git::restore writes text files only", display(l.stored), revLabel(rev))
	}
	res, err := s.Save(withCause(ctx, "editor::git::restore"), &SaveRequest{Path: req.Path, Content: string(data), ExpectedVersion: req.ExpectedVersion, Force: req.Force})
	if err != nil {
		return nil, err
	}
	return &GitRestoreResponse{Path: res.Path, Rev: rev, Restored: res.Saved, Conflict: res.Conflict, Created: res.Created, Version: res.Version,
		Added: res.Added, Removed: res.Removed, ConflictPatch: res.ConflictPatch}, nil
}

func revLabel(rev string) string {
	if rev == ":" || rev == ":0" {
		return "the index"
	}
	return rev
}

type causeKey struct{}

// withCause names the function an inner write's change event is caused by.
func withCause(ctx context.Context, cause string) context.Context {
	return context.WithValue(ctx, causeKey{}, cause)
}

func causeOf(ctx context.Context, def string) string {
	if c, ok := ctx.Value(causeKey{}).(string); ok && c != "" {
		return c
	}
	return def
}
