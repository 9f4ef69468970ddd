package protocol

import (
	"fmt"
	"strings"

	"github.com/editord/editord/editor"
)

// renderReview is editor::git::hunks without path: a stat of every changed
// file (as git diff --stat, in counts), then the diffs the reply holds,
// then what was left out and how to get it. The list takes at most half
// the budget when there are diffs to show, and room is kept for three
// closing notes (the patch's cut, unlisted files, diffs left out).
func renderReview(r *rend, o *editor.GitHunksResponse) {
	if len(o.Files) == 0 && o.LeftOut == 0 {
		r.linef("no changes against %s", o.Against)
		return
	}
	r.limit -= 2 * trailerRoom
	r.linef("%s changed against %s, +%d -%d:", plural(len(o.Files)+unlisted(o), "file", "files"), o.Against, o.Added, o.Removed)
	full := r.limit
	if o.Patch != "" {
		r.limit -= min(len(o.Patch), r.room()/2)
	}
	var out []string
	listed := 0
	for _, f := range o.Files {
		line := fmt.Sprintf("%s +%d -%d", f.Path, f.Added, f.Removed)
		switch {
		case f.Skipped != "":
			line = fmt.Sprintf("%s (%s: no diff)", f.Path, f.Skipped)
		case f.Untracked:
			line += " (untracked)"
		}
		if !f.InPatch && f.Skipped == "" {
			line += " (diff left out)"
		}
		if !r.line(line) {
			break
		}
		listed++
		if !f.InPatch && f.Skipped == "" {
			out = append(out, f.Path)
		}
	}
	r.limit, r.full = full, false
	if o.Patch != "" {
		patchLines(r, o.Patch)
	}
	if n := unlisted(o) + len(o.Files) - listed; n > 0 {
		r.note("… %d more changed files not listed (the %d KiB text budget); narrow with paths", n, textBudget>>10)
	}
	if len(out) > 0 {
		names := strings.Join(out[:min(len(out), 10)], ", ")
		if len(out) > 10 {
			names += fmt.Sprintf(" and %d more", len(out)-10)
		}
		r.note("… the diffs of %s are left out (the %d KiB text budget): %s; pass one as path, or narrow with paths", plural(len(out), "file", "files"), textBudget>>10, names)
	}
}

// unlisted is how many changed files the reply does not list at all.
func unlisted(o *editor.GitHunksResponse) int {
	n := o.LeftOut
	for _, f := range o.Files {
		if !f.InPatch && f.Skipped == "" {
			n--
		}
	}
	return n
}
