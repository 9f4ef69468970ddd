package gitops

import (
	"context"
	"fmt"
	"strings"

	"github.com/editord/editord/shell"
	"github.com/go-git/go-git/v5/plumbing"
)

// Merging a commit into the current branch, as git merge does: a
// fast-forward when the branch has nothing of its own, else a merge commit
// with two parents when every path merges cleanly, else the merge is left
// in progress exactly as git leaves it (MERGE_HEAD, MERGE_MSG, ORIG_HEAD,
// conflict markers in the files, stages 1-3 in the index), so that git
// merge --continue / --abort, git commit, editor::git::commit and
// editor::git::merge all finish it.

// MergeResult is the outcome of a merge.
type MergeResult struct {
	OK          bool     // merged (or nothing to merge); false when refused or conflicted
	Summary     string   // what happened, or why not, and the next step
	Conflicts   []string // repository paths left in conflict
	Commit      string   // the merge commit or the new tip after a fast-forward
	FastForward bool
	UpToDate    bool
}

// mergeOptions describes one merge.
type mergeOptions struct {
	theirs      plumbing.Hash
	theirsLabel string // conflict marker label and name in messages
	message     string // the merge commit's message
	reflog      string // reflog prefix: "pull", "merge topic"
	ffOnly      bool
	onTouch     func(Touched)
}

// mergeInProgress reports MERGE_HEAD's commits.
func (r *Repo) mergeInProgress() []plumbing.Hash {
	data, err := readAll(r.gfs, "MERGE_HEAD")
	if err != nil {
		return nil
	}
	var out []plumbing.Hash
	for _, l := range strings.Fields(string(data)) {
		if len(l) == 40 && isHex(l) {
			out = append(out, plumbing.NewHash(l))
		}
	}
	return out
}

// writeGitFile replaces a file of the git folder with git's lock protocol.
func (r *Repo) writeGitFile(name string, data []byte) error {
	lk, err := r.lock(name)
	if err != nil {
		return err
	}
	return lk.commit(data)
}

const mergeInProgressMsg = "a merge is in progress (MERGE_HEAD exists); resolve the conflicts and finish it with editor::git::commit (or editor::git::merge with action continue), or abandon it with editor::git::merge with action abort"

