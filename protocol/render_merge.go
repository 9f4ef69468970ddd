package protocol

import (
	"fmt"

	"github.com/editord/editord/editor"
)

// Renderings of what editor::save and editor::edit say about a three-way
// merge with the disk and about a person's draft (editor/merge.go,
// editor/draft_notice.go).

// mergedLine says what a merged write took from the other change.
func mergedLine(r *rend, tw *editor.ThreeWay) {
	where := ""
	if tw.TheirsLines != "" {
		where = " (now lines " + tw.TheirsLines + ")"
	}
	r.linef("merged: the file had changed since expected_version %s; the other change%s did not overlap yours, so both are in the file. Patch from your content to what was written:", deref(tw.BaseVersion), where)
}

// overlapLines describes a conflict found by a merge: where the sides
// overlap and each side's change from the base.
func overlapLines(r *rend, path, disk string, tw *editor.ThreeWay) {
	r.linef("conflict: %s changed on disk since expected_version %s (now version %s) and %s your change; nothing was written.",
		path, deref(tw.BaseVersion), disk, plural(len(tw.Conflicts), "place overlaps", "places overlap"))
	for _, c := range tw.Conflicts {
		r.linef("  base %s: disk has %s, yours has %s", spanText(c.Base), spanText(c.Theirs), spanText(c.Yours))
	}
	r.linef("Reconcile both changes, then write again with expected_version %s. Their change (base to disk):", disk)
	if tw.TheirsPatch != nil {
		patchLines(r, *tw.TheirsPatch)
	}
	r.line("Your change (base to yours):")
	if tw.YoursPatch != nil {
		patchLines(r, *tw.YoursPatch)
	}
}

func spanText(s editor.LineSpan) string {
	switch s.Lines {
	case 0:
		return fmt.Sprintf("nothing before line %d", s.StartLine)
	case 1:
		return fmt.Sprintf("line %d", s.StartLine)
	}
	return fmt.Sprintf("lines %d–%d", s.StartLine, s.StartLine+s.Lines-1)
}

// draftLine tells a writer or reader of a file that someone holds unsaved
// edits of it.
func draftLine(r *rend, n *editor.DraftNotice, writing bool) {
	if n == nil {
		return
	}
	lines := "unknown lines"
	if n.Lines != "" {
		lines = "lines " + n.Lines
	}
	what := "what you read is the disk's content, not their text"
	if writing {
		what = "your write leaves their text alone and their editor merges your change into it; keep clear of those lines"
	}
	r.linef("note: %s holds unsaved edits of this file (%s of their draft, over version %s): %s.", n.By, lines, n.BaseVersion, what)
}

// heldLine says a write was held for a person's draft.
func heldLine(r *rend, path string, n *editor.DraftNotice) {
	who, lines := "a person", ""
	if n != nil {
		who = n.By
		if n.Lines != "" {
			lines = " (lines " + n.Lines + ")"
		}
	}
	r.linef("held: %s holds unsaved edits of %s%s and draft_conflict is \"refuse\"; nothing was written. Try again once they have saved or discarded them (the buffer shows dirty: false).", who, path, lines)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
