package editor

import (
	"context"
	"strings"
	"time"

	"github.com/editord/editord/gitops"
	"github.com/editord/editord/shell"
	"github.com/editord/editord/workspace"
)

// The write side of the git overlay: commit and undo-commit change only
// git's own data (objects, the index, refs); stash and sync also change
// working files, and emit a change event for each one they touch.

type GitCommitRequest struct {
	Message  string   `json:"message" desc:"The commit message: a one-line summary, optionally a blank line and a body. Trailing spaces and extra blank lines are cleaned up as git does."`
	StageAll *bool    `json:"stage_all,omitempty" default:"true" desc:"Stage every change first, like git add -A: modified, deleted and new files (.gitignore respected). false commits only what is already staged. Ignored when paths is given."`
	Paths    []string `json:"paths,omitempty" desc:"Commit exactly these files or folders as they are on disk, new files included (like git commit -- paths); other staged changes stay staged and out of the commit. Root-relative, e.g. [\"src/app.go\", \"docs\"]."`
}

type GitCommitResponse struct {
	Committed bool   `json:"committed" desc:"True when a commit was made; false when there was nothing to commit (see summary)."`
	SHA       string `json:"sha" desc:"The new commit's full SHA; empty when nothing was committed."`
	Summary   string `json:"summary" desc:"What happened, as git says it: \"[main 1a2b3c4] subject\" and the files/lines changed, or why nothing was committed."`
}

type GitUndoCommitRequest struct{}

type GitUndoCommitResponse struct {
	UndoneSHA string `json:"undone_sha" desc:"The SHA of the commit that was undone (still reachable through git reflog)."`
	Message   string `json:"message" desc:"The undone commit's message, to reuse when committing again."`
}

func init() {
	define("editor::git::commit",
		"Commit in the repository holding the workspace. By default stages everything first (stage_all: true, like git add -A, .gitignore respected); "+
			"with paths, commits exactly those files or folders. Author and committer come from git config (user.name/user.email); when they are missing "+
			"the call fails and says how to set them. Nothing to commit gives committed: false with a summary, not an error. "+
			`Example: {"message": "Fix the parser's handling of empty input"}.`,
		destructive, (*Service).GitCommit)
	define("editor::git::undo-commit",
		"Undo the last commit like git reset --soft HEAD~1: the branch moves back one commit and its changes stay staged, files untouched. "+
			"Refuses the repository's first commit and a commit already on the upstream branch (published history). "+
			"Use it to fix a commit you just made, then commit again.",
		destructive, (*Service).GitUndoCommit)
}

func (s *Service) GitCommit(ctx context.Context, req *GitCommitRequest) (*GitCommitResponse, error) {
	if strings.TrimSpace(req.Message) == "" {
		return nil, invalid("message is empty; say what the commit does, e.g. \"Add retry to the HTTP client\"")
	}
	var out *GitCommitResponse
	err := s.gitWrite(ctx, false, func(root string, r *gitops.Repo) error {
		opt := gitops.CommitOptions{Message: req.Message, StageAll: req.StageAll == nil || *req.StageAll}
		for _, p := range req.Paths {
			rel, err := s.gitSelection(root, r, p)
			if err != nil {
				return err
			}
			opt.Paths = append(opt.Paths, rel)
		}
		res, err := r.Commit(ctx, opt)
		if err != nil {
			return err
		}
		out = &GitCommitResponse{Committed: res.Committed, SHA: res.SHA, Summary: res.Summary}
		return nil
	})
	return out, err
}

// gitWrite opens the repository and runs fn under the git lock, which
// serializes the git writes of every process on the state dir (git's own
// .lock files guard against other programs). A write that changes worktree
// files (stash, pull) also holds the write lock until its events are
// journaled, so the watcher does not report them again as external; commit
// and undo-commit change only .git, which the watcher skips.
func (s *Service) gitWrite(ctx context.Context, worktree bool, fn func(root string, r *gitops.Repo) error) error {
	// Always checked: the repository is the one holding the root, so after
	// another caller's switch a commit would land in another repository.
	root, err := s.writeRoot(ctx, true)
	if err != nil {
		return err
	}
	r, err := gitops.Open(s.jail, root)
	if err != nil {
		return err
	}
	defer r.Close()
	if worktree {
		done, err := s.writing(ctx)
		if err != nil {
			return err
		}
		defer done()
	}
	unlock, err := s.store.Lock(ctx, gitLockName)
	if err != nil {
		return err
	}
	defer unlock()
	return fn(root, r)
}

