package turns

import (
	"fmt"
	"sort"
)

// rewrite replaces the log with the records of the turns kept in memory
// (the last cfg.Kept), under a new generation. Called from locked.
func (b *Book) rewrite() {
	out := appendRec(nil, &rec{Op: "head", Gen: b.gen + 1})
	out = appendRec(out, &rec{Op: "pack", Pack: b.pack})
	for _, t := range b.turns {
		out = appendRec(out, &rec{Op: "begin", Turn: t.id, N: t.n, By: t.by, Title: t.title, Explicit: t.explicit,
			Side: t.side, Reverts: t.reverts, Time: t.start})
		for i := range t.writes {
			w := &t.writes[i]
			out = appendRec(out, &rec{Op: "write", Turn: t.id, Seq: w.seq, Root: w.root, Path: w.path, From: w.from, Kind: w.kind,
				Cause: w.cause, By: w.by, Ext: w.ext, Prev: w.prev, After: w.after, PA: w.prevAt.slice(), AA: w.afterAt.slice(),
				Mode: w.mode, Dir: w.dir, Added: w.added, Removed: w.removed, Time: w.time})
		}
		if t.ended != 0 {
			out = appendRec(out, &rec{Op: "end", Turn: t.id, Time: t.ended})
		}
		out = appendReviews(out, t)
	}
	info, err := b.jail.ReplaceFile(b.logPath(), out, true)
	if err != nil {
		b.warn(fmt.Sprintf("turns: could not rewrite %s down to the last %d turns: %v", b.logPath(), b.cfg.Kept, err))
		return
	}
	b.gen++
	b.ino, b.off, b.inFile = info.Ino, int64(len(out)), len(b.turns)
}

// appendReviews writes t's keep and undo marks, in a stable order.
func appendReviews(out []byte, t *turn) []byte {
	keys := make([]fileKey, 0, len(t.reviews))
	for k := range t.reviews {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].root != keys[j].root {
			return keys[i].root < keys[j].root
		}
		return keys[i].path < keys[j].path
	})
	for _, k := range keys {
		rv := t.reviews[k]
		base := rec{Turn: t.id, Root: k.root, Path: k.path, Of: rv.of}
		if rv.keptAll {
			r := base
			r.Op = "keep"
			out = appendRec(out, &r)
		}
		if rv.undoneAll != "" {
			r := base
			r.Op, r.In = "undo", rv.undoneAll
			out = appendRec(out, &r)
		}
		if len(rv.kept) > 0 {
			r := base
			r.Op, r.Hunks = "keep", sortedKeys(rv.kept)
			out = appendRec(out, &r)
		}
		byIn := map[string][]int{}
		for h, in := range rv.undone {
			byIn[in] = append(byIn[in], h)
		}
		ins := make([]string, 0, len(byIn))
		for in := range byIn {
			ins = append(ins, in)
		}
		sort.Strings(ins)
		for _, in := range ins {
			hs := byIn[in]
			sort.Ints(hs)
			r := base
			r.Op, r.In, r.Hunks = "undo", in, hs
			out = appendRec(out, &r)
		}
	}
	return out
}

func sortedKeys(m map[int]bool) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Ints(out)
	return out
}
