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
// notifications/editor/changed (docs/contract.md §5).
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

	// HTTP sessions' POSTs in progress, and notifications held back for
	// them (see hold).
	posts   map[string]int
	settled map[string]time.Time // when a session's last POST ended
	held    map[string][]heldNote
	flushAt *time.Timer // armed while anything is held
}

type heldNote struct {
	method string
	params map[string]any
}

func newHub() *hub {
	return &hub{subs: map[string]map[string]bool{}, versions: map[string]string{},
		posts: map[string]int{}, settled: map[string]time.Time{}, held: map[string][]heldNote{}}
}

// holdAfterPost is how long after a POST ends its session's notifications
// are still held back: time for mcp-go's forwarder of that POST to exit.
const holdAfterPost = 20 * time.Millisecond

// postBegins and postEnds bracket an HTTP POST of a session (the HTTP
// guard calls them). mcp-go's Streamable HTTP server (v1.2.1) hands a
// session's notifications to whichever of its streams reads first: the
// standalone GET stream, or the forwarder of a POST in progress, and a
// forwarder whose POST is ending drops what it takes. Every client must
// get every event (docs/contract.md §5), so while a session has a POST in
// progress, and for a moment after, its notifications are held and then
// sent, in order, for the GET stream to carry (flush, on a timer armed
// only while something is held).
func (h *hub) postBegins(id string) {
	h.mu.Lock()
	h.posts[id]++
	h.mu.Unlock()
}

func (h *hub) postEnds(id string) {
	h.mu.Lock()
	if h.posts[id]--; h.posts[id] <= 0 {
		delete(h.posts, id)
	}
	h.settled[id] = time.Now()
	h.mu.Unlock()
}

// send delivers a notification to one session now, or holds it while the
// session has a POST in progress. Sends happen under h.mu (they never
// block), so held notifications cannot be overtaken by newer ones.
func (h *hub) send(id, method string, params map[string]any) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.posts[id] > 0 || len(h.held[id]) > 0 || time.Since(h.settled[id]) < holdAfterPost {
		h.held[id] = append(h.held[id], heldNote{method, params})
		h.armFlush()
		return
	}
	h.srv.SendNotificationToSpecificClient(id, method, params)
}

// armFlush schedules a flush unless one is pending; call with h.mu held.
func (h *hub) armFlush() {
	if h.flushAt == nil {
		h.flushAt = time.AfterFunc(holdAfterPost, h.flush)
	}
}

// flush sends what was held for sessions whose POSTs have settled, and
// comes back later for the rest.
func (h *hub) flush() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.flushAt = nil
	for id, notes := range h.held {
		if h.posts[id] == 0 && time.Since(h.settled[id]) >= holdAfterPost {
			for _, n := range notes {
				h.srv.SendNotificationToSpecificClient(id, n.method, n.params)
			}
			delete(h.held, id)
		}
	}
	if len(h.held) > 0 {
		h.armFlush()
	}
}

func (h *hub) hooks(cs *callers) *server.Hooks {
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
		cs.forget(s.SessionID())
		h.mu.Lock()
		delete(h.subs, s.SessionID())
		delete(h.versions, s.SessionID())
		delete(h.held, s.SessionID())
		delete(h.settled, s.SessionID())
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
		h.send(id, "notifications/resources/updated", map[string]any{"uri": uri})
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
			h.send(id, changedMethod, params)
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