// merge merges opt.theirs into HEAD.
func (r *Repo) merge(ctx context.Context, opt mergeOptions) (*MergeResult, error) {
	if len(r.mergeInProgress()) > 0 {
		return &MergeResult{Summary: "not merged: " + mergeInProgressMsg}, nil
	}
	h, err := r.head()
	if err != nil {
		return nil, err
	}
	if h.unborn() || opt.theirs == h.hash {
		if opt.theirs == h.hash {
			return &MergeResult{OK: true, UpToDate: true, Summary: "Already up to date."}, nil
		}
	} else {
		if in, err := r.isAncestor(opt.theirs, h.hash); err != nil {
			return nil, err
		} else if in {
			return &MergeResult{OK: true, UpToDate: true, Summary: "Already up to date."}, nil
		}
	}
	ff := h.unborn()
	if !ff {
		if ff, err = r.isAncestor(h.hash, opt.theirs); err != nil {
			return nil, err
		}
	}
	// A fast-forward records the committer only in the reflog: without
	// one it still goes ahead; a merge commit needs one.
	var who Identity
	if ff {
		who = r.whoOrEditord()
	} else if who, err = r.identity("committer"); err != nil {
		return nil, err
	}
	if ff {
		oldTree, err := r.headTree(h)
		if err != nil {
			return nil, err
		}
		tc, err := r.readCommit(opt.theirs)
		if err != nil {
			return nil, err
		}
		n, problems, err := r.checkoutTree(oldTree, tc.tree, opt.onTouch)
		if err != nil {
			return nil, err
		}
		if len(problems) > 0 {
			return &MergeResult{Summary: "not merged: " + strings.Join(problems, ", ") + "; commit them (editor::git::commit) or stash them (editor::git::stash push) first. Nothing was changed."}, nil
		}
		if err := r.moveHead(h, opt.theirs, who, opt.reflog+": Fast-forward"); err != nil {
			return nil, err
		}
		r.writeGitFile("ORIG_HEAD", []byte(h.hash.String()+"\n"))
		return &MergeResult{OK: true, FastForward: true, Commit: opt.theirs.String(),
			Summary: fmt.Sprintf("Fast-forward %s..%s, %d file%s updated", short(h.hash), short(opt.theirs), n, plural(n))}, nil
	}
	if opt.ffOnly {
		ahead, behind, _ := r.aheadBehind(h.hash, opt.theirs)
		return &MergeResult{Summary: fmt.Sprintf("not merged: %s and %s have diverged (%d and %d commits of their own) and only a fast-forward was allowed; merge them with mode \"merge\"", branchName(h), opt.theirsLabel, ahead, behind)}, nil
	}
	base, ok, err := r.mergeBase(h.hash, opt.theirs)
	if err != nil {
		return nil, err
	}
	if !ok {
		return &MergeResult{Summary: fmt.Sprintf("not merged: %s and %s share no history (git refuses to merge unrelated histories too)", branchName(h), opt.theirsLabel)}, nil
	}
	bc, err := r.readCommit(base)
	if err != nil {
		return nil, err
	}
	oc, err := r.readCommit(h.hash)
	if err != nil {
		return nil, err
	}
	tc, err := r.readCommit(opt.theirs)
	if err != nil {
		return nil, err
	}
	lk, conflicted, err := r.lockResolvedIndex()
	if err != nil {
		return nil, err
	}
	if conflicted != "" {
		return &MergeResult{Summary: "not merged: " + conflicted + " is in conflict; resolve it first"}, nil
	}
	defer lk.rollback()
	idx := lk.idx
	if t := buildIndexTree(idx, false); t.hash != oc.tree {
		return &MergeResult{Summary: "not merged: the index has staged changes, and git merges only from a clean index; commit them (editor::git::commit) or stash them (editor::git::stash push) first. Nothing was changed."}, nil
	}
	ms, err := r.mergeTrees(bc.tree, oc.tree, tc.tree, MergeLabels{Ours: "HEAD", Base: short(base), Theirs: opt.theirsLabel})
	if err != nil {
		return nil, err
	}
	problems, err := r.mergeProblems(idx, ms, mergeCheck{oursTree: oc.tree})
	if err != nil {
		return nil, err
	}
	if len(problems) > 0 {
		return &MergeResult{Summary: "not merged: your local changes would be overwritten by the merge: " + strings.Join(problems, ", ") + "; commit them (editor::git::commit) or stash them (editor::git::stash push) first. Nothing was changed."}, nil
	}
	conflicts, n, err := r.applyMerge(idx, ms, nil, opt.onTouch)
	if err != nil {
		return nil, err
	}
	if err := lk.write(idx); err != nil {
		return nil, err
	}
	r.writeGitFile("ORIG_HEAD", []byte(h.hash.String()+"\n"))
	if len(conflicts) > 0 {
		msg := cleanMessage(opt.message) + "\n# Conflicts:\n"
		for _, c := range conflicts {
			msg += "#\t" + c + "\n"
		}
		if err := r.writeGitFile("MERGE_MSG", []byte(msg)); err != nil {
			return nil, err
		}
		r.writeGitFile("MERGE_MODE", nil)
		if err := r.writeGitFile("MERGE_HEAD", []byte(opt.theirs.String()+"\n")); err != nil {
			return nil, err
		}
		return &MergeResult{Conflicts: conflicts,
			Summary: strings.Join(conflictSummary(ms), "; ") + ". Automatic merge failed: fix the conflicts (the files hold <<<<<<< ======= >>>>>>> markers; editor::git::show with rev \":2\"/\":3\" gives each side), then commit with editor::git::commit, or abandon the merge with editor::git::merge action abort"}, nil
	}
	tree := buildIndexTree(idx, true)
	if err := r.writeTrees(tree); err != nil {
		return nil, err
	}
	author, err := r.identity("author")
	if err != nil {
		return nil, err
	}
	sha, err := r.writeCommit(tree.hash, []plumbing.Hash{h.hash, opt.theirs}, author, who, cleanMessage(opt.message))
	if err != nil {
		return nil, err
	}
	if err := r.moveHead(h, sha, who, opt.reflog+": Merge made by the 'ort' strategy."); err != nil {
		return nil, err
	}
	return &MergeResult{OK: true, Commit: sha.String(),
		Summary: fmt.Sprintf("Merge made by the 'ort' strategy: %s (%s), %d file%s updated", short(sha), subject(opt.message), n, plural(n))}, nil
}

func branchName(h head) string {
	if h.branch == "" {
		return "HEAD"
	}
	return h.shortBranch()
}

