package protocol

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/server"

	"github.com/editord/editord/editor"
)

// callers keeps one editor.Caller per MCP session, so every call of a
// session is the same writer (by) with the same memory of the root it saw.
type callers struct {
	srv   *server.MCPServer // tells a session its tool list changed
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
// session (in-process tests) share one anonymous caller. A request on
// protocol 2026-07-28 over HTTP has no session (each is served by an
// ephemeral one): its caller is that of its client software, named by the
// clientInfo in its _meta, so one client's calls are one writer (by) with
// one memory of the root, as a session's are.
func (c *callers) of(ctx context.Context) *editor.Caller {
	s := server.ClientSessionFromContext(ctx)
	id := ""
	if s != nil {
		id = s.SessionID()
	}
	info := server.RequestProtocolInfoFromContext(ctx)
	key := id
	if id == "" && info != nil && info.Modern {
		key = statelessKey(info)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if cl, ok := c.by[key]; ok {
		return cl
	}
	if len(c.by) >= maxCallers {
		c.dropStateless()
	}
	cl := editor.NewCaller(c.name(s, info, key))
	if id != "" && c.srv != nil {
		cl.ListsToolsets(toolsMoved(c.srv, s)) // toolsets.go
	}
	c.by[key] = cl
	return cl
}

// maxCallers bounds the callers kept; past it the sessionless ones go
// first (their clients are named by themselves, so a client could make up
// names without end).
const maxCallers = 4096

// statelessPrefix marks the keys of sessionless callers.
const statelessPrefix = "\x00stateless:"

func statelessKey(info *server.RequestProtocolInfo) string {
	k := statelessPrefix
	if info.ClientInfo != nil {
		k += info.ClientInfo.Name + "\x00" + info.ClientInfo.Version
	}
	return k
}

func (c *callers) dropStateless() {
	for k := range c.by {
		if strings.HasPrefix(k, statelessPrefix) {
			delete(c.by, k)
		}
	}
}

// name is the client's name and 4 hex of its session: claude-code#3f2a (of
// its key, for a sessionless caller).
func (c *callers) name(s server.ClientSession, info *server.RequestProtocolInfo, key string) string {
	client := "mcp"
	if ci, ok := s.(server.SessionWithClientInfo); ok && ci.GetClientInfo().Name != "" {
		client = ci.GetClientInfo().Name
	}
	if info != nil && info.ClientInfo != nil && info.ClientInfo.Name != "" {
		client = info.ClientInfo.Name
	}
	short := c.stdio
	if key != "stdio" {
		sum := sha256.Sum256([]byte(key))
		short = hex.EncodeToString(sum[:2])
	}
	return client + "#" + short
}

func (c *callers) forget(id string) {
	c.mu.Lock()
	delete(c.by, id)
	c.mu.Unlock()
}
