package turns

import (
	"context"
	"fmt"
	"strconv"

	"github.com/editord/editord/workspace"
)

// External is the by of a change made by another program.
const External = "external"

// Stamp gives each event its turn and records the changes in the log. It is
// the journal's workspace.Stamper: it runs under the journal lock, with the
// events numbered, so turns follow the journal's order. An event that
// already names a turn this book knows (a revert's own) stays in it.
func (b *Book) Stamp(evs []workspace.Event) {
	if len(evs) == 0 {
		return
	}
	err := b.under(func(now int64, out *[]byte) {
		c := &contents{b: b, now: now, out: out, size: b.packEnd}
		recs := make([]*rec, 0, len(evs))
		for i := range evs {
			ev := &evs[i]
			t, ext := b.pick(ev, now, out)
			ev.Turn = t.id
			t.last = max(t.last, now)
			r := writeRec(ev, t.id, ext, now)
			c.stampContents(r, ev)
			recs = append(recs, r)
			if len(ev.Gone) > 0 {
				r.Dir = true // its files follow: the folder is no entry of its own
				for _, g := range ev.Gone {
					if g.Path == "" {
						r.Dir = false // not all of them: it is, and says so
						continue
					}
					f := &rec{Op: "write", Turn: t.id, Seq: ev.Seq, Root: ev.Root, Path: g.Path, Kind: "deleted", Cause: ev.Cause,
						By: ev.By, Ext: ext, Prev: g.Version, Mode: parseMode(g.Mode), Time: now}
					c.place(&f.PA, g.Data, g.Version)
					recs = append(recs, f)
				}
			}
		}
		kept := c.flush()
		for _, r := range recs {
			if !kept {
				r.PA, r.AA = nil, nil
			}
			b.apply(r)
			*out = appendRec(*out, r)
		}
		if kept && b.packEnd >= b.packMax() {
			b.rotate(now, out) // the next contents go to a new pack
		}
	})
	if err != nil {
		b.warn(fmt.Sprintf("turns: the changes %d–%d were journaled without being recorded in their turn: %v", evs[0].Seq, evs[len(evs)-1].Seq, err))
	}
}

// writeRec is the log record of one change.
func writeRec(ev *workspace.Event, id string, ext bool, now int64) *rec {
	r := &rec{Op: "write", Turn: id, Seq: ev.Seq, Root: ev.Root, Path: ev.Path, Kind: ev.Kind, Cause: ev.Cause, By: ev.By,
		Ext: ext, Added: ev.Added, Removed: ev.Removed, Time: now}
	if ev.From != nil {
		r.From = *ev.From
	}
	if ev.Prev != nil {
		r.Prev = *ev.Prev
	}
	if ev.Version != nil && ev.Kind != "deleted" {
		r.After = *ev.Version
	}
	r.Mode = parseMode(ev.Mode)
	return r
}

// parseMode reads permission bits written in octal (0644); 0 for none.
func parseMode(s string) uint32 {
	m, err := strconv.ParseUint(s, 8, 32)
	if err != nil {
		return 0
	}
	return uint32(m)
}

// pick is the turn a change belongs to, beginning one when it needs to;
// ext reports a change of another program given to whoever was at work.
func (b *Book) pick(ev *workspace.Event, now int64, out *[]byte) (t *turn, ext bool) {
	if ev.Turn != "" {
		if t := b.byID[ev.Turn]; t != nil {
			return t, false
		}
	}
	by := ev.By
	if by == External || ev.Cause == External {
		if t := b.atWork(now); t != nil {
			return t, true
		}
		by = External
	}
	if t := b.current[by]; t != nil && b.open(t, now) {
		return t, false
	}
	return b.begin(&rec{By: by}, now, out), false
}

// atWork is the open turn (of anyone but "external") with the latest
// change, or nil.
func (b *Book) atWork(now int64) *turn {
	var best *turn
	for by, t := range b.current {
		if by == External || !b.open(t, now) {
			continue
		}
		if best == nil || t.last > best.last || (t.last == best.last && t.n > best.n) {
			best = t
		}
	}
	return best
}

// begin starts a turn described by r (by, title, explicit, side, reverts)
// and returns it. Called with the lock held.
func (b *Book) begin(r *rec, now int64, out *[]byte) *turn {
	r.Op, r.N, r.Time = "begin", b.next, now
	r.Turn = "t" + strconv.FormatInt(r.N, 10)
	b.apply(r)
	*out = appendRec(*out, r)
	return b.byID[r.Turn]
}

