package gitops

import (
	"container/list"
	"sync"
)

// lru is a process-wide least-recently-used map bounded by the total
// cost of what it keeps: the parsed commits, indexes, pack indexes and
// large blobs that let one call reuse what the last one read (a Repo
// lives for one call). Git objects are named by their content, so their
// entries never go stale; the index entry carries the stat it was read at.
type lru[K comparable, V any] struct {
	mu    sync.Mutex
	max   int // total cost kept
	cost  func(V) int
	size  int
	order *list.List // front: most recently used
	items map[K]*list.Element
}

type cacheEntry[K comparable, V any] struct {
	key  K
	val  V
	cost int
}

func newLRU[K comparable, V any](max int, cost func(V) int) *lru[K, V] {
	return &lru[K, V]{max: max, cost: cost, order: list.New(), items: map[K]*list.Element{}}
}

// one is the cost function of a cache bounded by its number of entries.
func one[V any](V) int { return 1 }

func (c *lru[K, V]) get(k K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.items[k]
	if !ok {
		var zero V
		return zero, false
	}
	c.order.MoveToFront(el)
	return el.Value.(*cacheEntry[K, V]).val, true
}

// put keeps v under k (replacing what was there), evicting the least
// recently used entries past the bound. A value costing more than the
// whole bound is not kept.
func (c *lru[K, V]) put(k K, v V) {
	n := c.cost(v)
	if n > c.max {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.items[k]; ok {
		c.remove(el)
	}
	c.items[k] = c.order.PushFront(&cacheEntry[K, V]{key: k, val: v, cost: n})
	c.size += n
	for c.size > c.max {
		c.remove(c.order.Back())
	}
}

func (c *lru[K, V]) remove(el *list.Element) {
	e := el.Value.(*cacheEntry[K, V])
	c.order.Remove(el)
	delete(c.items, e.key)
	c.size -= e.cost
}
