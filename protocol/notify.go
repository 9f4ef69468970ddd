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
//
// An HTTP session's notifications go to its standalone GET stream: the one
// place a client hears of what it did not ask about (mcp-go feeds it from a
// pump that lives as long as the session, see ringStore). Until that
// stream is open, and between the end of one and the opening of the next,
// they wait here, in order and bounded, and are sent when it opens: sent
// earlier, mcp-go's pump would record them for a resume the client cannot
// ask for (it has seen no event id yet), so they would be lost.
type hub struct {
	srv      *server.MCPServer
	mu       sync.Mutex
	subs     map[string]map[string]bool // session id → subscribed URIs
	versions map[string]string          // session id → negotiated protocol version

	// HTTP sessions: how many GET streams each has open, and what waits
	// for the next one.
	streams map[string]int
	waiting map[string][]heldNote
	http    map[string]bool

	listen *listeners // 2026-07-28 clients' subscriptions/listen streams (listen.go)
}

type heldNote struct {
	method string
	params map[string]any
}

// waitingNotes bounds what waits for one session's stream: the newest are
// kept (a client that reconnects after missing more reads editor::changes).
// The params of an event are shared by every session's copy.
const waitingNotes = 256

func newHub() *hub {
	return &hub{subs: map[string]map[string]bool{}, versions: map[string]string{},
		streams: map[string]int{}, waiting: map[string][]heldNote{}, http: map[string]bool{}, listen: newListeners()}
}

// streamOpened is called once a GET stream of session id has been
// attached and answered (its headers are out): what waited is sent, in
// order, before anything newer (sends happen under h.mu).
func (h *hub) streamOpened(id string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.streams[id]++
	for _, n := range h.waiting[id] {
		h.srv.SendNotificationToSpecificClient(id, n.method, n.params)
	}
	delete(h.waiting, id)
}

// streamClosed is called when a GET stream of session id has ended.
func (h *hub) streamClosed(id string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.streams[id]--; h.streams[id] <= 0 {
		delete(h.streams, id)
	}
}

// send delivers a notification to one session now, or keeps it for the
// session's next stream.
func (h *hub) send(id, method string, params map[string]any) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.http[id] && h.streams[id] == 0 {
		q := append(h.waiting[id], heldNote{method, params})
		if len(q) > waitingNotes {
			q = append(q[:0:0], q[len(q)-waitingNotes:]...)
		}
		h.waiting[id] = q
		return
	}
	h.srv.SendNotificationToSpecificClient(id, method, params)
}

func (h *hub) hooks(cs *callers) *server.Hooks {
	hk := &server.Hooks{}
	hk.AddAfterInitialize(func(ctx context.Context, _ any, _ *mcp.InitializeRequest, res *mcp.InitializeResult) {
		if s := server.ClientSessionFromContext(ctx); s != nil {
			_, viaHTTP := s.(server.SessionWithStreamableHTTPConfig)
			h.mu.Lock()
			h.versions[s.SessionID()] = res.ProtocolVersion
			h.http[s.SessionID()] = viaHTTP
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
		delete(h.waiting, s.SessionID())
		delete(h.streams, s.SessionID())
		delete(h.http, s.SessionID())
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
	h.listen.events(evs)
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
			h.listen.updated(workspaceURI)
		}
	}
}
