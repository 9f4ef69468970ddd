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

// Unified diffs before against after and renders a git-compatible patch:
// the lines, hunks and counts git diff gives (its Myers diff and indent
// heuristic), unless the search passes scriptBudget (then what lies
// between the texts' common ends is one replacement).
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
	a, b := bytesOf(before), bytesOf(after)
	pre, suf := commonLineEnds(a, b)
	if opt.MaxChangedBytes > 0 && (len(before)-pre-suf > opt.MaxChangedBytes || len(after)-pre-suf > opt.MaxChangedBytes) {
		res.Truncated = true
		return res
	}
	// Context past the texts' length changes nothing; clamping keeps 2*ctx
	// (hunk merging) from overflowing.
	ctx := min(max(opt.Context, 0), len(before)+len(after)+1)
	w, script := scriptOf(a, b, pre, suf, ctx)
	if len(script) == 0 {
		// Unreachable for different texts (lines keep their terminators, so
		// the windows differ whenever the texts do); kept as a guard.
		res.Identical = true
		return res
	}
	changes := make([]change, len(script))
	for k, c := range script {
		changes[k] = change{c.I1, c.I1 + c.Chg1, c.I2, c.I2 + c.Chg2}
		res.Removed += c.Chg1
		res.Added += c.Chg2
	}
	spans := groupHunks(changes, len(w.a), ctx)
	res.Hunks = make([]Hunk, len(spans))
	for k, s := range spans {
		res.Hunks[k] = s.hunk(changes, w.base)
	}
	res.Patch = renderPatch(w.a, w.b, changes, spans, res.Hunks, opt)
	return res
}

// scriptOf is git diff's script for two different texts whose common
// whole-line ends are pre and suf bytes long, in the lines of a window that
// also holds ctx lines of context around every change: the lines around
// the difference when that tells (xwindowed), else the whole texts.
func scriptOf(a, b []byte, pre, suf, ctx int) (xwindow, []Change) {
	opt := xdiffOptions{indentHeuristic: true, budget: scriptBudget}
	if w, script, ok := xwindowed(a, b, pre, suf, ctx+slideMargin, ctx, opt); ok {
		return w, script
	}
	ra, rb := splitRecords(a), splitRecords(b)
	return xwindow{a: ra, b: rb}, xbuildScript(xdiffFiles(ra, rb, opt))
}

// Counts returns the numbers of added and removed lines Unified would report,
// without rendering a patch.
func Counts(before, after string) (added, removed int) {
	if before == after {
		return 0, 0
	}
	removed, added = xcountChanges(bytesOf(before), bytesOf(after), scriptBudget)
	return added, removed
}
