package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// notes collects a client's notifications.
type notes struct {
	mu  sync.Mutex
	all []mcp.JSONRPCNotification
}

func (n *notes) add(x mcp.JSONRPCNotification) {
	n.mu.Lock()
	n.all = append(n.all, x)
	n.mu.Unlock()
}

// wait returns the first notification pred accepts, waiting for it.
func (n *notes) wait(t *testing.T, what string, pred func(mcp.JSONRPCNotification) bool) mcp.JSONRPCNotification {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		n.mu.Lock()
		for _, x := range n.all {
			if pred(x) {
				n.mu.Unlock()
				return x
			}
		}
		n.mu.Unlock()
		time.Sleep(10 * time.Millisecond)
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	var got []string
	for _, x := range n.all {
		got = append(got, x.Method)
	}
	t.Fatalf("%s: not within 20s; got %v", what, got)
	return mcp.JSONRPCNotification{}
}

// modernClient connects c at protocol 2026-07-28 (server/discover, no
// initialize), declaring the io.editord/changes extension, and opens a
// subscriptions/listen stream for editor://changes and editor://workspace.
func modernClient(t *testing.T, c *client.Client) *notes {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := c.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	n := &notes{}
	c.OnNotification(n.add)
	if _, err := c.Initialize(ctx, mcp.InitializeRequest{Params: mcp.InitializeParams{
		ClientInfo: mcp.Implementation{Name: "agent-2026", Version: "1"},
	}}); err != nil {
		t.Fatal(err)
	}
	if v := c.ProtocolVersion(); v != mcp.ProtocolVersion20260728 {
		t.Fatalf("negotiated %q, want %s", v, mcp.ProtocolVersion20260728)
	}
	stop, err := c.ListenAsync(context.Background(), mcp.SubscriptionFilter{
		ResourceSubscriptions: []string{"editor://changes", "editor://workspace"},
	}, func(err error) { t.Logf("listen: %v", err) })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	n.wait(t, "subscriptions/acknowledged", func(x mcp.JSONRPCNotification) bool {
		return x.Method == mcp.MethodNotificationSubscriptionsAcknowledged
	})
	return n
}

func callModern(t *testing.T, c *client.Client, tool string, args map[string]any) map[string]any {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := c.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: tool, Arguments: args}})
	if err != nil || res.IsError {
		t.Fatalf("%s: %v %+v", tool, err, res)
	}
	var out map[string]any
	raw, _ := json.Marshal(res.StructuredContent)
	json.Unmarshal(raw, &out)
	return out
}

// check2026 drives one 2026-07-28 client: its calls are one writer (by),
// and a write (its own, and another process's) reaches its listen stream
// as notifications/resources/updated and, with the extension declared,
// notifications/editor/changed, each tagged with the subscription id.
func check2026(t *testing.T, c *client.Client, root, state string) {
	n := modernClient(t, c)
	view := callModern(t, c, "editor_workspace_get", nil)
	you, _ := view["you"].(string)
	if !strings.HasPrefix(you, "agent-2026#") {
		t.Fatalf("a 2026 client is %q, want agent-2026#xxxx", you)
	}
	opened := callModern(t, c, "editor_open", map[string]any{"path": "a.txt", "tab": false})
	callModern(t, c, "editor_save", map[string]any{"path": "a.txt", "content": "two\n", "expected_version": opened["version"]})
	if again := callModern(t, c, "editor_workspace_get", nil); again["you"] != you {
		t.Fatalf("the same client is %v now, was %s", again["you"], you)
	}
	tagged := func(x mcp.JSONRPCNotification) bool {
		return x.Params.Meta[mcp.MetaKeySubscriptionID] != nil
	}
	n.wait(t, "resources/updated for editor://changes", func(x mcp.JSONRPCNotification) bool {
		return x.Method == mcp.MethodNotificationResourceUpdated && x.Params.AdditionalFields["uri"] == "editor://changes" && tagged(x)
	})
	ev := n.wait(t, "notifications/editor/changed for my save", func(x mcp.JSONRPCNotification) bool {
		return x.Method == "notifications/editor/changed" && x.Params.AdditionalFields["path"] == "a.txt" && tagged(x)
	})
	if ev.Params.AdditionalFields["by"] != you {
		t.Fatalf("my save's event is by %v, want %s", ev.Params.AdditionalFields["by"], you)
	}
	// Another process's write reaches the stream too.
	if out, err := exec.Command(binary, "call", "editor::create", `{"path":"b.txt","kind":"file","content":"b\n"}`, "--root", root, "--state-dir", state).CombinedOutput(); err != nil {
		t.Fatalf("editord call: %v\n%s", err, out)
	}
	n.wait(t, "notifications/editor/changed for another process's create", func(x mcp.JSONRPCNotification) bool {
		return x.Method == "notifications/editor/changed" && x.Params.AdditionalFields["path"] == "b.txt" && x.Params.AdditionalFields["by"] == "cli" && tagged(x)
	})
}

// withChangesExtension declares editord's io.editord/changes extension,
// which opts a listen stream in to notifications/editor/changed.
var withChangesExtension = client.WithClientCapabilities(mcp.ClientCapabilities{
	Extensions: map[string]any{"io.editord/changes": map[string]any{}},
})

// TestE2E2026HTTP: a client on protocol 2026-07-28 over Streamable HTTP.
func TestE2E2026HTTP(t *testing.T) {
	root, state := workspaceDir(t), t.TempDir()
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("one\n"), 0o644)
	srv := startHTTP(t, root, state)
	tr, err := transport.NewStreamableHTTP(srv.url, transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + srv.token}))
	if err != nil {
		t.Fatal(err)
	}
	c := client.NewClient(tr, withChangesExtension)
	t.Cleanup(func() { c.Close() })
	check2026(t, c, root, state)
}

// TestE2E2026Stdio: the same client over stdio.
func TestE2E2026Stdio(t *testing.T) {
	root, state := workspaceDir(t), t.TempDir()
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("one\n"), 0o644)
	tr := transport.NewStdio(binary, []string{"HOME=" + t.TempDir()}, "serve", "--root", root, "--state-dir", state)
	c := client.NewClient(tr, withChangesExtension)
	t.Cleanup(func() { c.Close() })
	check2026(t, c, root, state)
}
