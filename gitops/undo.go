package gitops

import (
	"context"
	"strings"
	"time"

	"github.com/editord/editord/shell"
)

// UndoCommit is `git reset --soft HEAD~1`: the branch moves back to the
// parent and the undone commit's changes stay staged (the index and the
// worktree are untouched). It refuses a root commit and a commit the
// upstream branch already has, which would rewrite published history.
func (r *Repo) UndoCommit(ctx context.Context) (sha, message string, err error) {
	h, err := r.head()
	if err != nil {
		return "", "", err
	}
	if h.unborn() {
		return "", "", shell.Errorf(shell.CodeInvalidArgument, r.top, "the branch %s has no commit yet; there is nothing to undo", h.shortBranch())
	}
	c, err := r.readCommit(h.hash)
	if err != nil {
		return "", "", err
	}
	if len(c.parents) == 0 {
		return "", "", shell.Errorf(shell.CodeInvalidArgument, r.top, "%s is the repository's first (root) commit; undo-commit would leave the branch with no commit, so it refuses; nothing was changed", short(h.hash))
	}
	if h.branch != "" {
		if up, ref, ok := r.upstreamOf(h.branch); ok {
			uh, err := r.ref(ref)
			if err != nil {
				return "", "", err
			}
			if !uh.IsZero() {
				on, err := r.isAncestor(h.hash, uh)
				if err != nil {
					return "", "", err
				}
				if on {
					return "", "", shell.Errorf(shell.CodeInvalidArgument, r.top, "commit %s is already on the upstream %s; undoing it would rewrite published history, so make a new commit that reverts it instead", short(h.hash), up)
				}
			}
		}
	}
	who, err := r.identity("committer")
	if err != nil {
		who = Identity{Name: "editord", Email: "editord@localhost", When: time.Now()}
	}
	if err := r.moveHead(h, c.parents[0], who, "reset: moving to HEAD~1"); err != nil {
		return "", "", err
	}
	return h.hash.String(), strings.TrimRight(c.message, "\n"), nil
}
