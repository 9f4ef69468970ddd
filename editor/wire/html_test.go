package wire

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestUnescapeHTMLOnTheWire(t *testing.T) {
	v := map[string]any{"text": `a<b && c>d \u003c "q" \\u0026 é`, "n": 1}
	escaped, _ := json.Marshal(v)
	if !bytes.Contains(escaped, []byte(`\u003c`)) {
		t.Fatalf("json.Marshal no longer escapes: %s", escaped)
	}
	// Written whole, and cut at every byte: the same plain JSON, the same value.
	for cut := 0; cut <= len(escaped); cut++ {
		var out bytes.Buffer
		w := UnescapeHTML(&out)
		w.Write(escaped[:cut])
		w.Write(escaped[cut:])
		if !bytes.Contains(out.Bytes(), []byte(`a<b && c>d`)) {
			t.Fatalf("cut %d: still escaped: %s", cut, out.Bytes())
		}
		var back map[string]any
		if err := json.Unmarshal(out.Bytes(), &back); err != nil || back["text"] != v["text"] {
			t.Fatalf("cut %d: %s decodes to %v (%v)", cut, out.Bytes(), back, err)
		}
	}
}
