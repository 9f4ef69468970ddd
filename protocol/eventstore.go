package protocol

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"

	"github.com/mark3labs/mcp-go/server"
)

// ringStore is the EventStore mcp-go's Streamable HTTP server records every
// SSE message in (server.WithEventStore). Having one changes how mcp-go
// delivers a session's notifications, which is why editord has it:
//
//   - a session's standalone GET stream is fed by a pump that lives as
//     long as the session, not by a goroutine of one connection that drops
//     what it holds when that connection ends;
//   - a POST that takes one of the session's notifications after its
//     handler finished still records it on its own stream, and the POST
//     waits for its forwarder to exit before it answers, so nothing taken
//     is dropped;
//   - a client whose stream broke resumes it with Last-Event-ID and is
//     sent what it missed.
//
// mcp-go's own InMemoryEventStore keeps every event of a session until the
// session ends; this one keeps, per session, the last ringEvents events
// and at most ringBytes of them: enough to resume a stream that broke for
// a moment, bounded whatever a session lives through. A resume from an
// event already dropped is refused as unknown (the client then opens a
// new stream; editor::changes holds the journal for catching up).
type ringStore struct {
	maxEvents int
	maxBytes  int

	mu       sync.Mutex
	seq      int64
	sessions map[string]*ring
}

// The default bounds of one session's ring: a change event carries at most
// 16 KiB of patch (event_patch_bytes), so a megabyte holds dozens of the
// largest and hundreds of ordinary ones.
const (
	ringEvents = 512
	ringBytes  = 1 << 20
)

type ring struct {
	events []ringEvent // oldest first
	bytes  int
}

type ringEvent struct {
	id, stream string
	msg        json.RawMessage
}

var _ server.EventStore = (*ringStore)(nil)

func newRingStore(maxEvents, maxBytes int) *ringStore {
	return &ringStore{maxEvents: maxEvents, maxBytes: maxBytes, sessions: map[string]*ring{}}
}

// StoreEvent appends message to the session's ring, dropping its oldest
// events while it is over either bound. IDs come from one counter, so they
// are unique across sessions too and mean nothing in another session.
func (s *ringStore) StoreEvent(_ context.Context, sessionID, streamID string, message json.RawMessage) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.sessions[sessionID]
	if r == nil {
		r = &ring{}
		s.sessions[sessionID] = r
	}
	s.seq++
	id := strconv.FormatInt(s.seq, 10)
	// The caller may reuse message's buffer.
	r.events = append(r.events, ringEvent{id: id, stream: streamID, msg: append(json.RawMessage(nil), message...)})
	r.bytes += len(message)
	drop := 0
	for len(r.events)-drop > s.maxEvents || (r.bytes > s.maxBytes && len(r.events)-drop > 1) {
		r.bytes -= len(r.events[drop].msg)
		r.events[drop] = ringEvent{}
		drop++
	}
	if drop > 0 {
		r.events = r.events[drop:]
		// Reslicing keeps the dropped head allocated; copy once the slice
		// has wasted as much as it holds.
		if cap(r.events) > 2*s.maxEvents {
			r.events = append(make([]ringEvent, 0, s.maxEvents+1), r.events...)
		}
	}
	return id, nil
}

// ReplayEventsAfter sends the events of lastEventID's stream recorded after
// it, oldest first, outside the lock (send writes to a client).
func (s *ringStore) ReplayEventsAfter(_ context.Context, sessionID, lastEventID string, send func(eventID string, message json.RawMessage) error) (string, error) {
	s.mu.Lock()
	r := s.sessions[sessionID]
	at := -1
	if r != nil {
		for i := len(r.events) - 1; i >= 0; i-- {
			if r.events[i].id == lastEventID {
				at = i
				break
			}
		}
	}
	if at < 0 {
		s.mu.Unlock()
		return "", fmt.Errorf("%w: %s", server.ErrUnknownEventID, lastEventID)
	}
	stream := r.events[at].stream
	var tail []ringEvent
	for _, ev := range r.events[at+1:] {
		if ev.stream == stream {
			tail = append(tail, ev)
		}
	}
	s.mu.Unlock()
	for _, ev := range tail {
		if err := send(ev.id, ev.msg); err != nil {
			return "", err
		}
	}
	return stream, nil
}

// PurgeSession forgets the session's events; mcp-go calls it when the
// session ends (DELETE, expiry, shutdown).
func (s *ringStore) PurgeSession(_ context.Context, sessionID string) error {
	s.mu.Lock()
	delete(s.sessions, sessionID)
	s.mu.Unlock()
	return nil
}

// sessionCount is how many sessions have events recorded (for tests).
func (s *ringStore) sessionCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.sessions)
}
