package gitops

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/editord/editord/shell"
	"github.com/go-git/go-git/v5/plumbing"
)

// Branches as git branch and git switch handle them: list (local and
// remote-tracking, upstream, ahead/behind), create from a revision,
// switch (carrying local changes over exactly when git switch does, and
// refusing when it does), delete (refusing an unmerged branch unless
// forced).

// Branch is one branch.
type Branch struct {
	Name     string // main, origin/main
	Remote   bool
	Current  bool
	SHA      string
	Upstream string // local branches: origin/main, "" when none
	Ahead    int
	Behind   int
	Subject  string
}

// BranchResult is the outcome of create, switch or delete.
type BranchResult struct {
	OK      bool
	Summary string
	SHA     string
}

// Branches lists local branches, then remote-tracking ones, by name.
func (r *Repo) Branches(ctx context.Context) ([]Branch, error) {
	h, err := r.head()
	if err != nil {
		return nil, err
	}
	iter, err := r.st.IterReferences()
	if err != nil {
		return nil, gitErr(r.top, "list branches", err)
	}
	var out []Branch
	err = iter.ForEach(func(ref *plumbing.Reference) error {
		name := ref.Name().String()
		remote := strings.HasPrefix(name, "refs/remotes/")
		if !remote && !strings.HasPrefix(name, "refs/heads/") {
			return nil
		}
		if ref.Type() == plumbing.SymbolicReference {
			return nil // origin/HEAD
		}
		b := Branch{Name: shortRef(ref.Name()), Remote: remote, SHA: ref.Hash().String(), Current: name == h.branch}
		if c, err := r.readCommit(ref.Hash()); err == nil {
			b.Subject = shownSubject(c.message)
		}
		if !remote {
			if short, upRef, ok := r.upstreamOf(name); ok {
				b.Upstream = short
				if up, err := r.ref(upRef); err == nil && !up.IsZero() {
					b.Ahead, b.Behind, _ = r.aheadBehind(ref.Hash(), up)
				}
			}
		}
		out = append(out, b)
		return nil
	})
	if err != nil {
		return nil, gitErr(r.top, "list branches", err)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Remote != out[j].Remote {
			return !out[i].Remote
		}
		return out[i].Name < out[j].Name
	})
	return out, nil
}

// checkBranchName applies git check-ref-format's rules to a branch name.
func checkBranchName(name string) error {
	bad := func(why string) error {
		return shell.Errorf(shell.CodeInvalidArgument, "", "%q is not a valid branch name: %s", name, why)
	}
	switch {
	case name == "" || name == "@" || name == "HEAD":
		return bad("it is empty, @ or HEAD")
	case strings.HasPrefix(name, "-"):
		return bad("it starts with -")
	case strings.HasSuffix(name, "/") || strings.HasSuffix(name, ".") || strings.HasSuffix(name, ".lock"):
		return bad("it ends with /, . or .lock")
	case strings.Contains(name, "..") || strings.Contains(name, "//") || strings.Contains(name, "@{"):
		return bad("it holds .., // or @{")
	case strings.ContainsAny(name, " ~^:?*[\\\x7f"):
		return bad("it holds a space or one of ~ ^ : ? * [ \\")
	}
	for _, c := range name {
		if c < 0x20 {
			return bad("it holds a control character")
		}
	}
	for _, part := range strings.Split(name, "/") {
		if strings.HasPrefix(part, ".") {
			return bad("a part starts with .")
		}
	}
	return nil
}

// CreateBranch makes branch name at rev (HEAD when empty), as git branch.
func (r *Repo) CreateBranch(ctx context.Context, name, rev string) (*BranchResult, error) {
	if err := checkBranchName(name); err != nil {
		return nil, err
	}
	ref := plumbing.ReferenceName("refs/heads/" + name)
	if cur, err := r.ref(ref); err != nil {
		return nil, err
	} else if !cur.IsZero() {
		return &BranchResult{Summary: fmt.Sprintf("a branch named %s already exists (at %s); switch to it with action switch, or pick another name", name, short(cur))}, nil
	}
	if rev == "" {
		rev = "HEAD"
	}
	c, ok, err := r.resolve(rev)
	if err != nil {
		return nil, err
	}
	if !ok {
		return &BranchResult{Summary: "the current branch has no commit yet, so there is nothing to branch from"}, nil
	}
	who := r.whoOrEditord()
	if err := r.updateRef(ref, plumbing.ZeroHash, c, who, "branch: Created from "+rev); err != nil {
		return nil, err
	}
	return &BranchResult{OK: true, SHA: c.String(), Summary: fmt.Sprintf("created branch %s at %s", name, short(c))}, nil
}

func (r *Repo) whoOrEditord() Identity {
	who, err := r.identity("committer")
	if err != nil {
		return Identity{Name: "editord", Email: "editord@localhost", When: time.Now()}
	}
	return who
}

