package editor

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/editord/editord/diff"
	"github.com/editord/editord/gitops"
	"github.com/editord/editord/shell"
)

// The read side of the git overlay: status, hunks and show. Each call opens
// the repository holding the root (the root may be a subfolder of it) and
// maps paths between the root-relative form of the contract and git's
// repository-relative form.

// openWorld marks the one function that talks to other machines.
var openWorld = Annotations{Destructive: true, OpenWorld: true}

type GitStatusRequest struct{}

type GitStatusEntry struct {
	Path        string  `json:"path" desc:"Root-relative path (stored form). A nested repository is listed once with a trailing slash (vendor/lib/)."`
	Index       string  `json:"index" enum:"modified,added,deleted,renamed,copied,typechange,untracked,ignored,conflicted,unchanged" desc:"Change between HEAD and the index (what a commit would record): git status's first letter, as a word."`
	Worktree    string  `json:"worktree" enum:"modified,added,deleted,renamed,copied,typechange,untracked,ignored,conflicted,unchanged" desc:"Change between the index and the working file (not yet staged): git status's second letter, as a word."`
	Staged      bool    `json:"staged" desc:"True when the index side changed (index is not unchanged or untracked)."`
	RenamedFrom *string `json:"renamed_from,omitempty" desc:"For a staged rename (index renamed): the old path, root-relative."`
}

type GitStatusResponse struct {
	Branch   *string          `json:"branch" desc:"Current branch (main); null on a detached HEAD."`
	Upstream *string          `json:"upstream" desc:"The branch's upstream as git shows it (origin/main); null when none is configured."`
	Ahead    int              `json:"ahead" desc:"Commits on the branch that the upstream lacks (0 without an upstream)."`
	Behind   int              `json:"behind" desc:"Commits on the upstream that the branch lacks, as of the last fetch (0 without an upstream)."`
	Clean    bool             `json:"clean" desc:"True when nothing but ignored files differs from HEAD: no staged, unstaged or untracked change."`
	Entries  []GitStatusEntry `json:"entries" desc:"One row per changed path, like git status --porcelain=v2 --untracked-files=all: tracked changes sorted by path, then untracked files sorted by path. Ignored files are not listed."`
	Root     string           `json:"root" desc:"The workspace root the call used: relative paths are relative to it."`
}

type GitHunksRequest struct {
	Path         string   `json:"path,omitempty" desc:"File (omit: all)."`
	Paths        []string `json:"paths,omitempty" desc:"Without path: under these."`
	Against      string   `json:"against" enum:"worktree,index,head,upstream,rev" desc:"worktree: index→file; index: HEAD→index; head: HEAD→file; upstream, rev: commit→file."`
	Rev          string   `json:"rev,omitempty" desc:"against rev: the revision."`
	ContextLines *int     `json:"context_lines,omitempty" default:"0" desc:"Unchanged lines around each hunk."`
}

type GitHunksResponse struct {
	Path      string      `json:"path" desc:"The file, root-relative."`
	Against   string      `json:"against" desc:"What was compared, as requested."`
	Hunks     []diff.Hunk `json:"hunks" desc:"One entry per changed region: 1-based old_start/old_lines and new_start/new_lines (a side with 0 lines starts at the line before it, as in git), with per-hunk added/removed counts."`
	Added     int         `json:"added" desc:"Lines added in total."`
	Removed   int         `json:"removed" desc:"Lines removed in total."`
	Untracked bool        `json:"untracked" desc:"True when git does not track the file: hunks is empty, the whole file is new."`
	Patch     string      `json:"patch" desc:"The unified diff (--- a/<path> / +++ b/<path>), accepted by git apply. Empty when there is no change."`
	Root      string      `json:"root" desc:"The workspace root the call used: relative paths are relative to it."`
	// Without path: every changed file (git_review.go).
	Files   []GitFileChange `json:"files,omitempty" desc:"Without path: each changed file by path; patch holds those with in_patch."`
	LeftOut int             `json:"left_out,omitempty" desc:"Without path: changed files whose diff is not in patch (the text budget); pass one as path, or narrow paths."`
}

type GitShowRequest struct {
	Path   string `json:"path" desc:"File, root-relative or absolute inside the jail."`
	Rev    string `json:"rev,omitempty" default:"HEAD" desc:"Revision as git rev-parse reads it; \":\" staged, \":1\"-\":3\" conflict stages."`
	Offset int    `json:"offset,omitempty" desc:"First line, 1-based."`
	Limit  int    `json:"limit,omitempty" desc:"Lines (default: to the end)."`
}

