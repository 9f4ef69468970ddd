package gitops

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/editord/editord/shell"
	"github.com/go-git/go-git/v5/plumbing"
)

// Stash in git's own format, so that git and editord read each other's
// stashes. A stash is a commit W whose tree is the worktree's tracked files
// and whose parents are HEAD, a commit I of the index, and (with untracked
// files) a parentless commit U of the untracked files. refs/stash points at
// the newest W and its reflog lists them all: stash@{0} is the last line.

// StashOptions selects what Stash does.
type StashOptions struct {
	Action           string // push or pop
	IncludeUntracked bool   // push: stash untracked files too (and remove them)
	Message          string // push: the stash's description
	OnTouch          func(Touched)
}

// StashResult is the outcome: OK false (with the reason) when nothing was
// done.
type StashResult struct {
	OK      bool
	Summary string
}

const stashRef = plumbing.ReferenceName("refs/stash")

// Stash pushes or pops.
func (r *Repo) Stash(ctx context.Context, opt StashOptions) (*StashResult, error) {
	switch opt.Action {
	case "push":
		return r.stashPush(opt)
	case "pop":
		return r.stashPop(opt)
	}
	return nil, shell.Errorf(shell.CodeInvalidArgument, "", "action must be push or pop, not %q", opt.Action)
}

func (r *Repo) stashPush(opt StashOptions) (*StashResult, error) {
	h, err := r.head()
	if err != nil {
		return nil, err
	}
	if h.unborn() {
		return &StashResult{Summary: "You do not have the initial commit yet; commit once before stashing"}, nil
	}
	lk, err := r.lockIndex()
	if err != nil {
		return nil, err
	}
	defer lk.rollback()
	idx := lk.idx
	if conf := idx.conflicted(); len(conf) > 0 {
		return &StashResult{Summary: fmt.Sprintf("%s is in conflict (needs merge); resolve it before stashing", conf[0])}, nil
	}
	hc, err := r.readCommit(h.hash)
	if err != nil {
		return nil, err
	}
	wt, err := r.scanWorktree(idx)
	if err != nil {
		return nil, err
	}
	itree := buildIndexTree(idx, true)
	staged := itree.hash != hc.tree
	var changed []int // stage-0 entries whose worktree side differs
	for i := range idx.Entries {
		if wt.codes[i] != codeUnchanged && !r.denied(idx.Entries[i].Path) {
			changed = append(changed, i)
		}
	}
	var untracked []string
	for _, p := range wt.untracked {
		if !strings.HasSuffix(p, "/") && !r.denied(p) {
			untracked = append(untracked, p)
		}
	}
	if !staged && len(changed) == 0 && (!opt.IncludeUntracked || len(untracked) == 0) {
		return &StashResult{Summary: "No local changes to save"}, nil
	}
	headFiles, err := r.checkoutFiles(hc.tree, "HEAD ("+short(h.hash)+"), which stash resets the worktree to")
	if err != nil {
		return nil, err
	}
	// An untracked file where HEAD has one would be overwritten when the
	// worktree is reset; refuse rather than lose it.
	if !opt.IncludeUntracked {
		for _, p := range untracked {
			if _, ok := headFiles[p]; ok {
				return &StashResult{Summary: fmt.Sprintf("%s is untracked but HEAD has a file there; resetting would overwrite it. Stash with include_untracked: true, or move it away", p)}, nil
			}
		}
	}
	who, err := r.identity("committer")
	if err != nil {
		return nil, err
	}
	branch := h.shortBranch()
	if branch == "" {
		branch = "(no branch)"
	}
	on := fmt.Sprintf("%s: %s %s", branch, h.hash.String()[:7], subject(hc.message))

	// I: the index.
	if err := r.writeTrees(itree); err != nil {
		return nil, err
	}
	iCommit, err := r.writeCommit(itree.hash, []plumbing.Hash{h.hash}, who, who, "index on "+on+"\n")
	if err != nil {
		return nil, err
	}
	// W: the index with the worktree's tracked changes on top.
	fileMode := r.cfg.boolean("core", "", "filemode", true)
	widx := &Index{Version: idx.Version}
	for i := range idx.Entries {
		if idx.Entries[i].Stage() == 0 {
			widx.Entries = append(widx.Entries, idx.Entries[i])
		}
	}
	for _, i := range changed {
		if err := r.stageFile(widx, idx.Entries[i].Path, fileMode); err != nil {
			return nil, err
		}
	}
	for i := range widx.Entries {
		widx.Entries[i].XFlags &^= xflagIntentToAdd
	}
	wtree := buildIndexTree(widx, true)
	if err := r.writeTrees(wtree); err != nil {
		return nil, err
	}
	parents := []plumbing.Hash{h.hash, iCommit}
	if opt.IncludeUntracked && len(untracked) > 0 {
		uidx := &Index{}
		for _, p := range untracked {
			if err := r.stageFile(uidx, p, true); err != nil {
				return nil, err
			}
		}
		utree := buildIndexTree(uidx, true)
		if err := r.writeTrees(utree); err != nil {
			return nil, err
		}
		uCommit, err := r.writeCommit(utree.hash, nil, who, who, "untracked files on "+on+"\n")
		if err != nil {
			return nil, err
		}
		parents = append(parents, uCommit)
	}
	msg := "WIP on " + on
	if m := strings.TrimSpace(opt.Message); m != "" {
		msg = "On " + branch + ": " + strings.ReplaceAll(m, "\n", " ")
	}
	wCommit, err := r.writeCommit(wtree.hash, parents, who, who, msg+"\n")
	if err != nil {
		return nil, err
	}
	old, err := r.ref(stashRef)
	if err != nil {
		return nil, err
	}
	if err := r.updateRef(stashRef, old, wCommit, who, msg); err != nil {
		return nil, err
	}

	// Reset the index and the worktree to HEAD (and remove the stashed
	// untracked files). The stash is safe in refs/stash already.
	nidx := &Index{Version: idx.Version}
	keep := map[string]bool{}
	for i := range idx.Entries {
		e := &idx.Entries[i]
		he, inHead := headFiles[e.Path]
		denied := r.denied(e.Path) // never stashed, never touched
		if e.Stage() == 0 && (denied || inHead && wt.codes[i] == codeUnchanged && e.Hash == he.hash && normalMode(e.Mode) == he.mode) {
			nidx.Entries = append(nidx.Entries, *e)
			keep[e.Path] = true
		}
	}
	var removals, writes []string
	for i := range idx.Entries {
		p := idx.Entries[i].Path
		if _, inHead := headFiles[p]; !inHead && !r.denied(p) && (i == 0 || idx.Entries[i-1].Path != p) {
			removals = append(removals, p)
		}
	}
	if opt.IncludeUntracked {
		removals = append(removals, untracked...)
	}
	for p := range headFiles {
		if !keep[p] {
			writes = append(writes, p)
		}
	}
	sort.Strings(writes)
	var changes []worktreeChange
	for _, p := range removals {
		changes = append(changes, worktreeChange{Path: p, Remove: true})
	}
	for _, p := range writes {
		if !r.denied(p) {
			changes = append(changes, worktreeChange{Path: p, Entry: headFiles[p]})
		}
	}
	stats, n, err := r.applyWorktree(changes, opt.OnTouch)
	if err != nil {
		return nil, err
	}
	for _, c := range changes {
		if c.Remove {
			continue
		}
		e := IndexEntry{Mode: c.Entry.mode, Hash: c.Entry.hash, Path: c.Path}
		if st, ok := stats[c.Path]; ok {
			e.setStat(st)
		}
		nidx.Entries = append(nidx.Entries, e)
	}
	if err := lk.write(nidx); err != nil {
		return nil, err
	}
	return &StashResult{OK: true, Summary: fmt.Sprintf("Saved working directory and index state %s (%d file%s reset)", msg, n, plural(n))}, nil
}

