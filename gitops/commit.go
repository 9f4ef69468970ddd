package gitops

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"sort"
	"strings"

	"github.com/editord/editord/shell"
	"github.com/go-git/go-git/v5/plumbing"
)

// CommitOptions selects what a commit records.
type CommitOptions struct {
	Message string
	// StageAll stages every change first, as `git add -A`: modifications,
	// deletions and untracked files that .gitignore does not exclude.
	StageAll bool
	// Paths, when set, commits exactly these files and folders as they are
	// in the worktree (untracked ones included), like `git commit -- paths`:
	// other staged changes stay staged and out of the commit. StageAll is
	// then ignored.
	Paths []string
}

// CommitResult is the outcome of Commit.
type CommitResult struct {
	Committed bool
	SHA       string
	Summary   string
}

// maxStageBytes bounds a file read whole to be stored as a blob.
const maxStageBytes = 256 << 20

// Commit records a commit on the current branch (or detached HEAD).
// Nothing to commit is Committed false with a summary, not an error.
func (r *Repo) Commit(ctx context.Context, opt CommitOptions) (*CommitResult, error) {
	msg := cleanMessage(opt.Message)
	merging := r.mergeInProgress()
	if msg == "" && len(merging) > 0 {
		msg = r.mergeMessage()
	}
	if msg == "" {
		return nil, shell.Errorf(shell.CodeInvalidArgument, "", "the commit message is empty; pass a message that says what the change does")
	}
	if len(merging) > 0 && len(opt.Paths) > 0 {
		return nil, shell.Errorf(shell.CodeInvalidArgument, "", "a merge is in progress, and a merge is committed whole, not by paths (git refuses a partial commit during a merge too); commit without paths, or abandon the merge with editor::git::merge action abort")
	}
	h, err := r.head()
	if err != nil {
		return nil, err
	}
	lk, err := r.lockIndex()
	if err != nil {
		return nil, err
	}
	defer lk.rollback()
	idx := lk.idx
	if conf := idx.conflicted(); len(conf) > 0 {
		if !opt.StageAll || len(opt.Paths) > 0 {
			return nil, shell.Errorf(shell.CodeGitFailed, r.Abs(conf[0]), "%s is in conflict; edit it to resolve the conflict, then commit with stage_all: true", conf[0])
		}
		if err := r.resolveConflicts(idx, conf); err != nil {
			return nil, err
		}
	}
	headTree, err := r.headTree(h)
	if err != nil {
		return nil, err
	}

	// commitIdx is what the commit records; idx what the index holds after.
	var commitIdx *Index
	var leftOut []string // what stage_all could not add, and why
	switch {
	case len(opt.Paths) > 0:
		commitIdx, err = r.stagePaths(idx, headTree, opt.Paths)
	case opt.StageAll:
		leftOut, err = r.stageAll(idx)
		commitIdx = idx
	default:
		commitIdx = idx
	}
	if err != nil {
		return nil, err
	}
	tree := buildIndexTree(commitIdx, true)
	if len(merging) == 0 && (tree.hash == headTree || (h.unborn() && len(tree.ents) == 0)) {
		return &CommitResult{Summary: r.nothingToCommit(ctx, h, opt, leftOut)}, nil
	}
	author, err := r.identity("author")
	if err != nil {
		return nil, err
	}
	committer, err := r.identity("committer")
	if err != nil {
		return nil, err
	}
	if err := r.writeTrees(tree); err != nil {
		return nil, err
	}
	var parents []plumbing.Hash
	if !h.unborn() {
		parents = append(parents, h.hash)
	}
	parents = append(parents, merging...)
	sha, err := r.writeCommit(tree.hash, parents, author, committer, msg)
	if err != nil {
		return nil, err
	}
	stat := r.shortstat(headTree, tree.hash)
	// The index first (still under its lock), then the branch: a crash in
	// between leaves the new content staged, never a commit the index
	// does not match.
	if err := lk.write(idx); err != nil {
		return nil, err
	}
	reflog := "commit: " + subject(msg)
	switch {
	case h.unborn():
		reflog = "commit (initial): " + subject(msg)
	case len(merging) > 0:
		reflog = "commit (merge): " + subject(msg)
	}
	if err := r.moveHead(h, sha, committer, reflog); err != nil {
		return nil, err
	}
	if len(merging) > 0 {
		r.clearMergeState()
	}
	where := h.shortBranch()
	if where == "" {
		where = "detached HEAD"
	}
	if h.unborn() {
		where += " (root-commit)"
	}
	summary := fmt.Sprintf("[%s %s] %s\n%s", where, sha.String()[:7], subject(msg), stat)
	if len(leftOut) > 0 {
		summary += "\n not added: " + listLeftOut(leftOut)
	}
	return &CommitResult{Committed: true, SHA: sha.String(), Summary: summary}, nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// writeCommit stores a commit object.
func (r *Repo) writeCommit(tree plumbing.Hash, parents []plumbing.Hash, author, committer Identity, msg string) (plumbing.Hash, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "tree %s\n", tree)
	for _, p := range parents {
		fmt.Fprintf(&b, "parent %s\n", p)
	}
	fmt.Fprintf(&b, "author %s\ncommitter %s\n\n%s", author, committer, msg)
	return r.writeObject(plumbing.CommitObject, []byte(b.String()))
}

