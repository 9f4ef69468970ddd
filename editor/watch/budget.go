package watch

// Which folders are watched. inotify is per folder and the kernel's budget
// (fs.inotify.max_user_watches) is shared with every other program, so the
// folders of open buffers and expanded folders are watched first, then the
// rest shallowest first, until the limit; what is left out is reported.

import (
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/editord/editord/shell"
	"github.com/editord/editord/workspace"
)

func depth(rel string) int {
	if rel == "" {
		return 0
	}
	return strings.Count(rel, "/") + 1
}

// shallowFirst lists the folders of set, shallowest first, then by name.
func shallowFirst(set map[string]bool) []string {
	ds := make([]string, 0, len(set))
	for d := range set {
		ds = append(ds, d)
	}
	sort.Slice(ds, func(a, b int) bool {
		if depth(ds[a]) != depth(ds[b]) {
			return depth(ds[a]) < depth(ds[b])
		}
		return ds[a] < ds[b]
	})
	return ds
}

// isDir reports whether rel is a folder now (not a symlink to one).
func (ses *session) isDir(rel string) bool {
	in, err := ses.s.Jail().Lstat(ses.abs(rel))
	return err == nil && in.Kind == shell.KindDir
}

// loadSession reads the buffers and expanded folders of the root and
// computes the priority folders.
func (ses *session) loadSession(rec *workspace.Record) {
	ses.buffers = map[string]bool{}
	ses.opened = map[string]string{}
	ses.prio = map[string]bool{"": true}
	se := rec.Sessions[ses.root]
	if se == nil {
		return
	}
	addDir := func(d string) {
		if strings.HasPrefix(d, "/") || d == "." {
			return
		}
		ses.prio[d] = true
		for _, a := range ancestors(d) {
			ses.prio[a] = true
		}
	}
	for _, b := range se.Buffers {
		if strings.HasPrefix(b.Path, "/") || b.Path == "" {
			continue
		}
		ses.buffers[b.Path] = true
		ses.opened[b.Path] = b.Version
		if d := parent(b.Path); d != "" {
			addDir(d)
		}
	}
	for _, e := range se.Expanded {
		if e != "" {
			addDir(e)
		}
	}
}

// ensurePrio watches every priority folder, making room by dropping the
// most recently added ordinary folder when the limit is reached.
func (ses *session) ensurePrio() {
	for _, p := range shallowFirst(ses.prio) {
		if ses.watched[p] || ses.skip(p) || !ses.isDir(p) {
			continue
		}
		if len(ses.watched) >= ses.limit && !ses.evict() {
			ses.unwatched[p] = true
			continue
		}
		if ses.add(p) && !ses.dirs[p] {
			// A priority folder the walk left out (ignored): learn its files
			// so that their changes are classified right.
			if ents, err := ses.s.Jail().ReadDir(ses.abs(p)); err == nil {
				for _, e := range ents {
					if e.Kind != shell.KindDir {
						ses.known.add(path.Join(p, e.Name))
					}
				}
			}
		}
	}
}

// evict unwatches the most recently added folder that is not a priority,
// to make room for one that is.
func (ses *session) evict() bool {
	for i := len(ses.order) - 1; i >= 0; i-- {
		d := ses.order[i]
		if !ses.watched[d] || ses.prio[d] || d == "" {
			continue
		}
		ses.w.Remove(ses.abs(d))
		delete(ses.watched, d)
		ses.order = slices.Delete(ses.order, i, i+1)
		if ses.dirs[d] {
			ses.unwatched[d] = true
		}
		return true
	}
	return false
}

// add watches one folder; false when it could not be (budget, vanished).
func (ses *session) add(d string) bool {
	if ses.watched[d] {
		return true
	}
	if err := ses.w.Add(ses.abs(d)); err != nil {
		if shell.IsWatchBudget(err) {
			// Other programs spent the kernel's budget: stay below what we
			// have now.
			ses.limit = max(len(ses.watched), 1)
			if ses.dirs[d] {
				ses.unwatched[d] = true
			}
		}
		return false
	}
	ses.noteWatched(d)
	return true
}

func (ses *session) noteWatched(d string) {
	ses.watched[d] = true
	ses.order = append(ses.order, d)
	delete(ses.unwatched, d)
}

// fill watches unwatched folders, shallowest first, while the limit allows.
func (ses *session) fill() {
	if len(ses.unwatched) == 0 || len(ses.watched) >= ses.limit {
		return
	}
	for _, d := range shallowFirst(ses.unwatched) {
		if len(ses.watched) >= ses.limit {
			break
		}
		if !ses.add(d) && len(ses.watched) >= ses.limit {
			break
		}
		if !ses.watched[d] {
			// Vanished, or refused: it is not a folder to cover any more.
			if !ses.isDir(d) {
				delete(ses.unwatched, d)
				delete(ses.dirs, d)
			}
		}
	}
}

func (ses *session) reportCoverage() {
	n := len(ses.unwatched)
	if n == 0 || n == ses.warnedAt {
		ses.warnedAt = n
		return
	}
	if ses.warnedAt == 0 || n > 2*ses.warnedAt || n < ses.warnedAt/2 {
		ses.s.Warn(fmt.Sprintf("watcher: %d of %d folders under %s are not watched (limit %d folders: the inotify budget fs.inotify.max_user_watches minus headroom); "+
			"external changes in them are not reported; the folders of open buffers and expanded folders are always watched", n, len(ses.dirs), ses.root, ses.limit))
		ses.warnedAt = n
	}
}
