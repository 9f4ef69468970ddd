package search

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// TestScanStreamMatchesScan: searching a file piece by piece finds exactly
// the hits of searching it whole, whatever the piece size (lines cut at a
// piece's end, longer than a piece, a last line without a line break).
func TestScanStreamMatchesScan(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var b strings.Builder
	for i := range 3000 {
		switch r.IntN(10) {
		case 0:
			b.WriteString(strings.Repeat("x", r.IntN(900)) + " needle " + strings.Repeat("y", r.IntN(300)) + "\n")
		case 1:
			b.WriteString("\n")
		case 2:
			b.WriteString(fmt.Sprintf("line %d with Needle and needle\r\n", i))
		default:
			b.WriteString(strings.Repeat("z", r.IntN(80)) + "\n")
		}
	}
	b.WriteString("last needle without a line break")
	data := []byte(b.String())
	for _, pat := range []string{"needle", "(?i)needle", `^$`, `needle$`, `\bneedle\b`} {
		m, err := Compile(pat, MatchOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want := m.Scan(data, 1<<30)
		for _, piece := range []int{64, 1000, 4096, 1 << 20} {
			sc := scanner{m: m}
			buf := make([]byte, piece)
			got, _, why := sc.scanStream(bytes.NewReader(data), 1<<30, &buf)
			if why != "" || !reflect.DeepEqual(got, want) {
				t.Fatalf("%s in pieces of %d: %d hits (%s), want %d", pat, piece, len(got), why, len(want))
			}
			// And with a limit.
			buf = make([]byte, piece)
			if got, _, _ := sc.scanStream(bytes.NewReader(data), 7, &buf); !reflect.DeepEqual(got, want[:min(7, len(want))]) {
				t.Fatalf("%s in pieces of %d, limit 7: %v", pat, piece, got)
			}
		}
	}
}

// TestScanStreamStops: a NUL byte ends the search of a file (hits before
// it kept, as ripgrep does), and so does a line too long to hold.
func TestScanStreamStops(t *testing.T) {
	m, _ := Compile("needle", MatchOptions{})
	data := []byte(strings.Repeat("needle\n", 100) + "\x00" + strings.Repeat("needle\n", 100))
	sc := scanner{m: m}
	buf := make([]byte, 128)
	hits, _, why := sc.scanStream(bytes.NewReader(data), 1000, &buf)
	if why != SkipBinary || len(hits) < 1 || len(hits) > 100 {
		t.Fatalf("binary part: %d hits, %q", len(hits), why)
	}
	long := bytes.Repeat([]byte("a"), streamMaxLine+10)
	buf = nil
	if _, _, why := sc.scanStream(bytes.NewReader(long), 10, &buf); why != SkipLongLine || cap(buf) > streamMaxLine {
		t.Fatalf("a line over the limit: %q, buffer %d", why, cap(buf))
	}
}