// cleanMessage is git's "whitespace" cleanup of a -m message: trailing
// spaces and leading/trailing blank lines go, runs of blank lines become
// one, and the message ends with a newline.
func cleanMessage(m string) string {
	lines := strings.Split(strings.ReplaceAll(m, "\r\n", "\n"), "\n")
	var out []string
	blank := false
	for _, l := range lines {
		l = strings.TrimRight(l, " \t\r\v\f")
		if l == "" {
			blank = len(out) > 0
			continue
		}
		if blank {
			out = append(out, "")
			blank = false
		}
		out = append(out, l)
	}
	if len(out) == 0 {
		return ""
	}
	return strings.Join(out, "\n") + "\n"
}

// nothingToCommit words git's message for an empty commit. leftOut is
// what stage_all could not add: when that is all there is, the summary
// says so and why, rather than advising the stage_all already given.
func (r *Repo) nothingToCommit(ctx context.Context, h head, opt CommitOptions, leftOut []string) string {
	if len(leftOut) > 0 {
		return "nothing to commit: stage_all added every change but " + listLeftOut(leftOut)
	}
	st, err := r.Status(ctx)
	if err != nil || st.Clean() {
		return "nothing to commit, working tree clean"
	}
	untracked := 0
	for _, e := range st.Entries {
		if e.X == codeUntracked {
			untracked++
		}
	}
	switch {
	case len(opt.Paths) > 0:
		return "nothing to commit: the paths given have no changes"
	case opt.StageAll:
		return "nothing to commit: stage_all found no change it could add"
	case untracked == len(st.Entries):
		return "nothing added to commit but untracked files present (commit with stage_all: true to add them)"
	}
	return "no changes added to commit (commit with stage_all: true, or pass paths, to include unstaged changes)"
}

// listLeftOut joins the first few reasons of leftOut.
func listLeftOut(leftOut []string) string {
	const most = 5
	s := strings.Join(leftOut[:min(len(leftOut), most)], "; ")
	if len(leftOut) > most {
		s += fmt.Sprintf("; and %d more", len(leftOut)-most)
	}
	return s
}

// notAddable says why stage_all leaves an untracked path alone, or "".
func notAddable(p string) string {
	if strings.HasSuffix(p, "/") {
		return p + ", a repository of its own (editord does not add a nested repository as a submodule)"
	}
	if err := VerifyPath(p, modeRegular); err != nil {
		why := err.Error()
		var ue *UnsafePathError
		if errors.As(err, &ue) {
			why = ue.Why
		}
		return p + ", which git refuses to add too: " + why
	}
	return ""
}

