package protocol

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/editord/editord/editor"
)

// TestOpenJSONMatchesMarshal: openJSON writes what encoding/json writes
// for the same response, byte for byte.
func TestOpenJSONMatchesMarshal(t *testing.T) {
	if got := reflect.TypeFor[editor.OpenResponse]().NumField(); got != 13 {
		t.Fatalf("OpenResponse has %d fields, openJSON writes 13: teach it the new ones", got)
	}
	texts := []string{"", "plain", "a\tb\"c\\d", "<a & b>", "\x00\x01\x1f\x7f", "caf\u00e9 \u2028 \u2029 \U0001F600", "bad \xff\xfe utf8", "\r\n", strings.Repeat("line\n", 100)}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 500 {
		pick := func() string { return texts[rng.IntN(len(texts))] }
		o := &editor.OpenResponse{Path: pick(), Content: pick() + pick(), Language: pick(), Size: rng.Int64N(1 << 40), Mtime: rng.Int64N(1<<33) - 1<<32,
			Version: pick(), Truncated: rng.IntN(2) == 0, EOL: pick(), StartLine: rng.IntN(1 << 20), EndLine: rng.IntN(1<<20) - 1, TotalLines: rng.IntN(1 << 20), Root: pick()}
		if rng.IntN(3) == 0 {
			o.Draft = &editor.DraftNotice{By: pick(), BaseVersion: pick(), Lines: pick()}
		}
		want, err := marshalJSON(o)
		if err != nil {
			t.Fatal(err)
		}
		if got := openJSON(o); string(got) != string(want) {
			t.Fatalf("openJSON\n%s\nencoding/json\n%s", got, want)
		}
	}
}
