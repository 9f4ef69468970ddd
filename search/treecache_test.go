package search

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"
)

// memTrees is a TreeCache in memory that tells when it was saved to.
type memTrees struct {
	mu    sync.Mutex
	m     map[string][]byte
	saved chan struct{}
}

func (c *memTrees) LoadTree(root string) []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[root]
}

func (c *memTrees) SaveTree(root string, data []byte) {
	c.mu.Lock()
	c.m[root] = data
	c.mu.Unlock()
	select {
	case c.saved <- struct{}{}:
	default:
	}
}

func cachedFind(t *testing.T, e *Engine, root, q string) []string {
	t.Helper()
	res, err := e.Find(context.Background(), root, FindOptions{Query: q, Limit: 100, IncludeUntracked: true})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range res.Matches {
		out = append(out, m.Path)
	}
	slices.Sort(out)
	return out
}

// An engine keeps the tree it walked in its TreeCache, and a new one (a
// restarted process) takes it up from there: the same candidates, and a
// file added meanwhile is found.
func TestFindTreeFromCache(t *testing.T) {
	root := tempRoot(t)
	writeTree(t, root, map[string]string{"src/a.go": "x", "src/b/c.go": "x", "docs/readme.md": "x", ".gitignore": "*.log\n", "x.log": "x"})
	j := openJail(t, root, testDeny, testNoise)
	cache := &memTrees{m: map[string][]byte{}, saved: make(chan struct{}, 1)}
	first := New(j)
	first.SetTreeCache(cache)
	want := cachedFind(t, first, root, "go")
	select {
	case <-cache.saved:
	case <-time.After(30 * time.Second):
		t.Fatal("the walked tree was never saved")
	}
	second := New(j)
	second.SetTreeCache(cache)
	if got := cachedFind(t, second, root, "go"); !slices.Equal(got, want) {
		t.Fatalf("from the cache %v, walked %v", got, want)
	}
	writeTree(t, root, map[string]string{"src/b/new.go": "x"})
	third := New(j)
	third.SetTreeCache(cache)
	if got := cachedFind(t, third, root, "new"); !slices.Contains(got, "src/b/new.go") {
		t.Fatalf("a file added since the snapshot is not found: %v", got)
	}
	// Garbage in the cache is a walk, not an error.
	cache.m[root] = []byte("not a snapshot")
	fourth := New(j)
	fourth.SetTreeCache(cache)
	if got := cachedFind(t, fourth, root, "go"); len(got) != 4 {
		t.Fatalf("with a broken cache: %v", got)
	}
}
