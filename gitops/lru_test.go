package gitops

import (
	"bytes"
	"testing"
)

func TestCacheEvictsLeastRecentlyUsed(t *testing.T) {
	c := newLRU[int](100, func(b []byte) int { return len(b) })
	blob := func(n int, b byte) []byte { return bytes.Repeat([]byte{b}, n) }

	c.put(9, blob(101, 'z')) // more than the whole bound
	if _, ok := c.get(9); ok {
		t.Fatal("a value over the bound was kept")
	}
	c.put(2, blob(20, 'b'))
	c.put(3, blob(20, 'c'))
	c.put(4, blob(20, 'd'))
	c.put(5, blob(20, 'e'))
	if got, ok := c.get(2); !ok || got[0] != 'b' { // 2 is now the most recent
		t.Fatal("entry 2 missing")
	}
	c.put(6, blob(25, 'f')) // 105: the least recently used (3) goes
	if _, ok := c.get(3); ok {
		t.Fatal("the least recently used entry was not evicted")
	}
	for _, k := range []int{2, 4, 5, 6} {
		if _, ok := c.get(k); !ok {
			t.Fatalf("entry %d evicted", k)
		}
	}
	c.put(4, blob(5, 'D')) // replacing adjusts the total
	if got, _ := c.get(4); got[0] != 'D' || c.size != 70 || len(c.items) != 4 || c.order.Len() != 4 {
		t.Fatalf("after replacing: size %d, %d entries, %d in order", c.size, len(c.items), c.order.Len())
	}

	counted := newLRU[string](2, one[int])
	counted.put("a", 1)
	counted.put("b", 2)
	counted.put("c", 3)
	if _, ok := counted.get("a"); ok || counted.size != 2 {
		t.Fatalf("an entry-bounded cache kept %d", counted.size)
	}
}
