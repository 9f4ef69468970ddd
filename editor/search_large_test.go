package editor

import (
	"context"
	"strings"
	"testing"
)

// TestSearchLargeFile: a file over max_file_bytes is searched (in pieces),
// with the right line numbers, and a file that is not searched to its end
// is named with the reason (issue 12: total 0 on a 50 MB file where rg
// found the match, and nothing said why).
func TestSearchLargeFile(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 200_000; i++ {
		if i == 3 || i == 123_457 || i == 200_000 {
			b.WriteString("here is the NEEDLE we want\n")
			continue
		}
		b.WriteString("filler line of moderate length, nothing to see\n")
	}
	s, _ := fsService(t, map[string]string{
		"big.txt":   b.String(), // ~9.6 MB
		"small.txt": "NEEDLE\n",
		"bin.dat":   "NEEDLE\x00\x01",
	}, func(c *Config) { c.Limits.MaxFileBytes = 1 << 20 })
	r, err := s.Search(context.Background(), &SearchRequest{Pattern: "NEEDLE", Literal: true})
	if err != nil {
		t.Fatal(err)
	}
	if r.Total != 4 || len(r.Files) != 2 || r.Files[0].Path != "big.txt" {
		t.Fatalf("hits: total %d, files %+v", r.Total, r.Files)
	}
	var lines []int
	for _, h := range r.Files[0].Hits {
		lines = append(lines, h.Line)
		if h.Text != "here is the NEEDLE we want" || h.Column != 13 {
			t.Errorf("hit %+v", h)
		}
	}
	if len(lines) != 3 || lines[0] != 3 || lines[1] != 123_457 || lines[2] != 200_000 {
		t.Fatalf("lines %v", lines)
	}
	if r.SkippedTotal != 1 || len(r.Skipped) != 1 || r.Skipped[0].Path != "bin.dat" || !strings.HasPrefix(r.Skipped[0].Reason, "binary") {
		t.Fatalf("skipped: %d %+v", r.SkippedTotal, r.Skipped)
	}
	// max_matches keeps the first hits in order, across the large file.
	r, _ = s.Search(context.Background(), &SearchRequest{Pattern: "NEEDLE", Literal: true, MaxMatches: 2})
	if r.Total != 2 || !r.Truncated || r.Files[0].Hits[1].Line != 123_457 {
		t.Fatalf("max_matches 2: %+v", r)
	}
}
