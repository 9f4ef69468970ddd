package editor

import (
	"context"
	"strings"

	"github.com/editord/editord/diff"
	"github.com/editord/editord/workspace"
)

// Agents see the person. A person typing in their editor keeps their
// unsaved text as a draft (draft.go); the record says who holds it and
// which lines it changes (Buffer.DraftBy, DraftLines). An agent's save or
// edit of that file says so in its reply (DraftNotice), editor::open and
// editor::workspace::get show it, and with draft_conflict = "refuse" the
// write is held until the draft is saved or discarded.

// DraftNotice tells a writer (or a reader) that someone else holds
// unsaved edits of the file.
type DraftNotice struct {
	By          string `json:"by" desc:"Who holds the draft (the person's editor, e.g. editord-page#3f2a)."`
	BaseVersion string `json:"base_version" desc:"The version the draft's edits were made over."`
	Lines       string `json:"lines" desc:"The lines being edited, numbered as in the draft: 1-based ranges (\"12-14,30\"); empty when not known."`
}

// draftNotice is the notice for a caller about the draft of l, or nil
// when there is none or the caller's own editor holds it.
func (s *Service) draftNotice(ctx context.Context, root string, l loc) *DraftNotice {
	var n *DraftNotice
	s.store.View(func(r *workspace.Record) {
		ses := r.Sessions[root]
		if ses == nil {
			return
		}
		i := ses.Find(l.stored)
		if i < 0 || !ses.Buffers[i].Dirty {
			return
		}
		b := ses.Buffers[i]
		if sameHolder(b.DraftBy, by(ctx)) {
			return
		}
		who := b.DraftBy
		if who == "" {
			who = "an editor"
		}
		n = &DraftNotice{By: who, BaseVersion: b.DraftBase, Lines: b.DraftLines}
	})
	return n
}

// sameHolder reports whether a draft kept by holder is the caller's own:
// the same client, whichever of its sessions (the page gets a new session
// when it reconnects, and keeps its drafts).
func sameHolder(holder, caller string) bool {
	if holder == "" {
		return false
	}
	name := func(by string) string {
		if i := strings.LastIndexByte(by, '#'); i > 0 {
			return by[:i]
		}
		return by
	}
	return name(holder) == name(caller)
}

// holdsForDraft reports whether a write with notice n is to be held
// (draft_conflict = "refuse").
func (s *Service) holdsForDraft(n *DraftNotice) bool {
	return n != nil && s.cfg.Editor.DraftConflict == DraftRefuse
}

// draftLines is which lines draft changes from the content of version
// base: from the version store, else the disk when it still has that
// version; else from the disk as it is, or "" when that cannot be read.
func (s *Service) draftLines(l loc, base string, draft []byte) string {
	from, ok := s.versionContent(base)
	if !ok {
		cur, err := s.readDisk(l)
		if err != nil || !cur.exists {
			return ""
		}
		from = cur.data
	}
	d := diff.Unified(stringView(from), stringView(draft), diff.Options{Context: 0, MaxChangedBytes: s.cfg.Limits.MaxDiffBytes})
	if d.Truncated {
		return ""
	}
	return lineRanges(d.Hunks)
}
