package turns

import (
	"fmt"
	"strconv"

	"github.com/editord/editord/shell"
	"github.com/editord/editord/workspace"
)

// The contents of changes live in packs: append-only files under
// turns/packs/, each a run of contents one after the other. A content is
// appended by the stamp that records its change (under the journal's
// lock), and the change's log record says where it is (pack, offset,
// length), so a change costs one append, not a file of its own. A content
// already in the current pack is not appended again (a save's "before" is
// the last save's "after").
//
// Packs are bounded by turns.keep_bytes: a pack is closed at a quarter of
// it, and once four are closed the oldest is removed whole, with the
// contents of the oldest turns in it (their detail then says so). A
// content still in use lives on: a change whose content sits in an older
// pack appends it to the current one again.

// loc is where a content is: pack number, offset, length.
type loc [3]int64

func (l loc) ok() bool { return l[0] > 0 }

func (l loc) slice() []int64 {
	if !l.ok() {
		return nil
	}
	return l[:]
}

func locOf(s []int64) loc {
	if len(s) != 3 {
		return loc{}
	}
	return loc{s[0], s[1], s[2]}
}

// packsKept is how many packs there are at most (the current one included).
const packsKept = 4

func (b *Book) packPath(n int64) string {
	return b.dir + "/" + packsDir + "/" + strconv.FormatInt(n, 10) + ".pack"
}

// packMax is the size at which the current pack is closed.
func (b *Book) packMax() int64 { return max(b.cfg.KeepBytes/packsKept, 1) }

// contents gathers the contents a stamp appends to the current pack, and
// the records that will name their places once the append says where it
// landed.
type contents struct {
	b      *Book
	now    int64
	out    *[]byte // the stamp's records (a pack closed meanwhile is one)
	buf    []byte
	size   int64 // the current pack's size before buf, as far as this process knows; -1 before it knows
	known  map[string]int64
	fix    []fixup
	failed bool // an append failed: the records must not name places
}

// fixup is a record's place of a content gathered in buf, at off in buf.
type fixup struct {
	to       *[]int64
	off, len int64
}

// place gives *to the place of data (whose version is v): in the current
// pack already, or in buf, to append with this stamp.
func (c *contents) place(to *[]int64, data []byte, v string) {
	b := c.b
	if v == "" || len(data) == 0 || int64(len(data)) > b.cfg.KeepFileBytes {
		return // nothing, the empty content (which needs no place), or too large
	}
	if off, ok := c.known[v]; ok {
		c.fix = append(c.fix, fixup{to, off, int64(len(data))})
		return
	}
	if l, ok := b.at[v]; ok && l[0] == b.pack {
		*to = l.slice()
		return
	}
	if c.size >= 0 && c.size+int64(len(c.buf))+int64(len(data)) > b.packMax() && c.size+int64(len(c.buf)) > 0 {
		// Full: what is gathered goes to this pack, the rest to the next.
		c.flush()
		b.rotate(c.now, c.out)
		c.size = b.packEnd
	}
	if c.known == nil {
		c.known = map[string]int64{}
	}
	off := int64(len(c.buf))
	c.known[v] = off
	c.fix = append(c.fix, fixup{to, off, int64(len(data))})
	c.buf = append(c.buf, data...)
}

// flush appends the gathered contents and gives the records their places;
// false when one of the stamp's appends failed (its records must then not
// name places).
func (c *contents) flush() bool {
	if len(c.buf) > 0 {
		at, err := c.b.jail.AppendStateFile(c.b.packPath(c.b.pack), c.buf)
		if err != nil {
			c.b.warn(fmt.Sprintf("turns: could not keep contents for review and revert: %v", err))
			c.failed = true
		} else {
			for _, f := range c.fix {
				*f.to = loc{c.b.pack, at + f.off, f.len}.slice()
			}
			c.size = at + int64(len(c.buf))
			c.b.packEnd = c.size
		}
	}
	c.buf, c.fix, c.known = c.buf[:0], nil, nil
	return !c.failed
}

// stampContents gives the write record r of ev the places of its contents.
func (c *contents) stampContents(r *rec, ev *workspace.Event) {
	if r.Prev != "" && ev.Kind != "created" {
		c.place(&r.PA, ev.Before, r.Prev)
	}
	if r.After != "" {
		c.place(&r.AA, ev.After, r.After)
	}
}

// rotate closes the current pack and removes the oldest past packsKept.
// Called under the lock, with b.mu held; the records go to out.
func (b *Book) rotate(now int64, out *[]byte) {
	r := &rec{Op: "pack", Pack: b.pack + 1, Time: now}
	b.apply(r)
	*out = appendRec(*out, r)
	if old := b.pack - packsKept; old >= 1 {
		if err := b.jail.Remove(b.packPath(old), false); err != nil && !isNotFound(err) {
			b.warn(fmt.Sprintf("turns: %v", err))
			return
		}
		d := &rec{Op: "drop", Pack: old, Time: now}
		b.apply(d)
		*out = appendRec(*out, d)
	}
}

// load returns the content at l, whose version is version: ok is false
// when it is not kept (never stored, or its pack removed) or damaged.
func (b *Book) load(l loc, version string) ([]byte, bool) {
	if version == emptyVersion {
		return []byte{}, true
	}
	if !l.ok() || version == "" {
		return nil, false
	}
	h, err := b.jail.OpenAt(b.packPath(l[0]))
	if err != nil {
		return nil, false
	}
	defer h.Close()
	data := make([]byte, l[2])
	if n, err := h.ReadAt(data, l[1]); n != len(data) && err != nil {
		return nil, false
	}
	if b.version(data) != version {
		return nil, false
	}
	return data, true
}

// emptyVersion is the version of the empty content (docs/contract.md §3).
const emptyVersion = "0-cbf29ce484222325"

// isNotFound reports a missing file.
func isNotFound(err error) bool { return shell.CodeOf(err) == shell.CodeNotFound }
