package editor

// Three-way saves (docs/contract.md §10). A save or edit guarded by a version
// that is no longer the disk's used to be refused outright, with a patch
// from the disk to the caller's content that read like the caller's own
// change reversed. When the version store (versions.go) still holds the
// content of the guard's version, the server knows the common base of
// both writers, so it merges the way git merge-file does (gitops.Merge3,
// git's own diff3 rules, byte for byte): changes that do not overlap are
// both kept and the result is written, through the same guarded write
// as any save, against the disk version it was merged with; changes that
// overlap are refused, as before, with the three sides described. strict
// asks for the old refusal.

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/editord/editord/diff"
	"github.com/editord/editord/gitops"
)

// ThreeWay is what editor::save and editor::edit say about a merge with
// the disk and about a person's draft of the file.
type ThreeWay struct {
	Merged      bool            `json:"merged" desc:"True when the file had changed on disk since expected_version and the changes did not overlap: both were kept, and what was written is yours merged with theirs (see merged_patch)."`
	BaseVersion *string         `json:"base_version,omitempty" desc:"On a merge or an overlap: the version both sides were made over (your expected_version)."`
	TheirsLines string          `json:"theirs_lines,omitempty" desc:"On merged: lines of the written file that came from the other change, as 1-based ranges (\"12-14,30\"; a deletion shows as the line after it)."`
	MergedPatch *string         `json:"merged_patch,omitempty" desc:"On merged: unified diff from your content to what was written: the other change, placed around yours."`
	Conflicts   []MergeConflict `json:"conflicts,omitempty" desc:"On a conflict that a merge could not resolve: each place where both sides changed the same lines differently."`
	TheirsPatch *string         `json:"theirs_patch,omitempty" desc:"With conflicts: unified diff from the base (expected_version) to the disk now: their change."`
	YoursPatch  *string         `json:"yours_patch,omitempty" desc:"With conflicts: unified diff from the base (expected_version) to your content: your change."`
	Draft       *DraftNotice    `json:"draft,omitempty" desc:"Someone (the person, in their editor) holds unsaved edits of this file: who, and which lines. Your write does not touch their draft; their editor merges it with your change."`
	Held        bool            `json:"held,omitempty" desc:"True when nothing was written because a person holds a draft of the file and draft_conflict is \"refuse\": try again once they have saved or discarded it."`
}

// MergeConflict is one place both sides changed differently.
type MergeConflict struct {
	Base   LineSpan `json:"base" desc:"The lines of the base version in question."`
	Theirs LineSpan `json:"theirs" desc:"What the disk holds there now."`
	Yours  LineSpan `json:"yours" desc:"What your content holds there."`
}

// LineSpan is a run of lines.
type LineSpan struct {
	StartLine int `json:"start_line" desc:"First line, 1-based; for lines: 0, the place just before this line."`
	Lines     int `json:"lines" desc:"How many lines."`
}

// staleMerge is a merge of content made over a known base with the disk.
type staleMerge struct {
	baseVersion string
	base        []byte
	merged      []byte
	conflicts   []gitops.Merge3Conflict
}

// mergeStale merges yours, made over version baseVersion, with the disk's
// content disk (yours is "ours" to git merge-file, the disk "theirs").
// It is nil when the version store does not hold baseVersion.
func (s *Service) mergeStale(baseVersion string, yours, disk []byte) *staleMerge {
	base, ok := s.versionContent(baseVersion)
	if !ok {
		return nil
	}
	out, cs := gitops.Merge3Conflicts(gitops.Merge3Input{Base: base, Ours: yours, Theirs: disk, OursLabel: "yours", BaseLabel: "base", TheirsLabel: "disk"})
	return &staleMerge{baseVersion: baseVersion, base: base, merged: out, conflicts: cs}
}

// mergedInfo describes a clean merge that wrote m.merged over yours.
func (s *Service) mergedInfo(l loc, m *staleMerge, yours []byte) ThreeWay {
	d := s.patchOf(l, yours, m.merged)
	bv := m.baseVersion
	tw := ThreeWay{Merged: true, BaseVersion: &bv, TheirsLines: lineRanges(d.Hunks)}
	patch := d.Patch
	tw.MergedPatch = &patch
	return tw
}

// overlapInfo describes a merge that found conflicts.
func (s *Service) overlapInfo(l loc, m *staleMerge, yours, disk []byte) ThreeWay {
	bv := m.baseVersion
	theirs, mine := s.patchOf(l, m.base, disk).Patch, s.patchOf(l, m.base, yours).Patch
	tw := ThreeWay{BaseVersion: &bv, TheirsPatch: &theirs, YoursPatch: &mine}
	for _, c := range m.conflicts {
		tw.Conflicts = append(tw.Conflicts, MergeConflict{Base: spanOf(c.Base), Theirs: spanOf(c.Theirs), Yours: spanOf(c.Ours)})
	}
	return tw
}

func spanOf(s gitops.Span) LineSpan { return LineSpan{StartLine: s.Start + 1, Lines: s.Lines} }

// patchOf is the unified diff of before -> after for a reply, with gutter
// exact hunks (no context) but the patch's usual context.
func (s *Service) patchOf(l loc, before, after []byte) diff.Result {
	d := diff.Unified(stringView(before), stringView(after), diff.Options{
		Path: diffPath(l), Context: s.cfg.Limits.DiffContextLines, MaxChangedBytes: s.cfg.Limits.MaxDiffBytes,
	})
	if d.Truncated {
		return d
	}
	if s.cfg.Limits.DiffContextLines != 0 {
		// Hunks joined by their context would name lines that did not change.
		d.Hunks = diff.Unified(stringView(before), stringView(after), diff.Options{MaxChangedBytes: s.cfg.Limits.MaxDiffBytes}).Hunks
	}
	return d
}

// maxLineRanges bounds the ranges lineRanges lists; the last one then
// reaches to the last changed line, so the list still covers every change.
const maxLineRanges = 32

// lineRanges writes the new sides of hunks (without context) as 1-based
// line ranges, "12-14,30": a hunk that only deletes names the line after
// the deletion.
func lineRanges(hunks []diff.Hunk) string {
	type span struct{ from, to int }
	var spans []span
	for _, h := range hunks {
		sp := span{h.NewStart, h.NewStart + h.NewLines - 1}
		if h.NewLines == 0 {
			sp = span{h.NewStart + 1, h.NewStart + 1}
		}
		if n := len(spans); n > 0 && sp.from <= spans[n-1].to+1 {
			spans[n-1].to = max(spans[n-1].to, sp.to)
			continue
		}
		spans = append(spans, sp)
	}
	if len(spans) > maxLineRanges {
		spans[maxLineRanges-1].to = spans[len(spans)-1].to
		spans = spans[:maxLineRanges]
	}
	var b strings.Builder
	for i, sp := range spans {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(sp.from))
		if sp.to > sp.from {
			fmt.Fprintf(&b, "-%d", sp.to)
		}
	}
	return b.String()
}
