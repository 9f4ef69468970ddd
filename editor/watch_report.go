package editor

// Reporting: external changes become editor::changed events with cause
// "external", with a patch when the content before is known.

import (
	"context"

	"github.com/editord/editord/workspace"
)

// report emits external events for changes nobody in this state dir made.
func (ses *watchSession) report(cands []*candidate) {
	evs := make([]workspace.Event, 0, len(cands))
	for _, c := range cands {
		if c.kind == "modified" && c.version != "" && ses.recent[c.rel] == c.version {
			continue // what an earlier event of this batch already reported
		}
		evs = append(evs, ses.event(c))
		ses.account(c)
		ses.own.forget(c.rel, c.seen)
		if c.from != "" {
			ses.own.forget(c.from, c.seen)
		}
	}
	ses.s.emit(context.Background(), evs...)
}

// event builds the editor::changed event of an external change: with a
// real patch when the content before is known (an open buffer, or nothing
// for a new file), with the version and no counts otherwise.
func (ses *watchSession) event(c *candidate) workspace.Event {
	l := loc{abs: ses.abs(c.rel), stored: c.rel}
	ev := workspace.Event{Root: ses.root, Path: c.rel, Kind: c.kind}
	before, haveBefore := ses.cache[c.rel]
	switch c.kind {
	case "moved":
		from := c.from
		ev.From = &from
	case "deleted":
		if haveBefore && !c.isDir && isText(before) {
			ev = ses.s.changeEvent(ses.root, l, "external", "deleted", before, nil)
		}
	case "created":
		if c.data != nil && isText(c.data) {
			ev = ses.s.changeEvent(ses.root, l, "external", "created", nil, c.data)
		}
	case "modified":
		if haveBefore && c.data != nil && isText(before) && isText(c.data) {
			ev = ses.s.changeEvent(ses.root, l, "external", "modified", before, c.data)
		}
	}
	if ev.Version == nil && c.version != "" && c.kind != "deleted" {
		v := c.version
		ev.Version = &v
	}
	ev.Cause, ev.By = "external", "external"
	return ev
}
