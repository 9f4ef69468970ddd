package wire

import (
	"encoding/json"
	"strings"
	"testing"
)

// A huge string argument is decoded over the message's own bytes, to the
// text encoding/json gives; a message the fast path turns down is left as
// it was for the careful path's error (an unknown field named, not "not
// JSON").
func TestDecodeHugeStringInPlace(t *testing.T) {
	content := strings.Repeat("line \"quoted\"\tand \\ slash\r\n", hugeString/20)
	msg := func(extra string) []byte {
		b, _ := json.Marshal(map[string]any{"path": "big.txt", "content": content, "force": true})
		if extra != "" {
			b = append(b[:len(b)-1], []byte(`,`+extra+`}`)...)
		}
		return b
	}
	var req saveArgs
	if err := DecodeArgs(msg(""), &req); err != nil {
		t.Fatal(err)
	}
	if req.Content != content || req.Path != "big.txt" || !req.Force {
		t.Fatalf("decoded %d bytes (want %d), path %q", len(req.Content), len(content), req.Path)
	}
	err := DecodeArgs(msg(`"expected_verison":"1-2"`), &saveArgs{})
	if err == nil || !strings.Contains(err.Error(), "expected_verison") {
		t.Fatalf("unknown field after a huge content: %v", err)
	}
}
