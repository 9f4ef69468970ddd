package workspace

// The record on disk (format 2): one small core file and one file per open
// buffer, so that changing one buffer writes one small file and the core,
// whatever the number of buffers, and a process that notices another's
// change re-reads only what changed.
//
//	workspace.json                          the core: format, active root,
//	                                        each root's session without its
//	                                        buffers, gen, recent
//	buffers/<16 hex of root>/<32 hex of path>.json
//	                                        one buffer: root, path, version,
//	                                        mtime, language, tab order
//
// Every write holds the record lock (flock) and replaces each file
// atomically. It writes the buffer files first and the core last, so a
// reader that sees a new core finds the buffer files it names already
// there. The core counts writes (gen) and names the buffers that the last
// writes changed (recent, from gen recent_from on): a reader that knows the
// record as of gen g re-reads only those with a higher gen; one that fell
// further behind (or never read it) reads every buffer file.
//
// Format 1 (buffers inline in workspace.json) is still read; the next
// write moves it to format 2.

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/editord/editord/shell"
)

const (
	buffersDir = "buffers"
	// recentMax bounds the core's list of recent buffer changes.
	recentMax = 128
	// orderStep spaces the tab orders of buffers, so that one moved into
	// the middle of the tab set gets an order without renumbering others.
	orderStep = 1 << 20
)

// diskRecord is the core file.
type diskRecord struct {
	*Record
	Gen        int64       `json:"gen"`
	RecentFrom int64       `json:"recent_from"`
	Recent     []bufChange `json:"recent"`
}

// bufChange names a buffer file written or removed by write gen.
type bufChange struct {
	Gen  int64  `json:"gen"`
	Root string `json:"root"`
	Path string `json:"path"`
}

// bufFile is one buffer file.
type bufFile struct {
	Root string `json:"root"`
	Buffer
	Order int64 `json:"order"`
}

// snapshot is one version of the record as this process knows it: the
// record, the gen it was read or written at, and each buffer's tab order.
type snapshot struct {
	key        fileKey
	format     int
	rec        *Record
	gen        int64
	recentFrom int64
	recent     []bufChange
	orders     map[string][]int64 // root → the tab order of each of its buffers, in Buffers' order
}

// orderOf maps each buffer path of root in sn to its tab order.
func (sn *snapshot) orderOf(root string) map[string]int64 {
	ses := sn.rec.Sessions[root]
	o := sn.orders[root]
	if ses == nil || len(o) != len(ses.Buffers) {
		return nil
	}
	m := make(map[string]int64, len(o))
	for i, b := range ses.Buffers {
		m[b.Path] = o[i]
	}
	return m
}

// core is the record as the core file holds it: the sessions without
// their buffers.
func core(rec *Record) *Record {
	c := *rec // every top-level field, those added later included
	out := &c
	out.Format, out.Sessions = recordFormat, make(map[string]*Session, len(rec.Sessions))
	for root, ses := range rec.Sessions {
		if ses == nil {
			continue
		}
		c := *ses
		c.Buffers = nil
		if c.Expanded == nil {
			c.Expanded = []string{}
		}
		out.Sessions[root] = &c
	}
	return out
}

// nextRecent is the core's list of recent changes after write gen made
// writes: whole gens are dropped from the front to keep it within
// recentMax, and recentFrom moves past them.
func nextRecent(recent []bufChange, recentFrom, gen int64, writes []bufWrite) ([]bufChange, int64) {
	out := slices.Clone(recent)
	for _, w := range writes {
		out = append(out, bufChange{Gen: gen, Root: w.root, Path: w.path})
	}
	for len(out) > recentMax {
		g := out[0].Gen
		i := 0
		for i < len(out) && out[i].Gen == g {
			i++
		}
		out, recentFrom = out[i:], g+1
	}
	if len(out) == 0 {
		out = []bufChange{}
	}
	return out, recentFrom
}

func rootDir(root string) string {
	h := sha256.Sum256([]byte(root))
	return buffersDir + "/" + hex.EncodeToString(h[:8])
}

func bufName(root, path string) string {
	h := sha256.Sum256([]byte(path))
	return rootDir(root) + "/" + hex.EncodeToString(h[:16]) + ".json"
}

