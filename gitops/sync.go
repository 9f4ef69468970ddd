package gitops

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/editord/editord/shell"
	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/transport"
)

// SyncOptions selects a network action.
type SyncOptions struct {
	Action  string        // fetch, pull or push
	Timeout time.Duration // ends a network that hangs
	OnTouch func(Touched) // pull: each working file changed
}

// SyncResult is the outcome. OK is false when the remote could not be
// reached, refused, or a pull would need a merge; Summary says why.
type SyncResult struct {
	OK            bool
	Summary       string
	Ahead, Behind int
}

// Sync fetches, pulls (fast-forward only) or pushes the current branch.
func (r *Repo) Sync(ctx context.Context, opt SyncOptions) (*SyncResult, error) {
	if opt.Action != "fetch" && opt.Action != "pull" && opt.Action != "push" {
		return nil, shell.Errorf(shell.CodeInvalidArgument, "", "action must be fetch, pull or push, not %q", opt.Action)
	}
	if opt.Timeout <= 0 {
		opt.Timeout = 15 * time.Second
	}
	h, err := r.head()
	if err != nil {
		return nil, err
	}
	remote, upRef, ok := r.syncTarget(h)
	if !ok {
		return r.result(h, false, "no remote is configured for this repository (git remote add origin <url>), so there is nothing to "+opt.Action)
	}
	var res *SyncResult
	switch opt.Action {
	case "fetch":
		res, err = r.fetch(ctx, h, remote, opt)
	case "pull":
		res, err = r.fetch(ctx, h, remote, opt)
		if err == nil && res.OK {
			res, err = r.fastForward(h, upRef, opt)
		}
	case "push":
		res, err = r.push(ctx, h, remote, upRef, opt)
	}
	if err != nil || res == nil {
		return nil, err
	}
	if h2, err := r.head(); err == nil && h2.branch != "" {
		_, res.Ahead, res.Behind, _ = r.tracking(h2)
	}
	return res, nil
}

// result is a SyncResult with the current ahead/behind.
func (r *Repo) result(h head, ok bool, summary string) (*SyncResult, error) {
	res := &SyncResult{OK: ok, Summary: summary}
	if h.branch != "" {
		_, res.Ahead, res.Behind, _ = r.tracking(h)
	}
	return res, nil
}

