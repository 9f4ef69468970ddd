package protocol

import (
	"fmt"
	"strings"

	"github.com/editord/editord/editor"
	"github.com/editord/editord/workspace"
)

// Renderings of the file functions: open, save, edit, diff, tree, find,
// search and the tab set.

func init() {
	renderers["editor::open"] = typed(renderOpen)
	renderers["editor::git::show"] = typed(renderShow)
	renderers["editor::save"] = typed(renderSave)
	renderers["editor::edit"] = typed(renderEdit)
	renderers["editor::diff"] = typed(renderDiff)
	renderers["editor::tree"] = typed(renderTree)
	renderers["editor::find"] = typed(renderFind)
	renderers["editor::search"] = typed(renderSearch)
	renderers["editor::workspace::get"] = typed(renderView)
	renderers["editor::workspace::open"] = typed(renderView)
	renderers["editor::buffers::list"] = func(r *rend, v any) bool {
		b := v.(*editor.BuffersListResponse)
		r.line("root: " + b.Root)
		if renderTabs(r, b.Buffers, b.BuffersTotal) && b.More > 0 {
			r.note("… %d more buffers past this page; call %s with offset: %d", b.More, r.name("editor::buffers::list"), b.BuffersTotal-b.More)
		}
		return true
	}
}

// maxLineBytes is the longest line a listing shows whole; a longer one (a
// minified file) is cut, and says how much it lost.
const maxLineBytes = 2000

// numberedLines writes text's lines as "{n:6}\t{line}" from line first,
// and returns the number of the last line written (first-1 for none).
func numberedLines(r *rend, text string, first int) int {
	n := first - 1
	// Line by line, not split whole: a 50 MB file's 560,000 lines were
	// cut up to show the first few hundred.
	for l := range strings.Lines(text) {
		l = strings.TrimSuffix(strings.TrimSuffix(l, "\n"), "\r")
		if len(l) > maxLineBytes {
			cut := cutString(l, maxLineBytes)
			l = fmt.Sprintf("%s…(+%d bytes)", cut, len(l)-len(cut))
		}
		if !r.linef("%6d\t%s", n+1, l) {
			break
		}
		n++
	}
	return n
}

func renderOpen(r *rend, o *editor.OpenResponse) bool {
	span := fmt.Sprintf("lines %d–%d of %d", o.StartLine, o.EndLine, o.TotalLines)
	switch {
	case o.TotalLines == 0:
		span = "empty"
	case o.EndLine < o.StartLine:
		span = fmt.Sprintf("no lines from %d: the file has %d", o.StartLine, o.TotalLines)
	}
	r.linef("%s (version %s, %s, %s, eol %s)", o.Path, o.Version, span, o.Language, o.EOL)
	draftLine(r, o.Draft, false)
	last := numberedLines(r, o.Content, o.StartLine)
	switch {
	case last < o.EndLine:
		r.note("… lines %d–%d not shown (the %d KiB text budget); call %s with offset: %d, limit: %d to read on", last+1, o.EndLine, textBudget>>10, r.name("editor::open"), last+1, min(o.EndLine-last, 400))
	case o.Truncated:
		r.note("… cut at max_file_bytes; lines %d–%d are not here: call %s with offset: %d and a limit to read on", last+1, o.TotalLines, r.name("editor::open"), last+1)
	}
	return true
}

func renderShow(r *rend, o *editor.GitShowResponse) bool {
	if !o.Exists {
		r.linef("%s does not exist at %s", o.Path, o.Rev)
		return true
	}
	switch {
	case o.TotalLines == 0:
		r.linef("%s at %s (empty)", o.Path, o.Rev)
	case o.EndLine < o.StartLine:
		r.linef("%s at %s (no lines from %d: the file has %d)", o.Path, o.Rev, o.StartLine, o.TotalLines)
	default:
		r.linef("%s at %s (lines %d–%d of %d)", o.Path, o.Rev, o.StartLine, o.EndLine, o.TotalLines)
	}
	if last := numberedLines(r, o.Content, o.StartLine); last < o.EndLine {
		r.note("… lines %d–%d not shown (the %d KiB text budget); call %s with offset: %d, limit: %d to read on", last+1, o.EndLine, textBudget>>10, r.name("editor::git::show"), last+1, min(o.EndLine-last, 400))
	}
	return true
}