// decodeCore parses the core file; corrupt is set when it is not a record.
func decodeCore(data []byte) (d diskRecord, corrupt error) {
	d.Record = &Record{}
	// Into a zero record, so that a file without "format" ("null", "{}")
	// is caught as corrupt instead of read as an empty record and then
	// overwritten.
	if err := json.Unmarshal(data, &d); err != nil {
		return d, err
	}
	if d.Record == nil {
		return d, fmt.Errorf("not a record")
	}
	if d.Format != 1 && d.Format != recordFormat {
		return d, fmt.Errorf("unknown format %d", d.Format)
	}
	if d.Sessions == nil {
		d.Sessions = map[string]*Session{}
	}
	for root, ses := range d.Sessions {
		if ses == nil {
			d.Sessions[root] = &Session{}
			ses = d.Sessions[root]
		}
		if d.Format == recordFormat {
			ses.Buffers = nil // the buffer files hold them
		}
	}
	return d, nil
}

// loadBuffers fills d's sessions with their buffers: from base (what this
// process knew, at base.gen) and the buffer files d.Recent names after it,
// or from every buffer file when base is too old or missing. Sessions
// found only in buffer files are added (a core lost to corruption).
func (s *Store) loadBuffers(d diskRecord, base *snapshot) map[string][]int64 {
	type entry struct {
		b     Buffer
		order int64
	}
	byRoot := map[string]map[string]entry{}
	put := func(root string, b Buffer, order int64) {
		if byRoot[root] == nil {
			byRoot[root] = map[string]entry{}
		}
		byRoot[root][b.Path] = entry{b, order}
	}
	incremental := base != nil && base.format == recordFormat && base.gen <= d.Gen && base.gen+1 >= d.RecentFrom
	if incremental {
		for root, ses := range base.rec.Sessions {
			o := base.orders[root]
			for i, b := range ses.Buffers {
				if i < len(o) {
					put(root, b, o[i])
				}
			}
		}
		seen := map[bufChange]bool{}
		for _, c := range d.Recent {
			if c.Gen <= base.gen {
				continue
			}
			c.Gen = 0
			seen[c] = true
		}
		for c := range seen {
			if bf, ok := s.readBuffer(bufName(c.Root, c.Path)); ok && bf.Root == c.Root && bf.Path == c.Path {
				put(c.Root, bf.Buffer, bf.Order)
			} else if byRoot[c.Root] != nil {
				delete(byRoot[c.Root], c.Path)
			}
		}
	} else {
		for _, bf := range s.readAllBuffers() {
			put(bf.Root, bf.Buffer, bf.Order)
		}
	}
	orders := map[string][]int64{}
	for root, m := range byRoot {
		es := make([]entry, 0, len(m))
		for _, e := range m {
			es = append(es, e)
		}
		slices.SortFunc(es, func(a, b entry) int {
			return cmp.Or(cmp.Compare(a.order, b.order), strings.Compare(a.b.Path, b.b.Path))
		})
		ses := d.Session(root)
		ses.Buffers = make([]Buffer, len(es))
		o := make([]int64, len(es))
		for i, e := range es {
			ses.Buffers[i], o[i] = e.b, e.order
		}
		orders[root] = o
	}
	for root := range d.Sessions {
		d.Session(root) // lists, never null
	}
	return orders
}

// readBuffer reads one buffer file; a corrupt one is moved aside.
func (s *Store) readBuffer(name string) (bufFile, bool) {
	res, err := s.jail.ReadFile(s.path(name), 1<<20)
	if err != nil {
		if shell.CodeOf(err) != shell.CodeNotFound {
			s.warn(fmt.Sprintf("reading the buffer file %s: %v", s.path(name), err))
		}
		return bufFile{}, false
	}
	var bf bufFile
	if err := json.Unmarshal(res.Data, &bf); err != nil || bf.Path == "" || bf.Root == "" || res.Truncated {
		aside := fmt.Sprintf("%s.corrupt-%s", name, time.Now().UTC().Format("20060102T150405.000000000"))
		if rerr := s.jail.Rename(s.path(name), s.path(aside), false); rerr == nil {
			s.warn(fmt.Sprintf("the buffer file %s was corrupt (%v); moved to %s", s.path(name), err, aside))
		}
		return bufFile{}, false
	}
	return bf, true
}

