package turns

import (
	"bytes"
	"fmt"
	"sort"

	"github.com/editord/editord/diff"
	"github.com/editord/editord/gitops"
	"github.com/editord/editord/workspace"
)

// Disk is how the book reads the workspace: the service's own reads,
// through its jail.
type Disk interface {
	Read(root, path string) (Side, error)
}

// Side is a path of the workspace as read: a file's bytes and mode, a
// folder, or nothing.
type Side struct {
	Exists  bool
	Dir     bool
	Data    []byte
	Version string
	Mode    uint32
}

// view is one file of a turn with what showing or undoing it needs: its
// stretches with their contents and hunks, where it is now, and who wrote
// it after the turn.
type view struct {
	e       *entry
	kind    string
	segs    []segView
	nowPath string   // where it is now (later moves followed)
	later   []string // who wrote it after the turn
	trail   []*write // the changes to it after the turn's, by seq (moves left out)
	note    string
	hunks   int // hunks in all
}

type segView struct {
	seg
	before, after []byte // as the stretch found and left the file (nil: absent)
	known         bool   // both contents are kept (or absent by kind)
	hunks         []diff.Hunk
	first         int // the id of its first hunk
	patch         string
}

// laterWrite is a change after the turn's, for following a file on.
type laterWrite struct {
	*write
	turn string
}

// snapshot is a turn and what came after it, copied under b.mu so that
// contents and the disk are read without it.
type snapshot struct {
	t     *turn
	sum   Summary
	es    []*entry
	later []laterWrite // changes of every turn after the turn's first, by seq
}

// snap copies turn id out of the book; ok is false when it is not kept.
func (b *Book) snap(id string) (snapshot, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.catchUp()
	t := b.byID[id]
	if t == nil {
		return snapshot{}, false
	}
	es := entries(t, b.moves)
	sn := snapshot{t: t, sum: b.summaryOf(t, es), es: es}
	if len(t.writes) == 0 {
		return sn, true
	}
	first := t.writes[0].seq
	for _, o := range b.turns {
		if o.last < t.start {
			continue
		}
		for i := range o.writes {
			if w := &o.writes[i]; w.seq > first {
				sn.later = append(sn.later, laterWrite{w, o.id})
			}
		}
	}
	sort.Slice(sn.later, func(i, j int) bool { return sn.later[i].seq < sn.later[j].seq })
	return sn, true
}

// views builds the views of sn's files (the ones named by only, when set).
func (b *Book) views(sn snapshot, only func(*entry) bool) []*view {
	var out []*view
	for _, e := range sn.es {
		if only != nil && !only(e) {
			continue
		}
		v := &view{e: e}
		segs := e.segs()
		v.kind = e.kindOf(segs)
		if v.kind == "" {
			continue // made and removed again within the turn: nothing in all
		}
		if last := e.steps[len(e.steps)-1]; last.kind == "deleted" && last.dir && hasBeneath(sn.es, e) {
			continue // a deleted folder: its files are entries of their own
		}
		last := e.steps[len(e.steps)-1].seq
		v.nowPath = e.path
		seen := map[string]bool{}
		for _, w := range sn.later {
			if w.seq <= last || w.root != e.root {
				continue
			}
			if w.kind == "moved" && w.from != "" {
				if np, ok := workspace.Remap(v.nowPath, w.from, w.path); ok {
					v.nowPath = np
				}
			}
			if w.path != v.nowPath || w.kind == "moved" {
				continue
			}
			v.trail = append(v.trail, w.write)
			if w.turn != sn.t.id && !seen[w.by] {
				seen[w.by] = true
				v.later = append(v.later, w.by)
			}
		}
		next := 1
		for _, s := range segs {
			sv := b.segView(s, e.path)
			sv.first = next
			next += len(sv.hunks)
			if !sv.known && v.note == "" {
				v.note = fmt.Sprintf("the content of %s before or after the turn is not kept (larger than turns.keep_file_bytes, trimmed to turns.keep_bytes, binary, or a folder's); it is listed but cannot be shown or reverted", e.path)
			}
			v.segs = append(v.segs, sv)
		}
		v.hunks = next - 1
		out = append(out, v)
	}
	return out
}

// segView loads a stretch's contents and diffs them.
func (b *Book) segView(s seg, path string) segView {
	sv := segView{seg: s, known: true}
	if s.kind == "moved" {
		return sv
	}
	if s.kind != "created" {
		sv.before, sv.known = b.load(s.prevAt, s.prev)
	}
	if s.kind != "deleted" {
		var ok bool
		sv.after, ok = b.load(s.afterAt, s.after)
		sv.known = sv.known && ok
	}
	if !sv.known {
		return sv
	}
	d := diff.Unified(string(sv.before), string(sv.after), diff.Options{Path: path, Context: diff.DefaultContext,
		OldMissing: s.kind == "created", NewMissing: s.kind == "deleted"})
	sv.hunks, sv.patch = d.Hunks, d.Patch
	return sv
}

// Detail is turn id in detail: its summary and its files, each hunk with
// its status against the disk now. ok is false when the turn is not kept.
func (b *Book) Detail(id string, disk Disk) (Summary, []File, bool, error) {
	sn, ok := b.snap(id)
	if !ok {
		return Summary{}, nil, false, nil
	}
	files := []File{}
	for _, v := range b.views(sn, nil) {
		now, err := disk.Read(v.e.root, v.nowPath)
		if err != nil {
			return Summary{}, nil, true, err
		}
		files = append(files, b.fileOf(sn.t, v, now))
	}
	return sn.sum, files, true, nil
}