// patchLines writes a patch line by line; past the budget it lists the
// hunk headers it did not reach, so the caller knows which lines to read,
// or for a patch of several files the files it did not finish, followed
// by hint (how to get one file's part).
func patchLines(r *rend, patch string, hint ...string) {
	lines := strings.Split(strings.TrimSuffix(patch, "\n"), "\n")
	for i, l := range lines {
		if r.line(l) {
			continue
		}
		if files := patchFiles(lines, i); files != "" {
			r.note("… %d more patch lines not shown (the %d KiB text budget); files not shown, in whole or in part: %s%s", len(lines)-i, textBudget>>10, files, strings.Join(hint, ""))
			return
		}
		var rest []string
		for _, h := range lines[i:] {
			if strings.HasPrefix(h, "@@ ") {
				if end := strings.Index(h[3:], " @@"); end >= 0 {
					h = h[:end+6]
				}
				rest = append(rest, h)
			}
		}
		r.note("… %d more patch lines not shown (the %d KiB text budget); hunks not shown: %s", len(lines)-i, textBudget>>10, strings.Join(rest, ", "))
		return
	}
}

// patchFiles lists the files of a patch of several files ("diff --git"
// sections) from the one that line cut is in to the end, with a count;
// "" for a patch of one file.
func patchFiles(lines []string, cut int) string {
	var names []string
	current, sections := "", 0
	for i, l := range lines {
		rest, ok := strings.CutPrefix(l, "diff --git a/")
		if !ok {
			continue
		}
		sections++
		name := rest
		if len(rest) >= 3 {
			name = rest[:(len(rest)-3)/2]
		}
		if i < cut {
			current = name
		} else {
			names = append(names, name)
		}
	}
	if sections < 2 {
		return ""
	}
	if current != "" && !strings.HasPrefix(lines[cut], "diff --git ") {
		names = append([]string{current}, names...)
	}
	const show = 20
	list := strings.Join(names[:min(len(names), show)], ", ")
	if len(names) > show {
		list += fmt.Sprintf(" and %d more", len(names)-show)
	}
	return fmt.Sprintf("%s (%d)", list, len(names))
}

func renderSave(r *rend, o *editor.SaveResponse) bool {
	switch {
	case o.Held:
		heldLine(r, o.Path, o.Draft)
	case o.Conflict && o.BaseVersion != nil:
		overlapLines(r, o.Path, o.Version, &o.ThreeWay)
	case o.Conflict:
		r.linef("conflict: %s changed on disk (now version %s); nothing was written. The patch below goes from the disk's content to yours: re-read, reconcile, then save with expected_version %s.", o.Path, o.Version, o.Version)
		draftLine(r, o.Draft, true)
		if o.ConflictPatch != nil {
			patchLines(r, *o.ConflictPatch)
		}
	case o.Created:
		r.linef("created %s (version %s, %s)", o.Path, o.Version, plural(o.Added, "line", "lines"))
		draftLine(r, o.Draft, true)
	case o.Merged:
		r.linef("saved %s (version %s, +%d -%d)", o.Path, o.Version, o.Added, o.Removed)
		draftLine(r, o.Draft, true)
		mergedLine(r, &o.ThreeWay)
		if o.MergedPatch != nil {
			patchLines(r, *o.MergedPatch)
		}
	default:
		r.linef("saved %s (version %s, +%d -%d)", o.Path, o.Version, o.Added, o.Removed)
		draftLine(r, o.Draft, true)
	}
	return true
}

func renderEdit(r *rend, o *editor.EditResponse) bool {
	switch {
	case o.Held:
		heldLine(r, o.Path, o.Draft)
		return true
	case o.Conflict && o.BaseVersion != nil:
		overlapLines(r, o.Path, o.Version, &o.ThreeWay)
		return true
	case o.Conflict:
		r.linef("conflict: %s is at version %s on disk, not expected_version; nothing was written. Re-read the lines (%s) and edit again.", o.Path, o.Version, r.name("editor::open"))
		return true
	case !o.Applied:
		r.linef("dry run: nothing written; %s would change +%d -%d (%s) from version %s", o.Path, o.Added, o.Removed, plural(o.Replaced, "replacement", "replacements"), o.Version)
	case o.Patch == "" && o.Added == 0 && o.Removed == 0:
		r.linef("%s unchanged (new_text equals old_text); version %s", o.Path, o.Version)
		draftLine(r, o.Draft, true)
		return true
	default:
		r.linef("edited %s: version %s, +%d -%d (%s)", o.Path, o.Version, o.Added, o.Removed, plural(o.Replaced, "replacement", "replacements"))
	}
	draftLine(r, o.Draft, true)
	if o.Merged {
		where := ""
		if o.TheirsLines != "" {
			where = " (now lines " + o.TheirsLines + ")"
		}
		r.linef("merged: the file had changed since expected_version %s; your edits were applied to that version and the other change%s, which does not overlap them, is kept. The patch is your edits as they landed on the disk's content:", deref(o.BaseVersion), where)
	}
	if o.Patch == "" {
		r.line("(no patch: what changed is over max_diff_bytes)")
		return true
	}
	patchLines(r, o.Patch)
	return true
}