// readAllBuffers reads every buffer file of every root.
func (s *Store) readAllBuffers() []bufFile {
	var out []bufFile
	dirs, err := s.jail.ReadDir(s.path(buffersDir))
	if err != nil {
		return nil
	}
	for _, d := range dirs {
		if d.Kind != shell.KindDir {
			continue
		}
		ents, err := s.jail.ReadDir(s.path(buffersDir + "/" + d.Name))
		if err != nil {
			continue
		}
		for _, e := range ents {
			if !strings.HasSuffix(e.Name, ".json") || strings.HasPrefix(e.Name, ".") {
				continue
			}
			name := buffersDir + "/" + d.Name + "/" + e.Name
			if bf, ok := s.readBuffer(name); ok && name == bufName(bf.Root, bf.Path) {
				out = append(out, bf)
			}
		}
	}
	return out
}

// bufWrite is one buffer file to write (b set) or remove (b nil). prev
// is the file as the base record has it (had: it has one), which undoes
// the write without reading the file first.
type bufWrite struct {
	root, path string
	b          *Buffer
	order      int64
	had        bool
	prev       bufFile
}

// plan works out the buffer files that turn base into rec and the tab
// orders of rec's buffers. With no usable base, every buffer is written
// and every other buffer file removed (full).
func plan(base *snapshot, rec *Record) (writes []bufWrite, orders map[string][]int64, full bool) {
	full = base == nil || base.format != recordFormat
	orders = map[string][]int64{}
	for root, ses := range rec.Sessions {
		if ses == nil {
			continue
		}
		if !full {
			if o, w, ok := planAppend(base, root, ses.Buffers); ok {
				orders[root] = o
				writes = append(writes, w...)
				continue
			}
		}
		var old map[string]int64
		var oldBuf map[string]Buffer
		if !full {
			old = base.orderOf(root)
			if bs := base.rec.Sessions[root]; bs != nil {
				oldBuf = make(map[string]Buffer, len(bs.Buffers))
				for _, b := range bs.Buffers {
					oldBuf[b.Path] = b
				}
			}
		}
		o := assignOrders(ses.Buffers, old)
		orders[root] = o
		inNew := make(map[string]bool, len(ses.Buffers))
		for i := range ses.Buffers {
			b := &ses.Buffers[i]
			inNew[b.Path] = true
			ob, had := oldBuf[b.Path]
			if !full && had && ob == *b && old[b.Path] == o[i] {
				continue
			}
			writes = append(writes, bufWrite{root: root, path: b.Path, b: b, order: o[i], had: had, prev: bufFile{Root: root, Buffer: ob, Order: old[b.Path]}})
		}
		for p, ob := range oldBuf {
			if !inNew[p] {
				writes = append(writes, bufWrite{root: root, path: p, had: true, prev: bufFile{Root: root, Buffer: ob, Order: old[p]}})
			}
		}
	}
	if !full {
		for root, bs := range base.rec.Sessions {
			if ses := rec.Sessions[root]; ses == nil && bs != nil {
				o := base.orderOf(root)
				for _, b := range bs.Buffers {
					writes = append(writes, bufWrite{root: root, path: b.Path, had: true, prev: bufFile{Root: root, Buffer: b, Order: o[b.Path]}})
				}
			}
		}
	}
	return writes, orders, full
}

// planAppend is plan for the common change of one root: buffers refreshed
// in place and new ones opened at the end (an open, a save). ok is false
// for anything else (a close, a move), which plan works out in full.
func planAppend(base *snapshot, root string, bufs []Buffer) (orders []int64, writes []bufWrite, ok bool) {
	var old []Buffer
	if bs := base.rec.Sessions[root]; bs != nil {
		old = bs.Buffers
	}
	oo := base.orders[root]
	if len(oo) != len(old) || len(bufs) < len(old) {
		return nil, nil, false
	}
	for i := range old {
		if old[i].Path != bufs[i].Path {
			return nil, nil, false
		}
	}
	orders = make([]int64, len(bufs))
	copy(orders, oo)
	last := int64(0)
	if len(oo) > 0 {
		last = oo[len(oo)-1]
	}
	for i := range bufs {
		w := bufWrite{root: root, path: bufs[i].Path, b: &bufs[i]}
		if i >= len(old) {
			last += orderStep
			orders[i] = last
		} else if old[i] == bufs[i] {
			continue
		} else {
			w.had, w.prev = true, bufFile{Root: root, Buffer: old[i], Order: oo[i]}
		}
		w.order = orders[i]
		writes = append(writes, w)
	}
	return orders, writes, true
}