type GitShowResponse struct {
	Path    string `json:"path" desc:"The file, root-relative."`
	Rev     string `json:"rev" desc:"The revision, echoed as given."`
	Content string `json:"content" desc:"The file's content at that revision, byte for byte (a symlink's target text). Empty when exists is false."`
	Exists  bool   `json:"exists" desc:"False when the path does not exist at that revision (a file added since, or HEAD of a repository with no commit yet)."`
	Root    string `json:"root" desc:"The workspace root the call used: relative paths are relative to it."`
	// The lines content holds (with offset/limit, a range of them).
	StartLine  int `json:"start_line" desc:"Line number of the first line of content, 1-based."`
	EndLine    int `json:"end_line" desc:"Line number of the last line of content (start_line-1 when content is empty)."`
	TotalLines int `json:"total_lines" desc:"Lines of the whole file at that revision."`
}

func init() {
	define("editor::git::status",
		"Git status of the repository holding the root: branch, upstream, ahead/behind and each changed path's staged and unstaged change, like git status --porcelain.",
		readOnly, (*Service).GitStatus)
	define("editor::git::hunks",
		"A file's changes (patch, line ranges) against worktree, index, head, upstream or rev; "+
			"no path: all changed files (untracked whole) in one patch.",
		readOnly, (*Service).GitHunks)
	define("editor::git::show",
		"A file's content at a revision (HEAD, main~3, stash@{0}^3, HEAD@{2}; \":\" staged, \":1\"-\":3\" a conflict's sides); "+
			"exists: false when absent there.",
		readOnly, (*Service).GitShow)
}

// gitRepo opens the repository holding the active root.
func (s *Service) gitRepo() (root string, r *gitops.Repo, err error) {
	root, err = s.root()
	if err != nil {
		return "", nil, err
	}
	r, err = gitops.Open(s.jail, root)
	if err != nil {
		return "", nil, err
	}
	return root, r, nil
}

// gitPath maps a request path to the repository's form, refusing deny-glob
// matches and paths outside the repository.
func (s *Service) gitPath(root string, r *gitops.Repo, p, field string) (loc, string, error) {
	l, err := locateRequired(root, p, field)
	if err != nil {
		return loc{}, "", err
	}
	if err := s.checkSlash(l); err != nil {
		return loc{}, "", err
	}
	if err := s.visible(l, "git functions leave it alone"); err != nil {
		return loc{}, "", err
	}
	rel, err := r.Rel(l.abs)
	if err != nil {
		return loc{}, "", err
	}
	if rel == "" {
		return loc{}, "", shell.Errorf(shell.CodeIsADirectory, l.stored, "%s is the top of the repository; pass a file path", display(l.stored))
	}
	return l, rel, nil
}

// fromRepo maps a repository path to the stored form.
func fromRepo(root string, r *gitops.Repo, rel string) string {
	dir := strings.HasSuffix(rel, "/")
	out := stored(root, r.Abs(strings.TrimSuffix(rel, "/")))
	if dir {
		out += "/"
	}
	return out
}

// fromRepoAll maps repository paths to the stored form; never nil, so an
// empty list is [] on the wire.
func fromRepoAll(root string, r *gitops.Repo, rels []string) []string {
	out := make([]string, 0, len(rels))
	for _, rel := range rels {
		out = append(out, fromRepo(root, r, rel))
	}
	return out
}

func (s *Service) GitStatus(ctx context.Context, req *GitStatusRequest) (*GitStatusResponse, error) {
	root, r, err := s.gitRepo()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	st, err := r.Status(ctx)
	if err != nil {
		return nil, err
	}
	out := &GitStatusResponse{Ahead: st.Ahead, Behind: st.Behind, Clean: st.Clean(), Root: root, Entries: make([]GitStatusEntry, 0, len(st.Entries))}
	if st.Branch != "" {
		b := st.Branch
		out.Branch = &b
	}
	if st.Upstream != "" {
		u := st.Upstream
		out.Upstream = &u
	}
	for _, e := range st.Entries {
		row := GitStatusEntry{Path: fromRepo(root, r, e.Path), Index: gitops.Word(e.X), Worktree: gitops.Word(e.Y)}
		row.Staged = e.X != '.' && e.X != '?' && e.X != '!'
		if e.From != "" {
			from := fromRepo(root, r, e.From)
			row.RenamedFrom = &from
		}
		out.Entries = append(out.Entries, row)
	}
	return out, nil
}