// SwitchBranch checks out branch name, as git switch: files that differ
// between the two commits are updated; local changes to other files come
// along; a local change (staged or not) to a file that differs, or an
// untracked file where the target has one, refuses the switch with nothing
// changed. A name that only exists as a remote-tracking branch
// (origin/name) makes a local branch tracking it, as git switch does.
func (r *Repo) SwitchBranch(ctx context.Context, name string, onTouch func(Touched)) (*BranchResult, error) {
	if len(r.mergeInProgress()) > 0 {
		return &BranchResult{Summary: "not switched: " + mergeInProgressMsg}, nil
	}
	h, err := r.head()
	if err != nil {
		return nil, err
	}
	ref := plumbing.ReferenceName("refs/heads/" + name)
	target, err := r.ref(ref)
	if err != nil {
		return nil, err
	}
	track := ""
	if target.IsZero() {
		// git switch's guess: exactly one remote has a branch of that name.
		var found []plumbing.ReferenceName
		for _, rem := range r.remotes() {
			rr := plumbing.ReferenceName("refs/remotes/" + rem + "/" + name)
			if c, _ := r.ref(rr); !c.IsZero() {
				found = append(found, rr)
			}
		}
		if len(found) != 1 {
			return &BranchResult{Summary: fmt.Sprintf("there is no branch %s (editor::git::branch action list lists them; action create makes one)", name)}, nil
		}
		target, _ = r.ref(found[0])
		track = strings.TrimPrefix(found[0].String(), "refs/remotes/")
	}
	if h.branch == ref.String() {
		return &BranchResult{OK: true, SHA: target.String(), Summary: "Already on " + name}, nil
	}
	fromTree, err := r.headTree(h)
	if err != nil {
		return nil, err
	}
	tc, err := r.readCommit(target)
	if err != nil {
		return nil, err
	}
	n, problems, err := r.checkoutTree(fromTree, tc.tree, onTouch)
	if err != nil {
		return nil, err
	}
	if len(problems) > 0 {
		return &BranchResult{Summary: "not switched: your local changes to these files would be overwritten by the switch: " + strings.Join(problems, ", ") +
			". Commit them (editor::git::commit) or stash them (editor::git::stash push) first; nothing was changed."}, nil
	}
	who := r.whoOrEditord()
	if track != "" {
		if err := r.updateRef(ref, plumbing.ZeroHash, target, who, "branch: Created from "+track); err != nil {
			return nil, err
		}
		remote, branch, _ := strings.Cut(track, "/")
		if err := r.setUpstream(name, remote, "refs/heads/"+branch); err != nil {
			return nil, err
		}
	}
	from := h.shortBranch()
	if from == "" {
		from = h.hash.String()
	}
	if err := r.writeGitFile("HEAD", []byte("ref: "+ref.String()+"\n")); err != nil {
		return nil, err
	}
	r.appendReflog("HEAD", reflogLine(h.hash, target, who, "checkout: moving from "+from+" to "+name))
	summary := fmt.Sprintf("Switched to branch %s (%s), %d file%s updated", name, short(target), n, plural(n))
	if track != "" {
		summary = fmt.Sprintf("Switched to a new branch %s tracking %s (%s), %d file%s updated", name, track, short(target), n, plural(n))
	}
	return &BranchResult{OK: true, SHA: target.String(), Summary: summary}, nil
}

// setUpstream writes branch.<name>.remote and .merge into the repository's
// config, as git switch --track does.
func (r *Repo) setUpstream(name, remote, merge string) error {
	data, _ := readAll(r.gfs, "config")
	text := string(data)
	if !strings.HasSuffix(text, "\n") && text != "" {
		text += "\n"
	}
	text += fmt.Sprintf("[branch %q]\n\tremote = %s\n\tmerge = %s\n", name, remote, merge)
	if err := r.writeGitFile("config", []byte(text)); err != nil {
		return err
	}
	cfg, err := loadConfig([]byte(text))
	if err != nil {
		return err
	}
	r.cfg = cfg
	return nil
}

// DeleteBranch deletes a local branch, as git branch -d: refused for the
// current branch, and for a branch whose commits are not merged into its
// upstream (or HEAD when it has none) unless force (git branch -D).
func (r *Repo) DeleteBranch(ctx context.Context, name string, force bool) (*BranchResult, error) {
	ref := plumbing.ReferenceName("refs/heads/" + name)
	tip, err := r.ref(ref)
	if err != nil {
		return nil, err
	}
	if tip.IsZero() {
		return &BranchResult{Summary: fmt.Sprintf("there is no branch %s (editor::git::branch action list lists them)", name)}, nil
	}
	h, err := r.head()
	if err != nil {
		return nil, err
	}
	if h.branch == ref.String() {
		return &BranchResult{Summary: fmt.Sprintf("cannot delete %s: it is the current branch; switch to another branch first", name)}, nil
	}
	if !force {
		into, intoName := h.hash, "HEAD"
		if short, upRef, ok := r.upstreamOf(ref.String()); ok {
			if up, _ := r.ref(upRef); !up.IsZero() {
				into, intoName = up, short
			}
		}
		merged := false
		if !into.IsZero() {
			if merged, err = r.isAncestor(tip, into); err != nil {
				return nil, err
			}
		}
		if !merged {
			return &BranchResult{Summary: fmt.Sprintf("the branch %s is not fully merged into %s; deleting it would lose its commits. Merge it first (editor::git::merge), or delete it anyway with force: true", name, intoName)}, nil
		}
	}
	// Delete through the storer (packed refs too), then its reflog.
	lk, err := r.lock(ref.String())
	if err != nil {
		return nil, err
	}
	err = r.st.RemoveReference(ref)
	lk.rollback()
	if err != nil {
		return nil, gitErr(r.top, "delete "+name, err)
	}
	r.gfs.Remove("logs/" + ref.String())
	return &BranchResult{OK: true, SHA: tip.String(), Summary: fmt.Sprintf("Deleted branch %s (was %s).", name, short(tip))}, nil
}
