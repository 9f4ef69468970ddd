// Package diff is editord's one line diff: unified patches, hunk ranges and
// line counts between two in-memory texts, and the edit scripts behind
// gitops' merges, blame and --numstat.
//
// Its place in the stack: a leaf beside shell, imported by editor (patches
// of saves, edits and events, editor::diff) and gitops (hunks, merges,
// blame, log). It reads no files and keeps no state.
//
// The scripts are git's own (xdiff.go, xhistogram.go): Myers with git's
// preparation, cleanup of frequent lines, cost cut-offs and sliding of
// changed groups (with the indent heuristic, as git diff by default), so a
// patch here is the patch git diff prints, line for line, and a merge or a
// blame agrees with git's. The output is meant to be fed to `git apply` and
// `patch -p1`: both counts are always written in hunk headers, an empty side
// starts at the line before the hunk, and a missing final newline is
// flagged with "\ No newline at end of file". Texts are compared line by
// line (split on '\n' only) and never transformed, so CR, BOM and invalid
// UTF-8 pass through untouched.
//
// One bound git does not have: Unified and Counts answer people and models,
// so their search stops at a work budget (scriptBudget), past which what
// lies between the texts' common ends is one replacement. gitops' merges,
// blame and NumStat run unbounded, as git does.
package diff
