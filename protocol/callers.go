package protocol

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"sync"

	"github.com/mark3labs/mcp-go/server"

	"github.com/editord/editord/editor"
)

// callers keeps one editor.Caller per MCP session, so every call of a
// session is the same writer (by) with the same memory of the root it saw.
type callers struct {
	mu    sync.Mutex
	by    map[string]*editor.Caller
	stdio string // 4 hex for this process's stdio session, whose id is always "stdio"
}

func newCallers() *callers {
	var b [2]byte
	rand.Read(b[:])
	return &callers{by: map[string]*editor.Caller{}, stdio: hex.EncodeToString(b[:])}
}

// of is the caller of the session a call arrived on; calls without a
// session (in-process tests) share one anonymous caller.
func (c *callers) of(ctx context.Context) *editor.Caller {
	s := server.ClientSessionFromContext(ctx)
	id := ""
	if s != nil {
		id = s.SessionID()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if cl, ok := c.by[id]; ok {
		return cl
	}
	cl := editor.NewCaller(c.name(s))
	c.by[id] = cl
	return cl
}

// name is the client's name and 4 hex of its session: claude-code#3f2a.
func (c *callers) name(s server.ClientSession) string {
	client := "mcp"
	if ci, ok := s.(server.SessionWithClientInfo); ok && ci.GetClientInfo().Name != "" {
		client = ci.GetClientInfo().Name
	}
	short := c.stdio
	if s != nil && s.SessionID() != "stdio" {
		sum := sha256.Sum256([]byte(s.SessionID()))
		short = hex.EncodeToString(sum[:2])
	}
	return client + "#" + short
}

func (c *callers) forget(id string) {
	c.mu.Lock()
	cl := c.by[id]
	delete(c.by, id)
	c.mu.Unlock()
	cl.End()
}
