package diff

// maxMyersEdits caps the fallback's edit distance; its trace holds about
// maxMyersEdits² int32s (1 MiB).
const maxMyersEdits = 512

// myers emits a shortest edit script for a[a0:a1] -> b[b0:b1] (Myers' greedy
// O(ND) algorithm) and reports true, or emits nothing and reports false when
// more than maxD inserted plus deleted lines would be needed.
//
// It is only the fallback for regions of repeated lines too costly for
// SequenceMatcher, where D is typically tiny. The search keeps every step's
// frontier so the path can be read back without the linear-space refinement.
func (s *scripter) myers(a0, a1, b0, b1, maxD int) bool {
	n, m := a1-a0, b1-b0
	maxD = min(maxD, maxMyersEdits, n+m)
	snake := func(x, y int) int {
		for x < n && y < m && s.a[a0+x] == s.b[b0+y] {
			x, y = x+1, y+1
		}
		return x
	}
	// trace[d][k+d] is the furthest x reached on diagonal k = x-y with d
	// edits, or -1 when that diagonal cannot be reached.
	trace := [][]int32{{int32(snake(0, 0))}}
	if int(trace[0][0]) == n && n == m {
		return true
	}
	for d := 1; d <= maxD; d++ {
		cur := make([]int32, 2*d+1)
		for k := range cur {
			cur[k] = -1
		}
		for k := -d; k <= d; k += 2 {
			x, _ := myersStep(trace[d-1], d, k, n, m)
			if x < 0 {
				continue
			}
			x = snake(x, x-k)
			cur[k+d] = int32(x)
			if x == n && x-k == m {
				s.myersEmit(append(trace, cur), a0, b0, n, m)
				return true
			}
		}
		trace = append(trace, cur)
	}
	return false
}

// myersStep picks how diagonal k is entered at step d from the frontier of
// step d-1: by an insertion from k+1 or a deletion from k-1, whichever gets
// further without stepping outside the texts. It returns the x reached
// before following the snake (-1 if neither move is possible) and the
// diagonal it came from.
func myersStep(prev []int32, d, k, n, m int) (x, from int) {
	x = -1
	if k+1 < d {
		if px := int(prev[k+1+d-1]); px >= 0 && px-(k+1) < m {
			x, from = px, k+1
		}
	}
	if k-1 > -d {
		if px := int(prev[k-1+d-1]); px >= 0 && px < n && px+1 > x {
			x, from = px+1, k-1
		}
	}
	return x, from
}

// myersEmit walks the trace back from (n, m) and emits the edits in order.
func (s *scripter) myersEmit(trace [][]int32, a0, b0, n, m int) {
	type edit struct {
		x, y   int
		insert bool
	}
	edits := make([]edit, 0, len(trace))
	x, y := n, m
	for d := len(trace) - 1; d > 0; d-- {
		_, from := myersStep(trace[d-1], d, x-y, n, m)
		px := int(trace[d-1][from+d-1])
		py := px - from
		edits = append(edits, edit{px, py, from == x-y+1})
		x, y = px, py
	}
	for i := len(edits) - 1; i >= 0; i-- {
		if e := edits[i]; e.insert {
			s.emit(a0+e.x, a0+e.x, b0+e.y, b0+e.y+1)
		} else {
			s.emit(a0+e.x, a0+e.x+1, b0+e.y, b0+e.y)
		}
	}
}
