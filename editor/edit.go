package editor

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/editord/editord/diff"
	"github.com/editord/editord/shell"
)

// editor::edit changes a file in place by exact-text replacement
// (CONTRACT.md §8), so a model sends and receives the few lines it changes,
// never the whole file. The anchors (old_text) are the guard: an edit whose
// text is no longer there fails with no_match and writes nothing. The write
// itself is editor::save's: the same per-file lock, atomic write and
// re-check before the rename (save.go).

type EditRequest struct {
	Path            string     `json:"path" desc:"File path, root-relative or absolute."`
	Edits           []TextEdit `json:"edits" desc:"Replacements, applied in order; all or nothing."`
	ExpectedVersion *string    `json:"expected_version,omitempty" desc:"The version you read: a later change is merged, or conflicts if it overlaps."`
	DryRun          bool       `json:"dry_run,omitempty" default:"false" desc:"Return the patch, write nothing."`
	Strict          bool       `json:"strict,omitempty" default:"false" desc:"No merge: any later change conflicts."`
}

// TextEdit is one replacement of editor::edit.
type TextEdit struct {
	OldText    string  `json:"old_text" desc:"Exact text to replace, whitespace included; must occur once unless replace_all."`
	NewText    *string `json:"new_text" desc:"Replacement (\"\" deletes)."`
	ReplaceAll bool    `json:"replace_all,omitempty" default:"false" desc:"Replace every occurrence (at least one)."`
}

type EditResponse struct {
	Path        string  `json:"path" desc:"The file, root-relative."`
	Applied     bool    `json:"applied" desc:"True when the edits are on disk; false for dry_run and on conflict."`
	Version     string  `json:"version" desc:"The file's version after this call (the disk's on dry_run or conflict)."`
	Mtime       int64   `json:"mtime" desc:"The file's mtime after this call, Unix seconds."`
	Replaced    int     `json:"replaced" desc:"Occurrences replaced, over all edits."`
	Added       int     `json:"added" desc:"Lines added."`
	Removed     int     `json:"removed" desc:"Lines removed."`
	Patch       string  `json:"patch" desc:"Unified diff of this edit (git apply accepts it); empty when nothing changes or what changed is over max_diff_bytes."`
	Conflict    bool    `json:"conflict" desc:"True when the file changed since expected_version and your edits overlap that change (or its base is no longer known, or strict); nothing was written."`
	DiskVersion *string `json:"disk_version,omitempty" desc:"On conflict: the version on disk now."`
	ThreeWay
	Root string `json:"root" desc:"The workspace root the call used: relative paths are relative to it."`
}

func init() {
	define("editor::edit",
		"Change a file in place: each old_text must occur exactly once (or use replace_all); "+
			"edits apply in order, all or nothing; in a CRLF file \\n stands for \\r\\n. "+
			"Copy old_text from editor::open's lines, without the number column. "+
			"No match or several is an error naming the lines: re-read them, never rewrite the file from memory. "+
			"Example: {\"path\": \"a.go\", \"edits\": [{\"old_text\": \"x := 1\", \"new_text\": \"x := 2\"}]}.",
		destructive, (*Service).Edit)
}

// maxAmbiguousLines bounds the line numbers an ambiguous error lists.
const maxAmbiguousLines = 20

