package protocol

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/editord/editord/workspace"
)

// Clients on protocol 2026-07-28 keep no session: they hear of changes on
// a subscriptions/listen stream, where every notification is one they
// opted in to and carries the stream's subscription id in _meta. mcp-go
// (v1.2.1) opens the stream, acknowledges it and delivers the list_changed
// types it knows; editord's own notifications are delivered here:
//
//   - notifications/resources/updated for editor://workspace and
//     editor://changes, to a stream whose filter's resourceSubscriptions
//     names them;
//   - notifications/editor/changed (one per event, params the event), to a
//     stream subscribed to editor://changes whose client declares the
//     io.editord/changes extension in its capabilities: editord's own
//     notification, which the 2026 filter cannot name, negotiated as an
//     extension (the server declares it too).
//
// Sends never block (fire-and-forget, as for every client): a stream whose
// queue is full misses the notification.

// changesExtension names editord's notifications/editor/changed as a 2026
// extension.
const changesExtension = "io.editord/changes"

// listener is one open subscriptions/listen stream.
type listener struct {
	sess    server.ClientSession
	id      any // the listen request's id: the subscription id
	uris    map[string]bool
	changed bool
}

type listeners struct {
	mu sync.Mutex
	m  map[server.ClientSession]*listener
}

func newListeners() *listeners { return &listeners{m: map[server.ClientSession]*listener{}} }

// hooks registers the streams as they open and forgets them as they end.
func (ls *listeners) hooks(hk *server.Hooks) {
	hk.AddBeforeSubscriptionsListen(func(ctx context.Context, id any, req *mcp.SubscriptionsListenRequest) {
		sess := server.ClientSessionFromContext(ctx)
		if sess == nil || id == nil {
			return
		}
		l := &listener{sess: sess, id: id, uris: map[string]bool{}}
		for _, u := range req.Params.Notifications.ResourceSubscriptions {
			if u == workspaceURI || u == changesURI {
				l.uris[u] = true
			}
		}
		if info := server.RequestProtocolInfoFromContext(ctx); info != nil && info.ClientCapabilities != nil {
			_, l.changed = info.ClientCapabilities.Extensions[changesExtension]
		}
		l.changed = l.changed && l.uris[changesURI]
		if len(l.uris) == 0 {
			return
		}
		ls.mu.Lock()
		ls.m[sess] = l
		ls.mu.Unlock()
	})
	end := func(ctx context.Context) {
		if sess := server.ClientSessionFromContext(ctx); sess != nil {
			ls.mu.Lock()
			delete(ls.m, sess)
			ls.mu.Unlock()
		}
	}
	hk.AddAfterSubscriptionsListen(func(ctx context.Context, _ any, _ *mcp.SubscriptionsListenRequest, _ *mcp.SubscriptionsListenResult) {
		end(ctx)
	})
	hk.AddOnError(func(ctx context.Context, _ any, method mcp.MCPMethod, _ any, _ error) {
		if method == mcp.MethodSubscriptionsListen {
			end(ctx)
		}
	})
}

// updated tells the streams subscribed to uri that it changed.
func (ls *listeners) updated(uri string) {
	ls.each(func(l *listener) {
		if l.uris[uri] {
			l.send(mcp.MethodNotificationResourceUpdated, map[string]any{"uri": uri})
		}
	})
}

// events delivers a batch of journal events: editor://changes changed,
// and each event to the streams that take them.
func (ls *listeners) events(evs []workspace.Event) {
	ls.updated(changesURI)
	var params []map[string]any
	ls.each(func(l *listener) {
		if !l.changed {
			return
		}
		if params == nil {
			for _, ev := range evs {
				var p map[string]any
				raw, _ := json.Marshal(ev)
				json.Unmarshal(raw, &p)
				params = append(params, p)
			}
		}
		for _, p := range params {
			l.send(changedMethod, p)
		}
	})
}

func (ls *listeners) each(fn func(l *listener)) {
	ls.mu.Lock()
	all := make([]*listener, 0, len(ls.m))
	for _, l := range ls.m {
		all = append(all, l)
	}
	ls.mu.Unlock()
	for _, l := range all {
		fn(l)
	}
}

// send queues one notification on the stream, tagged with its
// subscription id; a full queue drops it.
func (l *listener) send(method string, params map[string]any) {
	n := mcp.JSONRPCNotification{JSONRPC: mcp.JSONRPC_VERSION, Notification: mcp.Notification{
		Method: method,
		Params: mcp.NotificationParams{
			Meta:             map[string]any{mcp.MetaKeySubscriptionID: l.id},
			AdditionalFields: params,
		},
	}}
	select {
	case l.sess.NotificationChannel() <- n:
	default:
	}
}
