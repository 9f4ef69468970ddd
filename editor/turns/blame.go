package turns

import (
	"bytes"

	"github.com/editord/editord/diff"
)

// Who changed a hunk after the turn: the hunk's lines are followed through
// every later change of the file (each kept change's own diff moves them
// or touches them), and the writers whose changes touch them are named. A
// change nobody recorded (another program, while no watcher ran) shows as
// a gap between one change's "after" and the next one's "before", or
// between the last one and the disk: it is named "external".

// changedBy names the writers whose changes touched hunk h of stretch sv
// after it, in order; the file's later writers when their changes cannot
// be followed (their contents are not kept).
func (b *Book) changedBy(v *view, sv segView, h diff.Hunk, now Side) []string {
	var chain []*write
	for _, w := range v.e.steps {
		if w.seq > sv.lastSeq && w.kind != "moved" {
			chain = append(chain, w)
		}
	}
	chain = append(chain, v.trail...)
	s := start(h.NewStart, h.NewLines)
	e := s + h.NewLines
	cur := sv.after
	var out []string
	seen := map[string]bool{}
	name := func(by string) {
		if !seen[by] {
			seen[by] = true
			out = append(out, by)
		}
	}
	// step follows the lines [s, e) of from into to, naming by when the
	// change touches them.
	step := func(from, to []byte, by string) {
		if bytes.Equal(from, to) {
			return
		}
		for _, dh := range diff.Unified(string(from), string(to), diff.Options{Context: 0}).Hunks {
			os := start(dh.OldStart, dh.OldLines)
			if os <= e && s <= os+dh.OldLines {
				name(by)
				break
			}
		}
		s, e = mapRange(from, to, s, e)
	}
	for _, w := range chain {
		if w.kind == "deleted" {
			name(w.by)
			return out
		}
		var prev []byte
		if w.kind != "created" {
			p, ok := b.load(w.prevAt, w.prev)
			if !ok {
				return orEmpty(v.later)
			}
			prev = p
		}
		after, ok := b.load(w.afterAt, w.after)
		if !ok {
			return orEmpty(v.later)
		}
		if w.kind != "created" {
			step(cur, prev, External) // a change nobody recorded, before this one
		}
		step(prev, after, w.by)
		cur = after
	}
	if now.Exists && !now.Dir {
		step(cur, now.Data, External)
	}
	if len(out) == 0 {
		return orEmpty(v.later)
	}
	return out
}
