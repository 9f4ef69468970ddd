package watch

// Walking the root: the first walk that finds the folders and files, and
// following the tree as folders appear, go away or move, or as a rescan
// after lost events finds what changed.

import (
	"fmt"
	"path"
	"slices"
	"time"

	"github.com/editord/editord/shell"
	"github.com/editord/editord/workspace"
)

// start walks the root and adds the watches: priority folders first, then
// the rest shallowest first, until the limit.
func (ses *session) start() error {
	if in, err := ses.s.Jail().Stat(ses.root); err != nil {
		return err
	} else if in.Kind != shell.KindDir {
		return fmt.Errorf("%s is not a folder", ses.root)
	}
	rec := ses.s.Store().Load()
	ses.recTok = ses.s.Store().RecordChanged()
	ses.loadSession(rec)
	var all []string
	ses.dirs[""] = true
	err := ses.walk("", func(rel string, dir bool) {
		if dir {
			ses.dirs[rel] = true
			all = append(all, rel)
		} else {
			ses.known.add(rel)
		}
	})
	if err != nil {
		return err
	}
	if err := ses.w.Add(ses.root); err != nil {
		return err
	}
	ses.noteWatched("")
	ses.ensurePrio()
	for _, d := range all {
		if !ses.watched[d] {
			ses.unwatched[d] = true
		}
	}
	ses.fill()
	if len(ses.unwatched) > 0 {
		// A tree too large to watch whole: files whose folder is not
		// watched raise no event, so they need not be remembered.
		ses.known.keepDirs(func(d string) bool { return ses.watched[d] })
	}
	ses.reportCoverage()
	ses.loadCache()
	ses.status()
	return nil
}

// addTree watches a folder that appeared and everything beneath it that
// is not ignored, and returns created candidates for the files found.
func (ses *session) addTree(r string) []*candidate {
	if ses.skip(r) || ses.s.Jail().Noise(path.Base(r)) || ses.s.Jail().Denied(ses.abs(r), true) || ses.s.Jail().GitIgnored(ses.root, ses.abs(r), true) {
		return nil
	}
	var out []*candidate
	// Watch first, then list: a file created after the listing raises an
	// event; one created before is found by the listing.
	ses.coverDir(r, len(ses.watched) < ses.limit || ses.prio[r])
	ses.walk(r, func(rel string, dir bool) {
		if dir {
			ses.coverDir(rel, len(ses.watched) < ses.limit)
			return
		}
		if ses.known.has(rel) {
			return
		}
		ses.known.add(rel)
		c := &candidate{rel: rel, kind: "created"}
		ses.read(c)
		out = append(out, c)
	})
	return out
}

// dropTree forgets a folder that went away (or became a file): its
// watches, and the files known beneath it. The folder's own watch reports
// its move or removal too (IN_MOVE_SELF), after the parent's event and
// possibly in a later batch; the name is kept as a ghost so that this
// echo does not read as the delete of something that existed.
func (ses *session) dropTree(r string, self bool) {
	if self {
		ses.ghosts[r] = time.Now()
	}
	for d := range ses.watched {
		if workspace.Within(d, r) && (self || d != r) {
			ses.w.Remove(ses.abs(d))
			delete(ses.watched, d)
		}
	}
	ses.order = slices.DeleteFunc(ses.order, func(d string) bool { return !ses.watched[d] })
	for d := range ses.dirs {
		if workspace.Within(d, r) && (self || d != r) {
			delete(ses.dirs, d)
			delete(ses.unwatched, d)
		}
	}
	ses.known.dropUnder(r)
}

// moveTree follows a folder renamed inside the root: what was known under
// from is now under to. The kernel keeps the watches, but under the old
// names, so they are replaced.
func (ses *session) moveTree(from, to string) {
	ses.known.move(from, to)
	wasWatched := map[string]bool{}
	for d := range ses.watched {
		if workspace.Within(d, from) {
			wasWatched[d] = true
		}
	}
	ses.dropTree(from, true)
	ses.coverDir(to, true)
	ses.walk(to, func(rel string, dir bool) {
		if dir {
			old, _ := workspace.Remap(rel, to, from)
			ses.coverDir(rel, wasWatched[old] || len(ses.watched) < ses.limit)
			return
		}
		ses.known.add(rel)
	})
}

// walk calls fn for everything beneath the folder base that a walk with
// .gitignore and noise folders leaves in, except what the watcher skips;
// paths are root-relative.
//
// The walk gives way to calls in progress at each folder, for at most
// walkGiveWay in all: a walk of a large tree is seconds of CPU that a
// first search or status made meanwhile would otherwise share.
func (ses *session) walk(base string, fn func(rel string, dir bool)) error {
	budget := walkGiveWay
	// The watcher's walks sweep what killed writers left (a server that
	// starts sweeps the tree once).
	return ses.s.Jail().Walk(ses.abs(base), shell.WalkOptions{Gitignore: true, Noise: true, SweepTemps: true}, func(e shell.WalkEntry) error {
		if e.Kind == shell.KindDir {
			ses.s.GiveWay(ses.ctx, &budget)
		}
		rel := e.Rel
		if base != "" {
			rel = base + "/" + e.Rel
		}
		if ses.skip(rel) {
			return shell.SkipDir
		}
		fn(rel, e.Kind == shell.KindDir)
		return nil
	})
}

// walkGiveWay bounds how much later a walk of the tree ends for giving way
// to calls.
const walkGiveWay = 5 * time.Second

// coverDir notes rel as a folder of the root, watched when watch is set and
// the budget allows, unwatched (and so uncovered) otherwise.
func (ses *session) coverDir(rel string, watch bool) {
	ses.dirs[rel] = true
	if watch {
		ses.add(rel)
	}
	if !ses.watched[rel] {
		ses.unwatched[rel] = true
	}
}

// rescan recovers from lost events: the tree is walked again and compared
// with what was known; open buffers are compared by content.
func (ses *session) rescan() {
	files := map[string]bool{}
	dirs := map[string]bool{}
	ses.walk("", func(rel string, dir bool) {
		if dir {
			dirs[rel] = true
		} else {
			files[rel] = true
		}
	})
	mark := func(r string, op shell.WatchOp) {
		if p := ses.pend[r]; p != nil {
			p.ops |= op
			return
		}
		ses.pend[r] = &pending{first: op, ops: op}
	}
	ses.known.each(func(f string) {
		if !files[f] {
			if _, err := ses.s.Jail().Lstat(ses.abs(f)); err != nil {
				mark(f, shell.WatchRemove)
			}
		}
	})
	for f := range files {
		if !ses.known.has(f) {
			mark(f, shell.WatchCreate)
		}
	}
	for d := range dirs {
		if !ses.dirs[d] {
			mark(d, shell.WatchCreate)
		}
	}
	for d := range ses.dirs {
		if d != "" && !dirs[d] {
			if _, err := ses.s.Jail().Lstat(ses.abs(d)); err != nil {
				mark(d, shell.WatchRemove)
			}
		}
	}
	for b := range ses.buffers {
		if files[b] {
			mark(b, shell.WatchWrite)
		}
	}
}
