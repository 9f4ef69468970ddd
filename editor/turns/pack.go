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

// contents gathers the contents a stamp appends to the current pack.
type contents struct {
	b      *Book
	now    int64
	out    *[]byte // the stamp's records (a pack closed meanwhile is one)
	buf    []byte
	base   int64 // the pack's size before buf; -1 until looked at
	known  map[string]loc
	failed bool // an append failed: the records must not name places
}

// put returns where data (whose version is v) is: in the current pack
// already, or appended to it with this stamp.
func (c *contents) put(data []byte, v string) loc {
	b := c.b
	if v == "" || len(data) == 0 || int64(len(data)) > b.cfg.KeepFileBytes {
		return loc{} // nothing, the empty content (which needs no place), or too large
	}
	if l, ok := c.known[v]; ok {
		return l
	}
	if l, ok := b.at[v]; ok && l[0] == b.pack {
		return l
	}
	if c.base < 0 {
		c.base = 0
		if in, err := b.jail.StatFile(b.packPath(b.pack)); err == nil {
			c.base = in.Size
		} else if !isNotFound(err) {
			b.warn(fmt.Sprintf("turns: %v", err))
			c.base = -1
			return loc{}
		}
	}
	if size := c.base + int64(len(c.buf)); size > 0 && size+int64(len(data)) > b.packMax() {
		// Full: what is gathered goes to this pack, the rest to the next.
		c.flush()
		b.rotate(c.now, c.out)
		c.buf, c.base, c.known = nil, 0, nil
	}
	l := loc{b.pack, c.base + int64(len(c.buf)), int64(len(data))}
	c.buf = append(c.buf, data...)
	if c.known == nil {
		c.known = map[string]loc{}
	}
	c.known[v] = l
	return l
}

// flush appends the gathered contents; false when one of the stamp's
// appends failed (its records must then not name places).
func (c *contents) flush() bool {
	if len(c.buf) > 0 {
		if err := c.b.jail.AppendFile(c.b.packPath(c.b.pack), c.buf); err != nil {
			c.b.warn(fmt.Sprintf("turns: could not keep contents for review and revert: %v", err))
			c.failed = true
		}
		c.base += int64(len(c.buf))
		c.buf = c.buf[:0]
	}
	return !c.failed
}

// stampContents gives the write record r of ev the places of its contents.
func (c *contents) stampContents(r *rec, ev *workspace.Event) {
	if r.Prev != "" && ev.Kind != "created" {
		r.PA = c.put(ev.Before, r.Prev).slice()
	}
	if r.After != "" {
		r.AA = c.put(ev.After, r.After).slice()
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

// emptyVersion is the version of the empty content (CONTRACT.md §3).
const emptyVersion = "0-cbf29ce484222325"

// isNotFound reports a missing file.
func isNotFound(err error) bool { return shell.CodeOf(err) == shell.CodeNotFound }
