package lsp

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/editord/editord/shell"
)

// Manager keeps the language servers of one editord process: one per
// configured server and workspace root, started by the first call that
// needs it, kept warm between calls, started again when it crashed, and
// stopped once unused for its idle time or when the manager closes.
type Manager struct {
	jail    *shell.Jail
	servers map[string]ServerConfig
	opts    Options
	warned  sync.Map        // server names said to run without the sandbox
	ctx     context.Context // the servers' lifetime: Close ends it
	cancel  context.CancelFunc

	mu      sync.Mutex
	slots   map[slotKey]*slot
	janitor bool
}

type slotKey struct{ name, root string }

// slot holds one server; its lock is held while the server starts, so
// callers that need it at once wait for one start.
type slot struct {
	mu      sync.Mutex
	srv     *Server
	crashes []time.Time
}

// crashLimit servers crashing within crashWindow are not started again
// until the window has passed: a server that dies at once would otherwise
// be restarted by every call.
const (
	crashLimit  = 3
	crashWindow = 2 * time.Minute
)

// NewManager serves the configured servers through the jail, each in a
// sandbox of its own (box.go) when opts can give it its folders.
func NewManager(j *shell.Jail, servers map[string]ServerConfig, opts Options) *Manager {
	ctx, cancel := context.WithCancel(context.Background())
	return &Manager{jail: j, servers: servers, opts: opts, ctx: ctx, cancel: cancel, slots: map[slotKey]*slot{}}
}

// For is the configured server for an editor language (the first by name
// when several claim it).
func (m *Manager) For(language string) (string, bool) {
	names := sortedKeys(m.servers)
	for _, n := range names {
		if m.servers[n].serves(language) {
			return n, true
		}
	}
	return "", false
}

// Languages lists the languages some server serves.
func (m *Manager) Languages() []string {
	seen := map[string]bool{}
	var out []string
	for _, c := range m.servers {
		for _, l := range c.Languages {
			if !seen[l] {
				seen[l] = true
				out = append(out, l)
			}
		}
	}
	sort.Strings(out)
	return out
}

// Server is the running server name for root, started if need be.
func (m *Manager) Server(ctx context.Context, name, root string) (*Server, error) {
	cfg, ok := m.servers[name]
	if !ok {
		return nil, fmt.Errorf("no [lsp.%s] is configured", name)
	}
	m.mu.Lock()
	if m.ctx.Err() != nil {
		m.mu.Unlock()
		return nil, errors.New("the language servers are shut down")
	}
	k := slotKey{name, root}
	sl := m.slots[k]
	if sl == nil {
		sl = &slot{}
		m.slots[k] = sl
	}
	if !m.janitor {
		m.janitor = true
		go m.sweep()
	}
	m.mu.Unlock()

	sl.mu.Lock()
	defer sl.mu.Unlock()
	if sl.srv != nil && !sl.srv.dead() {
		sl.srv.touch()
		return sl.srv, nil
	}
	now := time.Now()
	if old := sl.srv; old != nil {
		old.mu.Lock()
		stopped := old.stopping
		old.mu.Unlock()
		if !stopped {
			sl.crashes = append(sl.crashes, now)
		}
		sl.srv = nil
	}
	for len(sl.crashes) > 0 && now.Sub(sl.crashes[0]) > crashWindow {
		sl.crashes = sl.crashes[1:]
	}
	if len(sl.crashes) >= crashLimit {
		return nil, fmt.Errorf("the language server [lsp.%s] crashed %d times within %s; it is started again %s from now (check its command and the workspace)",
			name, len(sl.crashes), crashWindow, (crashWindow - now.Sub(sl.crashes[0])).Round(time.Second))
	}
	// The server lives as long as the manager, not as the call that
	// started it; the call's ctx bounds only the wait for it.
	type started struct {
		s   *Server
		err error
	}
	ch := make(chan started, 1)
	go func() {
		env := serverEnv(shell.Environ(), m.jail.Contains, cfg.Env)
		s, err := m.start(m.ctx, name, cfg, root, env)
		ch <- started{s, err}
	}()
	select {
	case r := <-ch:
		if r.err != nil {
			var missing *MissingError
			if !errors.As(r.err, &missing) {
				sl.crashes = append(sl.crashes, time.Now())
			}
			return nil, r.err
		}
		sl.srv = r.s
		return r.s, nil
	case <-ctx.Done():
		go func() {
			if r := <-ch; r.s != nil {
				sl.mu.Lock()
				if sl.srv == nil {
					sl.srv = r.s
				} else {
					r.s.stop()
				}
				sl.mu.Unlock()
			}
		}()
		return nil, ctx.Err()
	}
}

// Running lists the servers running now.
func (m *Manager) Running() []*Server {
	m.mu.Lock()
	slots := make([]*slot, 0, len(m.slots))
	for _, sl := range m.slots {
		slots = append(slots, sl)
	}
	m.mu.Unlock()
	var out []*Server
	for _, sl := range slots {
		sl.mu.Lock()
		if sl.srv != nil && !sl.srv.dead() {
			out = append(out, sl.srv)
		}
		sl.mu.Unlock()
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name+out[i].Root < out[j].Name+out[j].Root })
	return out
}

// sweep stops servers unused for their idle time, looking twice per the
// shortest idle time configured (at most every 15 s), and those whose
// sandbox no longer hides all it must (Recheck).
func (m *Manager) sweep() {
	every := 15 * time.Second
	for _, c := range m.servers {
		every = min(every, max(c.Idle()/2, 500*time.Millisecond))
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-m.ctx.Done():
			return
		case <-t.C:
		}
		m.mu.Lock()
		slots := make([]*slot, 0, len(m.slots))
		for _, sl := range m.slots {
			slots = append(slots, sl)
		}
		m.mu.Unlock()
		for _, sl := range slots {
			if !sl.mu.TryLock() {
				continue // starting, or in use
			}
			if s := sl.srv; s != nil && !s.dead() && s.idleFor() > s.cfg.Idle() {
				sl.srv = nil
				s.stop()
			}
			sl.mu.Unlock()
		}
		m.Recheck()
	}
}

// stopServer stops s if it is still the server of its slot.
func (m *Manager) stopServer(s *Server) {
	m.mu.Lock()
	sl := m.slots[slotKey{s.Name, s.Root}]
	m.mu.Unlock()
	if sl == nil {
		return
	}
	sl.mu.Lock()
	defer sl.mu.Unlock()
	if sl.srv == s {
		sl.srv = nil
		s.stop()
	}
}

// Stop stops the server name serves root with, if it runs (a test's
// stand-in for idleness).
func (m *Manager) Stop(name, root string) {
	m.mu.Lock()
	sl := m.slots[slotKey{name, root}]
	m.mu.Unlock()
	if sl == nil {
		return
	}
	sl.mu.Lock()
	defer sl.mu.Unlock()
	if sl.srv != nil {
		sl.srv.stop()
		sl.srv = nil
	}
}

// Close stops every server.
func (m *Manager) Close() {
	m.mu.Lock()
	slots := make([]*slot, 0, len(m.slots))
	for _, sl := range m.slots {
		slots = append(slots, sl)
	}
	m.mu.Unlock()
	var wg sync.WaitGroup
	for _, sl := range slots {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sl.mu.Lock()
			defer sl.mu.Unlock()
			if sl.srv != nil {
				sl.srv.stop()
				sl.srv = nil
			}
		}()
	}
	wg.Wait()
	m.mu.Lock()
	m.cancel()
	m.mu.Unlock()
}