// stageFile brings the index entry of path in line with the worktree: it
// is added or updated (its blob written) or, when the file is gone,
// removed. Deny-glob matches are never staged.
func (r *Repo) stageFile(idx *Index, path string, fileMode bool) error {
	if r.denied(path) {
		return nil
	}
	// The cache-tree read with the index no longer describes it.
	idx.rootTree = plumbing.ZeroHash
	fi, err := r.wfs.Lstat(path)
	pos := idx.pos(path)
	if err == nil && fi.IsDir() && pos >= 0 && idx.Entries[pos].Mode == modeGitlink {
		// A submodule: git add records the commit checked out in it.
		if h, ok := r.submoduleHead(path); ok {
			idx.Entries[pos].Hash = h
		}
		return nil
	}
	if err != nil || fi.IsDir() {
		if pos >= 0 {
			idx.Entries = append(idx.Entries[:pos], idx.Entries[pos+1:]...)
		}
		return nil
	}
	st := shell.StatOf(fi)
	var data []byte
	var mode uint32
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		t, err := r.wfs.Readlink(path)
		if err != nil {
			return shell.AsError(err, r.Abs(path))
		}
		data, mode = []byte(t), modeSymlink
	case fi.Mode().IsRegular():
		if fi.Size() > maxStageBytes {
			return shell.Errorf(shell.CodeTooLarge, r.Abs(path), "%s is %d bytes, over the %d bytes editord stages; nothing was committed. To commit the other changes, pass paths that leave it out", path, fi.Size(), maxStageBytes)
		}
		f, err := r.wfs.Open(path)
		if err != nil {
			return shell.AsError(err, r.Abs(path))
		}
		data, err = io.ReadAll(f)
		f.Close()
		if err != nil {
			return shell.AsError(err, r.Abs(path))
		}
		mode = modeRegular
		if fi.Mode()&0o100 != 0 {
			mode = modeExecutable
		}
		if !fileMode && pos >= 0 && isRegular(normalMode(idx.Entries[pos].Mode)) {
			mode = normalMode(idx.Entries[pos].Mode)
		}
	default:
		return nil // sockets, pipes: git does not track them either
	}
	h, err := r.writeObject(plumbing.BlobObject, data)
	if err != nil {
		return err
	}
	e := IndexEntry{Mode: mode, Hash: h, Path: path}
	e.setStat(st)
	if pos >= 0 {
		idx.Entries[pos] = e
	} else {
		idx.Entries = append(idx.Entries, e)
		sortEntries(idx.Entries)
	}
	// A folder that held tracked files and is now this file's parent path,
	// or files under a path that is now a file, would make a broken tree
	// (duplicate entries): the new entry replaces both, as git's does.
	removeUnder(idx, path)
	removeAncestors(idx, path)
	return nil
}

// removeAncestors drops file entries at any folder above path (a file
// replaced by a folder holding path).
func removeAncestors(idx *Index, path string) {
	anc := ancestors(path)
	if len(anc) == 0 {
		return
	}
	kept := idx.Entries[:0]
	for _, e := range idx.Entries {
		if !anc[e.Path] {
			kept = append(kept, e)
		}
	}
	idx.Entries = kept
}

// ancestors is the set of folders above path ("a/b/c" → a, a/b).
func ancestors(path string) map[string]bool {
	var out map[string]bool
	for i := 0; i < len(path); i++ {
		if path[i] == '/' {
			if out == nil {
				out = map[string]bool{}
			}
			out[path[:i]] = true
		}
	}
	return out
}

// removeUnder drops entries under path/ (a folder replaced by a file).
func removeUnder(idx *Index, path string) {
	p := path + "/"
	kept := idx.Entries[:0]
	for _, e := range idx.Entries {
		if !strings.HasPrefix(e.Path, p) {
			kept = append(kept, e)
		}
	}
	idx.Entries = kept
}

// stageAll is `git add -A` over the whole repository, except for the
// untracked paths it cannot add (a nested repository; a path git refuses,
// such as .GIT/config): those are returned, each with the reason.
func (r *Repo) stageAll(idx *Index) ([]string, error) {
	wt, err := r.scanWorktree(idx)
	if err != nil {
		return nil, err
	}
	r.submoduleCodes(context.Background(), idx, wt)
	fileMode := r.cfg.boolean("core", "", "filemode", true)
	var paths, leftOut []string
	for i := range idx.Entries {
		e := &idx.Entries[i]
		if e.Stage() == 0 && wt.codes[i] != codeUnchanged && !e.skipWorktree() {
			paths = append(paths, e.Path)
		}
	}
	for _, p := range wt.untracked {
		if why := notAddable(p); why != "" {
			leftOut = append(leftOut, why)
			continue
		}
		paths = append(paths, p)
	}
	for _, p := range paths {
		if err := r.stageFile(idx, p, fileMode); err != nil {
			return nil, err
		}
	}
	for i := range idx.Entries {
		idx.Entries[i].XFlags &^= xflagIntentToAdd
	}
	sortEntries(idx.Entries)
	return leftOut, nil
}

