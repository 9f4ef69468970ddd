package editor

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/editord/editord/editor/lsp"
)

// The Go index needs no language server running (none is started), and is
// dropped once unused for the Go server's idle_seconds, then built again
// by the next query.
func TestGoSymbolsIndexIdle(t *testing.T) {
	e := tcNew(t, func(c *Config) {
		c.LSP = lsp.WithDefaults(c.LSP)
		g := c.LSP["go"]
		g.Command, g.IdleSeconds = []string{"/nonexistent/gopls"}, 1
		c.LSP["go"] = g
	})
	lspWrite(e, goModule)
	ctx := context.Background()
	ask := func() {
		t.Helper()
		out, err := e.s.Symbols(ctx, &SymbolsRequest{Query: "Greet", Language: "go"})
		if err != nil || len(out.Symbols) != 1 || out.Symbols[0].Path != "lib/lib.go" {
			t.Fatalf("Greet: %+v, %v", out, err)
		}
	}
	ask()
	if len(e.s.lsp.Running()) != 0 {
		t.Fatal("a workspace query started a server")
	}
	held := func() bool {
		e.s.gosym.Lock()
		defer e.s.gosym.Unlock()
		return e.s.gosymIdx != nil
	}
	if !held() {
		t.Fatal("no index after a query")
	}
	deadline := time.Now().Add(10 * time.Second)
	for held() {
		if time.Now().After(deadline) {
			t.Fatal("the index was kept past idle_seconds")
		}
		time.Sleep(50 * time.Millisecond)
	}
	ask()
}

// Events the journal dropped before the index read them (changes_kept
// passed between two queries) make it build itself again: the names of
// every file written meanwhile are found, not only the last ones'.
func TestGoSymbolsIndexRebuiltAfterLostEvents(t *testing.T) {
	e := tcNew(t, func(c *Config) {
		c.Limits.ChangesKept = 3
		c.LSP = lsp.WithDefaults(c.LSP)
		g := c.LSP["go"]
		g.Command = []string{"/nonexistent/gopls"}
		c.LSP["go"] = g
	})
	lspWrite(e, goModule)
	ctx := context.Background()
	query := func(q string) int {
		t.Helper()
		out, err := e.s.Symbols(ctx, &SymbolsRequest{Query: q, Language: "go"})
		if err != nil {
			t.Fatal(err)
		}
		return out.Total
	}
	if n := query("Greet"); n != 1 {
		t.Fatalf("Greet: %d", n)
	}
	for i := range 10 {
		name := fmt.Sprintf("Lost%02d", i)
		if _, err := e.s.Save(ctx, &SaveRequest{Path: "lost/" + strings.ToLower(name) + ".go", Content: "package lost\n\nfunc " + name + "() {}\n", Force: true}); err != nil {
			t.Fatal(err)
		}
	}
	if n := query("Lost"); n != 10 {
		t.Fatalf("after 10 saves with changes_kept 3: %d of the 10 names found", n)
	}
}