func (s *Service) GitHunks(ctx context.Context, req *GitHunksRequest) (*GitHunksResponse, error) {
	ctxLines, err := hunksArgs(req)
	if err != nil {
		return nil, err
	}
	if req.Path == "" {
		return s.gitReview(ctx, req, ctxLines)
	}
	if len(req.Paths) > 0 {
		return nil, invalid("pass path (one file) or paths (every changed file under them), not both")
	}
	root, r, err := s.gitRepo()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	l, rel, err := s.gitPath(root, r, req.Path, "path")
	if err != nil {
		return nil, err
	}
	out := &GitHunksResponse{Path: l.stored, Against: req.Against, Hunks: []diff.Hunk{}, Root: root}
	// Sides are read up to max_read_bytes, as editor::open reads ranges;
	// max_diff_bytes bounds what differs between them.
	before, after, untracked, err := r.HunkSides(req.Against, req.Rev, rel, s.hunkSideBytes())
	if err != nil {
		return nil, err
	}
	if untracked {
		out.Untracked = true
		return out, nil
	}
	if !utf8.Valid(before.Data) || !utf8.Valid(after.Data) {
		return nil, binaryError(l, "is not valid UTF-8 on one side of the comparison")
	}
	d := diff.Unified(string(before.Data), string(after.Data), diff.Options{
		Path: diffPath(l), Context: ctxLines, MaxChangedBytes: s.cfg.Limits.MaxDiffBytes,
		OldMissing: !before.Exists, NewMissing: !after.Exists,
	})
	if d.Truncated {
		return nil, shell.Errorf(shell.CodeTooLarge, l.stored, "what changed in %s is over max_diff_bytes (%d) on one side; no diff was computed", display(l.stored), s.cfg.Limits.MaxDiffBytes)
	}
	out.Hunks, out.Added, out.Removed, out.Patch = d.Hunks, d.Added, d.Removed, d.Patch
	return out, nil
}

// hunkSideBytes bounds each side a comparison reads.
func (s *Service) hunkSideBytes() int64 {
	return max(int64(s.cfg.Limits.MaxDiffBytes), s.jail.MaxReadBytes())
}

// hunksArgs checks against, rev and context_lines, and returns the
// context lines.
func hunksArgs(req *GitHunksRequest) (int, error) {
	ctxLines := 0
	if req.ContextLines != nil {
		if *req.ContextLines < 0 {
			return 0, invalid("context_lines must be 0 or more, not %d", *req.ContextLines)
		}
		ctxLines = *req.ContextLines
	}
	switch req.Against {
	case gitops.AgainstWorktree, gitops.AgainstIndex, gitops.AgainstHead, gitops.AgainstUpstream:
		if req.Rev != "" {
			return 0, invalid("rev is used only with against \"rev\"; pass against \"rev\" to compare with %s", req.Rev)
		}
	case gitops.AgainstRev:
		if req.Rev == "" {
			return 0, invalid("against \"rev\" needs rev, the revision to compare with (main~2, a SHA, a tag, stash@{0})")
		}
	default:
		return 0, invalid("against must be worktree, index, head, upstream or rev, not %q", req.Against)
	}
	return ctxLines, nil
}

func (s *Service) GitShow(ctx context.Context, req *GitShowRequest) (*GitShowResponse, error) {
	root, r, err := s.gitRepo()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	l, rel, err := s.gitPath(root, r, req.Path, "path")
	if err != nil {
		return nil, err
	}
	rev := req.Rev
	if rev == "" {
		rev = "HEAD"
	}
	if req.Offset < 0 || req.Limit < 0 {
		return nil, invalid("offset and limit must be 1 or more, not %d and %d", req.Offset, req.Limit)
	}
	ranged := req.Offset > 0 || req.Limit > 0
	maxBytes := s.cfg.Limits.MaxFileBytes
	if ranged {
		// As editor::open: a range of a file over max_file_bytes is served.
		maxBytes = max(maxBytes, s.jail.MaxReadBytes())
	}
	data, exists, err := r.Show(rev, rel, maxBytes)
	if err != nil {
		if shell.CodeOf(err) == shell.CodeTooLarge && !ranged {
			return nil, shell.Errorf(shell.CodeTooLarge, l.stored, "%s; read it in ranges with offset and limit", shell.AsError(err, l.stored).Message)
		}
		return nil, err
	}
	if !utf8.Valid(data) {
		return nil, binaryError(l, "is not valid UTF-8 at "+rev)
	}
	out := &GitShowResponse{Path: l.stored, Rev: rev, Content: string(data), Exists: exists, Root: root, StartLine: 1}
	out.TotalLines = countLines(data)
	out.EndLine = out.TotalLines
	if ranged {
		out.StartLine = max(req.Offset, 1)
		out.Content, out.EndLine = lineSlice(data, out.StartLine, req.Limit)
	}
	return out, nil
}

// lineSlice is limit lines of data from line first (1-based; limit 0: to
// the end) with their line endings, and the number of the last one.
func lineSlice(data []byte, first, limit int) (string, int) {
	start, line := len(data), 1
	for i := 0; line < first && i < len(data); i++ {
		if data[i] == '\n' {
			line++
			if line == first {
				start = i + 1
			}
		}
	}
	if first == 1 {
		start = 0
	}
	if line < first || start >= len(data) {
		return "", first - 1
	}
	end, last := len(data), first
	for i := start; i < len(data); i++ {
		if data[i] == '\n' {
			if limit > 0 && last == first+limit-1 {
				end = i + 1
				break
			}
			if i+1 < len(data) {
				last++
			}
		}
	}
	return string(data[start:end]), last
}
