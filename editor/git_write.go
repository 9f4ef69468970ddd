package editor

import (
	"context"
	"fmt"
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
	Message  string   `json:"message" desc:"Commit message; may be empty only to finish a merge."`
	StageAll *bool    `json:"stage_all,omitempty" default:"true" desc:"Stage every change first."`
	Paths    []string `json:"paths,omitempty" desc:"Commit just these files or folders."`
}

type GitCommitResponse struct {
	Committed bool   `json:"committed" desc:"True when a commit was made; false when there was nothing to commit (see summary)."`
	SHA       string `json:"sha" desc:"The new commit's full SHA; empty when nothing was committed."`
	Summary   string `prose:"true" json:"summary" desc:"What happened, as git says it: \"[main 1a2b3c4] subject\" and the files/lines changed, or why nothing was committed."`
}

type GitUndoCommitRequest struct{}

type GitUndoCommitResponse struct {
	UndoneSHA string `json:"undone_sha" desc:"The SHA of the commit that was undone (HEAD@{1} until HEAD moves again)."`
	Message   string `json:"message" desc:"The undone commit's message, to reuse when committing again."`
}

func init() {
	define("editor::git::commit",
		"Commit, staging every change first (stage_all) or just paths; finishes a merge once its markers are fixed. "+
			"Nothing to commit gives committed: false.",
		destructive, (*Service).GitCommit)
	define("editor::git::undo-commit",
		"Undo the last commit like git reset --soft HEAD~1: its changes stay staged. "+
			"Refuses the first commit and a commit already on the upstream.",
		destructive, (*Service).GitUndoCommit)
}