// fileOf is v's File, statuses judged against now.
func (b *Book) fileOf(t *turn, v *view, now Side) File {
	f := File{Path: v.e.path, Kind: v.kind, Added: v.e.added, Removed: v.e.removed, External: v.e.ext, Hunks: []Hunk{}, Note: v.note}
	if v.e.first != v.e.path {
		from := v.e.first
		f.From = &from
	}
	if v.nowPath != v.e.path {
		np := v.nowPath
		f.Now = &np
	}
	b.mu.Lock()
	rv := t.reviews[fileKey{v.e.root, v.e.path}]
	f.Reviewed = t.fileReviewed(v.e.root, v.e.path)
	b.mu.Unlock()
	counts := map[string]int{}
	var patch bytes.Buffer
	for _, sv := range v.segs {
		patch.WriteString(sv.patch)
		for i, h := range sv.hunks {
			hk := Hunk{ID: sv.first + i, OldStart: h.OldStart, OldLines: h.OldLines, NewStart: h.NewStart, NewLines: h.NewLines,
				Added: h.Added, Removed: h.Removed, Header: header(h)}
			hk.Status = hunkStatus(sv, h, now)
			if hk.Status == "changed" {
				hk.ChangedBy = b.changedBy(v, sv, h, now)
			}
			if rv != nil {
				hk.Kept = rv.keptAll || rv.kept[hk.ID]
				if hk.Status == "undone" {
					hk.RevertedIn = rv.undone[hk.ID]
				}
			}
			counts[hk.Status]++
			f.Hunks = append(f.Hunks, hk)
		}
	}
	f.Patch = patch.String()
	switch n := len(f.Hunks); {
	case v.note != "":
		f.Status = "unknown"
	case counts["changed"] > 0:
		f.Status = "changed"
	case n > 0 && counts["undone"] == n:
		f.Status = "undone"
	case counts["undone"] > 0:
		f.Status = "partly"
	case n == 0 && v.kind == "moved" && !now.Exists:
		f.Status = "changed"
	default:
		f.Status = "stands"
	}
	return f
}

// header is a hunk's @@ line.
func header(h diff.Hunk) string {
	return fmt.Sprintf("@@ -%d,%d +%d,%d @@", h.OldStart, h.OldLines, h.NewStart, h.NewLines)
}

// hunkStatus judges one hunk of a stretch against the file now.
func hunkStatus(sv segView, h diff.Hunk, now Side) string {
	switch sv.kind {
	case "created":
		switch {
		case !now.Exists:
			return "undone"
		case bytes.Equal(now.Data, sv.after):
			return "stands"
		}
		return "changed"
	case "deleted":
		switch {
		case !now.Exists:
			return "stands"
		case bytes.Equal(now.Data, sv.before):
			return "undone"
		}
		return "changed"
	}
	if !now.Exists || now.Dir {
		return "changed"
	}
	if bytes.Equal(now.Data, sv.after) {
		return "stands"
	}
	merged, conflicts := undo(sv.after, now.Data, undoHunk(sv.after, sv.before, h))
	switch {
	case conflicts > 0:
		return "changed"
	case bytes.Equal(merged, now.Data):
		return "undone"
	}
	return "stands"
}

// undo merges the undoing of a hunk (base -> theirs) into ours, the file
// now: git's three-way merge, whose conflicts are where later writers
// changed what the hunk changed.
func undo(base, ours, theirs []byte) ([]byte, int) {
	return gitops.Merge3(gitops.Merge3Input{Base: base, Ours: ours, Theirs: theirs})
}

// undoHunk is after with hunk h of the diff before -> after undone: the
// lines it covers in after replaced by the ones it covered in before.
func undoHunk(after, before []byte, h diff.Hunk) []byte {
	a, b := lines(after), lines(before)
	as, bs := start(h.NewStart, h.NewLines), start(h.OldStart, h.OldLines)
	var out []byte
	for _, l := range a[:as] {
		out = append(out, l...)
	}
	for _, l := range b[bs : bs+h.OldLines] {
		out = append(out, l...)
	}
	for _, l := range a[as+h.NewLines:] {
		out = append(out, l...)
	}
	return out
}

// start is the 0-based index of a hunk side's first line (git names the
// line before an empty side).
func start(s, n int) int {
	if n == 0 {
		return s
	}
	return s - 1
}

// lines splits data after each '\n' (the last line may lack one).
func lines(data []byte) [][]byte {
	ls := bytes.SplitAfter(data, []byte{'\n'})
	if len(ls) > 0 && len(ls[len(ls)-1]) == 0 {
		ls = ls[:len(ls)-1]
	}
	return ls
}

// span is the lines of data in [from, to) (0-based), joined.
func span(data []byte, from, to int) string {
	ls := lines(data)
	from, to = max(0, min(from, len(ls))), max(0, min(to, len(ls)))
	var out []byte
	for _, l := range ls[from:to] {
		out = append(out, l...)
	}
	return string(out)
}

// hasBeneath reports whether an entry of es lies beneath the folder e.
func hasBeneath(es []*entry, e *entry) bool {
	for _, o := range es {
		if o != e && o.root == e.root && workspace.Within(o.path, e.path) {
			return true
		}
	}
	return false
}
