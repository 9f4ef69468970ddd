package workspace

import "sync"

type fileKey struct {
	ino   uint64
	mtime int64
	size  int64
}

// recordCache keeps the last snapshot of the record read or written.
// Callers get their own deep copy of its record, since Update's functions
// mutate what they are given.
type recordCache struct {
	mu   sync.Mutex
	snap *snapshot
}

func (c *recordCache) get(k fileKey) *Record {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.snap == nil || c.snap.key != k {
		return nil
	}
	return c.snap.rec.clone()
}

// last is a copy of the last record parsed or written, whatever its file's
// identity, or nil when there was none.
func (c *recordCache) last() *Record {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.snap == nil {
		return nil
	}
	return c.snap.rec.clone()
}

// snapshot is the last snapshot itself (nil: none); it must not be
// changed.
func (c *recordCache) snapshot() *snapshot {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.snap
}

// put keeps sn, with a copy of its record, indexed first (bufindex.go):
// the copy is shared with readers, who only ever read its index.
func (c *recordCache) put(sn *snapshot) {
	sn.rec.index()
	cp := *sn
	cp.rec = sn.rec.clone()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.snap = &cp
}

func (r *Record) clone() *Record {
	c := *r // every top-level field, those added later included
	out := &c
	out.Sessions = make(map[string]*Session, len(r.Sessions))
	for root, s := range r.Sessions {
		if s == nil {
			continue
		}
		// The lists are shared until either side changes them (Session.own);
		// Focus is only ever replaced whole, never changed in place.
		s.owned = false
		c := *s
		out.Sessions[root] = &c
	}
	return out
}