func (s *Service) Edit(ctx context.Context, req *EditRequest) (*EditResponse, error) {
	root, l, err := s.writeTarget(ctx, req.Path, "path")
	if err != nil {
		return nil, err
	}
	if err := fileOnly(l); err != nil {
		return nil, err
	}
	if len(req.Edits) == 0 {
		return nil, invalid("edits is empty; pass at least one {\"old_text\": …, \"new_text\": …}")
	}
	for i, e := range req.Edits {
		if e.OldText == "" {
			return nil, invalid("edits[%d].old_text is empty; to insert, include a neighbouring line in both old_text and new_text", i)
		}
		if e.NewText == nil {
			return nil, invalid("edits[%d].new_text is missing; pass \"\" to delete old_text", i)
		}
	}
	s.awaitReported(ctx, root, l, deref(req.ExpectedVersion))
	lk, err := s.lockFile(ctx, l)
	if err != nil {
		return nil, err
	}
	sv := &saving{lk: lk}
	defer sv.done()
	for attempt := 0; ; attempt++ {
		resp, err := s.editLocked(ctx, sv, root, l, req)
		if resp != nil {
			resp.Root = root
		}
		if !errors.Is(err, errSlippedIn) || attempt >= 3 {
			if errors.Is(err, errSlippedIn) {
				// Another program keeps writing the file between our check and
				// our rename: refuse rather than clobber or loop.
				return nil, shell.Errorf(shell.CodeTimeout, l.stored, "%s keeps being rewritten by another program; nothing was written; try again", display(l.stored))
			}
			return resp, err
		}
		// A writer slipped in: the anchors are the guard, so apply the
		// edits again to what is on disk now.
	}
}

func (s *Service) editLocked(ctx context.Context, sv *saving, root string, l loc, req *EditRequest) (*EditResponse, error) {
	cur, err := s.readDisk(l)
	if err != nil {
		return nil, err
	}
	if !cur.exists {
		return nil, shell.Errorf(shell.CodeNotFound, l.stored, "%s does not exist; create it with editor::create or editor::save", display(l.stored))
	}
	if !isText(cur.data) {
		return nil, shell.Errorf(shell.CodeBinary, l.stored, "%s is binary on disk (NUL byte or invalid UTF-8); editor::edit changes text files only", display(l.stored))
	}
	notice := s.draftNotice(ctx, root, l)
	if !req.DryRun && s.holdsForDraft(notice) {
		s.handOut(cur.version, cur.data)
		return &EditResponse{Path: l.stored, Version: cur.version, Mtime: cur.mtime, ThreeWay: ThreeWay{Held: true, Draft: notice}}, nil
	}
	var (
		next     []byte
		replaced int
		merge    *staleMerge
		yours    []byte
	)
	if req.ExpectedVersion != nil && *req.ExpectedVersion != cur.version {
		// Stale: the edits were made against expected_version. Applied to
		// its content, when known, they merge with the disk's change.
		if *req.ExpectedVersion != "" && !req.Strict {
			if base, ok := s.versionContent(*req.ExpectedVersion); ok {
				mine, n, err := applyEdits(stringView(base), req.Edits, EOL(base) == "crlf", l)
				if err != nil {
					return nil, err
				}
				yours, replaced = bytesView(mine), n
				merge = s.mergeStale(*req.ExpectedVersion, yours, cur.data)
			}
		}
		v := cur.version
		if merge == nil || len(merge.conflicts) > 0 {
			s.handOut(v, cur.data) // disk_version may guard the next try
			conflict := &EditResponse{Path: l.stored, Conflict: true, Version: v, Mtime: cur.mtime, DiskVersion: &v}
			if merge != nil {
				conflict.ThreeWay = s.overlapInfo(l, merge, yours, cur.data)
			}
			conflict.Draft = notice
			return conflict, nil
		}
		next = merge.merged
	} else {
		content, n, err := applyEdits(stringView(cur.data), req.Edits, EOL(cur.data) == "crlf", l)
		if err != nil {
			return nil, err
		}
		next, replaced = bytesView(content), n
	}
	content := stringView(next)
	if !isText(next) {
		return nil, shell.Errorf(shell.CodeBinary, l.stored, "the edits would put a NUL byte into %s; editor::edit writes text only, nothing was written", display(l.stored))
	}
	d := s.changeDiff(l, "modified", cur.data, next)
	if d.Truncated {
		// No patch (what changed is over max_diff_bytes), but the counts.
		d.Added, d.Removed = diff.Counts(stringView(cur.data), content)
	}
	resp := &EditResponse{Path: l.stored, Version: cur.version, Mtime: cur.mtime, Replaced: replaced, Added: d.Added, Removed: d.Removed, Patch: d.Patch}
	if merge != nil {
		resp.ThreeWay = s.mergedInfo(l, merge, yours)
	}
	resp.Draft = notice
	if req.DryRun {
		return resp, nil
	}
	ev := s.changeEventOf(root, l, "editor::edit", "modified", cur.data, next, d)
	if sv.pre != nil {
		// Prepared for the content before a writer slipped in: the edits
		// applied to the disk now may give other bytes.
		sv.pre.Abort()
		sv.pre = nil
	}
	sv.version = *ev.Version // hashed once, for the event and the write
	w, err := s.writeAs(ctx, sv, root, l, cur, next, false, "editor::edit", &ev)
	if err != nil {
		return nil, err
	}
	resp.Applied, resp.Version, resp.Mtime = true, w.Version, w.Mtime
	return resp, nil
}

