package gitops

import (
	"container/heap"
	"math"
	"strings"

	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
)

// upstreamOf is the branch's configured upstream: the short name git shows
// (origin/main) and the local ref that tracks it. ok is false when the
// branch has none.
func (r *Repo) upstreamOf(branch string) (short string, ref plumbing.ReferenceName, ok bool) {
	name := strings.TrimPrefix(branch, "refs/heads/")
	remote := r.cfg.str("branch", name, "remote")
	merge := r.cfg.str("branch", name, "merge")
	if remote == "" || merge == "" {
		return "", "", false
	}
	if remote == "." {
		ref = plumbing.ReferenceName(merge)
		return strings.TrimPrefix(merge, "refs/heads/"), ref, true
	}
	fetch := r.remoteFetchSpecs(remote)
	for _, s := range fetch {
		rs := config.RefSpec(s)
		if rs.Validate() != nil {
			continue
		}
		if rs.Match(plumbing.ReferenceName(merge)) {
			ref = rs.Dst(plumbing.ReferenceName(merge))
			return shortRef(ref), ref, true
		}
	}
	return "", "", false
}

// remoteFetchSpecs lists remote.<name>.fetch from every layer.
func (r *Repo) remoteFetchSpecs(remote string) []string {
	var out []string
	for _, c := range r.cfg.layers {
		for _, s := range c.Sections {
			if !s.IsName("remote") {
				continue
			}
			for _, ss := range s.Subsections {
				if ss.IsName(remote) {
					out = append(out, ss.OptionAll("fetch")...)
				}
			}
		}
	}
	return out
}

// shortRef is git's short form of a ref name.
func shortRef(ref plumbing.ReferenceName) string {
	s := ref.String()
	for _, p := range []string{"refs/heads/", "refs/remotes/", "refs/tags/", "refs/"} {
		if t, ok := strings.CutPrefix(s, p); ok {
			return t
		}
	}
	return s
}

// tracking returns the upstream of HEAD's branch and how far HEAD is ahead
// of and behind it.
func (r *Repo) tracking(h head) (upstream string, ahead, behind int, err error) {
	short, ref, ok := r.upstreamOf(h.branch)
	if !ok {
		return "", 0, 0, nil
	}
	up, err := r.ref(ref)
	if err != nil || up.IsZero() {
		return short, 0, 0, err
	}
	if h.unborn() {
		return short, 0, 0, nil
	}
	ahead, behind, err = r.aheadBehind(h.hash, up)
	return short, ahead, behind, err
}

// Walk flags.
const (
	sideA = 1 << iota
	sideB
)

type walkNode struct {
	hash    plumbing.Hash
	time    int64
	parents []plumbing.Hash
	flags   uint8
	queued  bool
}

func (n *walkNode) order() (int64, int) { return n.time, 0 }

// dated is what a commitQueue orders by: the commit time, then a sequence
// number among commits of the same time (lower first).
type dated interface{ order() (time int64, seq int) }

// commitQueue is a container/heap of commits, newest first, for the
// history walks (ahead/behind, merge base, upload, log, blame).
type commitQueue[T dated] []T

func (q commitQueue[T]) Len() int { return len(q) }
func (q commitQueue[T]) Less(i, j int) bool {
	ti, si := q[i].order()
	tj, sj := q[j].order()
	if ti != tj {
		return ti > tj
	}
	return si < sj
}
func (q commitQueue[T]) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *commitQueue[T]) Push(x any)   { *q = append(*q, x.(T)) }
func (q *commitQueue[T]) Pop() any {
	old := *q
	n := old[len(old)-1]
	*q = old[:len(old)-1]
	return n
}

// aheadBehind counts the commits reachable from a but not b, and from b but
// not a (git rev-list --left-right --count a...b). Commits are visited
// newest first; a commit reached from both sides passes that at once to
// every ancestor already seen (git's mark_parents_uninteresting), and the
// walk stops once every commit left to visit is reachable from both.
func (r *Repo) aheadBehind(a, b plumbing.Hash) (ahead, behind int, err error) {
	if a == b {
		return 0, 0, nil
	}
	nodes := map[plumbing.Hash]*walkNode{}
	var q commitQueue[*walkNode]
	pending := 0 // queued nodes not yet reachable from both sides
	load := func(h plumbing.Hash) (*walkNode, error) {
		if n := nodes[h]; n != nil {
			return n, nil
		}
		c, err := r.readCommit(h)
		if err != nil {
			return nil, err
		}
		n := &walkNode{hash: h, time: c.time, parents: c.parents}
		nodes[h] = n
		return n, nil
	}
	// add gives n more flags; known ancestors get them too, right away.
	var add func(n *walkNode, flags uint8)
	add = func(n *walkNode, flags uint8) {
		stack := []*walkNode{n}
		for len(stack) > 0 {
			n := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if n.flags|flags == n.flags {
				continue
			}
			if n.queued && n.flags != sideA|sideB {
				pending--
			}
			n.flags |= flags
			if n.queued && n.flags != sideA|sideB {
				pending++
			}
			for _, p := range n.parents {
				if pn := nodes[p]; pn != nil {
					stack = append(stack, pn)
				}
			}
		}
	}
	push := func(h plumbing.Hash, flags uint8) error {
		n, err := load(h)
		if err != nil {
			return err
		}
		if n.flags == 0 && !n.queued {
			n.queued = true
			heap.Push(&q, n)
			n.flags = flags
			if flags != sideA|sideB {
				pending++
			}
			return nil
		}
		add(n, flags)
		return nil
	}
	if err := push(a, sideA); err != nil {
		return 0, 0, err
	}
	if err := push(b, sideB); err != nil {
		return 0, 0, err
	}
	// minOpen is the oldest commit seen from one side only. A commit still
	// to visit that is not older could lead to it (many commits share a
	// timestamp), so the walk goes on until every queued commit is
	// reachable from both sides and older than that.
	minOpen := func() int64 {
		m := int64(math.MaxInt64)
		for _, n := range nodes {
			if !n.queued && n.flags != sideA|sideB && n.time < m {
				m = n.time
			}
		}
		return m
	}
	for q.Len() > 0 && (pending > 0 || q[0].time >= minOpen()) {
		n := heap.Pop(&q).(*walkNode)
		n.queued = false
		if n.flags != sideA|sideB {
			pending--
		}
		for _, p := range n.parents {
			if err := push(p, n.flags); err != nil {
				return 0, 0, err
			}
		}
	}
	// What the commits still queued know reaches the ancestors already seen.
	for _, n := range q {
		for _, p := range n.parents {
			if pn := nodes[p]; pn != nil {
				add(pn, n.flags)
			}
		}
	}
	for _, n := range nodes {
		switch n.flags {
		case sideA:
			ahead++
		case sideB:
			behind++
		}
	}
	return ahead, behind, nil
}

// isAncestor reports whether commit a is reachable from b.
func (r *Repo) isAncestor(a, b plumbing.Hash) (bool, error) {
	if a == b {
		return true, nil
	}
	ahead, _, err := r.aheadBehind(a, b)
	return ahead == 0, err
}
