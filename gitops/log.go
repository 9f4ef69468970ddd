package gitops

import (
	"container/heap"
	"context"
	"strings"

	"github.com/editord/editord/diff"
	"github.com/editord/editord/shell"
	"github.com/go-git/go-git/v5/plumbing"
)

// History as git log --numstat shows it: commits newest first by committer
// date (parents after their children when dates tie the other way, as
// git's default walk), each with its author, date, subject and the lines
// added and removed against its first parent (renames detected as git
// does; merge commits, which git log shows without a diff, count nothing).
// With a path, only commits that change that file, following it through
// renames (git log --follow).

// LogOptions selects a page of history.
type LogOptions struct {
	Rev   string // start (default HEAD)
	Path  string // repository-relative file to follow ("" for all commits)
	Skip  int    // entries to skip (paging)
	Limit int    // entries to return (0: 50)
}

// LogEntry is one commit of the history.
type LogEntry struct {
	SHA     string
	Parents []string
	Author  string
	Email   string
	Date    int64 // author date, Unix seconds
	Subject string
	Added   int
	Removed int
	Files   int    // files changed (against the first parent)
	Path    string // with a path: its name in this commit (renames followed)
}

// logWalk yields commits newest first, as git's default revision walk.
type logWalk struct {
	r    *Repo
	q    commitQueue[logItem]
	seen map[plumbing.Hash]bool
	seq  int
}

type logItem struct {
	hash plumbing.Hash
	c    *commitInfo
	seq  int
}

func (it logItem) order() (int64, int) { return it.c.time, it.seq }

func (w *logWalk) push(h plumbing.Hash) error {
	if w.seen[h] {
		return nil
	}
	w.seen[h] = true
	c, err := w.r.readCommit(h)
	if err != nil {
		return err
	}
	w.seq++
	heap.Push(&w.q, logItem{hash: h, c: c, seq: w.seq})
	return nil
}

func (w *logWalk) next() (logItem, bool, error) {
	if w.q.Len() == 0 {
		return logItem{}, false, nil
	}
	it := heap.Pop(&w.q).(logItem)
	for _, p := range it.c.parents {
		if err := w.push(p); err != nil {
			return logItem{}, false, err
		}
	}
	return it, true, nil
}

// Log returns a page of history and whether more follows.
func (r *Repo) Log(ctx context.Context, opt LogOptions) ([]LogEntry, bool, error) {
	if opt.Limit <= 0 {
		opt.Limit = 50
	}
	start, ok, err := r.resolve(opt.Rev)
	if err != nil {
		return nil, false, err
	}
	if !ok {
		return nil, false, nil // no commit yet
	}
	w := &logWalk{r: r, seen: map[plumbing.Hash]bool{}}
	if err := w.push(start); err != nil {
		return nil, false, err
	}
	path := opt.Path
	var out []LogEntry
	skipped := 0
	for {
		if err := ctx.Err(); err != nil {
			return nil, false, err
		}
		it, ok, err := w.next()
		if err != nil {
			return nil, false, err
		}
		if !ok {
			return out, false, nil
		}
		var parentTree plumbing.Hash
		if len(it.c.parents) > 0 {
			pc, err := r.readCommit(it.c.parents[0])
			if err != nil {
				return nil, false, err
			}
			parentTree = pc.tree
		}
		e := LogEntry{SHA: it.hash.String(), Subject: shownSubject(it.c.message)}
		if path != "" {
			// Only commits that change the file; a rename moves the name.
			if len(it.c.parents) > 1 {
				continue // git log --follow shows merges only with -m
			}
			cur, okCur, err := r.lookupPath(it.c.tree, path)
			if err != nil {
				return nil, false, err
			}
			prev, okPrev, err := r.lookupPath(parentTree, path)
			if err != nil {
				return nil, false, err
			}
			if okCur == okPrev && (!okCur || cur.hash == prev.hash && cur.mode == prev.mode) {
				continue
			}
			if !okCur {
				continue // deleted here: git --follow does not show the deletion's side
			}
			e.Path = path
			from := path
			if !okPrev {
				if src, ok := r.renameSource(parentTree, it.c.tree, path); ok {
					from = src
				}
			}
			path = from
			if skipped < opt.Skip {
				skipped++
				continue
			}
			var before, after []byte
			if pe, ok, _ := r.lookupPath(parentTree, from); ok && !pe.isDir() && pe.mode != modeGitlink {
				before, _ = r.readBlob(pe.hash)
			}
			if cur.mode != modeGitlink {
				after, _ = r.readBlob(cur.hash)
			}
			if !shell.IsBinary(before) && !shell.IsBinary(after) {
				e.Added, e.Removed = lineCounts(before, after)
			}
			e.Files = 1
		} else {
			if skipped < opt.Skip {
				skipped++
				continue
			}
			if len(it.c.parents) <= 1 {
				if err := r.commitCounts(parentTree, it.c.tree, &e); err != nil {
					return nil, false, err
				}
			}
		}
		fillAuthor(&e, it.c)
		for _, p := range it.c.parents {
			e.Parents = append(e.Parents, p.String())
		}
		out = append(out, e)
		if len(out) == opt.Limit {
			_, more, err := r.peekMore(w, path, opt.Path != "")
			return out, more, err
		}
	}
}

