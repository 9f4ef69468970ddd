package gitops

import (
	"bytes"
	"sort"
)

// Rename detection for staged changes, following git's diffcore-rename:
// exact matches first (same blob; a same-named source preferred), then
// sources and destinations whose base names are unique on both sides and
// at least 75% similar, then the best pairs of a similarity matrix at 50%
// or more. Similarity is git's: files are cut into chunks at each newline
// or every 64 bytes, chunks are hashed into buckets, and the score is the
// share of the larger file's bytes found in common buckets.

const (
	maxScore          = 60000
	minRenameScore    = 30000 // 50%
	minBasenameScore  = minRenameScore + (maxScore-minRenameScore)/2
	candidatesPerDest = 4
	spanHashBase      = 107927
)

// renameSide is a deleted source or an added destination.
type renameSide struct {
	path string
	mode uint32
	hash [20]byte
	used bool
	data []byte // loaded lazily
	span []spanCount
	load func() ([]byte, error)
}

type spanCount struct {
	hash uint32
	cnt  uint32
}

type renamePair struct {
	src, dst int
	score    int
}

// detectRenames pairs sources with destinations; both are in path order.
// limit bounds the inexact matrix (git's diff.renameLimit).
func detectRenames(srcs, dsts []*renameSide, limit int) []renamePair {
	var pairs []renamePair
	dstDone := make([]bool, len(dsts))
	// Exact renames.
	byHash := map[[20]byte][]int{}
	for i, s := range srcs {
		byHash[s.hash] = append(byHash[s.hash], i)
	}
	for di, d := range dsts {
		best, bestScore := -1, -1
		for _, si := range byHash[d.hash] {
			s := srcs[si]
			if s.used {
				continue
			}
			if (!isRegular(s.mode) || !isRegular(d.mode)) && s.mode != d.mode {
				continue
			}
			score := 1
			if basenameSame(s.path, d.path) {
				score++
			}
			if score > bestScore {
				best, bestScore = si, score
				if score == 2 {
					break
				}
			}
		}
		if best >= 0 {
			srcs[best].used = true
			dstDone[di] = true
			pairs = append(pairs, renamePair{src: best, dst: di, score: maxScore})
		}
	}
	// Unique base names.
	srcBase := map[string]int{}
	for i, s := range srcs {
		if s.used {
			continue
		}
		b := basename(s.path)
		if _, dup := srcBase[b]; dup {
			srcBase[b] = -1
		} else {
			srcBase[b] = i
		}
	}
	dstBase := map[string]int{}
	for i, d := range dsts {
		if dstDone[i] {
			continue
		}
		b := basename(d.path)
		if _, dup := dstBase[b]; dup {
			dstBase[b] = -1
		} else {
			dstBase[b] = i
		}
	}
	for si, s := range srcs {
		if s.used {
			continue
		}
		b := basename(s.path)
		di, ok := dstBase[b]
		if !ok || srcBase[b] != si || di < 0 || dstDone[di] {
			continue
		}
		if score := similarity(s, dsts[di]); score >= minBasenameScore {
			s.used, dstDone[di] = true, true
			pairs = append(pairs, renamePair{src: si, dst: di, score: score})
		}
	}
	// The matrix.
	var nsrc, ndst int
	for _, s := range srcs {
		if !s.used {
			nsrc++
		}
	}
	for i := range dsts {
		if !dstDone[i] {
			ndst++
		}
	}
	if nsrc == 0 || ndst == 0 || (limit > 0 && nsrc*ndst > limit*limit) {
		return pairs
	}
	var mx []renameCand
	for di, d := range dsts {
		if dstDone[di] {
			continue
		}
		var best []renameCand
		for si, s := range srcs {
			if s.used {
				continue
			}
			c := renameCand{src: si, dst: di, score: similarity(s, d)}
			if basenameSame(s.path, d.path) {
				c.name = 1
			}
			// Keep the best candidatesPerDest, as git's record_if_better.
			if len(best) < candidatesPerDest {
				best = append(best, c)
				continue
			}
			worst := 0
			for k := 1; k < len(best); k++ {
				if candBetter(best[worst], best[k]) {
					worst = k
				}
			}
			if candBetter(c, best[worst]) {
				best[worst] = c
			}
		}
		mx = append(mx, best...)
	}
	sort.SliceStable(mx, func(a, b int) bool { return candBetter(mx[a], mx[b]) })
	for _, c := range mx {
		if c.score < minRenameScore {
			break
		}
		if dstDone[c.dst] || srcs[c.src].used {
			continue
		}
		srcs[c.src].used, dstDone[c.dst] = true, true
		pairs = append(pairs, renamePair{src: c.src, dst: c.dst, score: c.score})
	}
	return pairs
}

