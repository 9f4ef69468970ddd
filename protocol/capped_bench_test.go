package protocol

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/editord/editord/editor"
)

// BenchmarkStdioSearchCapped: editor_search of a very common literal
// capped at 20,000 hits on a large tree (BENCH_CORPUS), through
// ServeStdio, one op per call (bench's capped row without the process):
//
//	BENCH_CORPUS=.bench/corpus go test ./protocol -run '^$' -bench StdioSearchCapped -cpuprofile /tmp/capped.prof
func BenchmarkStdioSearchCapped(b *testing.B) {
	root := os.Getenv("BENCH_CORPUS")
	if root == "" {
		b.Skip("BENCH_CORPUS names a large tree")
	}
	svc, err := editor.New(editor.DefaultConfig(), editor.Options{Root: root, StateDir: b.TempDir()})
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
	msg, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": map[string]any{"name": "editor_search", "arguments": map[string]any{"pattern": "err", "literal": true, "max_matches": 20000}}})
	msg = append(msg, '\n')
	inW.Write(msg) // warm
	readLine()
	var size int
	b.ResetTimer()
	for range b.N {
		inW.Write(msg)
		l := readLine()
		if !strings.Contains(string(l), `"truncated":true`) {
			b.Fatalf("%.300s", l)
		}
		size = len(l)
	}
	b.ReportMetric(float64(size), "bytes/reply")
}