// end ends t. Called with the lock held.
func (b *Book) end(t *turn, now int64, out *[]byte) {
	r := &rec{Op: "end", Turn: t.id, Time: now}
	b.apply(r)
	*out = appendRec(*out, r)
}

// locked runs fn under the journal's lock (see under).
func (b *Book) locked(fn func(now int64, out *[]byte)) error {
	unlock, err := b.lock(context.Background())
	if err != nil {
		return err
	}
	defer unlock()
	return b.under(fn)
}

// under runs fn, the journal's lock held, with b.mu held and the log caught
// up; fn adds records to out, which are then appended to the log (with its
// head when it is new). The log is rewritten, and the contents trimmed,
// when they are due.
func (b *Book) under(fn func(now int64, out *[]byte)) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.catchUp()
	now := b.nowMS()
	var out []byte
	fresh := b.off == 0
	if fresh {
		b.reset()
		b.gen = 1
		out = appendRec(out, &rec{Op: "head", Gen: 1})
	}
	fn(now, &out)
	if len(out) == 0 {
		return nil
	}
	if _, err := b.jail.AppendStateFile(b.logPath(), out); err != nil {
		b.ino, b.off = 0, 0 // memory is ahead of the file: read it anew next time
		return err
	}
	if fresh {
		in, err := b.jail.StatFile(b.logPath())
		if err != nil || in.Size != int64(len(out)) {
			b.ino, b.off = 0, 0
			return err
		}
		b.ino = in.Ino
	}
	b.off += int64(len(out)) // nobody else appends while the lock is held
	if b.inFile > b.cfg.Kept+max(b.cfg.Kept/4, 8) {
		b.rewrite()
	}
	return nil
}

// Begin begins a turn of by (ending the one it has open) with title, and
// returns it.
func (b *Book) Begin(by, title string) (Summary, error) {
	var t *turn
	err := b.locked(func(now int64, out *[]byte) {
		if cur := b.current[by]; cur != nil && cur.ended == 0 {
			b.end(cur, now, out)
		}
		t = b.begin(&rec{By: by, Title: title, Explicit: true}, now, out)
	})
	if err != nil {
		return Summary{}, err
	}
	return b.summary(t), nil
}

// End ends by's open turn; ok is false when it had none.
func (b *Book) End(by string) (s Summary, ok bool, err error) {
	var t *turn
	err = b.locked(func(now int64, out *[]byte) {
		if cur := b.current[by]; cur != nil && b.open(cur, now) {
			t = cur
			b.end(t, now, out)
		}
	})
	if err != nil || t == nil {
		return Summary{}, false, err
	}
	return b.summary(t), true, nil
}

// BeginSide begins a revert's own turn: a turn of by that never becomes by's
// current one (its changes name it; by's own turn goes on after it).
func (b *Book) BeginSide(by, title, reverts string) (string, error) {
	var t *turn
	err := b.locked(func(now int64, out *[]byte) {
		t = b.begin(&rec{By: by, Title: title, Explicit: true, Side: true, Reverts: reverts}, now, out)
	})
	if err != nil {
		return "", err
	}
	return t.id, nil
}

// EndTurn ends the turn id (a revert's own, once its writes are done).
func (b *Book) EndTurn(id string) error {
	return b.locked(func(now int64, out *[]byte) {
		if t := b.byID[id]; t != nil && t.ended == 0 {
			b.end(t, now, out)
		}
	})
}

// Mark records that the file path (as the turn left it) of turn id was
// kept (undoneIn "") or undone by the revert undoneIn: the hunks given, or
// the whole file when hunks is empty. of is the file's hunk count.
func (b *Book) Mark(id, root, path string, hunks []int, of int, by, undoneIn string) error {
	err := b.locked(func(now int64, out *[]byte) {
		if b.byID[id] == nil {
			return
		}
		r := &rec{Op: "keep", Turn: id, Root: root, Path: path, Hunks: hunks, Of: of, By: by, Time: now}
		if undoneIn != "" {
			r.Op, r.In = "undo", undoneIn
		}
		b.apply(r)
		*out = appendRec(*out, r)
	})
	return err
}

// Known reports whether the turn id is kept.
func (b *Book) Known(id string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.catchUp()
	return b.byID[id] != nil
}