func (s *Service) GitCommit(ctx context.Context, req *GitCommitRequest) (*GitCommitResponse, error) {
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

// throughLinkOut explains an outside_jail met by a git write: no caller
// named that path, the operation did (a file it must check or write lies
// beyond a local symbolic link that leads out of the jail, where git would
// replace the link). The generic advice, "use a path inside the
// workspace", would not help.
func throughLinkOut(root string, err error) error {
	if shell.CodeOf(err) != shell.CodeOutsideJail {
		return err
	}
	e := shell.AsError(err, "")
	p := display(stored(root, e.Path))
	return &shell.Error{Code: shell.CodeOutsideJail, Path: e.Path, Err: err, Message: fmt.Sprintf(
		"%s, which this git operation must check or write, lies beyond a symbolic link that leads out of the jail; "+
			"editord never writes through such a link (git would replace the link), so the operation stopped there. "+
			"Move or delete the link on the way to %s (editor::move, editor::delete), then try again", p, p)}
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
	if err := s.visible(l, "it is never committed"); err != nil {
		return "", err
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
	Action           string   `json:"action" enum:"push,pop,apply,drop,list,show" desc:"push, pop, apply, drop, list or show."`
	Stash            string   `json:"stash,omitempty" default:"stash@{0}" desc:"stash@{n} (default 0)."`
	IncludeUntracked bool     `json:"include_untracked,omitempty" default:"false" desc:"push: untracked files too (-u)."`
	Message          string   `json:"message,omitempty" desc:"push: description."`
	Paths            []string `json:"paths,omitempty" desc:"push, show: only these paths."`
}

type GitStashEntry struct {
	Index   int    `json:"index" desc:"n of stash@{n}; 0 is the newest."`
	Name    string `json:"name" desc:"stash@{n}."`
	Message string `json:"message" desc:"As git stash list shows it."`
	Branch  string `json:"branch" desc:"The branch it was made on."`
	Date    int64  `json:"date" desc:"When it was made, Unix seconds."`
}

type GitStashResponse struct {
	Action    string          `json:"action" desc:"The action, as requested."`
	OK        bool            `json:"ok" desc:"True when the action was done. False when nothing was: no changes to save, no such stash, local changes in the way, or a pop/apply that left conflicts (the stash is then kept); summary says which."`
	Summary   string          `prose:"true" json:"summary" desc:"What happened, or why not, naming the files in the way and the next step."`
	Conflicts []string        `json:"conflicts" desc:"pop/apply: root-relative paths left with conflict markers (stages 1-3 in the index)."`
	Entries   []GitStashEntry `json:"entries,omitempty" desc:"list: the stashes, newest first."`
	Patch     string          `json:"patch,omitempty" desc:"show: the stash's changes against the commit it was made on, as a unified diff."`
	Files     []string        `json:"files,omitempty" desc:"show: the paths the stash changes (root-relative; the patch has the repository's); stashed untracked files end in \" (untracked)\"."`
}

func init() {
	define("editor::git::stash",
		"git stash in git's format: push (paths optional); pop/apply merge into changed files (on conflict the stash is kept, files get markers); "+
			"drop; list; show.",
		destructive, (*Service).GitStash)
}

func (s *Service) GitStash(ctx context.Context, req *GitStashRequest) (*GitStashResponse, error) {
	switch req.Action {
	case "push", "pop", "apply", "drop", "list", "show":
	default:
		return nil, invalid("action must be push, pop, apply, drop, list or show, not %q", req.Action)
	}
	if req.Action != "push" && (req.IncludeUntracked || req.Message != "") {
		return nil, invalid("include_untracked and message are for action push only")
	}
	if req.Action != "push" && req.Action != "show" && len(req.Paths) > 0 {
		return nil, invalid("paths is for actions push and show only")
	}
	if req.Action == "push" && req.Stash != "" {
		return nil, invalid("stash names an existing stash (for pop, apply, drop, show); push makes a new one")
	}
	var out *GitStashResponse
	worktree := req.Action == "push" || req.Action == "pop" || req.Action == "apply"
	err := s.gitWrite(ctx, worktree, func(root string, r *gitops.Repo) error {
		opt := gitops.StashOptions{Action: req.Action, IncludeUntracked: req.IncludeUntracked, Message: req.Message, Stash: req.Stash}
		var sels []string
		for _, p := range req.Paths {
			rel, err := s.gitSelection(root, r, p)
			if err != nil {
				return err
			}
			sels = append(sels, rel)
		}
		if req.Action == "push" {
			opt.Paths = sels
		}
		ev := s.gitEvents(ctx, root, r, "editor::git::stash")
		opt.OnTouch = ev.add
		res, err := r.Stash(ctx, opt)
		ev.flush()
		if err != nil {
			return throughLinkOut(root, err)
		}
		out = &GitStashResponse{Action: req.Action, OK: res.OK, Summary: res.Summary, Conflicts: fromRepoAll(root, r, res.Conflicts), Patch: res.Patch, Files: res.Files}
		if req.Action == "show" && len(sels) > 0 {
			out.Patch, out.Files = patchUnder(res.Patch, res.Files, sels)
		}
		// Files in the stored form (root-relative), as every git function
		// answers paths; the patch keeps git's repository paths.
		for i, f := range out.Files {
			p, untracked := strings.CutSuffix(f, " (untracked)")
			out.Files[i] = fromRepo(root, r, p)
			if untracked {
				out.Files[i] += " (untracked)"
			}
		}
		for _, e := range res.Entries {
			out.Entries = append(out.Entries, GitStashEntry{Index: e.Index, Name: e.Name, Message: e.Message, Branch: e.Branch, Date: e.Date})
		}
		if req.Action == "list" && out.Entries == nil {
			out.Entries = []GitStashEntry{}
		}
		return nil
	})
	return out, err
}

// patchUnder keeps the parts of a stash's patch, and the files, at or
// under one of sels (repository-relative; "" is everything).
func patchUnder(patch string, files, sels []string) (string, []string) {
	under := func(p string) bool {
		for _, sel := range sels {
			if sel == "" || p == sel || strings.HasPrefix(p, sel+"/") {
				return true
			}
		}
		return false
	}
	var b strings.Builder
	keep := false
	for _, l := range strings.SplitAfter(patch, "\n") {
		if rest, ok := strings.CutPrefix(l, "diff --git a/"); ok {
			// "diff --git a/P b/P": both sides name the same path.
			rest = strings.TrimSuffix(rest, "\n")
			keep = len(rest) >= 3 && under(rest[:(len(rest)-3)/2])
		}
		if keep {
			b.WriteString(l)
		}
	}
	kept := []string{}
	for _, f := range files {
		if under(strings.TrimSuffix(f, " (untracked)")) {
			kept = append(kept, f)
		}
	}
	return b.String(), kept
}

// gitEventSink turns the files a git operation touched into change
// events, journaled in batches.
type gitEventSink struct {
	s       *Service
	ctx     context.Context
	root    string
	r       *gitops.Repo
	cause   string
	evs     []workspace.Event
	held    int // bytes of content the events hold (for their turn) until flushed
	changed []bufferChange
}

// bufferChange is a file a git operation rewrote, for refreshing the open
// buffer that still showed its old content.
type bufferChange struct {
	stored, abs   string
	before, after string // versions
}

func (s *Service) gitEvents(ctx context.Context, root string, r *gitops.Repo, cause string) *gitEventSink {
	return &gitEventSink{s: s, ctx: ctx, root: root, r: r, cause: cause}
}

func (g *gitEventSink) add(t gitops.Touched) {
	l := loc{abs: g.r.Abs(t.Path), stored: fromRepo(g.root, g.r, t.Path)}
	if t.Known {
		e := g.s.changeEvent(g.root, l, g.cause, t.Kind, t.Before, t.After)
		g.evs = append(g.evs, e)
		if t.Kind == "modified" {
			g.changed = append(g.changed, bufferChange{stored: l.stored, abs: l.abs, before: Version(t.Before), after: *e.Version})
		}
	} else {
		// Binary or very large: the event says what changed, without a patch.
		g.evs = append(g.evs, workspace.Event{Root: g.root, Path: l.stored, Kind: t.Kind, Cause: g.cause, Truncated: true})
	}
	g.held += len(t.Before) + len(t.After)
	if len(g.evs) >= 256 || g.held >= 8<<20 {
		g.flush()
	}
}

func (g *gitEventSink) flush() {
	if len(g.evs) > 0 {
		g.s.emit(g.ctx, g.evs...)
		g.evs, g.held = nil, 0
	}
	g.refreshBuffers()
}

// refreshBuffers moves each open buffer that showed a rewritten file's old
// content (it was clean) to the new content's version and mtime, so the
// record matches the disk after a switch, a pull or a stash pop. A buffer
// whose version was already different keeps it: its holder must re-open.
func (g *gitEventSink) refreshBuffers() {
	if len(g.changed) == 0 {
		return
	}
	changed := g.changed
	g.changed = nil
	byPath := map[string]bufferChange{}
	for _, c := range changed {
		if prev, ok := byPath[c.stored]; ok {
			c.before = prev.before // several writes of one file: first to last
		}
		byPath[c.stored] = c
	}
	open := false
	for _, b := range g.s.store.Load().Session(g.root).Buffers {
		if c, ok := byPath[b.Path]; ok && b.Version == c.before {
			open = true
		}
	}
	if !open {
		return
	}
	_, err := g.s.store.Update(g.ctx, func(rec *workspace.Record) (bool, error) {
		sess := rec.Session(g.root)
		any := false
		for _, b := range sess.Buffers {
			c, ok := byPath[b.Path]
			if !ok || b.Version != c.before {
				continue
			}
			b.Version = c.after
			if in, err := g.s.jail.Stat(c.abs); err == nil {
				b.Mtime = in.ModTime
			}
			if sess.Upsert(b) {
				any = true
			}
		}
		return any, nil
	})
	if err != nil {
		g.s.warn("refreshing open buffers after " + g.cause + ": " + err.Error())
	}
}

type GitSyncRequest struct {
	Action string `json:"action" enum:"fetch,pull,push" desc:"fetch, pull or push."`
	Mode   string `json:"mode,omitempty" enum:"ff-only,merge,rebase" default:"ff-only" desc:"pull: ff-only or merge (rebase unsupported)."`
}

type GitSyncResponse struct {
	Action    string   `json:"action" desc:"The action, as requested."`
	OK        bool     `json:"ok" desc:"True when the action succeeded (also when there was nothing to do). False when the remote could not be reached or refused, the network hung past git_timeout_ms, a pull was refused, or a merge left conflicts; summary says which."`
	Summary   string   `prose:"true" json:"summary" desc:"What happened, or why not, and the next step."`
	Ahead     int      `json:"ahead" desc:"Afterwards: commits on the branch that its upstream lacks."`
	Behind    int      `json:"behind" desc:"Afterwards: commits on the upstream that the branch lacks."`
	Stale     bool     `json:"stale" desc:"True when the remote was not reached: ahead and behind are as of the last completed fetch, not the remote now."`
	Conflicts []string `json:"conflicts" desc:"pull with mode merge: root-relative paths left with conflict markers."`
}

func init() {
	define("editor::git::sync",
		"fetch, pull (fast-forward, or mode merge) or push the current branch, with git's credentials; progress when asked. "+
			"A silent remote ends at git_timeout_ms: ok false, stale true.",
		openWorld, (*Service).GitSync)
}

func (s *Service) GitSync(ctx context.Context, req *GitSyncRequest) (*GitSyncResponse, error) {
	if req.Action != "fetch" && req.Action != "pull" && req.Action != "push" {
		return nil, invalid("action must be fetch, pull or push, not %q", req.Action)
	}
	switch req.Mode {
	case "", gitops.PullFFOnly, gitops.PullMerge:
	case gitops.PullRebase:
		return nil, invalid("mode rebase is not supported; pull with mode \"merge\" instead (a merge commit, or conflicts that editor::git::commit finishes)")
	default:
		return nil, invalid("mode must be ff-only, merge or rebase, not %q", req.Mode)
	}
	if req.Mode != "" && req.Action != "pull" {
		return nil, invalid("mode is for action pull only")
	}
	progress := ProgressFrom(ctx)
	var out *GitSyncResponse
	// A pull rewrites worktree files; fetch and push touch only .git.
	err := s.gitWrite(ctx, req.Action == "pull", func(root string, r *gitops.Repo) error {
		ev := s.gitEvents(ctx, root, r, "editor::git::sync")
		res, err := r.Sync(ctx, gitops.SyncOptions{
			Action:   req.Action,
			Mode:     req.Mode,
			Timeout:  time.Duration(s.cfg.Limits.GitTimeoutMS) * time.Millisecond,
			OnTouch:  ev.add,
			Progress: func(done, total int, msg string) { progress(float64(done), float64(total), msg) },
		})
		ev.flush()
		if err != nil {
			return throughLinkOut(root, err)
		}
		out = &GitSyncResponse{Action: req.Action, OK: res.OK, Summary: res.Summary, Ahead: res.Ahead, Behind: res.Behind, Stale: res.Stale, Conflicts: fromRepoAll(root, r, res.Conflicts)}
		return nil
	})
	if err == nil {
		progress(3, 3, "done")
	}
	return out, err
}
