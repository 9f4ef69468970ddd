package turns

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/editord/editord/shell"
	"github.com/editord/editord/workspace"
)

// Book is the turns of one state dir, as this process knows them: the log
// read so far (log.go's records, applied in order) and where it stopped.
// Every process on the state dir holds one; they agree because each
// applies the same log, and only a holder of the turns lock appends to it.
type Book struct {
	jail    *shell.Jail // rooted at the state dir's turns/ folder, and at its packs/
	dir     string      // the state dir's turns/ folder
	lockFn  func(context.Context) (func(), error)
	cfg     Config
	warn    func(string)
	version func([]byte) string
	// Now is the clock of boundaries; tests set it.
	Now func() time.Time

	mu      sync.Mutex
	gen     int64  // the log's generation (its head record)
	ino     uint64 // the log file read, and how far
	off     int64
	turns   []*turn // oldest first, at most cfg.Kept
	byID    map[string]*turn
	current map[string]*turn // by -> the writer's latest own turn
	moves   []move           // the moves of the turns kept, by seq
	next    int64            // the next turn's number
	inFile  int              // turns begun in the log file (its rewrite is due past Kept+Kept/4)
	pack    int64            // the pack contents go to (pack.go)
	packEnd int64            // its size after this process's last append to it; -1: not known
	at      map[string]loc   // where contents of the current pack are, by version (placed)
}

// turn is one turn as the log tells it.
type turn struct {
	id, by, title, reverts string
	n                      int64
	explicit, side         bool
	start, last, ended     int64 // Unix ms; ended 0 while not ended
	writes                 []write
	more                   int // changes past maxWrites: counted, not kept
	reviews                map[fileKey]*review
	revertedIn             []string
}

// write is one change of a turn.
type write struct {
	seq, time                     int64
	root, path, from, kind, cause string
	by                            string
	ext                           bool
	prev, after                   string // versions; "" when absent or unknown
	prevAt, afterAt               loc    // where their contents are kept
	mode                          uint32
	dir                           bool
	added, removed                int
}

type fileKey struct{ root, path string }

// review is what was decided about one file of a turn.
type review struct {
	keptAll   bool           // kept whole
	undoneAll string         // undone whole (a move, a create, a delete): by this revert turn
	kept      map[int]bool   // hunks kept
	undone    map[int]string // hunks undone, by the revert turn that did it
	of        int            // the file's hunk count, as the last mark saw it
}

// maxWrites bounds the changes one turn keeps in detail (a checkout of
// another branch can touch tens of thousands of files).
const maxWrites = 5000

// explicitIdle is how long a begun turn nobody ended still counts as its
// writer being at work (for external changes, and as open): a writer that
// died never ends its turn.
const explicitIdle = time.Hour

const (
	turnsDir = "turns"
	logName  = "log.jsonl"
	packsDir = "packs"
)

// Open opens the turns of store's state dir. version names contents
// (editor.Version). The log is changed under the journal's lock, which a
// stamp already holds.
func Open(store *workspace.Store, cfg Config, version func([]byte) string, warn func(string)) (*Book, error) {
	dir := store.Dir() + "/" + turnsDir
	if err := shell.EnsureDir(dir + "/" + packsDir); err != nil {
		return nil, fmt.Errorf("state dir %s: %w", store.Dir(), err)
	}
	// Two roots: a pack's path is one name below its own.
	j, err := shell.Open(shell.Config{Roots: []string{dir, dir + "/" + packsDir}})
	if err != nil {
		return nil, fmt.Errorf("state dir %s: %w", store.Dir(), err)
	}
	if warn == nil {
		warn = func(string) {}
	}
	b := &Book{jail: j, dir: j.Roots()[0], lockFn: store.LockJournal, cfg: def(cfg), warn: warn, version: version, Now: time.Now}
	if b.dir != dir {
		b.dir = dir
	}
	b.reset()
	return b, nil
}

