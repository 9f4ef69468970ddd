package protocol

import (
	"fmt"
	"strings"

	"github.com/editord/editord/editor"
)

// The rendering of editor::replace: a line per file (its version, what is
// or was replaced, a conflict or why it was skipped), then, in a preview,
// the lines it changes as they will read.

func init() {
	renderers["editor::replace"] = func(r *rend, v any) bool { return renderReplace(r, v.(*editor.ReplaceResponse)) }
}

func renderReplace(r *rend, o *editor.ReplaceResponse) bool {
	n, conflicts := 0, 0
	for _, f := range o.Files {
		n += f.Replaced
		if f.Conflict {
			conflicts++
		}
	}
	dry := o.Written == 0 && conflicts == 0
	for _, f := range o.Files {
		if f.Written {
			dry = false
		}
	}
	switch {
	case dry && n == 0:
		r.linef("dry run: nothing to replace in %s", plural(len(o.Files), "file", "files"))
	case dry:
		r.linef("dry run: %s in %s; nothing written. To write, call %s with write: {path: version} for the files to change", plural(n, "replacement", "replacements"), plural(len(o.Files), "file", "files"), r.name("editor::replace"))
	default:
		r.linef("wrote %d of %s (%s); %s", o.Written, plural(len(o.Files), "file", "files"), plural(n, "replacement", "replacements"), plural(conflicts, "conflict", "conflicts"))
	}
	for i, f := range o.Files {
		var line string
		switch {
		case f.Skipped != "":
			line = fmt.Sprintf("%s: skipped (%s)", f.Path, f.Skipped)
		case f.Conflict:
			line = fmt.Sprintf("%s: conflict, changed since the dry run (now version %s); nothing written", f.Path, f.Version)
		case f.Written:
			line = fmt.Sprintf("%s: written, version %s, %s", f.Path, f.Version, plural(f.Replaced, "replacement", "replacements"))
		case f.Replaced == 0:
			line = fmt.Sprintf("%s: no match (version %s)", f.Path, f.Version)
		default:
			line = fmt.Sprintf("%s: version %s, %s", f.Path, f.Version, plural(f.Replaced, "replacement", "replacements"))
		}
		if !r.line(line) {
			r.note("… %d more files not shown (the %d KiB text budget); pass fewer paths", len(o.Files)-i, textBudget>>10)
			return true
		}
		if f.Written {
			continue // the dry run showed its lines; the patch is in the structured content
		}
		if f.Patch == "" {
			if f.Replaced > 0 && !f.Conflict && f.Skipped == "" {
				r.line("(no patch: what changed is over max_diff_bytes, or the call's patches passed max_write_bytes in all)")
			}
			continue
		}
		lines := changedLines(f.Patch)
		if r.room() < len(lines)*8+len(f.Patch)/2 {
			if !r.line("(lines left out: the text budget is spent; pass fewer paths to see them)") {
				r.note("… %d more files not shown (the %d KiB text budget); pass fewer paths", len(o.Files)-i-1, textBudget>>10)
				return true
			}
			continue
		}
		for _, l := range lines {
			r.line(l)
		}
	}
	return true
}

// changedLines is each line a patch changes, as it will read, numbered as
// editor_open numbers lines: a preview of a replacement shows what the
// lines become (what they were is the pattern's match), a third of what
// the patch with its context costs a model; the structured content keeps
// the patch.
func changedLines(patch string) []string {
	var out []string
	n := 0
	for _, l := range strings.Split(strings.TrimSuffix(patch, "\n"), "\n") {
		switch {
		case strings.HasPrefix(l, "@@ "):
			// diff writes both counts of each side (docs/contract.md §4).
			var a, b, d int
			fmt.Sscanf(l, "@@ -%d,%d +%d,%d @@", &a, &b, &n, &d)
		case strings.HasPrefix(l, "+++ "), strings.HasPrefix(l, "--- "), strings.HasPrefix(l, "\\"):
		case strings.HasPrefix(l, "+"):
			out = append(out, fmt.Sprintf("%6d\t%s", n, l[1:]))
			n++
		case strings.HasPrefix(l, " "):
			n++
		}
	}
	return out
}
