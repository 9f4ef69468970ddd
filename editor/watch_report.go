package editor

// Reporting: external changes become editor::changed events with cause
// "external", with a patch when the content before is known.

import (
	"github.com/editord/editord/workspace"
)

// external accounts for a change nobody in this state dir made and
// returns its event; ok is false when an earlier change already reported
// this content.
func (ses *watchSession) external(c *candidate) (ev workspace.Event, ok bool) {
	if _, held := ses.cache[c.rel]; held && c.kind == "created" {
		// Created within the batch, but by a write of ours that the
		// journal holds (follow kept its content): what is external is
		// the change made to it since.
		c.kind = "modified"
	}
	if c.kind == "modified" && c.version != "" && ses.recent[c.rel] == c.version {
		return ev, false
	}
	ev = ses.event(c)
	ses.account(c)
	ses.own.forget(c.rel, c.seen)
	if c.from != "" {
		ses.own.forget(c.from, c.seen)
	}
	return ev, true
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
	if ev.Patch != "" && ev.Version != nil && c.data != nil {
		// An editor follows the change through its patch: the version it
		// then holds may guard its next save, which merges (merge.go).
		ses.s.handOut(*ev.Version, c.data)
	}
	ev.Cause, ev.By = "external", "external"
	return ev
}
