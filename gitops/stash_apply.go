package gitops

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/editord/editord/diff"
	"github.com/editord/editord/shell"
	"github.com/go-git/go-git/v5/plumbing"
)

// The rest of the stash: list, show, drop, and apply/pop merging the
// stash into a changed worktree as git stash apply does (a three-way merge
// from the commit the stash was made on, "Updated upstream" against
// "Stashed changes"), keeping the stash when that leaves conflicts.

var stashName = regexp.MustCompile(`^(?:stash@\{(\d+)\}|(\d+))$`)

// stashIndex reads "stash@{n}", "n" or "" (0).
func stashIndex(name string) (int, error) {
	name = strings.TrimSpace(name)
	if name == "" || name == "stash" {
		return 0, nil
	}
	m := stashName.FindStringSubmatch(name)
	if m == nil {
		return 0, shell.Errorf(shell.CodeInvalidArgument, "", "%q does not name a stash; pass stash@{n} (stash@{0} is the newest, see editor::git::stash action list)", name)
	}
	n, _ := strconv.Atoi(m[1] + m[2])
	return n, nil
}

// StashList lists the stashes, newest first (stash@{0}), as git stash list.
func (r *Repo) StashList() ([]StashEntry, error) {
	ents := r.reflog(stashRef.String())
	out := make([]StashEntry, 0, len(ents))
	for i := len(ents) - 1; i >= 0; i-- {
		e := ents[i]
		n := len(ents) - 1 - i
		se := StashEntry{Index: n, Name: fmt.Sprintf("stash@{%d}", n), Message: e.Message, Date: identTime(e.Who), SHA: e.New.String()}
		for _, p := range []string{"WIP on ", "On "} {
			if rest, ok := strings.CutPrefix(e.Message, p); ok {
				if b, _, ok := strings.Cut(rest, ":"); ok {
					se.Branch = b
				}
			}
		}
		out = append(out, se)
	}
	return out, nil
}

// stashAt finds stash n: its commit, parsed, with its parents checked.
func (r *Repo) stashAt(name string) (int, plumbing.Hash, *commitInfo, *StashResult, error) {
	n, err := stashIndex(name)
	if err != nil {
		return 0, plumbing.ZeroHash, nil, nil, err
	}
	ents := r.reflog(stashRef.String())
	if len(ents) == 0 {
		if top, _ := r.ref(stashRef); !top.IsZero() && n == 0 {
			ents = []ReflogEntry{{New: top}}
		} else {
			return n, plumbing.ZeroHash, nil, &StashResult{Summary: "No stash entries found."}, nil
		}
	}
	if n >= len(ents) {
		return n, plumbing.ZeroHash, nil, &StashResult{Summary: fmt.Sprintf("stash@{%d} does not exist: there %s %d stash entr%s (stash@{0} to stash@{%d})",
			n, map[bool]string{true: "is", false: "are"}[len(ents) == 1], len(ents), map[bool]string{true: "y", false: "ies"}[len(ents) == 1], len(ents)-1)}, nil
	}
	h := ents[len(ents)-1-n].New
	c, err := r.readCommit(h)
	if err != nil {
		return n, h, nil, nil, err
	}
	if len(c.parents) < 2 {
		return n, h, nil, nil, shell.Errorf(shell.CodeGitFailed, r.top, "stash@{%d} (%s) is not a stash commit (it has %d parents)", n, short(h), len(c.parents))
	}
	return n, h, c, nil, nil
}

// stashDrop removes stash n: its reflog line goes, and refs/stash moves
// to the newest that is left (or is deleted with its reflog when none is),
// as git stash drop does.
func (r *Repo) stashDrop(opt StashOptions) (*StashResult, error) {
	n, h, c, res, err := r.stashAt(opt.Stash)
	if err != nil || res != nil {
		return res, err
	}
	if err := r.dropStash(n, h); err != nil {
		return nil, err
	}
	return &StashResult{OK: true, Summary: fmt.Sprintf("Dropped stash@{%d} (%s, %s)", n, short(h), strings.TrimSpace(shownSubject(c.message)))}, nil
}