// syncTarget is the remote to talk to and the remote-tracking ref of the
// branch's upstream: the configured upstream, else "origin" (or the only
// remote) and the branch's own name there.
func (r *Repo) syncTarget(h head) (remote string, upRef plumbing.ReferenceName, ok bool) {
	name := h.shortBranch()
	if name != "" {
		remote = r.cfg.str("branch", name, "remote")
	}
	if remote == "" || remote == "." {
		remotes := r.remotes()
		switch {
		case contains(remotes, "origin"):
			remote = "origin"
		case len(remotes) == 1:
			remote = remotes[0]
		default:
			return "", "", false
		}
	}
	if r.remoteURL(remote, false) == "" {
		return "", "", false
	}
	if _, ref, ok := r.upstreamOf(h.branch); ok {
		return remote, ref, true
	}
	if name != "" {
		return remote, plumbing.ReferenceName("refs/remotes/" + remote + "/" + name), true
	}
	return remote, "", true
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// remotes lists the configured remote names.
func (r *Repo) remotes() []string {
	seen := map[string]bool{}
	var out []string
	for _, c := range r.cfg.layers {
		for _, s := range c.Sections {
			if !s.IsName("remote") {
				continue
			}
			for _, ss := range s.Subsections {
				if !seen[ss.Name] && ss.Options.Get("url") != "" {
					seen[ss.Name] = true
					out = append(out, ss.Name)
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// network runs one go-git network call with the timeout and git's way of
// finding credentials: first what the URL and the ssh agent give, then,
// for https that asked for a password, the credential helper.
func (r *Repo) network(ctx context.Context, rawURL string, timeout time.Duration, call func(ctx context.Context, auth transport.AuthMethod, proxy transport.ProxyOptions) error) error {
	ep, err := transport.NewEndpoint(rawURL)
	if err != nil {
		return fmt.Errorf("the remote URL %q is not valid: %v", redactURL(rawURL), err)
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	auth := r.authFor(ep)
	if ep.Protocol == "ssh" && auth == nil {
		// go-git would fall back to an agent that is not there and say
		// only that SSH_AUTH_SOCK is unset.
		return errNoSSHKey
	}
	proxy, done := sshDeadline(ctx, ep)
	defer done()
	err = call(ctx, auth, proxy)
	if (ep.Protocol == "http" || ep.Protocol == "https") && auth == nil && isAuthErr(err) {
		cred, cerr := r.credential(ctx, ep, timeout)
		if cerr != nil {
			return fmt.Errorf("%w (and no credential helper supplied a password: %v)", err, cerr)
		}
		err = call(ctx, cred, proxy)
		if err == nil || isAuthErr(err) {
			r.credentialReport(context.WithoutCancel(ctx), ep, cred, err == nil, timeout)
		}
	}
	// The deadline also ends ssh connections (sshDeadline) as an i/o
	// timeout, which can come back before the context's own timer fires.
	if err != nil && errors.Is(ctx.Err(), context.Canceled) {
		return fmt.Errorf("%w: the call was cancelled (its client left, or the server is ending)", context.Canceled)
	}
	if deadline, _ := ctx.Deadline(); err != nil && (ctx.Err() != nil || !time.Now().Before(deadline)) {
		return fmt.Errorf("%w: the remote did not answer within %s (git_timeout_ms)", context.DeadlineExceeded, timeout)
	}
	return err
}

var errNoSSHKey = errors.New("no ssh credentials: no ssh agent (SSH_AUTH_SOCK is unset) and no unencrypted key in ~/.ssh (id_ed25519, id_ecdsa or id_rsa)")

func isAuthErr(err error) bool {
	return errors.Is(err, transport.ErrAuthenticationRequired) || errors.Is(err, transport.ErrAuthorizationFailed) ||
		err != nil && strings.Contains(err.Error(), "ssh: unable to authenticate")
}

// netSummary words a network failure for the caller.
func netSummary(action, remote string, err error) string {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Sprintf("%s from %s timed out: %v", action, remote, err)
	case err != nil && strings.Contains(err.Error(), "knownhosts: key mismatch"):
		return fmt.Sprintf("%s: the ssh host key of %s does not match the one in known_hosts (%v); if the server's key really changed, update known_hosts with ssh-keygen -R and connect once with ssh", action, remote, err)
	case errors.Is(err, errNoSSHKey):
		return fmt.Sprintf("%s with %s: %v; start ssh-agent and ssh-add your key", action, remote, err)
	case err != nil && strings.Contains(err.Error(), "unable to find any valid known_hosts file"):
		return fmt.Sprintf("%s: no known_hosts file to check the ssh host key of %s against (~/.ssh/known_hosts, or the files SSH_KNOWN_HOSTS names); connect once with ssh or git to create it", action, remote)
	case err != nil && strings.Contains(err.Error(), "knownhosts: key is unknown"):
		return fmt.Sprintf("%s: the ssh host key of %s is not in known_hosts (%v); connect once with ssh or git to accept it", action, remote, err)
	case isAuthErr(err):
		return fmt.Sprintf("%s: %s refused the credentials (%v); set up an ssh key or agent, a credential helper, or a token in the remote URL", action, remote, err)
	case errors.Is(err, transport.ErrRepositoryNotFound):
		return fmt.Sprintf("%s: the repository of remote %s was not found (check its URL with git remote -v)", action, remote)
	}
	return fmt.Sprintf("%s with %s failed: %v", action, remote, err)
}

func (r *Repo) fetch(ctx context.Context, h head, remote string, opt SyncOptions) (*SyncResult, error) {
	repo, err := r.goGit()
	if err != nil {
		return nil, err
	}
	u := r.remoteURL(remote, false)
	err = r.network(ctx, u, opt.Timeout, func(ctx context.Context, auth transport.AuthMethod, proxy transport.ProxyOptions) error {
		return repo.FetchContext(ctx, &git.FetchOptions{RemoteName: remote, RemoteURL: u, Auth: auth, ProxyOptions: proxy})
	})
	switch {
	case errors.Is(err, git.NoErrAlreadyUpToDate):
		return r.result(h, true, fmt.Sprintf("fetched %s: already up to date", remote))
	case errors.Is(err, transport.ErrEmptyRemoteRepository):
		return r.result(h, true, fmt.Sprintf("fetched %s: the remote repository is empty", remote))
	case err != nil:
		return r.result(h, false, netSummary("fetch", remote, err))
	}
	return r.result(h, true, fmt.Sprintf("fetched %s", remote))
}

func (r *Repo) push(ctx context.Context, h head, remote string, upRef plumbing.ReferenceName, opt SyncOptions) (*SyncResult, error) {
	if h.branch == "" {
		return r.result(h, false, "HEAD is detached; check out a branch to push")
	}
	if h.unborn() {
		return r.result(h, false, fmt.Sprintf("the branch %s has no commit yet; nothing to push", h.shortBranch()))
	}
	dst := h.branch
	if m := r.cfg.str("branch", h.shortBranch(), "merge"); m != "" && r.cfg.str("branch", h.shortBranch(), "remote") == remote {
		dst = m
	}
	repo, err := r.goGit()
	if err != nil {
		return nil, err
	}
	u := r.remoteURL(remote, true)
	spec := config.RefSpec(h.branch + ":" + dst)
	err = r.network(ctx, u, opt.Timeout, func(ctx context.Context, auth transport.AuthMethod, proxy transport.ProxyOptions) error {
		return repo.PushContext(ctx, &git.PushOptions{RemoteName: remote, RemoteURL: u, RefSpecs: []config.RefSpec{spec}, Auth: auth, ProxyOptions: proxy})
	})
	target := remote + "/" + strings.TrimPrefix(dst, "refs/heads/")
	switch {
	case errors.Is(err, git.NoErrAlreadyUpToDate):
		return r.result(h, true, fmt.Sprintf("pushed %s to %s: everything up to date", h.shortBranch(), target))
	case err != nil && strings.Contains(err.Error(), "non-fast-forward"):
		return r.result(h, false, fmt.Sprintf("push rejected: %s has commits that %s does not (non-fast-forward); pull first (merge or rebase with git if the branches diverged), nothing was pushed", target, h.shortBranch()))
	case err != nil:
		return r.result(h, false, netSummary("push", remote, err))
	}
	// Record what the remote now has, as git does, when go-git did not.
	if upRef != "" {
		if cur, _ := r.ref(upRef); cur != h.hash {
			r.st.SetReference(plumbing.NewHashReference(upRef, h.hash))
		}
	}
	return r.result(h, true, fmt.Sprintf("pushed %s to %s (%s)", h.shortBranch(), target, short(h.hash)))
}

// fastForward moves the branch to its upstream when that is a pure
// fast-forward, updating the files that differ, like git merge --ff-only.
func (r *Repo) fastForward(h head, upRef plumbing.ReferenceName, opt SyncOptions) (*SyncResult, error) {
	if h.branch == "" {
		return r.result(h, false, "HEAD is detached; check out a branch to pull")
	}
	up, err := r.ref(upRef)
	if err != nil {
		return nil, err
	}
	if upRef == "" || up.IsZero() {
		return r.result(h, false, fmt.Sprintf("the remote has no branch %s to pull from", strings.TrimPrefix(h.branch, "refs/heads/")))
	}
	switch {
	case up == h.hash:
		return r.result(h, true, "already up to date")
	case !h.unborn():
		if behind, err := r.isAncestor(up, h.hash); err != nil {
			return nil, err
		} else if behind {
			return r.result(h, true, "already up to date (the branch is ahead of its upstream; push to publish)")
		}
		if ff, err := r.isAncestor(h.hash, up); err != nil {
			return nil, err
		} else if !ff {
			ahead, behind, _ := r.aheadBehind(h.hash, up)
			return r.result(h, false, fmt.Sprintf("not pulled: %s and %s have diverged (%d local and %d remote commits); nothing was merged. Merge or rebase with git, or undo your local commits", h.shortBranch(), shortRef(upRef), ahead, behind))
		}
	}
	var oldTree plumbing.Hash
	if !h.unborn() {
		c, err := r.readCommit(h.hash)
		if err != nil {
			return nil, err
		}
		oldTree = c.tree
	}
	uc, err := r.readCommit(up)
	if err != nil {
		return nil, err
	}
	n, problems, err := r.checkoutTree(oldTree, uc.tree, fmt.Sprintf("the upstream commit %s (%s)", short(up), shortRef(upRef)), opt.OnTouch)
	if err != nil {
		return nil, err
	}
	if len(problems) > 0 {
		return r.result(h, false, "not pulled: "+strings.Join(problems, ", ")+". Commit or stash them first; nothing was changed")
	}
	who, err := r.identity("committer")
	if err != nil {
		who = Identity{Name: "editord", Email: "editord@localhost", When: time.Now()}
	}
	msg := "pull: Fast-forward"
	if h.unborn() {
		msg = "pull: initial checkout"
	}
	if err := r.moveHead(h, up, who, msg); err != nil {
		return nil, err
	}
	return r.result(head{branch: h.branch, hash: up}, true, fmt.Sprintf("fast-forwarded %s to %s (%s), %d file%s updated", h.shortBranch(), shortRef(upRef), short(up), n, plural(n)))
}

// checkoutTree moves the index and the worktree from tree from to tree to
// for the paths that differ, keeping every other local change, as git's
// two-way merge does. Paths with local changes in the way are returned as
// problems and nothing is changed.
func (r *Repo) checkoutTree(from, to plumbing.Hash, what string, onTouch func(Touched)) (int, []string, error) {
	lk, err := r.lockIndex()
	if err != nil {
		return 0, nil, err
	}
	defer lk.rollback()
	idx := lk.idx
	oldFiles, err := r.treeFiles(from)
	if err != nil {
		return 0, nil, err
	}
	newFiles, err := r.checkoutFiles(to, what)
	if err != nil {
		return 0, nil, err
	}
	fileMode := r.cfg.boolean("core", "", "filemode", true)
	symlinks := r.cfg.boolean("core", "", "symlinks", true)
	var paths []string
	for p, o := range oldFiles {
		if n, ok := newFiles[p]; !ok || n != o {
			paths = append(paths, p)
		}
	}
	for p := range newFiles {
		if _, ok := oldFiles[p]; !ok {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	var problems []string
	for _, p := range paths {
		o, inOld := oldFiles[p]
		n, inNew := newFiles[p]
		cur := idx.entry(p)
		switch {
		case r.denied(p):
			problems = append(problems, p+" matches a deny rule")
		case cur == nil && inOld:
			problems = append(problems, p+" is staged for deletion")
		case cur != nil && !(inOld && cur.Hash == o.hash && normalMode(cur.Mode) == o.mode) && !(inNew && cur.Hash == n.hash && normalMode(cur.Mode) == n.mode):
			problems = append(problems, p+" has staged changes")
		case cur != nil:
			ok, err := r.matchesEntry(cur, idx, fileMode, symlinks)
			if err != nil {
				return 0, nil, err
			}
			if !ok {
				problems = append(problems, p+" has local changes")
			}
		default: // untracked in the way of a new file?
			if w, _ := r.readWorktree(p, true); w.exists && !(w.mode == n.mode && string(w.data) == r.blobString(n.hash)) {
				problems = append(problems, p+" is an untracked file in the way")
			}
		}
		// A new file under a path that is a file now, or the other way.
		if inNew {
			for dir, _ := splitPath(p); dir != ""; dir, _ = splitPath(dir) {
				if w, _ := r.readWorktree(dir, false); w.exists && !w.isDir {
					if _, tracked := oldFiles[dir]; !tracked || idx.entry(dir) == nil {
						problems = append(problems, dir+" is a file where the pull needs a folder")
					}
				}
			}
		}
	}
	if len(problems) > 0 {
		return 0, problems, nil
	}
	var changes []worktreeChange
	for _, p := range paths {
		if _, inNew := newFiles[p]; !inNew {
			changes = append(changes, worktreeChange{Path: p, Remove: true})
		}
	}
	for _, p := range paths {
		if n, inNew := newFiles[p]; inNew {
			changes = append(changes, worktreeChange{Path: p, Entry: n})
		}
	}
	stats, _, err := r.applyWorktree(changes, onTouch)
	if err != nil {
		return 0, nil, err
	}
	for _, c := range changes {
		if c.Remove {
			if pos := idx.pos(c.Path); pos >= 0 {
				idx.Entries = append(idx.Entries[:pos], idx.Entries[pos+1:]...)
			}
			continue
		}
		e := IndexEntry{Mode: c.Entry.mode, Hash: c.Entry.hash, Path: c.Path}
		if st, ok := stats[c.Path]; ok {
			e.setStat(st)
		}
		if pos := idx.pos(c.Path); pos >= 0 {
			idx.Entries[pos] = e
		} else {
			idx.Entries = append(idx.Entries, e)
		}
		removeUnder(idx, c.Path)
	}
	count := len(changes)
	sortEntries(idx.Entries)
	if err := lk.write(idx); err != nil {
		return count, nil, err
	}
	return count, nil, nil
}

func (r *Repo) blobString(h plumbing.Hash) string {
	b, _ := r.readBlob(h)
	return string(b)
}
