package protocol

import (
	"fmt"
	"strings"

	"github.com/editord/editord/editor"
	"github.com/editord/editord/editor/turns"
)

// Renderings of turns: a listing is one line per turn (id, who, files,
// +/-, when, title, flags) with its paths; a turn's detail lists each file
// with its hunk headers and their status, then the patches while the
// budget lasts; a revert says what it undid and what it refused, each
// refusal with its three sides.

func init() {
	renderers["editor::turn"] = typed(renderTurn)
	renderers["editor::history"] = typed(renderHistory)
	renderers["editor::revert"] = typed(renderRevert)
}

func renderTurn(r *rend, o *editor.TurnResponse) bool {
	if o.Turn == nil {
		r.line("no open turn to end")
		return true
	}
	r.line(turnLine(o.Turn))
	return true
}

// turnLine is one turn's line: t42 claude-code#3f2a 3 files +12 -4
// 14:02:11–14:03:40Z "title" (open, unreviewed).
func turnLine(t *turns.Summary) string {
	var b strings.Builder
	start, end := clock(t.Start), clock(t.End)
	if len(start) > 11 && len(end) > 11 && start[:11] == end[:11] {
		end = end[11:] // the same day
	}
	fmt.Fprintf(&b, "%s %s %s +%d -%d %s–%s", t.Turn, t.By, plural(t.Files, "file", "files"), t.Added, t.Removed, start, end)
	if t.Title != "" {
		fmt.Fprintf(&b, " %q", t.Title)
	}
	var flags []string
	if t.Open {
		flags = append(flags, "open")
	}
	if t.Reverts != "" {
		flags = append(flags, "reverts "+t.Reverts)
	}
	if len(t.RevertedIn) > 0 {
		flags = append(flags, "reverted in "+strings.Join(t.RevertedIn, ", "))
	}
	if t.External {
		flags = append(flags, "with external changes")
	}
	if t.Reviewed {
		flags = append(flags, "reviewed")
	}
	if len(flags) > 0 {
		b.WriteString(" (" + strings.Join(flags, ", ") + ")")
	}
	return b.String()
}

// clock is an RFC 3339 time cut to the second: 2026-01-02 14:02:11.
func clock(ts string) string {
	if len(ts) >= 19 {
		return strings.Replace(ts[:19], "T", " ", 1)
	}
	return ts
}

func renderHistory(r *rend, o *editor.HistoryResponse) bool {
	if len(o.Turns) == 0 {
		r.line("no turns")
		return true
	}
	if len(o.Files) > 0 {
		return renderTurnDetail(r, o)
	}
	for i := range o.Turns {
		t := &o.Turns[i]
		line := turnLine(t)
		if len(t.Paths) > 0 {
			line += "\n  " + strings.Join(t.Paths, ", ")
			if t.Files > len(t.Paths) {
				line += fmt.Sprintf(" and %d more", t.Files-len(t.Paths))
			}
		}
		if !r.line(line) {
			r.budgetCut(len(o.Turns)-i, "turns on this page")
			return true
		}
	}
	if o.More > 0 {
		r.note("… %s older; call %s with before: %s for them", plural(o.More, "more turn", "more turns"), r.name("editor::history"), o.Next)
	} else {
		r.note("%s with turn gives one in detail; %s undoes one", r.name("editor::history"), r.name("editor::revert"))
	}
	return true
}