// stagePaths stages the named paths in idx and returns the index to commit:
// HEAD's state with only those paths taken from the worktree.
func (r *Repo) stagePaths(idx *Index, headTree plumbing.Hash, paths []string) (*Index, error) {
	wt, err := r.scanWorktree(idx)
	if err != nil {
		return nil, err
	}
	headFiles, err := r.treeFiles(headTree)
	if err != nil {
		return nil, err
	}
	under := func(p, sel string) bool { return sel == "" || p == sel || strings.HasPrefix(p, sel+"/") }
	selected := func(p string) bool {
		for _, s := range paths {
			if under(p, s) {
				return true
			}
		}
		return false
	}
	// Every path the selection covers: tracked, in HEAD, or untracked.
	set := map[string]bool{}
	for _, sel := range paths {
		matched := false
		for i := range idx.Entries {
			if under(idx.Entries[i].Path, sel) {
				set[idx.Entries[i].Path], matched = true, true
			}
		}
		for p := range headFiles {
			if under(p, sel) {
				set[p], matched = true, true
			}
		}
		for _, p := range wt.untracked {
			if !strings.HasSuffix(p, "/") && under(p, sel) {
				set[p], matched = true, true
			}
		}
		if !matched {
			return nil, shell.Errorf(shell.CodeNotFound, r.Abs(sel), "%s matches no file git tracks or could add (it may be missing or ignored by .gitignore)", sel)
		}
	}
	list := make([]string, 0, len(set))
	for p := range set {
		list = append(list, p)
	}
	sort.Strings(list)
	fileMode := r.cfg.boolean("core", "", "filemode", true)
	for _, p := range list {
		if err := r.stageFile(idx, p, fileMode); err != nil {
			return nil, err
		}
	}
	// The commit: HEAD, plus the selected paths as the index now has them.
	// A HEAD file standing where a selected path needs a folder is replaced
	// by that folder, as git does; keeping both would duplicate the name.
	commit := &Index{Version: idx.Version}
	folders := map[string]bool{}
	for _, e := range idx.Entries {
		if e.Stage() == 0 && selected(e.Path) {
			e.XFlags &^= xflagIntentToAdd
			commit.Entries = append(commit.Entries, e)
			for a := range ancestors(e.Path) {
				folders[a] = true
			}
		}
	}
	for p, e := range headFiles {
		if !selected(p) && !folders[p] {
			commit.Entries = append(commit.Entries, IndexEntry{Mode: e.mode, Hash: e.hash, Path: p})
		}
	}
	sortEntries(commit.Entries)
	return commit, nil
}

// shortstat is git's --shortstat line for a commit against its first
// parent (none for a root commit), counted as git log --numstat counts
// (log.go: renames paired, binary files changed with no lines) and worded
// as git words it: a zero count is left out unless both are zero.
func (r *Repo) shortstat(parentTree, tree plumbing.Hash) string {
	var e LogEntry
	if err := r.commitCounts(parentTree, tree, &e); err != nil {
		return " (the files changed could not be counted: " + err.Error() + ")"
	}
	return formatShortstat(e.Files, e.Added, e.Removed)
}

// formatShortstat words counts as git's print_stat_summary does.
func formatShortstat(files, added, removed int) string {
	if files == 0 {
		return " 0 files changed"
	}
	s := fmt.Sprintf(" %d file%s changed", files, plural(files))
	if added > 0 || removed == 0 {
		s += fmt.Sprintf(", %d insertion%s(+)", added, plural(added))
	}
	if removed > 0 || added == 0 {
		s += fmt.Sprintf(", %d deletion%s(-)", removed, plural(removed))
	}
	return s
}

// resolveConflicts stages the worktree version of each conflicted path,
// as git add does after a conflict is fixed, refusing a file that still
// holds conflict markers.
func (r *Repo) resolveConflicts(idx *Index, paths []string) error {
	for _, p := range paths {
		w, err := r.readWorktree(p, true)
		if err != nil {
			return err
		}
		if w.exists && !w.isDir && hasConflictMarkers(w.data) {
			return shell.Errorf(shell.CodeGitFailed, r.Abs(p), "%s still holds conflict markers (<<<<<<< ... >>>>>>>); edit it to keep the lines you want, then commit again", p)
		}
		kept := idx.Entries[:0]
		for _, e := range idx.Entries {
			if e.Path != p || e.Stage() == 0 {
				kept = append(kept, e)
			}
		}
		idx.Entries = kept
		if err := r.stageFile(idx, p, r.cfg.boolean("core", "", "filemode", true)); err != nil {
			return err
		}
	}
	return nil
}
