package gitops

import (
	"context"
	"errors"
	"fmt"
	"slices"
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
	Mode    string        // pull: ff-only (default) or merge
	Timeout time.Duration // ends a network that hangs
	OnTouch func(Touched) // pull: each working file changed
	// Progress, when set, hears how far the call has got (stage names and
	// the remote's own progress lines).
	Progress func(done, total int, message string)
}

// SyncResult is the outcome. OK is false when the remote could not be
// reached, refused, or a pull would need a merge; Summary says why.
type SyncResult struct {
	OK            bool
	Summary       string
	Ahead, Behind int
	// Stale: the remote was not reached, so Ahead and Behind are as of the
	// last fetch that completed, not the remote's state now.
	Stale     bool
	Conflicts []string // pull merge: paths left in conflict
}

// Pull modes.
const (
	PullFFOnly = "ff-only"
	PullMerge  = "merge"
	PullRebase = "rebase"
)

func (o SyncOptions) progress(done, total int, msg string) {
	if o.Progress != nil {
		o.Progress(done, total, msg)
	}
}

// Sync fetches, pulls (fast-forward only) or pushes the current branch.
func (r *Repo) Sync(ctx context.Context, opt SyncOptions) (*SyncResult, error) {
	if opt.Action != "fetch" && opt.Action != "pull" && opt.Action != "push" {
		return nil, shell.Errorf(shell.CodeInvalidArgument, "", "action must be fetch, pull or push, not %q", opt.Action)
	}
	if opt.Timeout <= 0 {
		opt.Timeout = 15 * time.Second
	}
	switch opt.Mode {
	case "", PullFFOnly, PullMerge:
	case PullRebase:
		return nil, shell.Errorf(shell.CodeInvalidArgument, "", "mode rebase is not supported: pull with mode \"merge\"; a merge that stops on conflicts is finished or undone with editor::git::merge (action continue or abort)")
	default:
		return nil, shell.Errorf(shell.CodeInvalidArgument, "", "mode must be ff-only, merge or rebase, not %q", opt.Mode)
	}
	h, err := r.head()
	if err != nil {
		return nil, err
	}
	remote, upRef, ok := r.syncTarget(h)
	if !ok {
		return r.result(h, false, "no remote is configured for this repository, so there is nothing to "+opt.Action+" (editord reads remotes from the repository's git configuration and never adds one)")
	}
	var res *SyncResult
	switch opt.Action {
	case "fetch":
		res, err = r.fetch(ctx, h, remote, opt)
	case "pull":
		res, err = r.fetch(ctx, h, remote, opt)
		if err == nil && res.OK {
			res, err = r.pullMerge(ctx, h, remote, upRef, opt)
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
		case slices.Contains(remotes, "origin"):
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
		return fmt.Sprintf("%s: the ssh host key of %s does not match the one in known_hosts (%v); nothing was sent. If the server's key really changed, known_hosts must be updated: editord never replaces a key there", action, remote, err)
	case errors.Is(err, errNoSSHKey):
		return fmt.Sprintf("%s with %s: %v; editord signs in with those only", action, remote, err)
	case err != nil && strings.Contains(err.Error(), "unable to find any valid known_hosts file"):
		return fmt.Sprintf("%s: no known_hosts file to check the ssh host key of %s against (~/.ssh/known_hosts, or the files SSH_KNOWN_HOSTS names); editord connects only to hosts whose key is already there", action, remote)
	case err != nil && strings.Contains(err.Error(), "knownhosts: key is unknown"):
		return fmt.Sprintf("%s: the ssh host key of %s is not in known_hosts (%v); editord never accepts an unknown host key, so it connects only once the key is there", action, remote, err)
	case isAuthErr(err):
		return fmt.Sprintf("%s: %s refused the credentials (%v); editord signs in with an ssh key or agent, a credential helper, or a token in the remote URL", action, remote, err)
	case errors.Is(err, transport.ErrRepositoryNotFound):
		return fmt.Sprintf("%s: the repository of remote %s was not found", action, remote)
	}
	return fmt.Sprintf("%s with %s failed: %v", action, remote, err)
}

func (r *Repo) fetch(ctx context.Context, h head, remote string, opt SyncOptions) (*SyncResult, error) {
	repo, err := r.goGit()
	if err != nil {
		return nil, err
	}
	u := r.remoteURL(remote, false)
	opt.progress(0, 3, "fetching from "+remote)
	err = r.network(ctx, u, opt.Timeout, func(ctx context.Context, auth transport.AuthMethod, proxy transport.ProxyOptions) error {
		return repo.FetchContext(ctx, &git.FetchOptions{RemoteName: remote, RemoteURL: u, Auth: auth, ProxyOptions: proxy,
			Progress: &progressLines{opt: opt}})
	})
	opt.progress(1, 3, "fetched from "+remote)
	switch {
	case errors.Is(err, git.NoErrAlreadyUpToDate):
		return r.result(h, true, fmt.Sprintf("fetched %s: already up to date", remote))
	case errors.Is(err, transport.ErrEmptyRemoteRepository):
		return r.result(h, true, fmt.Sprintf("fetched %s: the remote repository is empty", remote))
	case err != nil:
		res, rerr := r.result(h, false, netSummary("fetch", remote, err))
		if res != nil && h.branch != "" {
			// Nothing new was learnt: say that ahead/behind are old news.
			if _, ref, ok := r.upstreamOf(h.branch); ok {
				res.Stale = true
				res.Summary += fmt.Sprintf("; ahead %d and behind %d are as of the last completed fetch (%s at %s), not the remote now", res.Ahead, res.Behind, shortRef(ref), r.lastFetched(ref))
			}
		}
		return res, rerr
	}
	return r.result(h, true, fmt.Sprintf("fetched %s", remote))
}

// lastFetched says what a remote-tracking ref holds and when it was last
// updated, from its reflog.
func (r *Repo) lastFetched(ref plumbing.ReferenceName) string {
	h, _ := r.ref(ref)
	ents := r.reflog(ref.String())
	if len(ents) == 0 {
		return short(h)
	}
	when := time.Unix(identTime(ents[len(ents)-1].Who), 0).UTC().Format(time.RFC3339)
	return short(h) + ", updated " + when
}

// progressLines passes the remote's progress text ("Counting objects:
// 45% (9/20)") on, a line at a time.
type progressLines struct {
	opt SyncOptions
	buf []byte
}

func (p *progressLines) Write(b []byte) (int, error) {
	p.buf = append(p.buf, b...)
	for {
		i := strings.IndexAny(string(p.buf), "\r\n")
		if i < 0 {
			break
		}
		if line := strings.TrimSpace(string(p.buf[:i])); line != "" {
			p.opt.progress(0, 3, line)
		}
		p.buf = p.buf[i+1:]
	}
	return len(b), nil
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
		return r.result(h, false, fmt.Sprintf("push rejected: %s has commits that %s does not (non-fast-forward); pull first (editor::git::sync action pull, with mode \"merge\" if the branches diverged); nothing was pushed", target, h.shortBranch()))
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

// pullMerge brings the fetched upstream into the branch: a fast-forward,
// or with mode merge a merge (see merge.go).
func (r *Repo) pullMerge(ctx context.Context, h head, remote string, upRef plumbing.ReferenceName, opt SyncOptions) (*SyncResult, error) {
	if h.branch == "" {
		return r.result(h, false, "HEAD is detached; switch to a branch (editor::git::branch action switch) to pull")
	}
	up, err := r.ref(upRef)
	if err != nil {
		return nil, err
	}
	if upRef == "" || up.IsZero() {
		return r.result(h, false, fmt.Sprintf("the remote has no branch %s to pull from", h.shortBranch()))
	}
	opt.progress(2, 3, "updating files")
	branch := strings.TrimPrefix(r.cfg.str("branch", h.shortBranch(), "merge"), "refs/heads/")
	if branch == "" {
		branch = h.shortBranch()
	}
	res, err := r.merge(ctx, mergeOptions{
		theirs: up, theirsLabel: up.String(),
		message: fmt.Sprintf("Merge branch '%s' of %s%s", branch, fetchHeadURL(r.cfg.str("remote", remote, "url")), r.mergeInto(h)),
		reflog:  "pull", ffOnly: opt.Mode != PullMerge, onTouch: opt.OnTouch,
	})
	if err != nil {
		return nil, err
	}
	summary := res.Summary
	switch {
	case res.UpToDate:
		summary = "already up to date"
		if ahead, _, _ := r.aheadBehind(h.hash, up); ahead > 0 {
			summary += " (the branch is ahead of its upstream; push to publish)"
		}
	case res.FastForward:
		summary = fmt.Sprintf("fast-forwarded %s to %s (%s): %s", h.shortBranch(), shortRef(upRef), short(up), res.Summary)
	case res.OK:
		summary = fmt.Sprintf("merged %s into %s: %s", shortRef(upRef), h.shortBranch(), res.Summary)
	case len(res.Conflicts) > 0:
		summary = fmt.Sprintf("merging %s into %s stopped with conflicts: %s", shortRef(upRef), h.shortBranch(), res.Summary)
	case opt.Mode != PullMerge && strings.Contains(res.Summary, "diverged"):
		ahead, behind, _ := r.aheadBehind(h.hash, up)
		summary = fmt.Sprintf("not pulled: %s and %s have diverged (%d local and %d remote commits); nothing was merged. Pull with mode \"merge\" to merge them", h.shortBranch(), shortRef(upRef), ahead, behind)
	}
	h2, err := r.head()
	if err != nil {
		return nil, err
	}
	out, err := r.result(h2, res.OK, summary)
	if out != nil {
		out.Conflicts = res.Conflicts
	}
	return out, err
}
