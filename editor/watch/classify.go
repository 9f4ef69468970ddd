package watch

// Classifying a batch: each path is compared as it was before the batch
// and as it is now, and becomes a created, modified, deleted or moved
// candidate; a move is paired by the kernel's two halves of a rename.

import (
	"sort"
	"time"

	"github.com/editord/editord/shell"
)

type candidate struct {
	rel     string
	kind    string
	from    string
	isDir   bool
	data    []byte // the content now, when read whole
	version string // of data; "" when unknown (too large, unreadable)
	// seen is how many of our journal events had been read before the
	// content was (ownTracker.seen): the mark to forget with once it is
	// reported as external.
	seen uint64
	// from0 and until bound when its raw events came (run.go).
	from0, until time.Time
}

type pathState struct {
	exists bool
	isDir  bool
}

// flush classifies the batch and turns it into candidates.
func (ses *session) flush() {
	batch := ses.pend
	ses.pend = map[string]*pending{}
	ses.firstPend, ses.lastPend = time.Time{}, time.Time{}
	// Our events journaled so far are older than anything read below.
	ses.syncOwn()
	seen := ses.own.seen()

	now := map[string]pathState{}
	stat := func(rel string) pathState {
		if st, ok := now[rel]; ok {
			return st
		}
		var st pathState
		if in, err := ses.s.Jail().Lstat(ses.abs(rel)); err == nil {
			st = pathState{exists: true, isDir: in.Kind == shell.KindDir}
		}
		now[rel] = st
		return st
	}
	existed := func(rel string) bool {
		if ses.known.has(rel) || ses.dirs[rel] || ses.watched[rel] {
			return true
		}
		if p := batch[rel]; p != nil {
			if _, ghost := ses.ghosts[rel]; ghost {
				return false
			}
			return !p.first.Has(shell.WatchCreate)
		}
		return false
	}
	for g, at := range ses.ghosts {
		if time.Since(at) > 5*time.Second {
			delete(ses.ghosts, g)
		}
	}

	rels := make([]string, 0, len(batch))
	for r := range batch {
		rels = append(rels, r)
	}
	sort.Strings(rels)

	var cands []*candidate
	movedSrc := map[string]bool{} // sources of moves reported by their destination
	covered := map[string]bool{}  // folders moved or deleted whole: their contents need no events

	// Destinations of renames first: a move is reported once, by its
	// destination, when the source was there before and is gone now.
	for _, r := range rels {
		p := batch[r]
		if p.from == "" || p.from == r {
			continue
		}
		dst, src := stat(r), stat(p.from)
		if !dst.exists || src.exists || !existed(p.from) {
			continue
		}
		if dst.isDir != (ses.dirs[p.from] || ses.watched[p.from]) {
			continue // a file cannot become a folder by a rename, nor an unknown folder a known one
		}
		movedSrc[p.from] = true
		if dst.isDir {
			covered[p.from] = true
			covered[r] = true
			ses.moveTree(p.from, r)
			cands = append(cands, &candidate{rel: r, kind: "moved", from: p.from, isDir: true})
			continue
		}
		c := &candidate{rel: r, kind: "moved", from: p.from}
		ses.known.remove(p.from)
		ses.known.add(r)
		ses.read(c)
		cands = append(cands, c)
	}

	isCovered := func(r string) bool {
		for _, a := range ancestors(r) {
			if covered[a] {
				return true
			}
		}
		return false
	}

	for _, r := range rels {
		p := batch[r]
		if movedSrc[r] || isCovered(r) {
			continue
		}
		if p.from != "" && movedSrc[p.from] && !covered[r] {
			continue // reported as a move above
		}
		if covered[r] {
			continue
		}
		st := stat(r)
		wasDir := ses.dirs[r] || ses.watched[r]
		wasFile := ses.known.has(r)
		before := existed(r)
		switch {
		case st.exists && st.isDir:
			if wasFile {
				ses.known.remove(r)
				cands = append(cands, &candidate{rel: r, kind: "deleted"})
			}
			if wasDir && !p.ops.Has(shell.WatchRemove|shell.WatchRename|shell.WatchCreate) {
				continue // attributes of a folder
			}
			// A new folder (or one replaced): watch it and report the files
			// already in it, which were created before its watch existed.
			if wasDir {
				ses.dropTree(r, false)
			}
			cands = append(cands, ses.addTree(r)...)
		case st.exists:
			if wasDir {
				ses.dropTree(r, true)
			}
			ses.known.add(r)
			delete(ses.ghosts, r)
			kind := "created"
			if before {
				kind = "modified"
				if p.ops&^shell.WatchChmod == 0 {
					continue // touch or chmod: the content did not change
				}
			}
			c := &candidate{rel: r, kind: kind}
			ses.read(c)
			cands = append(cands, c)
		default:
			switch {
			case wasDir:
				covered[r] = true
				ses.dropTree(r, true)
				cands = append(cands, &candidate{rel: r, kind: "deleted", isDir: true})
			case before:
				ses.known.remove(r)
				cands = append(cands, &candidate{rel: r, kind: "deleted"})
			default:
				// Neither: a temp file that came and went inside the batch.
				ses.ghosts[r] = time.Now()
			}
		}
	}

	// Drop what a whole-folder event covers, and changes that change
	// nothing we can see.
	var out []*candidate
	for _, c := range cands {
		if isCovered(c.rel) {
			continue
		}
		if c.kind == "modified" && c.version != "" && ses.recent[c.rel] == c.version {
			continue
		}
		c.seen = seen
		c.from0, c.until = eventTimes(batch, c.rel)
		out = append(out, c)
	}
	ses.fill()
	ses.reportCoverage()
	ses.status()
	ses.decide(out)
}

// read fills c's content and version from disk.
func (ses *session) read(c *candidate) {
	res, err := ses.s.Jail().ReadFile(ses.abs(c.rel), ses.s.MaxFileBytes())
	if err != nil || res.Truncated {
		return
	}
	c.data = res.Data
	c.version = ses.s.Version(res.Data)
}