// applyEdits applies edits in order to content. In a CRLF file a "\n" of
// old_text or new_text that is not already after a "\r" stands for "\r\n".
func applyEdits(content string, edits []TextEdit, crlf bool, l loc) (string, int, error) {
	total := 0
	for i, e := range edits {
		old, repl := e.OldText, *e.NewText
		if crlf {
			old, repl = toCRLF(old), toCRLF(repl)
		}
		n := strings.Count(content, old)
		switch {
		case n == 0:
			return "", 0, shell.Errorf(shell.CodeNoMatch, l.stored, "%s", noMatchMessage(content, old, i, len(edits), l))
		case n > 1 && !e.ReplaceAll:
			return "", 0, shell.Errorf(shell.CodeAmbiguous, l.stored, "%s", ambiguousMessage(content, old, n, i, len(edits), l))
		}
		if e.ReplaceAll {
			content = strings.ReplaceAll(content, old, repl)
		} else {
			content = strings.Replace(content, old, repl, 1)
		}
		total += n
	}
	return content, total, nil
}

// toCRLF turns every "\n" not preceded by "\r" into "\r\n".
func toCRLF(t string) string {
	if !strings.Contains(t, "\n") {
		return t
	}
	var b strings.Builder
	b.Grow(len(t) + strings.Count(t, "\n"))
	for i := 0; i < len(t); i++ {
		if t[i] == '\n' && (i == 0 || t[i-1] != '\r') {
			b.WriteByte('\r')
		}
		b.WriteByte(t[i])
	}
	return b.String()
}

// editName is how a message names edit i of n: "old_text", or
// "edits[2].old_text (applied after edits 0–1)" when there are several.
func editName(i, n int) string {
	switch {
	case n == 1:
		return "old_text"
	case i == 0:
		return "edits[0].old_text"
	case i == 1:
		return "edits[1].old_text (looked for after edits[0] was applied)"
	}
	return fmt.Sprintf("edits[%d].old_text (looked for after edits[0]–[%d] were applied)", i, i-1)
}

func ambiguousMessage(content, old string, n, i, count int, l loc) string {
	var lines []string
	line, from := 1, 0
	for k := 0; k < n && k < maxAmbiguousLines; k++ {
		at := from + strings.Index(content[from:], old)
		line += strings.Count(content[from:at], "\n")
		lines = append(lines, fmt.Sprint(line))
		from = at + len(old)
		line += strings.Count(old, "\n")
	}
	more := ""
	if n > maxAmbiguousLines {
		more = fmt.Sprintf(" and %d more", n-maxAmbiguousLines)
	}
	return fmt.Sprintf("%s occurs %d times in %s, starting at lines %s%s; nothing was written. "+
		"Add surrounding lines to old_text so it matches once, or pass replace_all: true to change every one.",
		editName(i, count), n, display(l.stored), strings.Join(lines, ", "), more)
}