// peekMore tells whether the walk has another entry to show.
func (r *Repo) peekMore(w *logWalk, path string, follow bool) (LogEntry, bool, error) {
	if !follow {
		return LogEntry{}, w.q.Len() > 0, nil
	}
	for {
		it, ok, err := w.next()
		if err != nil || !ok {
			return LogEntry{}, false, err
		}
		if len(it.c.parents) > 1 {
			continue
		}
		var parentTree plumbing.Hash
		if len(it.c.parents) > 0 {
			pc, err := r.readCommit(it.c.parents[0])
			if err != nil {
				return LogEntry{}, false, err
			}
			parentTree = pc.tree
		}
		cur, okCur, _ := r.lookupPath(it.c.tree, path)
		prev, okPrev, _ := r.lookupPath(parentTree, path)
		if okCur && (!okPrev || cur.hash != prev.hash || cur.mode != prev.mode) {
			return LogEntry{}, true, nil
		}
	}
}

func fillAuthor(e *LogEntry, c *commitInfo) {
	a := c.author
	if lt := strings.IndexByte(a, '<'); lt >= 0 {
		e.Author = shown(strings.TrimSpace(a[:lt]))
		if gt := strings.IndexByte(a[lt:], '>'); gt >= 0 {
			e.Email = shown(a[lt+1 : lt+gt])
		}
	}
	e.Date = identTime(a)
}

// lineCounts is git's --numstat count for one file: lines added, removed.
func lineCounts(before, after []byte) (added, removed int) {
	return diff.NumStat(before, after)
}

// commitCounts sums a commit's --numstat against its parent's tree, with
// renames paired as git pairs them.
func (r *Repo) commitCounts(parentTree, tree plumbing.Hash, e *LogEntry) error {
	type change struct {
		a, b side
		p    string
	}
	var changes []change
	err := r.diffTrees("", parentTree, tree, func(p string, a, b side) error {
		changes = append(changes, change{a, b, p})
		return nil
	})
	if err != nil {
		return err
	}
	var srcs, dsts []*renameSide
	var srcAt, dstAt []int
	for i, c := range changes {
		switch {
		case c.a.ok && !c.b.ok:
			h := c.a.e.hash
			srcs = append(srcs, &renameSide{path: c.p, mode: c.a.e.mode, hash: h, load: func() ([]byte, error) { return r.readBlob(h) }})
			srcAt = append(srcAt, i)
		case !c.a.ok && c.b.ok:
			h := c.b.e.hash
			dsts = append(dsts, &renameSide{path: c.p, mode: c.b.e.mode, hash: h, load: func() ([]byte, error) { return r.readBlob(h) }})
			dstAt = append(dstAt, i)
		}
	}
	if len(srcs) > 0 && len(dsts) > 0 && r.cfg.boolean("diff", "", "renames", true) {
		limit := r.cfg.integer("diff", "", "renamelimit", defRenameLimit)
		drop := map[int]bool{}
		for _, pr := range detectRenames(srcs, dsts, limit) {
			d := &changes[dstAt[pr.dst]]
			d.a = changes[srcAt[pr.src]].a
			drop[srcAt[pr.src]] = true
		}
		kept := changes[:0]
		for i, c := range changes {
			if !drop[i] {
				kept = append(kept, c)
			}
		}
		changes = kept
	}
	for _, c := range changes {
		e.Files++
		var before, after []byte
		if c.a.ok && c.a.e.mode != modeGitlink {
			if before, err = r.readBlob(c.a.e.hash); err != nil {
				return err
			}
		}
		if c.b.ok && c.b.e.mode != modeGitlink {
			if after, err = r.readBlob(c.b.e.hash); err != nil {
				return err
			}
		}
		if c.a.e.mode == modeGitlink || c.b.e.mode == modeGitlink {
			// A submodule change counts one line each way, as git's numstat.
			if c.a.ok {
				e.Removed++
			}
			if c.b.ok {
				e.Added++
			}
			continue
		}
		if shell.IsBinary(before) || shell.IsBinary(after) {
			continue
		}
		a, d := lineCounts(before, after)
		e.Added += a
		e.Removed += d
	}
	return nil
}

// renameSource finds the file of the parent tree that path, added in
// tree, was renamed from (git --follow's rename detection).
func (r *Repo) renameSource(parentTree, tree plumbing.Hash, path string) (string, bool) {
	var srcs, dsts []*renameSide
	err := r.diffTrees("", parentTree, tree, func(p string, a, b side) error {
		switch {
		case a.ok && !b.ok && a.e.mode != modeGitlink:
			h := a.e.hash
			srcs = append(srcs, &renameSide{path: p, mode: a.e.mode, hash: h, load: func() ([]byte, error) { return r.readBlob(h) }})
		case !a.ok && b.ok && p == path:
			h := b.e.hash
			dsts = append(dsts, &renameSide{path: p, mode: b.e.mode, hash: h, load: func() ([]byte, error) { return r.readBlob(h) }})
		}
		return nil
	})
	if err != nil || len(srcs) == 0 || len(dsts) == 0 {
		return "", false
	}
	for _, pr := range detectRenames(srcs, dsts, defRenameLimit) {
		return srcs[pr.src].path, true
	}
	return "", false
}
