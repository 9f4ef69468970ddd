package shell

import (
	"math/rand/v2"
	"testing"
)

// The compiled shapes of a name pattern (a literal, *.ext, prefix*, *)
// decide exactly as the general matcher, on names made of the same few
// characters so that near misses are common.
func TestNameMatchAgreesWithGlob(t *testing.T) {
	pats := []string{".env", ".env.*", "*.pem", "*.key", "secrets", "*", "**", "node_modules", "a*", "*a", "ab", "*.a.b", "a.*", "[ab]*", "*\\*", "a?b", "*a*"}
	r := rand.New(rand.NewPCG(9, 9))
	const alpha = "ab.*e\\"
	for _, p := range pats {
		m := compileName(p)
		for i := 0; i < 5000; i++ {
			b := make([]byte, r.IntN(7))
			for k := range b {
				b[k] = alpha[r.IntN(len(alpha))]
			}
			name := string(b)
			if i%50 == 0 {
				name = p
			}
			if got, want := m.match(name), matchSegment(p, name); got != want {
				t.Fatalf("pattern %q name %q: %v, the general matcher %v (shape %d)", p, name, got, want, m.kind)
			}
		}
	}
}