// def fills what cfg leaves unset with the defaults.
func def(cfg Config) Config {
	d := DefaultConfig()
	if cfg.IdleMS > 0 {
		d.IdleMS = cfg.IdleMS
	}
	if cfg.Kept > 0 {
		d.Kept = cfg.Kept
	}
	if cfg.KeepBytes > 0 {
		d.KeepBytes = cfg.KeepBytes
	}
	if cfg.KeepFileBytes > 0 {
		d.KeepFileBytes = cfg.KeepFileBytes
	}
	return d
}

// Close releases the state dir.
func (b *Book) Close() error { return b.jail.Close() }

func (b *Book) logPath() string { return b.dir + "/" + logName }

// reset forgets everything read; the log is read again from its start.
func (b *Book) reset() {
	b.gen, b.ino, b.off, b.inFile, b.pack, b.packEnd, b.at = 0, 0, 0, 0, 1, -1, map[string]loc{}
	b.turns, b.byID, b.current, b.moves = nil, map[string]*turn{}, map[string]*turn{}, nil
	b.next = 1
}

// lock takes the journal's lock: one appender of the log at a time,
// across processes (a stamp runs under it already).
func (b *Book) lock(ctx context.Context) (func(), error) { return b.lockFn(ctx) }

// catchUp applies what was appended to the log since this process last
// looked (everything, when the log was rewritten meanwhile). Called with
// b.mu held.
func (b *Book) catchUp() {
	in, err := b.jail.StatFile(b.logPath())
	if err != nil {
		if shell.CodeOf(err) != shell.CodeNotFound {
			b.warn(fmt.Sprintf("turns: %v", err))
		} else if b.ino != 0 || b.off != 0 {
			b.reset()
		}
		return
	}
	if in.Ino == b.ino && in.Size == b.off {
		return
	}
	h, err := b.jail.OpenAt(b.logPath())
	if err != nil {
		b.warn(fmt.Sprintf("turns: %v", err))
		return
	}
	defer h.Close()
	size := h.Info.Size
	if h.Info.Ino != b.ino || size < b.off || b.headGen(h) != b.gen {
		b.reset() // rewritten: read it anew
	}
	if size <= b.off {
		return
	}
	buf := make([]byte, size-b.off)
	n, err := h.ReadAt(buf, b.off)
	if n < len(buf) && err != nil {
		b.warn(fmt.Sprintf("turns: reading %s: %v", b.logPath(), err))
		return
	}
	b.off += int64(eachRec(buf[:n], b.apply))
	b.ino = h.Info.Ino
}

// headGen is the generation the log's first record names (0: none read).
func (b *Book) headGen(h *shell.ReadHandle) int64 {
	if b.off == 0 {
		return b.gen
	}
	buf := make([]byte, 64)
	n, _ := h.ReadAt(buf, 0)
	gen := int64(-1)
	eachRec(buf[:n], func(r *rec) {
		if r.Op == "head" {
			gen = r.Gen
		}
	})
	return gen
}

