package wire

import (
	"math/rand/v2"
	"testing"
)

// plainRun's eight-bytes-at-a-time test agrees with a byte-by-byte one on
// every length and position of a control byte, next to bytes of every
// value (UTF-8 lead and continuation bytes included).
func TestPlainRunWordwise(t *testing.T) {
	slow := func(b []byte) bool {
		for _, c := range b {
			if c < 0x20 {
				return false
			}
		}
		return true
	}
	r := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 40; n++ {
		for trial := 0; trial < 200; trial++ {
			b := make([]byte, n)
			for i := range b {
				b[i] = byte(0x20 + r.IntN(0xe0))
			}
			if trial%2 == 1 && n > 0 {
				b[r.IntN(n)] = byte(r.IntN(0x20))
			}
			if got, want := plainRun(b), slow(b); got != want {
				t.Fatalf("%x: %v, want %v", b, got, want)
			}
		}
	}
}
