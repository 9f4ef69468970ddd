package protocol

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/editord/editord/editor"
)

// BenchmarkHTTPOpenSave: 8 clients of one Streamable HTTP server, each
// opening and saving its own 900-byte file; one op is one pair. With
// -cpuprofile it shows where a pair's time goes (server and clients share
// the process):
//
//	go test ./protocol -run '^$' -bench HTTPOpenSave -benchtime 2000x -cpuprofile /tmp/http.prof
func BenchmarkHTTPOpenSave(b *testing.B) {
	const clients = 8
	root, state := b.TempDir(), b.TempDir()
	content := strings.Repeat("a line of text in a small file\n", 29)
	for i := range clients {
		os.WriteFile(filepath.Join(root, fmt.Sprintf("f%d.txt", i)), []byte(content), 0o644)
	}
	svc, err := editor.New(editor.DefaultConfig(), editor.Options{Root: root, StateDir: state})
	if err != nil {
		b.Fatal(err)
	}
	defer svc.Close()
	srv := NewServer(svc, "bench")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go srv.Deliver(ctx)
	hs := httptest.NewServer(HTTPHandler(srv, "tok"))
	defer hs.Close()
	cs := make([]*client.Client, clients)
	for i := range cs {
		c, err := client.NewStreamableHttpClient(hs.URL+"/mcp", transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer tok"}))
		if err != nil {
			b.Fatal(err)
		}
		if err := c.Start(ctx); err != nil {
			b.Fatal(err)
		}
		if _, err := c.Initialize(ctx, mcp.InitializeRequest{Params: mcp.InitializeParams{ProtocolVersion: mcp.LATEST_PROTOCOL_VERSION, ClientInfo: mcp.Implementation{Name: "bench", Version: "1"}}}); err != nil {
			b.Fatal(err)
		}
		defer c.Close()
		cs[i] = c
	}
	call := func(c *client.Client, name string, args map[string]any) map[string]any {
		res, err := c.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: name, Arguments: args}})
		if err != nil || res.IsError {
			b.Fatalf("%s: %v %v", name, err, res)
		}
		m, _ := res.StructuredContent.(map[string]any)
		return m
	}
	b.ResetTimer()
	var wg sync.WaitGroup
	for i, c := range cs {
		wg.Go(func() {
			p := fmt.Sprintf("f%d.txt", i)
			for k := i; k < b.N; k += clients {
				o := call(c, "editor_open", map[string]any{"path": p})
				call(c, "editor_save", map[string]any{"path": p, "content": fmt.Sprintf("%s%d\n", content, k), "expected_version": o["version"]})
			}
		})
	}
	wg.Wait()
}