// assignOrders gives each buffer a tab order increasing along bufs,
// keeping the old order of as many as it can (those already increasing),
// so that a change to one buffer rewrites only its file.
func assignOrders(bufs []Buffer, old map[string]int64) []int64 {
	o := make([]int64, len(bufs))
	keep := make([]bool, len(bufs))
	prev := int64(0)
	for i, b := range bufs {
		if v, ok := old[b.Path]; ok && v > prev {
			keep[i], prev = true, v
		}
	}
	for i := 0; i < len(bufs); {
		if keep[i] {
			o[i] = old[bufs[i].Path]
			i++
			continue
		}
		j := i // bufs[i:j] need new orders between lo and hi
		for j < len(bufs) && !keep[j] {
			j++
		}
		lo := int64(0)
		if i > 0 {
			lo = o[i-1]
		}
		n := int64(j - i)
		step := int64(orderStep)
		if j < len(bufs) {
			step = (old[bufs[j].Path] - lo) / (n + 1)
		}
		if step < 1 {
			// No room: renumber every buffer.
			for k := range bufs {
				o[k] = int64(k+1) * orderStep
			}
			return o
		}
		for k := i; k < j; k++ {
			o[k] = lo + int64(k-i+1)*step
		}
		i = j
	}
	return o
}

// writeBuffers applies the planned buffer file changes. On failure it puts
// back what it had changed; on success it returns the function that does
// that, for a core write that fails after it: either way the buffer files
// stay those the core describes. What to put back is the base record's
// (bufWrite.prev); only a full write, which has no base, reads the files
// first.
func (s *Store) writeBuffers(writes []bufWrite, full bool, rec *Record) (undoAll func(), err error) {
	type undo struct {
		name string
		data []byte // nil: the file did not exist
	}
	var done []undo
	rollback := func() {
		for i := len(done) - 1; i >= 0; i-- {
			u := done[i]
			if u.data == nil {
				s.jail.Remove(s.path(u.name), false)
			} else {
				s.jail.ReplaceFile(s.path(u.name), u.data, true)
			}
		}
	}
	for _, w := range writes {
		name := bufName(w.root, w.path)
		var before []byte
		switch {
		case full:
			if res, err := s.jail.ReadFile(s.path(name), 1<<20); err == nil {
				before = res.Data
			} else if shell.CodeOf(err) != shell.CodeNotFound {
				rollback()
				return nil, err
			}
		case w.had:
			data, err := json.Marshal(w.prev)
			if err != nil {
				rollback()
				return nil, err
			}
			before = append(data, '\n')
		}
		if w.b == nil {
			if err := s.jail.Remove(s.path(name), false); err != nil {
				if shell.CodeOf(err) == shell.CodeNotFound {
					continue
				}
				rollback()
				return nil, err
			}
			done = append(done, undo{name, before})
			continue
		}
		data, err := json.Marshal(bufFile{Root: w.root, Buffer: *w.b, Order: w.order})
		if err != nil {
			rollback()
			return nil, err
		}
		if _, err := s.jail.ReplaceFile(s.path(name), append(data, '\n'), true); err != nil {
			rollback()
			return nil, err
		}
		done = append(done, undo{name, before})
	}
	if full {
		// Remove buffer files of buffers the record does not hold.
		want := map[string]bool{}
		for root, ses := range rec.Sessions {
			if ses != nil {
				for _, b := range ses.Buffers {
					want[bufName(root, b.Path)] = true
				}
			}
		}
		dirs, _ := s.jail.ReadDir(s.path(buffersDir))
		for _, d := range dirs {
			if d.Kind != shell.KindDir {
				continue
			}
			ents, _ := s.jail.ReadDir(s.path(buffersDir + "/" + d.Name))
			for _, e := range ents {
				name := buffersDir + "/" + d.Name + "/" + e.Name
				if strings.HasSuffix(e.Name, ".json") && !strings.HasPrefix(e.Name, ".") && !want[name] {
					s.jail.Remove(s.path(name), false)
				}
			}
		}
	}
	return rollback, nil
}
