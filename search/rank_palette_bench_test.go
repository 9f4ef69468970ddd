package search

import (
	"fmt"
	"testing"
)

// palettePaths is a test262-like list of n paths (protocol/pagetest's
// bigTree layout), in byte order as git lists them.
func palettePaths(n int) []string {
	paths := make([]string, n)
	for i := range n {
		paths[i] = fmt.Sprintf("test/built-ins-%02d/prototype-%03d/S15.%d.%d_A%d_T%d.js", i%40, (i/40)%150, i%13, i%7, i%97, i)
	}
	return paths
}

// BenchmarkRankPalette: every prefix of the page benchmark's palette
// queries (what each keystroke asks) against 56,000 prepared paths, one
// op per query; warm, as the palette's keystrokes after the first.
//
//	go test ./search -run '^$' -bench RankPalette -cpuprofile /tmp/rank.prof
func BenchmarkRankPalette(b *testing.B) {
	c := Prepare(palettePaths(56000))
	var queries []string
	for _, q := range []string{"S15A9", "proto12", "builtins07", "T5123"} {
		for i := 1; i <= len(q); i++ {
			queries = append(queries, q[:i])
		}
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		c.Rank(queries[i%len(queries)], 50)
	}
}
