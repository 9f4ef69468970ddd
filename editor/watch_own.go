package editor

// Our own writes: the journal events of this service's functions, read so
// that the filesystem echo of a write we made (and journaled with its real
// patch) is not reported a second time as external. When the journal is
// conclusive is the business of the writes lock (writing.go).

import (
	"time"

	"github.com/editord/editord/workspace"
)

type ownEvent struct {
	at      time.Time // when the tracker read it
	n       uint64    // the tracker's own order of reading
	root    string
	path    string
	from    string
	kind    string
	version string
}

// ownTracker keeps the recent journal events not made by the watcher, so
// that the filesystem echo of our own writes can be recognized. It reads
// the journal when asked (sync), on the watcher's goroutine: every tick,
// so that no event is compacted away unread; at the start of a batch; and
// once the writes lock says that every write of ours the batch could have
// seen is journaled (writing.go).
type ownTracker struct {
	follow *workspace.Follower   // reads only what the journal gained
	n      uint64                // events taken so far (ownEvent.n)
	byKey  map[string][]ownEvent // by path, and by from for moves
	// forgotten: for a path reported external, how many events had been
	// read when the content reported was read (candidate.seen). Our events
	// read by then are older than that content, so they cannot be the
	// echo of a later change to the path.
	forgotten map[string]uint64
	// onOwn, when set, is told of each of our events as it is read (the
	// session keeps the content of open buffers in step, watch_cache.go).
	onOwn func(workspace.Event)
}

func newOwnTracker(store *workspace.Store) *ownTracker {
	// From the journal's current end: only new events.
	return &ownTracker{follow: store.NewFollower(), byKey: map[string][]ownEvent{}, forgotten: map[string]uint64{}}
}

// sync reads what the journal gained since the last sync (only the bytes
// appended since; an unchanged journal costs a stat). lost is true when
// events were dropped from the journal (changes_kept) before they could be
// read.
func (t *ownTracker) sync() (lost bool) {
	// The follower returns each event once: those after its cursor, or all
	// of a journal that restarted (deleted) below it.
	evs, lost, err := t.follow.Poll()
	if err != nil {
		return false
	}
	t.add(evs, time.Now())
	return lost
}

func (t *ownTracker) add(evs []workspace.Event, now time.Time) {
	for _, ev := range evs {
		if ev.Cause == "external" {
			continue
		}
		t.n++
		o := ownEvent{at: now, n: t.n, root: ev.Root, path: ev.Path, kind: ev.Kind}
		if ev.From != nil {
			o.from = *ev.From
		}
		if ev.Version != nil {
			o.version = *ev.Version
		}
		t.byKey[o.path] = append(t.byKey[o.path], o)
		if o.from != "" && o.from != o.path {
			t.byKey[o.from] = append(t.byKey[o.from], o)
		}
		if t.onOwn != nil {
			t.onOwn(ev)
		}
	}
}

// seen is how many of our events have been read: a mark to pass to forget.
func (t *ownTracker) seen() uint64 { return t.n }

// prune drops events read more than ownKeep ago. The session calls it only
// when it has nothing batched or waiting, so no event is dropped while the
// echo it explains may still be undecided (behind a long write of ours
// that holds the writes lock, say).
func (t *ownTracker) prune(now time.Time) {
	oldest := t.n + 1
	for k, list := range t.byKey {
		i := 0
		for i < len(list) && now.Sub(list[i].at) > ownKeep {
			i++
		}
		switch {
		case i == len(list):
			delete(t.byKey, k)
			continue
		case i > 0:
			t.byKey[k] = list[i:]
		}
		oldest = min(oldest, list[i].n)
	}
	for p, mark := range t.forgotten {
		if mark < oldest {
			delete(t.forgotten, p) // no event it excludes is left
		}
	}
}

// forget marks p as reported external with content read when mark events
// of ours had been read: those must not hide a later external change to p.
func (t *ownTracker) forget(p string, mark uint64) {
	t.forgotten[p] = max(t.forgotten[p], mark)
}

// match reports whether the change c is the filesystem echo of a write
// this service journaled.
func (t *ownTracker) match(root string, c *candidate) bool {
	since := t.forgotten[c.rel]
	find := func(key string, ok func(e ownEvent) bool) bool {
		for _, e := range t.byKey[key] {
			if e.root == root && e.n > since && ok(e) {
				return true
			}
		}
		return false
	}
	// A folder move or delete of ours covers everything beneath it.
	for _, a := range ancestors(c.rel) {
		if c.kind == "deleted" || c.kind == "moved" {
			if find(a, func(e ownEvent) bool {
				return (e.kind == "deleted" && e.path == a) || (e.kind == "moved" && e.from == a)
			}) {
				return true
			}
		}
		if c.kind == "created" || c.kind == "moved" {
			if find(a, func(e ownEvent) bool { return e.kind == "moved" && e.path == a && a != c.rel }) {
				return true
			}
		}
	}
	switch c.kind {
	case "modified", "created":
		return find(c.rel, func(e ownEvent) bool {
			if e.path != c.rel || (e.kind != "modified" && e.kind != "created" && e.kind != "moved") {
				return false
			}
			return c.version == "" || e.version == "" || e.version == c.version
		})
	case "deleted":
		return find(c.rel, func(e ownEvent) bool {
			return (e.kind == "deleted" && e.path == c.rel) || (e.kind == "moved" && e.from == c.rel)
		})
	case "moved":
		return find(c.rel, func(e ownEvent) bool {
			return e.kind == "moved" && e.path == c.rel && e.from == c.from
		})
	}
	return false
}

// ancestors lists the folders above rel, nearest last ("a", "a/b" for
// "a/b/c"); the root itself is not listed.
func ancestors(rel string) []string {
	var out []string
	for i := 0; i < len(rel); i++ {
		if rel[i] == '/' {
			out = append(out, rel[:i])
		}
	}
	return out
}
