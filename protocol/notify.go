package protocol

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/editord/editord/editor"
	"github.com/editord/editord/workspace"
)

// changedMethod carries one editor::changed event to clients that speak
// protocol 2025-11-25 or later.
const changedMethod = "notifications/editor/changed"

// eventsSince is the first protocol version whose clients get
// notifications/editor/changed (CONTRACT.md §5).
const eventsSince = "2025-11-25"

// hub knows which connected session wants which notification and fans
// events out to them. Sends never block: a session whose queue is full
// misses the notification (fire-and-forget), so a slow or gone client never
// slows a write.
type hub struct {
	srv      *server.MCPServer
	mu       sync.Mutex
	subs     map[string]map[string]bool // session id → subscribed URIs
	versions map[string]string          // session id → negotiated protocol version
}

func newHub() *hub {
	return &hub{subs: map[string]map[string]bool{}, versions: map[string]string{}}
}

func (h *hub) hooks() *server.Hooks {
	hk := &server.Hooks{}
	hk.AddAfterInitialize(func(ctx context.Context, _ any, _ *mcp.InitializeRequest, res *mcp.InitializeResult) {
		if s := server.ClientSessionFromContext(ctx); s != nil {
			h.mu.Lock()
			h.versions[s.SessionID()] = res.ProtocolVersion
			h.mu.Unlock()
		}
	})
	hk.AddAfterSubscribe(func(ctx context.Context, _ any, req *mcp.SubscribeRequest, _ *mcp.EmptyResult) {
		if s := server.ClientSessionFromContext(ctx); s != nil {
			h.mu.Lock()
			if h.subs[s.SessionID()] == nil {
				h.subs[s.SessionID()] = map[string]bool{}
			}
			h.subs[s.SessionID()][req.Params.URI] = true
			h.mu.Unlock()
		}
	})
	hk.AddAfterUnsubscribe(func(ctx context.Context, _ any, req *mcp.UnsubscribeRequest, _ *mcp.EmptyResult) {
		if s := server.ClientSessionFromContext(ctx); s != nil {
			h.mu.Lock()
			delete(h.subs[s.SessionID()], req.Params.URI)
			h.mu.Unlock()
		}
	})
	hk.AddOnUnregisterSession(func(_ context.Context, s server.ClientSession) {
		h.mu.Lock()
		delete(h.subs, s.SessionID())
		delete(h.versions, s.SessionID())
		h.mu.Unlock()
	})
	return hk
}

// targets lists the sessions subscribed to uri, and those that get events.
func (h *hub) targets(uri string) (subscribed, eventful []string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for id, uris := range h.subs {
		if uris[uri] {
			subscribed = append(subscribed, id)
		}
	}
	for id, v := range h.versions {
		if v >= eventsSince {
			eventful = append(eventful, id)
		}
	}
	return subscribed, eventful
}

func (h *hub) updated(ids []string, uri string) {
	for _, id := range ids {
		h.srv.SendNotificationToSpecificClient(id, "notifications/resources/updated", map[string]any{"uri": uri})
	}
}

// publish delivers a batch of journal events.
func (h *hub) publish(evs []workspace.Event) {
	subscribed, eventful := h.targets(changesURI)
	h.updated(subscribed, changesURI)
	if len(eventful) == 0 {
		return
	}
	for _, ev := range evs {
		var params map[string]any
		raw, _ := json.Marshal(ev)
		json.Unmarshal(raw, &params)
		for _, id := range eventful {
			h.srv.SendNotificationToSpecificClient(id, changedMethod, params)
		}
	}
}

// run follows the journal and the record until ctx ends. Every process does
// this, so every connected client of every process hears of every write,
// whichever process made it.
func (h *hub) run(ctx context.Context, svc *editor.Service) {
	go svc.Store().Follow(ctx, h.publish)
	last := svc.Store().RecordChanged()
	t := time.NewTicker(25 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if now := svc.Store().RecordChanged(); now != last {
			last = now
			subscribed, _ := h.targets(workspaceURI)
			h.updated(subscribed, workspaceURI)
		}
	}
}
