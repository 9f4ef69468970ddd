package diff

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// unrelated is ~size bytes of lines and as many others, drawn from the
// same 5,000: a rewrite, the search's worst case.
func unrelated(size int) (before, after string) {
	r := rand.New(rand.NewPCG(7, 9))
	var a, b strings.Builder
	for a.Len() < size {
		fmt.Fprintf(&a, "line %d\n", r.IntN(5000))
		fmt.Fprintf(&b, "line %d\n", r.IntN(5000))
	}
	return a.String(), b.String()
}

// bigPair builds ~size bytes of code-like text (with the usual repeated
// blank and brace lines) and a copy with `changes` scattered lines edited.
func bigPair(size, changes int) (before, after string) {
	r := rand.New(rand.NewPCG(1, 2))
	var lines []string
	n := 0
	for i := 0; n < size; i++ {
		var l string
		switch i % 7 {
		case 5:
			l = "}\n"
		case 6:
			l = "\n"
		default:
			l = fmt.Sprintf("\tvalue%d := compute(%d, %q) // line %d\n", i, r.IntN(1000), "lorem ipsum", i)
		}
		lines = append(lines, l)
		n += len(l)
	}
	before = strings.Join(lines, "")
	for range changes {
		i := r.IntN(len(lines))
		lines[i] = fmt.Sprintf("\tchanged%d := other()\n", i)
	}
	return before, strings.Join(lines, "")
}

func BenchmarkUnified1MiB(b *testing.B) {
	before, after := bigPair(1<<20, 20)
	b.SetBytes(int64(len(before) + len(after)))
	b.ReportAllocs()
	for b.Loop() {
		Unified(before, after, Options{Path: "big.go", Context: DefaultContext})
	}
}

func BenchmarkCounts1MiB(b *testing.B) {
	before, after := bigPair(1<<20, 20)
	b.SetBytes(int64(len(before) + len(after)))
	b.ReportAllocs()
	for b.Loop() {
		Counts(before, after)
	}
}

// The common editor case: one edit somewhere in a big file. Byte-level
// trimming should make this cost little more than comparing memory.
func BenchmarkUnified1MiBOneEdit(b *testing.B) {
	before, after := bigPair(1<<20, 1)
	b.SetBytes(int64(len(before) + len(after)))
	b.ReportAllocs()
	for b.Loop() {
		Unified(before, after, Options{Path: "big.go", Context: DefaultContext})
	}
}

// A whole file rewritten: the search stops at scriptBudget.
func BenchmarkUnified1MiBRewritten(b *testing.B) {
	before, after := unrelated(1 << 20)
	b.SetBytes(int64(len(before) + len(after)))
	b.ReportAllocs()
	for b.Loop() {
		Unified(before, after, Options{Path: "big.go", Context: DefaultContext})
	}
}
