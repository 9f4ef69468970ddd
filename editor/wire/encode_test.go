package wire

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestAppendStringAsEncodingJSON: byte for byte what encoding/json
// writes without HTML escaping, for strings whose special bytes fall at
// every place of the eight-byte words the fast path reads.
func TestAppendStringAsEncodingJSON(t *testing.T) {
	alphabet := []string{"a", "~", " ", "\"", "\\", "\n", "\t", "\r", "\b", "\f", "\x01", "\x1f", "\x7f", "é", "日", "\u2028", "🙂", "<", "&"}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		var s strings.Builder
		for range rng.IntN(40) {
			if rng.IntN(4) == 0 {
				s.WriteString(alphabet[rng.IntN(len(alphabet))])
			} else {
				s.WriteByte('a' + byte(rng.IntN(26)))
			}
		}
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		enc.Encode(s.String())
		if got := AppendString(nil, s.String()); string(got) != strings.TrimSuffix(want.String(), "\n") {
			t.Fatalf("%q: %s, encoding/json %s", s.String(), got, want.String())
		}
	}
}