func (r *Repo) stashPop(opt StashOptions) (*StashResult, error) {
	top, err := r.ref(stashRef)
	if err != nil {
		return nil, err
	}
	if top.IsZero() {
		return &StashResult{Summary: "No stash entries found."}, nil
	}
	wc, err := r.readCommit(top)
	if err != nil {
		return nil, err
	}
	if len(wc.parents) < 2 {
		return nil, shell.Errorf(shell.CodeGitFailed, r.top, "refs/stash (%s) is not a stash commit (it has %d parents); inspect it with git stash list", short(top), len(wc.parents))
	}
	bc, err := r.readCommit(wc.parents[0])
	if err != nil {
		return nil, err
	}
	bFiles, err := r.treeFiles(bc.tree)
	if err != nil {
		return nil, err
	}
	wFiles, err := r.checkoutFiles(wc.tree, "the stash "+short(top))
	if err != nil {
		return nil, err
	}
	uFiles := map[string]treeEntry{}
	if len(wc.parents) >= 3 {
		uc, err := r.readCommit(wc.parents[2])
		if err != nil {
			return nil, err
		}
		if uFiles, err = r.checkoutFiles(uc.tree, "the untracked files of the stash "+short(top)); err != nil {
			return nil, err
		}
	}
	lk, err := r.lockIndex()
	if err != nil {
		return nil, err
	}
	defer lk.rollback()
	idx := lk.idx
	fileMode := r.cfg.boolean("core", "", "filemode", true)
	symlinks := r.cfg.boolean("core", "", "symlinks", true)

	type change struct {
		path       string
		b, w       treeEntry
		inB, inW   bool
		alreadyNew bool // the index already holds W's version
	}
	var changes []change
	paths := map[string]bool{}
	for p := range bFiles {
		paths[p] = true
	}
	for p := range wFiles {
		paths[p] = true
	}
	for p := range paths {
		b, inB := bFiles[p]
		w, inW := wFiles[p]
		if inB == inW && b == w {
			continue
		}
		changes = append(changes, change{path: p, b: b, w: w, inB: inB, inW: inW})
	}
	sort.Slice(changes, func(i, j int) bool { return changes[i].path < changes[j].path })

	var problems []string
	same := func(e *IndexEntry, t treeEntry, in bool) bool {
		if e == nil {
			return !in
		}
		return in && e.Hash == t.hash && normalMode(e.Mode) == t.mode
	}
	for i := range changes {
		c := &changes[i]
		if r.denied(c.path) {
			problems = append(problems, c.path+" (matches a deny rule)")
			continue
		}
		cur := idx.entry(c.path)
		switch {
		case same(cur, c.w, c.inW):
			c.alreadyNew = true
		case !same(cur, c.b, c.inB):
			problems = append(problems, c.path+" (changed since the stash was made; needs a merge)")
			continue
		}
		if cur != nil {
			ok, err := r.matchesEntry(cur, idx, fileMode, symlinks)
			if err != nil {
				return nil, err
			}
			if !ok {
				problems = append(problems, c.path+" (local changes would be overwritten)")
			}
		} else if w, _ := r.readWorktree(c.path, false); w.exists {
			problems = append(problems, c.path+" (an untracked file would be overwritten)")
		}
	}
	upaths := make([]string, 0, len(uFiles))
	for p := range uFiles {
		upaths = append(upaths, p)
		if w, _ := r.readWorktree(p, false); w.exists || idx.entry(p) != nil || r.denied(p) {
			problems = append(problems, p+" (already exists, the stashed untracked file would overwrite it)")
		}
	}
	sort.Strings(upaths)
	if len(problems) > 0 {
		sort.Strings(problems)
		return &StashResult{Summary: "The stash was not applied and is kept (stash@{0}): " + strings.Join(problems, ", ") +
			". Commit, stash or discard those changes first, or use git stash pop to merge."}, nil
	}

	var writes []worktreeChange
	for _, c := range changes {
		if !c.inW {
			writes = append(writes, worktreeChange{Path: c.path, Remove: true})
		} else {
			writes = append(writes, worktreeChange{Path: c.path, Entry: c.w})
		}
	}
	for _, p := range upaths {
		writes = append(writes, worktreeChange{Path: p, Entry: uFiles[p]})
	}
	stats, n, err := r.applyWorktree(writes, opt.OnTouch)
	if err != nil {
		return nil, err
	}
	for _, c := range changes {
		if !c.inW || c.w.mode == modeGitlink {
			continue
		}
		st, ok := stats[c.path]
		if !c.inB && !c.alreadyNew {
			// A file new in the stash comes back staged, as with git.
			e := IndexEntry{Mode: c.w.mode, Hash: c.w.hash, Path: c.path}
			if ok {
				e.setStat(st)
			}
			idx.Entries = append(idx.Entries, e)
		} else if c.alreadyNew && ok {
			if e := idx.entry(c.path); e != nil {
				e.setStat(st)
			}
		}
	}
	sortEntries(idx.Entries)
	if err := lk.write(idx); err != nil {
		return nil, err
	}
	desc := strings.TrimSpace(subject(wc.message))
	if err := r.dropTopStash(top); err != nil {
		return &StashResult{OK: true, Summary: fmt.Sprintf("Applied stash@{0} (%s) but could not drop it: %v; drop it with git stash drop", desc, err)}, nil
	}
	return &StashResult{OK: true, Summary: fmt.Sprintf("Applied and dropped stash@{0} (%s): %d file%s restored", desc, n, plural(n))}, nil
}

// dropTopStash removes stash@{0}: the last line of refs/stash's reflog goes
// and refs/stash moves to the entry before it, or is deleted with its
// reflog when none is left (what git stash drop does).
func (r *Repo) dropTopStash(top plumbing.Hash) error {
	lk, err := r.lock("logs/refs/stash")
	if err != nil {
		return err
	}
	defer lk.rollback()
	data, _ := readAll(r.gfs, "logs/refs/stash")
	var lines []string
	for _, l := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) > 0 {
		lines = lines[:len(lines)-1]
	}
	var prev plumbing.Hash
	if len(lines) > 0 {
		if f := strings.Fields(lines[len(lines)-1]); len(f) >= 2 {
			prev = plumbing.NewHash(f[1])
		}
	}
	if prev.IsZero() {
		lk.rollback()
		return r.updateRef(stashRef, top, plumbing.ZeroHash, Identity{}, "")
	}
	if err := lk.commit([]byte(strings.Join(lines, "\n") + "\n")); err != nil {
		return err
	}
	return r.updateRef(stashRef, top, prev, Identity{}, "")
}
