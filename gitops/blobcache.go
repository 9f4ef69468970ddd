package gitops

import (
	"container/list"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
)

// blobCache keeps the content of recently read large text blobs. An
// object's name is the hash of its content, so an entry can never be
// stale. It serves the editor gutter's pattern: hunks against the index
// or HEAD asked again after every save, with the same blob on the old
// side each time, where inflating a multi-megabyte blob would cost more
// than the diff. Small blobs are cheap to read and are not kept.
var blobCache = newBlobLRU(32<<20, 256<<10)

type blobLRU struct {
	mu       sync.Mutex
	max, min int // total bytes kept; smallest blob worth keeping
	size     int
	order    *list.List // front: most recently used
	byHash   map[plumbing.Hash]*list.Element
}

type blobEntry struct {
	h    plumbing.Hash
	data []byte
}

func newBlobLRU(max, min int) *blobLRU {
	return &blobLRU{max: max, min: min, order: list.New(), byHash: map[plumbing.Hash]*list.Element{}}
}

// get returns h's content when it is kept and within limit (0: any size).
func (c *blobLRU) get(h plumbing.Hash, limit int64) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.byHash[h]
	if !ok {
		return nil, false
	}
	data := el.Value.(*blobEntry).data
	if limit > 0 && int64(len(data)) > limit {
		return nil, false // the caller wants the too_large refusal
	}
	c.order.MoveToFront(el)
	return data, true
}

func (c *blobLRU) put(h plumbing.Hash, data []byte) {
	if len(data) < c.min || len(data) > c.max/4 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byHash[h]; ok {
		return
	}
	c.byHash[h] = c.order.PushFront(&blobEntry{h: h, data: data})
	c.size += len(data)
	for c.size > c.max {
		old := c.order.Back()
		e := old.Value.(*blobEntry)
		c.order.Remove(old)
		delete(c.byHash, e.h)
		c.size -= len(e.data)
	}
}
