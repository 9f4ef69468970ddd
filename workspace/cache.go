package workspace

import "sync"

type fileKey struct {
	ino   uint64
	mtime int64
	size  int64
}

// recordCache keeps one parsed record. Callers get their own deep copy,
// since Update's functions mutate what they are given.
type recordCache struct {
	mu  sync.Mutex
	key fileKey
	rec *Record
}

func (c *recordCache) get(k fileKey) *Record {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.rec == nil || c.key != k {
		return nil
	}
	return c.rec.clone()
}

// last is a copy of the last record parsed or written, whatever its file's
// identity, or nil when there was none.
func (c *recordCache) last() *Record {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.rec == nil {
		return nil
	}
	return c.rec.clone()
}

func (c *recordCache) put(k fileKey, r *Record) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.key, c.rec = k, r.clone()
}

func (r *Record) clone() *Record {
	out := &Record{Format: r.Format, ActiveRoot: r.ActiveRoot, RootBy: r.RootBy, RootAt: r.RootAt, Sessions: make(map[string]*Session, len(r.Sessions))}
	for root, s := range r.Sessions {
		if s == nil {
			continue
		}
		c := &Session{
			Buffers:  append([]Buffer{}, s.Buffers...),
			Expanded: append([]string{}, s.Expanded...),
		}
		if s.Focus != nil {
			f := *s.Focus
			c.Focus = &f
		}
		out.Sessions[root] = c
	}
	return out
}