func renderDiff(r *rend, o *editor.DiffResponse) bool {
	switch {
	case o.Identical:
		r.line("identical")
	case o.Truncated:
		r.line("a side is over max_diff_bytes: no diff was computed (this does not mean no changes)")
	default:
		patchLines(r, o.Patch)
	}
	return true
}

func renderTree(r *rend, o *editor.TreeResponse) bool {
	top := o.Path
	if top == "" {
		top = "."
	}
	r.line(top + "/")
	shown := 0
	var walk func(es []editor.TreeEntry, indent string) bool
	walk = func(es []editor.TreeEntry, indent string) bool {
		for _, e := range es {
			name := e.Name
			switch e.Kind {
			case "dir":
				name += "/"
			case "symlink":
				name += "@"
			case "other":
				name += " (fifo, socket or device)"
			}
			if !r.line(indent + name) {
				return false
			}
			shown++
			if !walk(e.Children, indent+"  ") {
				return false
			}
			if e.More > 0 && !r.linef("%s  … %d more", indent, e.More) {
				return false
			}
		}
		return true
	}
	complete := walk(o.Entries, "  ")
	switch {
	case !complete:
		left := countEntries(o.Entries) - shown
		if o.Truncated {
			left += o.Omitted
		}
		r.note("… %d more entries not shown (the %d KiB text budget); pass a narrower path, or a smaller max_entries or max_depth", left, textBudget>>10)
	case o.Truncated:
		n := fmt.Sprint(o.Omitted)
		if o.Scanned >= 10_000 {
			n = "at least " + n
		}
		r.note("… %s more entries within max_depth not listed (\"… N more\" marks where); pass max_entries (up to 10000), a deeper path, or a smaller max_depth", n)
	}
	return true
}

// countEntries counts the entries of a listing, children included.
func countEntries(es []editor.TreeEntry) int {
	n := len(es)
	for _, e := range es {
		n += countEntries(e.Children)
	}
	return n
}

func renderFind(r *rend, o *editor.FindResponse) bool {
	if len(o.Matches) == 0 {
		r.linef("no file matches (%d candidates ranked)", o.Scanned)
		return true
	}
	for i, m := range o.Matches {
		if !r.line(m.Path) {
			r.note("… %d more matches not shown (the %d KiB text budget); pass a smaller limit", len(o.Matches)-i, textBudget>>10)
			return true
		}
	}
	if o.Truncated {
		r.note("(only the first %d candidate paths were ranked: max_find_candidates)", o.Scanned)
	}
	return true
}

func renderSearch(r *rend, o *editor.SearchResponse) bool {
	mode := "lines"
	if len(o.Files) > 0 && len(o.Files[0].Hits) == 0 {
		mode = "files"
		if o.Files[0].Count > 0 {
			mode = "count"
		}
	}
	more := ""
	if o.Truncated {
		more = "+"
	}
	switch mode {
	case "files":
		r.linef("%d%s files match", len(o.Files), more)
	default:
		r.linef("%d%s matching lines in %s", o.Total, more, plural(len(o.Files), "file", "files"))
	}
	for i, f := range o.Files {
		ok := true
		switch mode {
		case "files":
			ok = r.line(f.Path)
		case "count":
			ok = r.linef("%s:%d", f.Path, f.Count)
		default:
			ok = searchFile(r, f, i > 0)
		}
		if !ok {
			left := 0
			for _, g := range o.Files[i:] {
				left += max(len(g.Hits), 1)
			}
			switch mode {
			case "lines":
				r.note("… %d files (%d matches) not shown (the %d KiB text budget); narrow pattern/include_glob, or pass output: \"files\" or \"count\"", len(o.Files)-i, left, textBudget>>10)
			default:
				r.note("… %d files not shown (the %d KiB text budget); narrow pattern, include_glob or exclude_glob", len(o.Files)-i, textBudget>>10)
			}
			return true
		}
	}
	if o.Truncated {
		r.note("… more matches exist past max_matches; narrow pattern/include_glob or raise max_matches")
	}
	return true
}