const gitLockName = "git.lock"

// gitSelection maps a path that may name the root or a folder (a commit
// selection) to the repository's form; "" is the whole repository.
func (s *Service) gitSelection(root string, r *gitops.Repo, p string) (string, error) {
	if strings.TrimSpace(p) == "" {
		return "", invalid("paths holds an empty path; pass root-relative paths such as \"src/app.go\", or \".\" for the whole root")
	}
	l, err := locate(root, p, "paths")
	if err != nil {
		return "", err
	}
	if !s.jail.Contains(l.abs) {
		return "", shell.Errorf(shell.CodeOutsideJail, l.stored, "%s is outside the jail (%s); use a path inside the workspace", display(l.stored), strings.Join(s.jail.Roots(), ", "))
	}
	if s.jail.Denied(l.abs, false) {
		return "", shell.Errorf(shell.CodeDenied, l.stored, "%s matches a deny rule in the jail configuration; it is never committed", display(l.stored))
	}
	return r.Rel(l.abs)
}

func (s *Service) GitUndoCommit(ctx context.Context, req *GitUndoCommitRequest) (*GitUndoCommitResponse, error) {
	var out *GitUndoCommitResponse
	err := s.gitWrite(ctx, false, func(_ string, r *gitops.Repo) error {
		sha, msg, err := r.UndoCommit(ctx)
		if err != nil {
			return err
		}
		out = &GitUndoCommitResponse{UndoneSHA: sha, Message: msg}
		return nil
	})
	return out, err
}

type GitStashRequest struct {
	Action           string `json:"action" enum:"push,pop" desc:"push saves the staged and unstaged changes as a new stash (git stash push) and resets the files to HEAD; pop re-applies the newest stash (stash@{0}) and drops it (git stash pop)."`
	IncludeUntracked bool   `json:"include_untracked,omitempty" default:"false" desc:"push only: stash untracked files too (not ignored ones) and remove them from the worktree, like git stash -u."`
	Message          string `json:"message,omitempty" desc:"push only: a description shown by git stash list (\"On main: <message>\"); default \"WIP on <branch>: <sha> <subject>\"."`
}

type GitStashResponse struct {
	Action  string `json:"action" desc:"The action, as requested."`
	OK      bool   `json:"ok" desc:"True when the stash was saved or applied. False when nothing was done: no local changes to save, no stash to pop, or a pop that would overwrite local changes (the stash is then kept); summary says which."`
	Summary string `json:"summary" desc:"What happened, or why nothing did, naming the files in the way."`
}

func init() {
	define("editor::git::stash",
		"Set local changes aside and bring them back, in git's own stash format (git stash list/show/pop see editord's stashes and the other way round). "+
			"push saves staged and unstaged changes (with include_untracked, untracked files too) and resets the files to HEAD; "+
			"pop re-applies the newest stash and drops it. A pop that would overwrite local changes does nothing and returns ok: false, keeping the stash. "+
			"Every file it changes is reported in editor::changes. "+
			`Example: {"action": "push", "message": "half-done refactor"}.`,
		destructive, (*Service).GitStash)
}

func (s *Service) GitStash(ctx context.Context, req *GitStashRequest) (*GitStashResponse, error) {
	if req.Action != "push" && req.Action != "pop" {
		return nil, invalid("action must be push or pop, not %q", req.Action)
	}
	var out *GitStashResponse
	err := s.gitWrite(ctx, true, func(root string, r *gitops.Repo) error {
		ev := s.gitEvents(ctx, root, r, "editor::git::stash")
		res, err := r.Stash(ctx, gitops.StashOptions{Action: req.Action, IncludeUntracked: req.IncludeUntracked, Message: req.Message, OnTouch: ev.add})
		ev.flush()
		if err != nil {
			return err
		}
		out = &GitStashResponse{Action: req.Action, OK: res.OK, Summary: res.Summary}
		return nil
	})
	return out, err
}

