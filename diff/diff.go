// Package diff produces unified diffs between two in-memory texts.
//
// The output is meant to be fed to `git apply` and `patch -p1`, so it follows
// git's conventions rather than difflib's: both counts are always written in
// hunk headers, an empty side starts at the line before the hunk, and a
// missing final newline is flagged with "\ No newline at end of file".
// Texts are compared line by line (split on '\n' only) and never transformed,
// so CR, BOM and invalid UTF-8 pass through untouched.
//
// The package is pure: it reads no files and keeps no state.
package diff

// DefaultContext is git's default number of context lines. Options.Context is
// used as given (0 is meaningful), so callers wanting git's default pass this.
const DefaultContext = 3

// Hunk describes one @@ block. Ranges are 1-based; a side with zero lines has
// Start = the line before the hunk (0 at file start) and Lines = 0, as in git.
type Hunk struct {
	OldStart int `json:"old_start" desc:"First line of the hunk in the old text, 1-based; for an empty old side, the line before the hunk (0 at the start), as git writes it."`
	OldLines int `json:"old_lines" desc:"Lines the hunk covers in the old text (0 for a pure insertion)."`
	NewStart int `json:"new_start" desc:"First line of the hunk in the new text, 1-based; for an empty new side, the line before the hunk (0 at the start)."`
	NewLines int `json:"new_lines" desc:"Lines the hunk covers in the new text (0 for a pure deletion)."`
	Added    int `json:"added" desc:"Lines added in this hunk."`
	Removed  int `json:"removed" desc:"Lines removed in this hunk."`
}

// Options controls Unified.
type Options struct {
	Path     string // name in the --- a/<path> / +++ b/<path> header; "" means "file"
	Context  int    // context lines; 0 gives gutter-exact ranges, negative counts as 0
	MaxBytes int    // per side; 0 = no limit. A larger side yields Truncated and nothing else.
	// MaxChangedBytes bounds, per side, what differs once the lines both
	// texts share at their start and end are set aside; 0 = no limit. Over
	// it: Truncated and nothing else. A small change to a big file stays
	// within it however big the file.
	MaxChangedBytes int
	// OldMissing/NewMissing write /dev/null for that side of the header, as git
	// does for file creations and deletions.
	OldMissing bool
	NewMissing bool
}

// Result is the outcome of Unified.
type Result struct {
	Patch     string `json:"patch"`
	Hunks     []Hunk `json:"hunks"` // never nil so JSON shows []
	Added     int    `json:"added"`
	Removed   int    `json:"removed"`
	Identical bool   `json:"identical"`
	Truncated bool   `json:"truncated"`
}

// Unified diffs before against after and renders a git-compatible patch.
func Unified(before, after string, opt Options) Result {
	res := Result{Hunks: []Hunk{}}
	if opt.MaxBytes > 0 && (len(before) > opt.MaxBytes || len(after) > opt.MaxBytes) {
		res.Truncated = true
		return res
	}
	if before == after {
		res.Identical = true
		return res
	}
	pre, suf := commonEnds(before, after)
	if opt.MaxChangedBytes > 0 && (len(before)-pre-suf > opt.MaxChangedBytes || len(after)-pre-suf > opt.MaxChangedBytes) {
		res.Truncated = true
		return res
	}
	// Context past the texts' length changes nothing; clamping keeps 2*ctx
	// (hunk merging) from overflowing.
	ctx := min(max(opt.Context, 0), len(before)+len(after)+1)
	wa, wb := windowsAt(before, after, ctx, pre, suf)
	changes := editScript(wa.lines, wb.lines)
	if len(changes) == 0 {
		// Unreachable for different texts (lines keep their terminators, so
		// the windows differ whenever the texts do); kept as a guard.
		res.Identical = true
		return res
	}
	for _, c := range changes {
		res.Removed += c.i2 - c.i1
		res.Added += c.j2 - c.j1
	}
	spans := groupHunks(changes, len(wa.lines), ctx)
	res.Hunks = make([]Hunk, len(spans))
	for k, s := range spans {
		res.Hunks[k] = s.hunk(changes, wa.base)
	}
	res.Patch = renderPatch(wa.lines, wb.lines, changes, spans, res.Hunks, opt)
	return res
}

// Counts returns the numbers of added and removed lines Unified would report,
// without rendering a patch.
func Counts(before, after string) (added, removed int) {
	if before == after {
		return 0, 0
	}
	wa, wb := windows(before, after, 0)
	for _, c := range editScript(wa.lines, wb.lines) {
		removed += c.i2 - c.i1
		added += c.j2 - c.j1
	}
	return added, removed
}
