package gitops

import (
	"container/heap"

	"github.com/go-git/go-git/v5/plumbing"
)

// mergeBase finds the best common ancestor of a and b (git merge-base):
// commits are painted from both sides, newest first; a commit reached from
// both is a candidate and its ancestors are stale; candidates that are
// ancestors of other candidates are dropped. With several left (a
// criss-cross history) the newest is returned; git would merge them into a
// virtual base first. ok is false when the histories share nothing.
func (r *Repo) mergeBase(a, b plumbing.Hash) (plumbing.Hash, bool, error) {
	if a == b {
		return a, true, nil
	}
	const stale = 4
	nodes := map[plumbing.Hash]*walkNode{}
	var q commitQueue[*walkNode]
	push := func(h plumbing.Hash, flags uint8) error {
		n := nodes[h]
		if n == nil {
			c, err := r.readCommit(h)
			if err != nil {
				return err
			}
			n = &walkNode{hash: h, time: c.time, parents: c.parents}
			nodes[h] = n
		}
		if n.flags|flags == n.flags {
			return nil
		}
		n.flags |= flags
		if !n.queued {
			n.queued = true
			heap.Push(&q, n)
		}
		return nil
	}
	if err := push(a, sideA); err != nil {
		return plumbing.ZeroHash, false, err
	}
	if err := push(b, sideB); err != nil {
		return plumbing.ZeroHash, false, err
	}
	var found []*walkNode
	live := func() bool {
		for _, n := range q {
			if n.flags&stale == 0 {
				return true
			}
		}
		return false
	}
	for q.Len() > 0 && live() {
		n := heap.Pop(&q).(*walkNode)
		n.queued = false
		flags := n.flags & (sideA | sideB | stale)
		if flags&(sideA|sideB) == sideA|sideB && flags&stale == 0 {
			found = append(found, n)
			flags |= stale
		}
		for _, p := range n.parents {
			if err := push(p, flags); err != nil {
				return plumbing.ZeroHash, false, err
			}
		}
	}
	// Drop candidates that are ancestors of another.
	var best []*walkNode
	for i, c := range found {
		redundant := false
		for j, d := range found {
			if i != j && d.hash != c.hash {
				if anc, err := r.isAncestor(c.hash, d.hash); err == nil && anc {
					redundant = true
					break
				}
			}
		}
		if !redundant {
			best = append(best, c)
		}
	}
	if len(best) == 0 {
		return plumbing.ZeroHash, false, nil
	}
	return best[0].hash, true, nil
}
