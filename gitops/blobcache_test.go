package gitops

import (
	"bytes"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

func TestBlobLRU(t *testing.T) {
	c := newBlobLRU(100, 10)
	h := func(b byte) plumbing.Hash { return plumbing.Hash{b} }
	blob := func(n int, b byte) []byte { return bytes.Repeat([]byte{b}, n) }

	c.put(h(1), blob(5, 'a')) // too small to keep
	if _, ok := c.get(h(1), 0); ok {
		t.Fatal("a small blob was kept")
	}
	c.put(h(9), blob(26, 'z')) // over a quarter of the budget
	if _, ok := c.get(h(9), 0); ok {
		t.Fatal("a blob over a quarter of the budget was kept")
	}
	c.put(h(2), blob(20, 'b'))
	c.put(h(3), blob(20, 'c'))
	c.put(h(4), blob(20, 'd'))
	c.put(h(5), blob(20, 'e'))
	if got, ok := c.get(h(2), 0); !ok || got[0] != 'b' { // 2 is now the most recent
		t.Fatal("blob 2 missing")
	}
	if _, ok := c.get(h(2), 19); ok {
		t.Fatal("a kept blob over the caller's limit was returned")
	}
	c.put(h(6), blob(25, 'f')) // 105 bytes: the least recently used (3) goes
	if _, ok := c.get(h(3), 0); ok {
		t.Fatal("the least recently used blob was not evicted")
	}
	for _, b := range []byte{2, 4, 5, 6} {
		if _, ok := c.get(h(b), 0); !ok {
			t.Fatalf("blob %d evicted", b)
		}
	}
	if c.size != 85 || len(c.byHash) != 4 || c.order.Len() != 4 {
		t.Fatalf("size %d, %d entries, %d in order", c.size, len(c.byHash), c.order.Len())
	}
}
