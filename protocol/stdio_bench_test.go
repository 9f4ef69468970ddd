package protocol

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/editord/editord/editor"
)

// BenchmarkStdioDiffIdentical: editor_diff of two identical 1 MiB texts
// through ServeStdio (the fast path), one op per call:
//
//	go test ./protocol -run '^$' -bench StdioDiff -cpuprofile /tmp/stdio.prof
func BenchmarkStdioDiffIdentical(b *testing.B) {
	svc, err := editor.New(editor.DefaultConfig(), editor.Options{Root: b.TempDir(), StateDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer svc.Close()
	s := NewServer(svc, "bench")
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go ServeStdio(ctx, s, inR, outW)
	out := bufio.NewReaderSize(outR, 4<<20)
	readLine := func() []byte {
		var line []byte
		for {
			frag, err := out.ReadSlice('\n')
			line = append(line, frag...)
			if err != bufio.ErrBufferFull {
				return line
			}
		}
	}
	send := func(v any) {
		m, _ := json.Marshal(v)
		inW.Write(append(m, '\n'))
	}
	send(map[string]any{"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "b", "version": "1"}}})
	readLine()
	var a strings.Builder
	for i := 0; a.Len() < 1<<20; i++ {
		fmt.Fprintf(&a, "%06d\tfunc handler%d(w http.ResponseWriter, r *http.Request) { serve(w, r, %d) }\n", i, i%977, i*7)
	}
	msg, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": map[string]any{"name": "editor_diff", "arguments": map[string]any{"before": a.String(), "after": a.String()}}})
	msg = append(msg, '\n')
	b.SetBytes(int64(len(msg)))
	b.ResetTimer()
	for range b.N {
		inW.Write(msg)
		if l := readLine(); !strings.Contains(string(l), `"identical":true`) {
			b.Fatalf("%.200s", l)
		}
	}
}
