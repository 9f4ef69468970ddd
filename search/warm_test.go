package search

import (
	"context"
	"testing"
)

// TestWarmPreparesFind: after Warm, the root's tree and find's candidates
// are built, so the first find and search only bring them up to date.
func TestWarmPreparesFind(t *testing.T) {
	root := tempRoot(t)
	writeTree(t, root, map[string]string{"a/b.go": "x\n", "c.txt": "y\n"})
	e := New(openJail(t, root, testDeny, testNoise))
	if s := e.state(root); s.cand != nil || s.tree != nil {
		t.Fatal("a new engine has candidates")
	}
	if err := e.Warm(root, 0); err != nil {
		t.Fatal(err)
	}
	s := e.state(root)
	if s.cand == nil || s.tree == nil || len(s.cand.paths) != 2 {
		t.Fatalf("after Warm: candidates %v, tree %v", s.cand, s.tree)
	}
	before := s.cand
	res, err := e.Find(context.Background(), root, FindOptions{Query: "bgo", Limit: 5, IncludeUntracked: true})
	if err != nil || len(res.Matches) != 1 || s.cand != before {
		t.Fatalf("the first find after Warm: %+v %v (candidates rebuilt: %v)", res, err, s.cand != before)
	}
}