// renderTurnDetail lists the files and hunk headers first (the whole
// shape of the turn, whatever its size), then each file's patch while the
// budget lasts.
func renderTurnDetail(r *rend, o *editor.HistoryResponse) bool {
	t := &o.Turns[0]
	r.line(turnLine(t))
	heads := make([]string, len(o.Files))
	need := 0
	for i, f := range o.Files {
		var b strings.Builder
		path := f.Path
		if f.From != nil {
			path = *f.From + " -> " + f.Path
		}
		fmt.Fprintf(&b, "%s %s +%d -%d %s", path, f.Kind, f.Added, f.Removed, f.Status)
		if f.Now != nil {
			fmt.Fprintf(&b, " (now at %s)", *f.Now)
		}
		if f.External {
			b.WriteString(" (external)")
		}
		if f.Note != "" {
			b.WriteString("\n  " + f.Note)
		}
		for _, h := range f.Hunks {
			fmt.Fprintf(&b, "\n  %d %s %s", h.ID, h.Header, h.Status)
			switch {
			case len(h.ChangedBy) > 0:
				fmt.Fprintf(&b, " by %s", strings.Join(h.ChangedBy, ", "))
			case h.RevertedIn != "":
				fmt.Fprintf(&b, " in %s", h.RevertedIn)
			}
			if h.Kept {
				b.WriteString(" (kept)")
			}
		}
		heads[i] = b.String()
		need += len(heads[i]) + 1
	}
	for i, h := range heads {
		if !r.line(h) {
			r.budgetCut(len(heads)-i, "files")
			return true
		}
	}
	left := 0
	for _, f := range o.Files {
		if f.Patch == "" {
			continue
		}
		if len(f.Patch)+1 > r.room() {
			left++
			continue
		}
		r.b.WriteString(f.Patch)
		if !strings.HasSuffix(f.Patch, "\n") {
			r.b.WriteByte('\n')
		}
	}
	if left > 0 {
		r.note("… the patches of %s are left out (the %d KiB text budget); the structured content has them", plural(left, "file", "files"), textBudget>>10)
	}
	return true
}

func renderRevert(r *rend, o *editor.RevertResponse) bool {
	switch {
	case o.DryRun:
		r.line(fmt.Sprintf("dry run: would undo %s, refuse %s", plural(len(o.Undone), "file", "files"), plural(len(o.Refused), "part", "parts")))
	case o.Turn != "":
		r.line(fmt.Sprintf("undone as turn %s (revert it to redo): %s, %s refused", o.Turn, plural(len(o.Undone), "file", "files"), plural(len(o.Refused), "part", "parts")))
	case len(o.Refused) == 0:
		r.line("nothing to undo: the turn's changes are no longer on disk")
	default:
		r.line("nothing undone")
	}
	for _, u := range o.Undone {
		line := fmt.Sprintf("%s %s", u.Kind, u.Path)
		if u.From != nil {
			line = fmt.Sprintf("%s %s -> %s", u.Kind, *u.From, u.Path)
		}
		if len(u.Hunks) > 0 {
			line += " hunks " + ints(u.Hunks)
		}
		r.line(line)
	}
	for _, f := range o.Refused {
		head := "refused " + f.Path
		if f.Hunk > 0 {
			head += fmt.Sprintf(" hunk %d", f.Hunk)
		}
		r.line(head + ": " + f.Reason)
		if f.AsWas == "" && f.AsMade == "" && f.AsNow == "" {
			continue
		}
		for _, side := range []struct{ name, text string }{{"as it was", f.AsWas}, {"as the turn made it", f.AsMade}, {"as it is now", f.AsNow}} {
			if !r.line("  " + side.name + ":") {
				break
			}
			for _, l := range strings.SplitAfter(strings.TrimSuffix(side.text, "\n"), "\n") {
				if !r.line("  | " + strings.TrimSuffix(l, "\n")) {
					break
				}
			}
		}
	}
	if o.Patch != "" && len(o.Patch)+1 <= r.room() {
		r.b.WriteString(o.Patch)
		if !strings.HasSuffix(o.Patch, "\n") {
			r.b.WriteByte('\n')
		}
	} else if o.Patch != "" {
		r.note("… the patch is left out (the %d KiB text budget); the structured content has it", textBudget>>10)
	}
	return true
}

func ints(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = fmt.Sprint(n)
	}
	return strings.Join(s, ", ")
}