// apply takes one record into memory. Called with b.mu held.
func (b *Book) apply(r *rec) {
	switch r.Op {
	case "head":
		b.gen = r.Gen
	case "begin":
		if b.byID[r.Turn] != nil {
			return
		}
		t := &turn{id: r.Turn, n: r.N, by: r.By, title: r.Title, explicit: r.Explicit, side: r.Side, reverts: r.Reverts,
			start: r.Time, last: r.Time}
		b.turns = append(b.turns, t)
		b.byID[t.id] = t
		if !t.side {
			b.current[t.by] = t
		}
		b.next = max(b.next, r.N+1)
		b.inFile++
		b.trim()
	case "write":
		t := b.byID[r.Turn]
		if t == nil {
			return
		}
		w := write{seq: r.Seq, time: r.Time, root: r.Root, path: r.Path, from: r.From, kind: r.Kind, cause: r.Cause, by: r.By,
			ext: r.Ext, prev: r.Prev, after: r.After, prevAt: locOf(r.PA), afterAt: locOf(r.AA), mode: r.Mode, dir: r.Dir, added: r.Added, removed: r.Removed}
		if len(t.writes) < maxWrites {
			t.writes = append(t.writes, w)
		} else {
			t.more++
		}
		t.last = max(t.last, r.Time)
		b.placed(w.prev, w.prevAt)
		b.placed(w.after, w.afterAt)
		if r.Kind == "moved" && r.From != "" {
			b.addMove(move{seq: r.Seq, turn: t.id, root: r.Root, from: r.From, to: r.Path})
		}
	case "end":
		if t := b.byID[r.Turn]; t != nil && t.ended == 0 {
			t.ended = max(r.Time, 1)
		}
	case "keep", "undo":
		t := b.byID[r.Turn]
		if t == nil {
			return
		}
		if t.reviews == nil {
			t.reviews = map[fileKey]*review{}
		}
		k := fileKey{r.Root, r.Path}
		rv := t.reviews[k]
		if rv == nil {
			rv = &review{kept: map[int]bool{}, undone: map[int]string{}}
			t.reviews[k] = rv
		}
		if r.Of > 0 {
			rv.of = r.Of
		}
		if r.Op == "undo" {
			if r.In != "" && r.In != "-" && !slices.Contains(t.revertedIn, r.In) {
				t.revertedIn = append(t.revertedIn, r.In)
			}
			if len(r.Hunks) == 0 {
				rv.undoneAll = r.In
				if r.In == "" {
					rv.undoneAll = "-"
				}
			}
			for _, h := range r.Hunks {
				rv.undone[h] = r.In
			}
			return
		}
		if len(r.Hunks) == 0 {
			rv.keptAll = true
		}
		for _, h := range r.Hunks {
			rv.kept[h] = true
		}
	case "pack":
		if r.Pack > b.pack {
			b.pack, b.packEnd = r.Pack, 0
			clear(b.at) // it serves to find contents in the current pack
		}
	case "drop":
		for v, l := range b.at {
			if l[0] == r.Pack {
				delete(b.at, v)
			}
		}
	}
}

// placed notes where the content of version v is, when it is in the
// current pack: what spares appending it again. At most atMax are noted
// (past that the notes start over: only an append is lost).
func (b *Book) placed(v string, l loc) {
	if !l.ok() || l[0] != b.pack {
		return
	}
	if len(b.at) >= atMax {
		clear(b.at)
	}
	b.at[v] = l
}

const atMax = 1 << 16

// trim drops the oldest turns past cfg.Kept from memory (the log's rewrite
// drops them from the file).
func (b *Book) trim() {
	n := len(b.turns) - b.cfg.Kept
	if n <= 0 {
		return
	}
	for _, t := range b.turns[:n] {
		delete(b.byID, t.id)
		if b.current[t.by] == t {
			delete(b.current, t.by)
		}
	}
	b.turns = append([]*turn(nil), b.turns[n:]...)
	// Moves older than every turn kept follow no file any more.
	oldest := int64(-1)
	for _, t := range b.turns {
		if len(t.writes) > 0 && (oldest < 0 || t.writes[0].seq < oldest) {
			oldest = t.writes[0].seq
		}
	}
	k := 0
	for k < len(b.moves) && b.moves[k].seq < oldest {
		k++
	}
	b.moves = append([]move(nil), b.moves[k:]...)
}

// addMove files m among the moves by seq (a rewritten log lists changes by
// turn, not by seq).
func (b *Book) addMove(m move) {
	i := sort.Search(len(b.moves), func(i int) bool { return b.moves[i].seq > m.seq })
	b.moves = slices.Insert(b.moves, i, m)
}

// open reports whether t takes its writer's next change at now (ms).
func (b *Book) open(t *turn, now int64) bool {
	if t.ended != 0 {
		return false
	}
	if t.explicit {
		return now-t.last <= explicitIdle.Milliseconds()
	}
	return now-t.last <= b.cfg.idle()
}

// nowMS is the book's clock in Unix milliseconds.
func (b *Book) nowMS() int64 { return b.Now().UnixMilli() }
