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
	Message  string   `json:"message" desc:"Commit message: a summary line, optionally a blank line and a body."`
	StageAll *bool    `json:"stage_all,omitempty" default:"true" desc:"Stage every change first (default true); false commits what is staged."`
	Paths    []string `json:"paths,omitempty" desc:"Commit exactly these files or folders (like git commit -- paths)."`
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
		"Commit in the repository holding the root: stages every change first (like git add -A) unless stage_all is false; "+
			"with paths, commits just those. Needs user.name/user.email in git config (the error says how). "+
			"Nothing to commit gives committed: false, not an error.",
		destructive, (*Service).GitCommit)
	define("editor::git::undo-commit",
		"Undo the last commit like git reset --soft HEAD~1: its changes stay staged. "+
			"Refuses the first commit and a commit already on the upstream.",
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
	Action           string `json:"action" enum:"push,pop" desc:"push or pop."`
	IncludeUntracked bool   `json:"include_untracked,omitempty" default:"false" desc:"push: stash untracked files too, like git stash -u."`
	Message          string `json:"message,omitempty" desc:"push: the stash's description."`
}

type GitStashResponse struct {
	Action  string `json:"action" desc:"The action, as requested."`
	OK      bool   `json:"ok" desc:"True when the stash was saved or applied. False when nothing was done: no local changes to save, no stash to pop, or a pop that would overwrite local changes (the stash is then kept); summary says which."`
	Summary string `json:"summary" desc:"What happened, or why nothing did, naming the files in the way."`
}

func init() {
	define("editor::git::stash",
		"push saves staged and unstaged changes and resets the files to HEAD; "+
			"pop re-applies the newest stash and drops it, in git's own stash format. "+
			"A pop that would overwrite local changes gives ok: false and keeps the stash.",
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
	Action string `json:"action" enum:"fetch,pull,push" desc:"fetch, pull (fast-forward only) or push (to the upstream, or the same name on origin)."`
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
		"fetch, pull (fast-forward only: a diverged branch gives ok: false, nothing merged) or push the current branch. "+
			"Credentials come from where git finds them (ssh agent, credential helper, URL); "+
			"a silent remote ends at git_timeout_ms (15 s) with ok: false. Files a pull changes appear in editor::changes.",
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
