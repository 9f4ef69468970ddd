package protocol

import (
	"strconv"
	"strings"
	"time"

	"github.com/editord/editord/editor"
)

// Renderings of the git history, branches and stash: one line per commit,
// per blamed line, per branch, per stash, the way git prints them.

func init() {
	renderers["editor::git::log"] = typed(renderLog)
	renderers["editor::git::blame"] = typed(renderBlame)
	renderers["editor::git::branch"] = typed(renderBranch)
	renderers["editor::git::stash"] = typed(renderStash)
}

func day(unix int64) string { return time.Unix(unix, 0).UTC().Format("2006-01-02") }

func short7(sha string) string {
	if len(sha) > 7 {
		return sha[:7]
	}
	return sha
}

// renderLog is git log --oneline with the date, author and +/- counts.
func renderLog(r *rend, o *editor.GitLogResponse) bool {
	if len(o.Entries) == 0 {
		r.line("no commits")
		return true
	}
	for i, e := range o.Entries {
		merge := ""
		if len(e.Parents) > 1 {
			merge = " (merge)"
		}
		path := ""
		if e.Path != "" {
			path = " [" + e.Path + "]"
		}
		if !r.linef("%s %s %s: %s%s +%d -%d%s", short7(e.SHA), day(e.Date), e.Author, e.Subject, merge, e.Added, e.Removed, path) {
			r.note("… %d more commits on this page not shown; the structured content has them", len(o.Entries)-i)
			return true
		}
	}
	if o.NextCursor != nil {
		r.note("… more history: call %s with cursor: %d", r.name("editor::git::log"), *o.NextCursor)
	}
	return true
}

// renderBlame is git blame's default view: sha (author date line) text.
func renderBlame(r *rend, o *editor.GitBlameResponse) bool {
	if len(o.Lines) == 0 {
		r.linef("%s: no lines", o.Path)
		return true
	}
	for _, l := range o.Lines {
		if !r.linef("%s (%s %s %6d) %s", short7(l.SHA), l.Author, day(l.Date), l.Line, l.Text) {
			r.note("… lines %d–%d not shown (the %d KiB text budget); call %s with start: %d", l.Line, o.Lines[len(o.Lines)-1].Line, textBudget>>10, r.name("editor::git::blame"), l.Line)
			return true
		}
	}
	if n := len(o.Lines); n > 0 && o.Lines[n-1].Line < o.TotalLines {
		r.note("… %s has %d lines; call %s with start: %d for more", o.Path, o.TotalLines, r.name("editor::git::blame"), o.Lines[n-1].Line+1)
	}
	return true
}

// renderBranch is git branch -vv for a list, the summary otherwise.
func renderBranch(r *rend, o *editor.GitBranchResponse) bool {
	if o.Action != "list" {
		r.line(o.Summary)
		return true
	}
	for _, b := range o.Branches {
		mark := " "
		if b.Current {
			mark = "*"
		}
		track := ""
		if b.Upstream != nil {
			var parts []string
			if b.Ahead > 0 {
				parts = append(parts, "ahead "+strconv.Itoa(b.Ahead))
			}
			if b.Behind > 0 {
				parts = append(parts, "behind "+strconv.Itoa(b.Behind))
			}
			track = " [" + *b.Upstream
			if len(parts) > 0 {
				track += ": " + strings.Join(parts, ", ")
			}
			track += "]"
		}
		name := b.Name
		if b.Remote {
			name = "remotes/" + name
		}
		if !r.linef("%s %s %s%s %s", mark, name, short7(b.SHA), track, b.Subject) {
			r.note("… more branches; the structured content has them")
			return true
		}
	}
	return true
}

// renderStash is git stash list for a list, the patch for show, and the
// summary with the conflicted paths otherwise.
func renderStash(r *rend, o *editor.GitStashResponse) bool {
	switch o.Action {
	case "list":
		if len(o.Entries) == 0 {
			r.line("no stash entries")
		}
		for _, e := range o.Entries {
			if !r.linef("%s: %s (%s)", e.Name, e.Message, day(e.Date)) {
				break
			}
		}
		return true
	case "show":
		r.line(o.Summary)
		if o.Patch != "" {
			patchLines(r, o.Patch, "; pass paths to see only theirs")
		}
		return true
	}
	r.line(o.Summary)
	for _, c := range o.Conflicts {
		if !r.line("UU " + c) {
			break
		}
	}
	return true
}