// searchFile writes one file's hits as "line:col: text", with its context
// lines as "line- text" and "--" between groups that do not touch.
func searchFile(r *rend, f editor.SearchFile, gap bool) bool {
	if gap && !r.line("") {
		return false
	}
	if !r.line(f.Path) {
		return false
	}
	c, prev := 0, 0
	emit := func(line int, s string) bool {
		if prev > 0 && line > prev+1 && len(f.Context) > 0 && !r.line("--") {
			return false
		}
		prev = line
		return r.line(s)
	}
	for _, h := range f.Hits {
		for ; c < len(f.Context) && f.Context[c].Line < h.Line; c++ {
			if !emit(f.Context[c].Line, fmt.Sprintf("%d- %s", f.Context[c].Line, f.Context[c].Text)) {
				return false
			}
		}
		if !emit(h.Line, fmt.Sprintf("%d:%d: %s", h.Line, h.Column, h.Text)) {
			return false
		}
	}
	for ; c < len(f.Context); c++ {
		if !emit(f.Context[c].Line, fmt.Sprintf("%d- %s", f.Context[c].Line, f.Context[c].Text)) {
			return false
		}
	}
	return true
}

func renderView(r *rend, v *editor.WorkspaceView) bool {
	r.line("root: " + v.Root)
	if v.You != "" {
		r.line("you: " + v.You + " (the by of your writes in change events)")
	}
	if !renderTabs(r, v.Buffers, v.BuffersTotal) {
		return true
	}
	if len(v.Expanded) > 0 {
		head := "expanded: "
		if len(v.Expanded) < v.ExpandedTotal {
			head = fmt.Sprintf("expanded (%d of %d): ", len(v.Expanded), v.ExpandedTotal)
		}
		r.line(head + strings.Join(v.Expanded, ", "))
	}
	if v.Focus != nil {
		r.line(focusLine(v.Focus))
	}
	if len(v.Detached) > 0 {
		r.linef("%s (closed or deleted elsewhere; open the file to see it):", plural(len(v.Detached), "unsaved draft of a file not open", "unsaved drafts of files not open"))
		for _, b := range v.Detached {
			r.line("  " + b.Path)
		}
	}
	// Fields added since this renderer was written come out as key: value.
	renderFields(r, v, "root", "buffers", "expanded", "focus", "detached", "buffers_total", "expanded_total", "more", "you")
	if v.More > 0 {
		r.note("… %d more buffers or expanded folders past this page; call %s with offset: %d", v.More, r.name("editor::workspace::get"), max(v.BuffersTotal, v.ExpandedTotal)-v.More)
	}
	return true
}

// renderTabs lists the open buffers, one "path  version" line each; total
// is how many are open in all (0: as many as listed).
func renderTabs(r *rend, bufs []workspace.Buffer, total int) bool {
	switch {
	case len(bufs) == 0 && total > len(bufs):
		r.linef("no open buffers on this page (%d in all)", total)
		return true
	case len(bufs) == 0:
		r.line("no open buffers")
		return true
	case total > len(bufs):
		r.linef("%d of %d open buffers:", len(bufs), total)
	default:
		r.linef("%s:", plural(len(bufs), "open buffer", "open buffers"))
	}
	for i, b := range bufs {
		line := fmt.Sprintf("  %s  %s", b.Path, b.Version)
		if b.Dirty {
			line += "  (unsaved edits in an editor, over " + b.DraftBase
			if b.DraftBy != "" {
				line += ", by " + b.DraftBy
			}
			if b.DraftLines != "" {
				line += ", lines " + b.DraftLines
			}
			line += ")"
		}
		if !r.line(line) {
			r.note("… %d more buffers not shown (the %d KiB text budget); the structured content lists them all", len(bufs)-i, textBudget>>10)
			return false
		}
	}
	return true
}
