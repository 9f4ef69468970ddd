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
	Action           string   // push, pop, apply, drop, list or show
	IncludeUntracked bool     // push: stash untracked files too (and remove them)
	Message          string   // push: the stash's description
	Paths            []string // push: only changes under these paths (repository-relative; "" is all)
	Stash            string   // pop, apply, drop, show: stash@{n} or n (default stash@{0})
	OnTouch          func(Touched)
}

// StashResult is the outcome: OK false (with the reason) when nothing was
// done.
type StashResult struct {
	OK        bool
	Summary   string
	Conflicts []string     // apply/pop: paths left in conflict
	Entries   []StashEntry // list
	Patch     string       // show
	Files     []string     // show: the paths the stash changes (untracked ones too)
}

// StashEntry is one stash as git stash list shows it.
type StashEntry struct {
	Index   int    // n of stash@{n}
	Name    string // stash@{n}
	Message string // "WIP on main: 1a2b3c4 subject" or "On main: message"
	Branch  string // the branch it was made on ("" when unknown)
	Date    int64  // Unix seconds it was made
	SHA     string
}

const stashRef = plumbing.ReferenceName("refs/stash")

// Stash pushes or pops.
func (r *Repo) Stash(ctx context.Context, opt StashOptions) (*StashResult, error) {
	switch opt.Action {
	case "push":
		return r.stashPush(opt)
	case "pop", "apply":
		return r.stashApply(opt, opt.Action == "pop")
	case "drop":
		return r.stashDrop(opt)
	case "list":
		ents, err := r.StashList()
		if err != nil {
			return nil, err
		}
		return &StashResult{OK: true, Entries: ents, Summary: fmt.Sprintf("%d stash entr%s", len(ents), map[bool]string{true: "y", false: "ies"}[len(ents) == 1])}, nil
	case "show":
		return r.stashShow(opt)
	}
	return nil, shell.Errorf(shell.CodeInvalidArgument, "", "action must be push, pop, apply, drop, list or show, not %q", opt.Action)
}

func (r *Repo) stashPush(opt StashOptions) (*StashResult, error) {
	h, err := r.head()
	if err != nil {
		return nil, err
	}
	if h.unborn() {
		return &StashResult{Summary: "You do not have the initial commit yet; commit once before stashing"}, nil
	}
	lk, conflicted, err := r.lockResolvedIndex()
	if err != nil {
		return nil, err
	}
	if conflicted != "" {
		return &StashResult{Summary: fmt.Sprintf("%s is in conflict (needs merge); resolve it before stashing", conflicted)}, nil
	}
	defer lk.rollback()
	idx := lk.idx
	hc, err := r.readCommit(h.hash)
	if err != nil {
		return nil, err
	}
	wt, err := r.scanWorktree(idx)
	if err != nil {
		return nil, err
	}
	selected := func(p string) bool {
		if len(opt.Paths) == 0 {
			return true
		}
		for _, sel := range opt.Paths {
			if sel == "" || p == sel || strings.HasPrefix(p, sel+"/") {
				return true
			}
		}
		return false
	}
	itree := buildIndexTree(idx, true)
	headFiles, err := r.checkoutFiles(hc.tree, "HEAD ("+short(h.hash)+"), which stash resets the worktree to")
	if err != nil {
		return nil, err
	}
	staged := itree.hash != hc.tree
	if staged && len(opt.Paths) > 0 {
		staged = false
		for i := range idx.Entries {
			e := &idx.Entries[i]
			if he, ok := headFiles[e.Path]; selected(e.Path) && (!ok || he.hash != e.Hash || he.mode != normalMode(e.Mode)) {
				staged = true
			}
		}
		for p := range headFiles {
			if selected(p) && idx.entry(p) == nil {
				staged = true
			}
		}
	}
	var changed []int // stage-0 entries whose worktree side differs
	for i := range idx.Entries {
		if wt.codes[i] != codeUnchanged && !r.denied(idx.Entries[i].Path) && selected(idx.Entries[i].Path) {
			changed = append(changed, i)
		}
	}
	var untracked []string
	for _, p := range wt.untracked {
		if !strings.HasSuffix(p, "/") && !r.denied(p) && selected(p) {
			untracked = append(untracked, p)
		}
	}
	if !staged && len(changed) == 0 && (!opt.IncludeUntracked || len(untracked) == 0) {
		if len(opt.Paths) > 0 {
			return &StashResult{Summary: "No local changes to save under " + strings.Join(opt.Paths, ", ")}, nil
		}
		return &StashResult{Summary: "No local changes to save"}, nil
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
		denied := r.denied(e.Path) || !selected(e.Path) // never stashed, never touched
		if e.Stage() == 0 && (denied || inHead && wt.codes[i] == codeUnchanged && e.Hash == he.hash && normalMode(e.Mode) == he.mode) {
			nidx.Entries = append(nidx.Entries, *e)
			keep[e.Path] = true
		}
	}
	var removals, writes []string
	for i := range idx.Entries {
		p := idx.Entries[i].Path
		if _, inHead := headFiles[p]; !inHead && !r.denied(p) && selected(p) && (i == 0 || idx.Entries[i-1].Path != p) {
			removals = append(removals, p)
		}
	}
	if opt.IncludeUntracked {
		removals = append(removals, untracked...)
	}
	for p := range headFiles {
		if !keep[p] && selected(p) {
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
