package editor

import (
	"context"
	"slices"
	"sync"
)

// Caller is who makes a call: one MCP session (an agent or the person's
// page), or one `editord call`. Front ends attach it to the context; the
// service reads it to name the writer of every change event (by) and to
// remember the active root the caller last saw, so that another caller's
// root switch can never silently redirect this caller's writes.
type Caller struct {
	// By names the caller in change events: the MCP client's name and 4 hex
	// of its session (claude-code#3f2a), or "cli".
	By string

	mu   sync.Mutex
	seen string // the active root named by the last response this caller got

	// Toolsets this caller's tool list holds beyond the configured ones
	// (editor::tools), and how its front end tells the client its list
	// changed; nil for a caller without a lasting session to list for.
	toolsets      []string
	toolsetsMoved func()
}

// ListsToolsets makes the caller one whose tool list editor::tools can
// grow: moved tells its client the list changed.
func (c *Caller) ListsToolsets(moved func()) {
	c.mu.Lock()
	c.toolsetsMoved = moved
	c.mu.Unlock()
}

// Toolsets are the toolsets editor::tools added for this caller.
func (c *Caller) Toolsets() []string {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.toolsets...)
}

// addToolsets adds toolsets to the caller's list; it reports whether the
// caller lists toolsets at all, and tells its client when the list grew.
func (c *Caller) addToolsets(names []string) bool {
	if c == nil {
		return false
	}
	c.mu.Lock()
	moved := c.toolsetsMoved
	if moved == nil {
		c.mu.Unlock()
		return false
	}
	grew := false
	for _, n := range names {
		if !slices.Contains(c.toolsets, n) {
			c.toolsets = append(c.toolsets, n)
			grew = true
		}
	}
	c.mu.Unlock()
	if grew {
		moved()
	}
	return true
}

// NewCaller is a caller that has seen no root yet.
func NewCaller(by string) *Caller { return &Caller{By: by} }

// SawRoot records that a response named root to this caller.
func (c *Caller) SawRoot(root string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.seen = root
	c.mu.Unlock()
}

// meetRoot records root as seen by a caller that has seen none yet: the
// first response naming a root sets the baseline; afterwards only the
// calls that re-sync (editor::workspace::get and ::open) move it.
func (c *Caller) meetRoot(root string) {
	if c == nil || root == "" {
		return
	}
	c.mu.Lock()
	if c.seen == "" {
		c.seen = root
	}
	c.mu.Unlock()
}

// SeenRoot is the active root this caller last saw; "" before any.
func (c *Caller) SeenRoot() string {
	if c == nil {
		return ""
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.seen
}

type callerKey struct{}

// WithCaller attaches the caller to a call's context.
func WithCaller(ctx context.Context, c *Caller) context.Context {
	return context.WithValue(ctx, callerKey{}, c)
}

// CallerFrom is the caller of a call, or nil when none was attached (a
// test, or the service's own background work).
func CallerFrom(ctx context.Context) *Caller {
	c, _ := ctx.Value(callerKey{}).(*Caller)
	return c
}

// by names the writer of a change made in this call.
func by(ctx context.Context) string {
	if c := CallerFrom(ctx); c != nil && c.By != "" {
		return c.By
	}
	return "editord"
}
