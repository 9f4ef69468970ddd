package protocol

import (
	"context"
	"encoding/json"
	"io"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/editord/editord/editor"
)

// A call stuck where no context reaches (a system call: before the fix, a
// git function in open(2) on a FIFO) kept ServeStdio, and so the process,
// from ending after stdin closed or SIGTERM. Both ends now return within
// ShutdownGrace, the stuck call abandoned.
func TestServeStdioEndsDespiteAStuckCall(t *testing.T) {
	for _, how := range []string{"stdin closed", "context cancelled"} {
		t.Run(how, func(t *testing.T) {
			entered := make(chan struct{})
			stuck := make(chan struct{}) // never closed while serving
			t.Cleanup(func() { close(stuck) })
			svc, err := editor.New(editor.DefaultConfig(), editor.Options{Root: t.TempDir(), StateDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { svc.Close() })
			s := &Server{MCP: server.NewMCPServer("t", "1", server.WithToolCapabilities(false)), svc: svc}
			s.MCP.AddTool(mcp.NewTool("hang"), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				close(entered)
				<-stuck // ignores ctx, as a blocked system call does
				return mcp.NewToolResultText("late"), nil
			})
			inR, inW := io.Pipe()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			done := make(chan error, 1)
			go func() { done <- ServeStdio(ctx, s, inR, io.Discard) }()
			enc := json.NewEncoder(inW)
			enc.Encode(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{
				"protocolVersion": mcp.LATEST_PROTOCOL_VERSION, "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "t", "version": "1"}}})
			enc.Encode(map[string]any{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": map[string]any{"name": "hang", "arguments": map[string]any{}}})
			select {
			case <-entered:
			case <-time.After(20 * time.Second):
				t.Fatal("the call never started")
			}
			if how == "stdin closed" {
				inW.Close()
			} else {
				cancel()
			}
			select {
			case <-done:
			case <-time.After(ShutdownGrace + 10*time.Second):
				t.Fatalf("ServeStdio did not return after %s with a call stuck", how)
			}
		})
	}
}