func (r *Repo) dropStash(n int, h plumbing.Hash) error {
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
	at := len(lines) - 1 - n
	if at < 0 || at >= len(lines) {
		return shell.Errorf(shell.CodeGitFailed, r.top, "the stash reflog changed while editord was reading it; list the stashes again")
	}
	lines = append(lines[:at], lines[at+1:]...)
	top, err := r.ref(stashRef)
	if err != nil {
		return err
	}
	if len(lines) == 0 {
		lk.rollback()
		return r.updateRef(stashRef, top, plumbing.ZeroHash, Identity{}, "")
	}
	if err := lk.commit([]byte(strings.Join(lines, "\n") + "\n")); err != nil {
		return err
	}
	newTop := plumbing.NewHash(strings.Fields(lines[len(lines)-1])[1])
	if newTop == top {
		return nil
	}
	return r.updateRef(stashRef, top, newTop, Identity{}, "")
}

// stashShow is git stash show -p: the stash's tracked changes against the
// commit it was made on, as a patch (untracked files are listed in Files).
func (r *Repo) stashShow(opt StashOptions) (*StashResult, error) {
	n, h, c, res, err := r.stashAt(opt.Stash)
	if err != nil || res != nil {
		return res, err
	}
	bc, err := r.readCommit(c.parents[0])
	if err != nil {
		return nil, err
	}
	var patch strings.Builder
	var files []string
	added, removed := 0, 0
	err = r.diffTrees("", bc.tree, c.tree, func(p string, a, b side) error {
		files = append(files, p)
		var before, after []byte
		if a.ok && a.e.mode != modeGitlink {
			if before, err = r.readBlob(a.e.hash); err != nil {
				return err
			}
		}
		if b.ok && b.e.mode != modeGitlink {
			if after, err = r.readBlob(b.e.hash); err != nil {
				return err
			}
		}
		fmt.Fprintf(&patch, "diff --git a/%s b/%s\n", p, p)
		switch {
		case !a.ok:
			fmt.Fprintf(&patch, "new file mode %o\n", b.e.mode)
		case !b.ok:
			fmt.Fprintf(&patch, "deleted file mode %o\n", a.e.mode)
		case a.e.mode != b.e.mode:
			fmt.Fprintf(&patch, "old mode %o\nnew mode %o\n", a.e.mode, b.e.mode)
		}
		if shell.IsBinary(before) || shell.IsBinary(after) {
			fmt.Fprintf(&patch, "Binary files differ\n")
			return nil
		}
		d := diff.Unified(string(before), string(after), diff.Options{Path: p, Context: 3, OldMissing: !a.ok, NewMissing: !b.ok})
		patch.WriteString(d.Patch)
		added += d.Added
		removed += d.Removed
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(c.parents) >= 3 {
		uc, err := r.readCommit(c.parents[2])
		if err != nil {
			return nil, err
		}
		r.flatTree(uc.tree, "", func(p string, _ treeEntry) error {
			files = append(files, p+" (untracked)")
			return nil
		})
	}
	return &StashResult{OK: true, Patch: patch.String(), Files: files,
		Summary: fmt.Sprintf("stash@{%d} (%s, %s): %d file%s, +%d -%d", n, short(h), strings.TrimSpace(shownSubject(c.message)), len(files), plural(len(files)), added, removed)}, nil
}

// stashApply merges stash n into the index and worktree; pop drops it
// afterwards unless the merge left conflicts.
func (r *Repo) stashApply(opt StashOptions, pop bool) (*StashResult, error) {
	n, h, wc, res, err := r.stashAt(opt.Stash)
	if err != nil || res != nil {
		return res, err
	}
	name := fmt.Sprintf("stash@{%d}", n)
	if len(r.mergeInProgress()) > 0 {
		return &StashResult{Summary: "the stash was not applied and is kept (" + name + "): " + mergeInProgressMsg}, nil
	}
	bc, err := r.readCommit(wc.parents[0])
	if err != nil {
		return nil, err
	}
	uFiles := map[string]treeEntry{}
	if len(wc.parents) >= 3 {
		uc, err := r.readCommit(wc.parents[2])
		if err != nil {
			return nil, err
		}
		if uFiles, err = r.checkoutFiles(uc.tree, "the untracked files of "+fmt.Sprintf("stash@{%d}", n)); err != nil {
			return nil, err
		}
	}
	lk, conflicted, err := r.lockResolvedIndex()
	if err != nil {
		return nil, err
	}
	if conflicted != "" {
		return &StashResult{Summary: fmt.Sprintf("the stash was not applied and is kept (%s): %s is in conflict; resolve it (edit it, then editor::git::commit) first", name, conflicted)}, nil
	}
	defer lk.rollback()
	idx := lk.idx
	// Ours is the index as it stands.
	itree := buildIndexTree(idx, true)
	r.holdTrees(itree)
	ms, err := r.mergeTrees(bc.tree, itree.hash, wc.tree, MergeLabels{Ours: "Updated upstream", Base: "Stash base", Theirs: "Stashed changes"})
	if err != nil {
		return nil, err
	}
	problems, err := r.mergeProblems(idx, ms, mergeCheck{})
	if err != nil {
		return nil, err
	}
	upaths := make([]string, 0, len(uFiles))
	for p := range uFiles {
		upaths = append(upaths, p)
	}
	sort.Strings(upaths)
	for _, p := range upaths {
		if w, _ := r.readWorktree(p, false); w.exists || idx.entry(p) != nil {
			problems = append(problems, p+" already exists (the stash holds it as an untracked file)")
		} else if r.denied(p) {
			problems = append(problems, p+" matches a deny rule")
		}
	}
	if len(problems) > 0 {
		sort.Strings(problems)
		return &StashResult{Summary: "The stash was not applied and is kept (" + name + "): " + strings.Join(problems, ", ") +
			". Commit those changes (editor::git::commit), or stash them too (editor::git::stash push) and apply " + name + " again; nothing was changed."}, nil
	}
	orig := map[string]IndexEntry{}
	for _, e := range idx.Entries {
		if e.Stage() == 0 {
			orig[e.Path] = e
		}
	}
	var uops []wtOp
	for _, p := range upaths {
		u := uFiles[p]
		uops = append(uops, wtOp{path: p, hash: u.hash, mode: u.mode})
	}
	conflicts, count, err := r.applyMerge(idx, ms, uops, opt.OnTouch)
	if err != nil {
		return nil, err
	}
	if len(conflicts) == 0 {
		// Like git stash apply without --index: the index goes back to
		// what it was, but files the stash added stay staged.
		for _, m := range ms {
			o, had := orig[m.path]
			if !had {
				continue
			}
			o.MtimeSec, o.MtimeNsec, o.Size = 0, 0, 0 // the file changed: let status look
			if pos := idx.pos(m.path); pos >= 0 {
				idx.Entries[pos] = o
			} else {
				idx.Entries = append(idx.Entries, o)
			}
		}
		sortEntries(idx.Entries)
	}
	if err := lk.write(idx); err != nil {
		return nil, err
	}
	desc := strings.TrimSpace(shownSubject(wc.message))
	if len(conflicts) > 0 {
		return &StashResult{Conflicts: conflicts, Summary: fmt.Sprintf("%s. The stash entry is kept (%s, %s): fix the conflicts in the files (<<<<<<< Updated upstream / >>>>>>> Stashed changes), then drop it with editor::git::stash action drop",
			strings.Join(conflictSummary(ms), "; "), name, desc)}, nil
	}
	if !pop {
		return &StashResult{OK: true, Summary: fmt.Sprintf("Applied %s (%s): %d file%s changed; the stash is kept", name, desc, count, plural(count))}, nil
	}
	if err := r.dropStash(n, h); err != nil {
		return &StashResult{OK: true, Summary: fmt.Sprintf("Applied %s (%s) but could not drop it: %v; drop it with editor::git::stash action drop", name, desc, err)}, nil
	}
	return &StashResult{OK: true, Summary: fmt.Sprintf("Applied and dropped %s (%s): %d file%s changed", name, desc, count, plural(count))}, nil
}
