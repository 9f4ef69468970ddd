package protocol

import (
	"fmt"

	"github.com/editord/editord/editor"
)

// The rendering of editor::replace: a line per file (its version, what is
// or was replaced, a conflict or why it was skipped), then its patch.

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
		if f.Patch == "" {
			if f.Replaced > 0 && !f.Conflict && f.Skipped == "" {
				r.line("(no patch: what changed is over max_diff_bytes, or the call's patches passed max_write_bytes in all)")
			}
			continue
		}
		if r.room() < len(f.Patch) {
			if !r.line("(patch left out: the text budget is spent; pass fewer paths to see it)") {
				r.note("… %d more files not shown (the %d KiB text budget); pass fewer paths", len(o.Files)-i-1, textBudget>>10)
				return true
			}
			continue
		}
		patchLines(r, f.Patch)
	}
	return true
}