// renameCand is one cell of the similarity matrix.
type renameCand struct {
	src, dst, score, name int
}

// candBetter orders candidates best first: higher score, then a same base
// name (git's score_compare).
func candBetter(a, b renameCand) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	return a.name > b.name
}

func isRegular(mode uint32) bool { return mode == modeRegular || mode == modeExecutable }

func basename(p string) string {
	_, name := splitPath(p)
	return name
}

// basenameSame is git's basename_same: the paths end in the same name.
func basenameSame(a, b string) bool { return basename(a) == basename(b) }

// similarity is git's estimate_similarity for two regular files.
func similarity(s, d *renameSide) int {
	if !isRegular(s.mode) || !isRegular(d.mode) {
		return 0
	}
	if s.data == nil && s.load != nil {
		s.data, _ = s.load()
		if s.data == nil {
			s.data = []byte{}
		}
	}
	if d.data == nil && d.load != nil {
		d.data, _ = d.load()
		if d.data == nil {
			d.data = []byte{}
		}
	}
	ss, ds := len(s.data), len(d.data)
	maxSize, baseSize := max(ss, ds), min(ss, ds)
	if maxSize*(maxScore-minRenameScore) < (maxSize-baseSize)*maxScore {
		return 0
	}
	if s.span == nil {
		s.span = spanHash(s.data)
	}
	if d.span == nil {
		d.span = spanHash(d.data)
	}
	copied := countCopied(s.span, d.span)
	if ds == 0 {
		return 0
	}
	return int(uint64(copied) * maxScore / uint64(maxSize))
}

// spanHash is git's hash_chars: chunk counts per bucket, sorted by bucket.
func spanHash(buf []byte) []spanCount {
	text := !bytes.Contains(buf[:min(len(buf), 8000)], []byte{0})
	counts := map[uint32]uint32{}
	var a1, a2 uint32
	n := uint32(0)
	for i := 0; i < len(buf); i++ {
		c := uint32(buf[i])
		if text && c == '\r' && i+1 < len(buf) && buf[i+1] == '\n' {
			continue
		}
		old := a1
		a1 = (a1 << 7) ^ (a2 >> 25)
		a2 = (a2 << 7) ^ (old >> 25)
		a1 += c
		n++
		if n < 64 && c != '\n' {
			continue
		}
		counts[(a1+a2*0x61)%spanHashBase] += n
		n, a1, a2 = 0, 0, 0
	}
	if n > 0 {
		counts[(a1+a2*0x61)%spanHashBase] += n
	}
	out := make([]spanCount, 0, len(counts))
	for h, c := range counts {
		out = append(out, spanCount{h, c})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].hash < out[j].hash })
	return out
}

// countCopied is the src_copied of git's diffcore_count_changes.
func countCopied(s, d []spanCount) uint64 {
	var sc uint64
	j := 0
	for _, x := range s {
		for j < len(d) && d[j].hash < x.hash {
			j++
		}
		if j < len(d) && d[j].hash == x.hash {
			sc += uint64(min(x.cnt, d[j].cnt))
			j++
		}
	}
	return sc
}
