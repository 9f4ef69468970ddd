package turns

import (
	"sort"

	"github.com/editord/editord/workspace"
)

// A turn's changes, file by file. A file of a turn (an entry) is followed
// through the turn's own moves; its changes become stretches (segs): runs
// of the turn's changes each made on top of the one before (a save's
// "before" is the last save's "after"). Another writer's change between
// two of them starts a new stretch, so that undoing the turn never undoes
// what the other writer did in between.

// entry is one file (or folder) of a turn.
type entry struct {
	root, path string // as the turn left it
	first      string // where it was when the turn first changed it
	steps      []*write
	ext        bool
	added      int
	removed    int
}

// seg is one stretch of an entry.
type seg struct {
	kind     string // created, modified, deleted, moved; "" for a create undone within the turn
	prev     string // version before ("" for absent, or unknown when known is false)
	after    string // version after
	prevAt   loc    // where their contents are kept
	afterAt  loc
	from, to string // a move's paths
	mode     uint32 // a deleted file's mode
	lastSeq  int64  // the seq of its last change
	firstSeq int64
}

// move is a move of any turn, for following files through other
// writers' moves made during a turn.
type move struct {
	seq            int64
	turn           string
	root, from, to string
}

// entries groups t's changes by file, in the order the turn first
// changed each. A file another writer moved while the turn went on stays
// one entry (moves holds every move kept, by seq).
func entries(t *turn, moves []move) []*entry {
	var out []*entry
	at := map[fileKey]*entry{}
	// rekey moves the entries at or beneath from to beneath to and returns
	// the one now at to exactly.
	rekey := func(root, from, to string) *entry {
		var moved *entry
		for k, e := range at {
			if e.root != root || !workspace.Within(e.path, from) {
				continue
			}
			np, _ := workspace.Remap(e.path, from, to)
			delete(at, k)
			e.path = np
			if np == to {
				moved = e
			}
		}
		for _, e := range out {
			if e.root == root && workspace.Within(e.path, to) {
				at[fileKey{e.root, e.path}] = e
			}
		}
		return moved
	}
	mi := 0
	if len(t.writes) > 0 {
		first := t.writes[0].seq
		mi = sort.Search(len(moves), func(i int) bool { return moves[i].seq > first })
	}
	for i := range t.writes {
		w := &t.writes[i]
		for ; mi < len(moves) && moves[mi].seq < w.seq; mi++ {
			if m := moves[mi]; m.turn != t.id {
				rekey(m.root, m.from, m.to)
			}
		}
		if w.kind == "moved" && w.from != "" {
			moved := rekey(w.root, w.from, w.path)
			if moved == nil {
				moved = &entry{root: w.root, path: w.path, first: w.from}
				out = append(out, moved)
				at[fileKey{w.root, w.path}] = moved
			}
			moved.steps = append(moved.steps, w)
			moved.ext = moved.ext || w.ext
			continue
		}
		k := fileKey{w.root, w.path}
		e := at[k]
		if e == nil {
			e = &entry{root: w.root, path: w.path, first: w.path}
			out = append(out, e)
			at[k] = e
		}
		e.steps = append(e.steps, w)
		e.ext = e.ext || w.ext
		e.added += w.added
		e.removed += w.removed
	}
	return out
}

// segs joins an entry's changes into stretches.
func (e *entry) segs() []seg {
	var out []seg
	for _, w := range e.steps {
		if w.kind == "moved" {
			out = append(out, seg{kind: "moved", from: w.from, to: w.path, prev: w.after, after: w.after, firstSeq: w.seq, lastSeq: w.seq})
			continue
		}
		prevAt := w.prevAt
		prev := w.prev
		if w.kind == "created" {
			prev = ""
		}
		if n := len(out); n > 0 && out[n-1].kind != "moved" && chained(out[n-1], w) {
			s := &out[n-1]
			s.kind = compose(s.kind, w.kind)
			s.after, s.afterAt, s.lastSeq = w.after, w.afterAt, w.seq
			if w.kind == "deleted" {
				s.after, s.mode = "", w.mode
			}
			continue
		}
		s := seg{kind: w.kind, prev: prev, after: w.after, prevAt: prevAt, afterAt: w.afterAt, mode: w.mode, firstSeq: w.seq, lastSeq: w.seq}
		if w.kind == "deleted" {
			s.after = ""
		}
		out = append(out, s)
	}
	return out
}

// chained reports whether w was made on top of what s left.
func chained(s seg, w *write) bool {
	switch {
	case s.kind == "deleted" || s.kind == "":
		return w.kind == "created"
	case w.kind == "created":
		return false
	}
	return s.after != "" && s.after == w.prev
}

// compose is the kind of a stretch of kind a followed by a change of kind b.
func compose(a, b string) string {
	switch {
	case (a == "created" || a == "") && b == "deleted":
		return "" // made and removed again: nothing in all
	case a == "created" || a == "":
		return "created"
	case a == "deleted" && b == "created":
		return "modified"
	case b == "deleted":
		return "deleted"
	}
	return "modified"
}

// kindOf is what the turn did to the entry in all.
func (e *entry) kindOf(segs []seg) string {
	before, after := true, true
	moved := e.first != e.path
	content := false
	for i, s := range segs {
		if s.kind == "moved" {
			continue
		}
		content = true
		if i == firstContent(segs) && (s.kind == "created" || s.kind == "") {
			before = false
		}
		after = s.kind != "deleted" && s.kind != ""
	}
	switch {
	case !before && after:
		return "created"
	case before && !after:
		return "deleted"
	case !before && !after:
		return ""
	case moved:
		return "moved"
	case content:
		return "modified"
	}
	return "moved"
}

func firstContent(segs []seg) int {
	for i, s := range segs {
		if s.kind != "moved" {
			return i
		}
	}
	return -1
}

// paths are the entries' paths, the first n.
func paths(es []*entry, n int) []string {
	out := make([]string, 0, min(len(es), n))
	for _, e := range es {
		if len(out) == n {
			break
		}
		out = append(out, e.path)
	}
	return out
}
