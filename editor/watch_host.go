package editor

import (
	"context"
	"time"

	"github.com/editord/editord/shell"
	"github.com/editord/editord/workspace"
)

// WatchHost is the service as its filesystem watcher (editor/watch) sees
// it: the jail and the record, the writes lock, the journal, and the few
// rules the watcher follows (versions, what is text, how an event's patch
// is made). It satisfies watch.Service; editor does not import the
// watcher, which runs beside the service (cmd/editord starts it):
//
//	watch.New().Run(ctx, svc.WatchHost())
//
// Only the watcher should hold one: its Emit journals events as the
// service's own.
type WatchHost struct{ s *Service }

// WatchHost is s for its watcher.
func (s *Service) WatchHost() WatchHost { return WatchHost{s} }

func (h WatchHost) Jail() *shell.Jail                                  { return h.s.jail }
func (h WatchHost) Store() *workspace.Store                            { return h.s.store }
func (h WatchHost) RootOf(rec *workspace.Record) (string, error)       { return h.s.rootOf(rec) }
func (h WatchHost) Start() string                                      { return h.s.start }
func (h WatchHost) MaxFileBytes() int64                                { return h.s.cfg.Limits.MaxFileBytes }
func (h WatchHost) ChangesKept() int                                   { return h.s.cfg.Limits.ChangesKept }
func (h WatchHost) Warn(msg string)                                    { h.s.warn(msg) }
func (h WatchHost) Quiesce(ctx context.Context) error                  { return h.s.quiesce(ctx) }
func (h WatchHost) GiveWay(ctx context.Context, budget *time.Duration) { h.s.giveWay(ctx, budget) }
func (h WatchHost) Emit(ctx context.Context, evs ...workspace.Event)   { h.s.emit(ctx, evs...) }
func (h WatchHost) Version(data []byte) string                         { return Version(data) }
func (h WatchHost) HandOut(v string, data []byte)                      { h.s.handOut(v, data) }

// ExternalEvent is the event of a change another program made to rel,
// with its patch, when both sides are text (docs/contract.md §5).
func (h WatchHost) ExternalEvent(root, rel, kind string, before, after []byte) (workspace.Event, bool) {
	if before != nil && !isText(before) || after != nil && !isText(after) {
		return workspace.Event{}, false
	}
	abs := root + "/" + rel
	if rel == "" {
		abs = root
	}
	return h.s.changeEvent(root, loc{abs: abs, stored: rel}, "external", kind, before, after), true
}