// gitEventSink turns the files a git operation touched into change
// events, journaled in batches.
type gitEventSink struct {
	s     *Service
	ctx   context.Context
	root  string
	r     *gitops.Repo
	cause string
	evs   []workspace.Event
}

func (s *Service) gitEvents(ctx context.Context, root string, r *gitops.Repo, cause string) *gitEventSink {
	return &gitEventSink{s: s, ctx: ctx, root: root, r: r, cause: cause}
}

func (g *gitEventSink) add(t gitops.Touched) {
	l := loc{abs: g.r.Abs(t.Path), stored: fromRepo(g.root, g.r, t.Path)}
	if t.Known {
		g.evs = append(g.evs, g.s.changeEvent(g.root, l, g.cause, t.Kind, t.Before, t.After))
	} else {
		// Binary or very large: the event says what changed, without a patch.
		g.evs = append(g.evs, workspace.Event{Root: g.root, Path: l.stored, Kind: t.Kind, Cause: g.cause, Truncated: true})
	}
	if len(g.evs) >= 256 {
		g.flush()
	}
}

func (g *gitEventSink) flush() {
	if len(g.evs) > 0 {
		g.s.emit(g.ctx, g.evs...)
		g.evs = nil
	}
}

type GitSyncRequest struct {
	Action string `json:"action" enum:"fetch,pull,push" desc:"fetch downloads the remote's commits (git fetch); pull fetches and fast-forwards the current branch to its upstream, updating files (git pull --ff-only; a diverged branch is refused, nothing merged); push sends the current branch to its upstream (or the same name on origin)."`
}

type GitSyncResponse struct {
	Action  string `json:"action" desc:"The action, as requested."`
	OK      bool   `json:"ok" desc:"True when the action succeeded (also when there was nothing to do). False when the remote could not be reached or refused (credentials, non-fast-forward push), the network hung past git_timeout_ms, or a pull would need a merge or overwrite local changes; summary says which."`
	Summary string `json:"summary" desc:"What happened, or why not, in a sentence."`
	Ahead   int    `json:"ahead" desc:"Afterwards: commits on the branch that its upstream lacks."`
	Behind  int    `json:"behind" desc:"Afterwards: commits on the upstream that the branch lacks."`
}

func init() {
	define("editor::git::sync",
		"Talk to the branch's remote: fetch, pull (fast-forward only: a diverged branch returns ok: false and nothing is merged; files a pull changes are reported in editor::changes), "+
			"or push. Works with ssh, https and file:// remotes; credentials come from where git finds them (ssh agent or key, git's credential helper, or the URL). "+
			"A remote that does not answer within git_timeout_ms (15,000) gives ok: false. Returns ahead/behind afterwards. "+
			`Example: {"action": "pull"}.`,
		openWorld, (*Service).GitSync)
}

func (s *Service) GitSync(ctx context.Context, req *GitSyncRequest) (*GitSyncResponse, error) {
	if req.Action != "fetch" && req.Action != "pull" && req.Action != "push" {
		return nil, invalid("action must be fetch, pull or push, not %q", req.Action)
	}
	var out *GitSyncResponse
	// A pull rewrites worktree files; fetch and push touch only .git.
	err := s.gitWrite(ctx, req.Action == "pull", func(root string, r *gitops.Repo) error {
		ev := s.gitEvents(ctx, root, r, "editor::git::sync")
		res, err := r.Sync(ctx, gitops.SyncOptions{
			Action:  req.Action,
			Timeout: time.Duration(s.cfg.Limits.GitTimeoutMS) * time.Millisecond,
			OnTouch: ev.add,
		})
		ev.flush()
		if err != nil {
			return err
		}
		out = &GitSyncResponse{Action: req.Action, OK: res.OK, Summary: res.Summary, Ahead: res.Ahead, Behind: res.Behind}
		return nil
	})
	return out, err
}
