package editor

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/editord/editord/diff"
	"github.com/editord/editord/gitops"
	"github.com/editord/editord/shell"
)

// The repository-wide side of editor::git::hunks: every changed file (or
// those under paths) in one reply, so an agent reviews its own change
// before a commit in one call instead of a status and a call per file.
// Untracked files count as changes and show whole, as the commit would
// record them with stage_all.
//
// Budget (docs/contract.md §8): the reply's text block stays under 32 KiB. The
// files are listed by path with their counts (at most reviewMaxFiles; the
// text lists as many as fit), and each file's diff goes into patch while
// it fits in what the list leaves of reviewBudget; a file whose diff does
// not fit is listed with in_patch false, and left_out counts those and the
// files past the list, so the cut says what is missing and how to get it.

// GitFileChange is one file of a repository-wide comparison.
type GitFileChange struct {
	Path      string `json:"path" desc:"Root-relative path."`
	Added     int    `json:"added" desc:"Lines added."`
	Removed   int    `json:"removed" desc:"Lines removed."`
	Untracked bool   `json:"untracked,omitempty" desc:"New to git: the patch shows it whole."`
	Skipped   string `json:"skipped,omitempty" desc:"Why it has no diff: binary, too_large or conflict."`
	InPatch   bool   `json:"in_patch" desc:"Its diff is in patch."`
}

const (
	// reviewMaxFiles bounds the files a reply lists (and diffs).
	reviewMaxFiles = 500
	// reviewBudget is what the file lines and the patch may take of the
	// text block, leaving room for its header and the cut's note.
	reviewBudget = 28 << 10
	// reviewLineCost is a listed file's line beyond its path
	// ("path +123 -45 (untracked)").
	reviewLineCost = 24
)

func (s *Service) gitReview(ctx context.Context, req *GitHunksRequest, ctxLines int) (*GitHunksResponse, error) {
	root, r, err := s.gitRepo()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var sel []string
	for _, p := range req.Paths {
		rel, err := s.gitSelection(root, r, p)
		if err != nil {
			return nil, err
		}
		sel = append(sel, rel)
	}
	changed, err := r.ChangedPaths(ctx, req.Against, req.Rev)
	if err != nil {
		return nil, err
	}
	out := &GitHunksResponse{Against: req.Against, Hunks: []diff.Hunk{}, Files: []GitFileChange{}, Root: root}
	var patches []string
	for _, c := range changed {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if !selected(c.Path, sel) || !s.jail.Contains(r.Abs(c.Path)) {
			continue
		}
		if len(out.Files) == reviewMaxFiles {
			out.LeftOut++ // past the list: not even compared
			continue
		}
		f, patch, ok := s.reviewFile(r, root, req, c, ctxLines)
		if !ok {
			continue // no difference after all (a change undone)
		}
		out.Files = append(out.Files, f)
		patches = append(patches, patch)
		out.Added += f.Added
		out.Removed += f.Removed
	}
	// The list first, then the diffs while they fit, in path order; a diff
	// too big for what is left leaves room for smaller ones after it.
	room := reviewBudget
	for _, f := range out.Files[:min(len(out.Files), reviewMaxFiles)] {
		room -= len(f.Path) + reviewLineCost
	}
	var b strings.Builder
	for i := range out.Files {
		f := &out.Files[i]
		switch {
		case patches[i] == "":
		case len(patches[i]) <= room:
			b.WriteString(patches[i])
			room -= len(patches[i])
			f.InPatch = true
		default:
			out.LeftOut++
		}
	}
	out.Patch = b.String()
	return out, nil
}

// selected reports whether repository path p is under one of sel ("" is
// the whole repository); no selection selects everything.
func selected(p string, sel []string) bool {
	if len(sel) == 0 {
		return true
	}
	for _, s := range sel {
		if s == "" || p == s || strings.HasPrefix(p, s+"/") {
			return true
		}
	}
	return false
}

// reviewFile compares one changed file: its row and its patch, or ok
// false when the sides turn out equal.
func (s *Service) reviewFile(r *gitops.Repo, root string, req *GitHunksRequest, c gitops.Changed, ctxLines int) (GitFileChange, string, bool) {
	stored := fromRepo(root, r, c.Path)
	f := GitFileChange{Path: stored, Untracked: c.Untracked}
	if c.Conflict {
		f.Skipped = "conflict"
		return f, "", true
	}
	var before, after gitops.Side
	var err error
	if !c.Untracked {
		before, after, f.Untracked, err = r.HunkSides(req.Against, req.Rev, c.Path, s.hunkSideBytes())
	}
	if err == nil && f.Untracked {
		before = gitops.Side{}
		after, err = r.WorktreeSide(c.Path, s.hunkSideBytes())
	}
	switch code := shell.CodeOf(err); {
	case err == nil:
	case code == shell.CodeNotFound:
		return f, "", false
	default:
		f.Skipped = string(code)
		return f, "", true
	}
	if !utf8.Valid(before.Data) || !utf8.Valid(after.Data) {
		f.Skipped = string(shell.CodeBinary)
		return f, "", string(before.Data) != string(after.Data) || before.Exists != after.Exists
	}
	d := diff.Unified(string(before.Data), string(after.Data), diff.Options{
		Path: strings.TrimPrefix(stored, "/"), Context: ctxLines, MaxChangedBytes: s.cfg.Limits.MaxDiffBytes,
		OldMissing: !before.Exists, NewMissing: !after.Exists,
	})
	if d.Truncated {
		f.Skipped = string(shell.CodeTooLarge)
		return f, "", true
	}
	if d.Patch == "" {
		return f, "", before.Exists != after.Exists // an empty file added or removed
	}
	f.Added, f.Removed = d.Added, d.Removed
	return f, d.Patch, true
}