// MergeAbort is git merge --abort: the index and the files the merge
// touched go back to HEAD (other local changes stay), and the merge state
// is removed.
func (r *Repo) MergeAbort(ctx context.Context, onTouch func(Touched)) (*MergeResult, error) {
	if len(r.mergeInProgress()) == 0 {
		return &MergeResult{Summary: "there is no merge to abort (MERGE_HEAD missing)"}, nil
	}
	h, err := r.head()
	if err != nil {
		return nil, err
	}
	hc, err := r.readCommit(h.hash)
	if err != nil {
		return nil, err
	}
	lk, err := r.lockIndex()
	if err != nil {
		return nil, err
	}
	defer lk.rollback()
	idx := lk.idx
	// Paths where the index differs from HEAD: conflicts and what the
	// merge staged.
	headFiles := map[string]bool{}
	var ms []pathMerge
	seen := map[string]bool{}
	err = r.flatTree(hc.tree, "", func(p string, e treeEntry) error {
		headFiles[p] = true
		cur := idx.entry(p)
		if cur == nil || cur.Hash != e.hash || normalMode(cur.Mode) != e.mode || hasStages(idx, p) {
			ms = append(ms, pathMerge{path: p, entry: e, exists: true})
			seen[p] = true
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, e := range idx.Entries {
		if !headFiles[e.Path] && !seen[e.Path] {
			ms = append(ms, pathMerge{path: e.Path})
			seen[e.Path] = true
		}
	}
	_, n, err := r.applyMerge(idx, ms, nil, onTouch)
	if err != nil {
		return nil, err
	}
	if err := lk.write(idx); err != nil {
		return nil, err
	}
	r.clearMergeState()
	return &MergeResult{OK: true, Summary: fmt.Sprintf("merge aborted: %d file%s restored to HEAD (%s)", n, plural(n), short(h.hash))}, nil
}

func hasStages(idx *Index, p string) bool {
	for st := 1; st <= 3; st++ {
		if idx.stageEntry(p, st) != nil {
			return true
		}
	}
	return false
}

func (r *Repo) clearMergeState() {
	for _, f := range []string{"MERGE_HEAD", "MERGE_MSG", "MERGE_MODE", "AUTO_MERGE"} {
		r.gfs.Remove(f)
	}
}

// mergeMessage is the message git commit would start from: MERGE_MSG
// without its comment lines.
func (r *Repo) mergeMessage() string {
	data, _ := readAll(r.gfs, "MERGE_MSG")
	var keep []string
	for _, l := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(l, "#") {
			keep = append(keep, l)
		}
	}
	return cleanMessage(strings.Join(keep, "\n"))
}

// hasConflictMarkers reports a file that still holds a whole set of
// conflict markers at line starts.
func hasConflictMarkers(data []byte) bool {
	s := "\n" + string(data)
	return (strings.Contains(s, "\n<<<<<<< ") || strings.Contains(s, "\n<<<<<<<\n")) &&
		strings.Contains(s, "\n=======") && strings.Contains(s, "\n>>>>>>>")
}

// MergeRef merges a revision (a branch, a tag, a SHA) into the current
// branch, as git merge <rev>.
func (r *Repo) MergeRef(ctx context.Context, rev, message string, onTouch func(Touched)) (*MergeResult, error) {
	c, ok, err := r.resolve(rev)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, shell.Errorf(shell.CodeInvalidArgument, "", "%s names no commit", rev)
	}
	h, err := r.head()
	if err != nil {
		return nil, err
	}
	msg := message
	if strings.TrimSpace(msg) == "" {
		ref, _ := r.dwimRef(rev)
		kind := "commit"
		switch {
		case strings.HasPrefix(string(ref), "refs/heads/"):
			kind = "branch"
		case strings.HasPrefix(string(ref), "refs/tags/"):
			kind = "tag"
		case strings.HasPrefix(string(ref), "refs/remotes/"):
			kind = "remote-tracking branch"
		}
		msg = fmt.Sprintf("Merge %s '%s'%s", kind, rev, r.mergeInto(h))
	}
	return r.merge(ctx, mergeOptions{theirs: c, theirsLabel: rev, message: msg, reflog: "merge " + rev, onTouch: onTouch})
}

// MergeContinue commits a merge in progress once its conflicts are fixed
// (git merge --continue): every change is staged, as editor::git::commit
// with stage_all does.
func (r *Repo) MergeContinue(ctx context.Context, message string) (*CommitResult, error) {
	if len(r.mergeInProgress()) == 0 {
		return &CommitResult{Summary: "there is no merge to continue (MERGE_HEAD missing)"}, nil
	}
	return r.Commit(ctx, CommitOptions{Message: message, StageAll: true})
}
