package search

import (
	"slices"
	"unsafe"
)

// hitArena holds the text and match ranges of one scanner's hits in
// shared blocks instead of two small objects per hit: a capped search of
// 20,000 hits made 40,000 of them for the collector to find and mark. A
// block's bytes are never written again once a hit refers to them; a full
// block is left to the hits that hold it.
type hitArena struct {
	text   []byte
	ranges [][2]int
}

const (
	arenaTextBlock  = 64 << 10
	arenaRangeBlock = 4 << 10
)

// str returns b as a string held by the arena (a nil arena: its own).
func (a *hitArena) str(b []byte) string {
	if a == nil || len(b) == 0 {
		return string(b)
	}
	if len(b) > cap(a.text)-len(a.text) {
		if len(b) > arenaTextBlock/4 {
			return string(b)
		}
		a.text = make([]byte, 0, arenaTextBlock)
	}
	n := len(a.text)
	a.text = append(a.text, b...)
	return unsafe.String(&a.text[n], len(b))
}

// rng returns a copy of r held by the arena, its capacity cut to its
// length so that an append cannot reach a neighbour's ranges (a nil
// arena: r itself).
func (a *hitArena) rng(r [][2]int) [][2]int {
	if a == nil {
		return r
	}
	if len(r) == 0 {
		return [][2]int{}
	}
	if len(r) > cap(a.ranges)-len(a.ranges) {
		if len(r) > arenaRangeBlock/4 {
			return slices.Clone(r)
		}
		a.ranges = make([][2]int, 0, arenaRangeBlock)
	}
	n := len(a.ranges)
	a.ranges = append(a.ranges, r...)
	return a.ranges[n:len(a.ranges):len(a.ranges)]
}
