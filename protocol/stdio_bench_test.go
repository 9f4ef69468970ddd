package protocol

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
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
	_, sendRaw, readLine := stdioBench(b, svc)
	a, _ := mibTexts()
	msg, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": map[string]any{"name": "editor_diff", "arguments": map[string]any{"before": a, "after": a}}})
	msg = append(msg, '\n')
	b.SetBytes(int64(len(msg)))
	b.ResetTimer()
	for range b.N {
		sendRaw(msg)
		if l := readLine(); !strings.Contains(string(l), `"identical":true`) {
			b.Fatalf("%.200s", l)
		}
	}
}

// mibTexts are two 1 MiB texts of Go-like lines that differ in about a
// hundred places.
func mibTexts() (string, string) {
	var x, y strings.Builder
	for i := 0; x.Len() < 1<<20; i++ {
		l := fmt.Sprintf("%06d\tfunc handler%d(w http.ResponseWriter, r *http.Request) { serve(w, r, %d) }\n", i, i%977, i*7)
		x.WriteString(l)
		if i%211 == 0 {
			y.WriteString("// changed: ")
		}
		y.WriteString(l)
	}
	return x.String(), y.String()
}

// stdioBench serves svc over ServeStdio through pipes: send writes one
// message, readLine reads one reply line.
func stdioBench(b *testing.B, svc *editor.Service) (send func(v any), sendRaw func([]byte), readLine func() []byte) {
	s := NewServer(svc, "bench")
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	b.Cleanup(cancel)
	go ServeStdio(ctx, s, inR, outW)
	out := bufio.NewReaderSize(outR, 4<<20)
	readLine = func() []byte {
		var line []byte
		for {
			frag, err := out.ReadSlice('\n')
			line = append(line, frag...)
			if err != bufio.ErrBufferFull {
				return line
			}
		}
	}
	sendRaw = func(m []byte) { inW.Write(m) }
	send = func(v any) {
		m, _ := json.Marshal(v)
		inW.Write(append(m, '\n'))
	}
	send(map[string]any{"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "b", "version": "1"}}})
	readLine()
	return send, sendRaw, readLine
}

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
	_, sendRaw, readLine := stdioBench(b, svc)
	msg, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": map[string]any{"name": "editor_search", "arguments": map[string]any{"pattern": "err", "literal": true, "max_matches": 20000}}})
	msg = append(msg, '\n')
	sendRaw(msg) // warm
	readLine()
	var size int
	b.ResetTimer()
	for range b.N {
		sendRaw(msg)
		l := readLine()
		if !strings.Contains(string(l), `"truncated":true`) {
			b.Fatalf("%.300s", l)
		}
		size = len(l)
	}
	b.ReportMetric(float64(size), "bytes/reply")
}

// BenchmarkStdioSave1MiB: a guarded save of a 1 MiB file through
// ServeStdio, alternating two contents (bench's "save a 1 MiB file" row
// without the processes):
//
//	go test ./protocol -run '^$' -bench StdioSave1MiB -cpuprofile /tmp/save.prof
func BenchmarkStdioSave1MiB(b *testing.B) {
	root := b.TempDir()
	svc, err := editor.New(editor.DefaultConfig(), editor.Options{Root: root, StateDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer svc.Close()
	_, sendRaw, readLine := stdioBench(b, svc)
	x, y := mibTexts()
	texts := []string{x, y}
	if err := os.WriteFile(root+"/big.txt", []byte(texts[0]), 0o644); err != nil {
		b.Fatal(err)
	}
	version := editor.Version([]byte(texts[0]))
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		msg, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": i + 1, "method": "tools/call", "params": map[string]any{"name": "editor_save", "arguments": map[string]any{"path": "big.txt", "content": texts[(i+1)%2], "expected_version": version}}})
		msg = append(msg, '\n')
		b.StartTimer()
		sendRaw(msg)
		l := readLine()
		var r struct {
			Result struct {
				StructuredContent struct {
					Saved   bool   `json:"saved"`
					Version string `json:"version"`
				} `json:"structuredContent"`
			} `json:"result"`
		}
		b.StopTimer()
		if json.Unmarshal(l, &r) != nil || !r.Result.StructuredContent.Saved {
			b.Fatalf("%.300s", l)
		}
		version = r.Result.StructuredContent.Version
		b.StartTimer()
	}
}
