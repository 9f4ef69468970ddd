package gitops

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/editord/editord/shell"
	"github.com/go-git/go-git/v5/plumbing"
)

// A three-way merge of trees, as git's merge (the "ort" strategy without
// rename detection) resolves each path: a side that did not change a path
// takes the other side's version; both changed it the same way, that
// version; both changed a file's content, a line merge (Merge3), with
// conflict markers in the worktree and the three versions at index stages
// 1 (base), 2 (ours) and 3 (theirs) when it does not merge cleanly; one
// side deleted what the other changed, a modify/delete conflict.

// MergeLabels name the sides in conflict markers.
type MergeLabels struct {
	Ours, Base, Theirs string
}

// pathMerge is the outcome at one path whose result differs from ours.
type pathMerge struct {
	path     string
	conflict string // "" when clean; else content, add/add, modify/delete, ...
	// Clean: the result (exists false: deleted).
	entry  treeEntry
	exists bool
	data   []byte // a merged blob not stored yet (nil: entry's blob exists)
	// Conflict: the index stages (1 base, 2 ours, 3 theirs) and what the
	// worktree gets.
	stages   [4]treeEntry
	has      [4]bool
	wt       []byte
	wtMode   uint32
	wtExists bool
}

type side struct {
	e  treeEntry
	ok bool
}

// mergeTrees merges theirs into ours from base and lists the paths where
// the result differs from ours (conflicts included), by path.
func (r *Repo) mergeTrees(base, ours, theirs plumbing.Hash, l MergeLabels) ([]pathMerge, error) {
	m := &treeMerger{r: r, l: l, style: r.conflictStyle()}
	if err := m.dir("", base, ours, theirs); err != nil {
		var ue *UnsafePathError
		if errors.As(err, &ue) {
			return nil, r.refuseTree(ue, "the merge of "+short(theirs))
		}
		return nil, err
	}
	sort.Slice(m.out, func(i, j int) bool { return m.out[i].path < m.out[j].path })
	return m.out, nil
}

func (r *Repo) conflictStyle() MergeStyle {
	switch strings.ToLower(r.cfg.str("merge", "", "conflictstyle")) {
	case "diff3":
		return StyleDiff3
	case "zdiff3":
		return StyleZDiff3
	}
	return StyleMerge
}

type treeMerger struct {
	r     *Repo
	l     MergeLabels
	style MergeStyle
	out   []pathMerge
}

func (m *treeMerger) entries(prefix string, h plumbing.Hash) (map[string]treeEntry, error) {
	ents, err := m.r.readTree(h)
	if err != nil {
		return nil, err
	}
	if err := verifyTreeEntries(prefix, ents); err != nil {
		return nil, err
	}
	out := make(map[string]treeEntry, len(ents))
	for _, e := range ents {
		out[e.name] = e
	}
	return out, nil
}

// dir merges one folder (zero hashes: absent on that side).
func (m *treeMerger) dir(prefix string, b, o, t plumbing.Hash) error {
	if o == t || b == t {
		return nil // theirs changed nothing here, or both made the same tree
	}
	if b == o {
		// Only theirs changed: its version of every path that differs.
		return m.r.diffTreesVerified(prefix, o, t, func(p string, oe, te side) error {
			m.out = append(m.out, pathMerge{path: p, entry: te.e, exists: te.ok})
			return nil
		})
	}
	be, err := m.entries(prefix, b)
	if err != nil {
		return err
	}
	oe, err := m.entries(prefix, o)
	if err != nil {
		return err
	}
	te, err := m.entries(prefix, t)
	if err != nil {
		return err
	}
	names := map[string]bool{}
	for _, set := range []map[string]treeEntry{be, oe, te} {
		for n := range set {
			names[n] = true
		}
	}
	for n := range names {
		bs, os_, ts := sideOf(be, n), sideOf(oe, n), sideOf(te, n)
		p := joinPath(prefix, n)
		dirs, files := 0, 0
		for _, s := range []side{bs, os_, ts} {
			if s.ok {
				if s.e.isDir() {
					dirs++
				} else {
					files++
				}
			}
		}
		switch {
		case files == 0:
			if err := m.dir(p, treeHash(bs), treeHash(os_), treeHash(ts)); err != nil {
				return err
			}
		case dirs == 0:
			if err := m.file(p, bs, os_, ts); err != nil {
				return err
			}
		default:
			if err := m.mixed(p, bs, os_, ts); err != nil {
				return err
			}
		}
	}
	return nil
}

func sideOf(set map[string]treeEntry, name string) side {
	e, ok := set[name]
	return side{e, ok}
}

func treeHash(s side) plumbing.Hash {
	if s.ok && s.e.isDir() {
		return s.e.hash
	}
	return plumbing.ZeroHash
}

func sameSide(a, b side) bool {
	return a.ok == b.ok && (!a.ok || a.e.hash == b.e.hash && a.e.mode == b.e.mode)
}

// mixed handles a name that is a file on one side and a folder on
// another. Resolved when a side left it alone; otherwise a conflict editord
// does not write (git's file/directory handling renames files aside).
func (m *treeMerger) mixed(p string, b, o, t side) error {
	switch {
	case sameSide(o, t) || sameSide(b, t):
		return nil
	case sameSide(b, o):
		// Theirs replaced the whole path: ours's side goes, theirs's comes.
		if o.ok {
			if err := m.remove(p, o); err != nil {
				return err
			}
		}
		if t.ok {
			return m.add(p, t)
		}
		return nil
	}
	m.out = append(m.out, pathMerge{path: p, conflict: "file/directory"})
	return nil
}

// remove lists the deletion of everything at p on side s.
func (m *treeMerger) remove(p string, s side) error {
	if !s.e.isDir() {
		m.out = append(m.out, pathMerge{path: p})
		return nil
	}
	return m.r.flatTree(s.e.hash, p, func(fp string, _ treeEntry) error {
		m.out = append(m.out, pathMerge{path: fp})
		return nil
	})
}

// add lists everything at p on side s as the result.
func (m *treeMerger) add(p string, s side) error {
	if !s.e.isDir() {
		m.out = append(m.out, pathMerge{path: p, entry: s.e, exists: true})
		return nil
	}
	return m.r.flatTree(s.e.hash, p, func(fp string, e treeEntry) error {
		m.out = append(m.out, pathMerge{path: fp, entry: e, exists: true})
		return nil
	})
}

// file merges one file path.
func (m *treeMerger) file(p string, b, o, t side) error {
	switch {
	case sameSide(o, t), sameSide(b, t):
		return nil
	case sameSide(b, o):
		m.out = append(m.out, pathMerge{path: p, entry: t.e, exists: t.ok})
		return nil
	}
	pm := pathMerge{path: p}
	setStages := func() {
		for i, s := range []side{b, o, t} {
			if s.ok {
				pm.stages[i+1], pm.has[i+1] = s.e, true
			}
		}
	}
	if !o.ok || !t.ok {
		// One side deleted, the other changed: the changed file stays in
		// the worktree.
		pm.conflict = "modify/delete"
		setStages()
		kept := o
		if !o.ok {
			kept = t
		}
		data, err := m.r.readBlob(kept.e.hash)
		if err != nil {
			return err
		}
		pm.wt, pm.wtMode, pm.wtExists = data, kept.e.mode, true
		m.out = append(m.out, pm)
		return nil
	}
	// Both sides have a file. The mode: the side that changed it.
	mode := o.e.mode
	modeConflict := false
	switch {
	case o.e.mode == t.e.mode:
	case b.ok && b.e.mode == o.e.mode:
		mode = t.e.mode
	case b.ok && b.e.mode == t.e.mode:
	default:
		modeConflict = true
	}
	if !isRegular(o.e.mode) || !isRegular(t.e.mode) || b.ok && !isRegular(b.e.mode) {
		// Symlinks and submodules do not merge line by line: ours stays.
		pm.conflict = "content"
		if !b.ok {
			pm.conflict = "add/add"
		}
		setStages()
		if o.e.mode != modeGitlink {
			data, err := m.r.readBlob(o.e.hash)
			if err != nil {
				return err
			}
			pm.wt, pm.wtMode, pm.wtExists = data, o.e.mode, true
		}
		m.out = append(m.out, pm)
		return nil
	}
	var baseData []byte
	if b.ok {
		var err error
		if baseData, err = m.r.readBlob(b.e.hash); err != nil {
			return err
		}
	}
	ours, err := m.r.readBlob(o.e.hash)
	if err != nil {
		return err
	}
	theirs, err := m.r.readBlob(t.e.hash)
	if err != nil {
		return err
	}
	if shell.IsBinary(baseData) || shell.IsBinary(ours) || shell.IsBinary(theirs) {
		pm.conflict = "binary"
		setStages()
		pm.wt, pm.wtMode, pm.wtExists = ours, o.e.mode, true
		m.out = append(m.out, pm)
		return nil
	}
	merged, n := Merge3(Merge3Input{Base: baseData, Ours: ours, Theirs: theirs,
		OursLabel: m.l.Ours, BaseLabel: m.l.Base, TheirsLabel: m.l.Theirs, Style: m.style, Histogram: true})
	if n == 0 && !modeConflict {
		h := hashObject("blob", merged) // stored when written (applyMerge)
		if h == o.e.hash && mode == o.e.mode {
			return nil
		}
		m.out = append(m.out, pathMerge{path: p, entry: treeEntry{name: t.e.name, mode: mode, hash: h}, exists: true, data: merged})
		return nil
	}
	pm.conflict = "content"
	if !b.ok {
		pm.conflict = "add/add"
	}
	setStages()
	pm.wt, pm.wtMode, pm.wtExists = merged, mode, true
	m.out = append(m.out, pm)
	return nil
}

// diffTrees calls fn for every file path where trees a and b differ
// (zero: empty), entering only folders whose hashes differ.
func (r *Repo) diffTrees(prefix string, a, b plumbing.Hash, fn func(p string, ea, eb side) error) error {
	return r.diffTreesV(prefix, a, b, false, fn)
}

// diffTreesVerified is diffTrees for a tree b about to be written: each of
// b's tree objects it reads is verified (verifyTreeEntries).
func (r *Repo) diffTreesVerified(prefix string, a, b plumbing.Hash, fn func(p string, ea, eb side) error) error {
	return r.diffTreesV(prefix, a, b, true, fn)
}

func (r *Repo) diffTreesV(prefix string, a, b plumbing.Hash, verify bool, fn func(p string, ea, eb side) error) error {
	if a == b {
		return nil
	}
	ae, err := r.readTree(a)
	if err != nil {
		return err
	}
	be, err := r.readTree(b)
	if err != nil {
		return err
	}
	if verify {
		if err := verifyTreeEntries(prefix, be); err != nil {
			return err
		}
	}
	// Both lists are in git's tree order: walk them side by side.
	i, k := 0, 0
	for i < len(ae) || k < len(be) {
		var c int
		switch {
		case i == len(ae):
			c = 1
		case k == len(be):
			c = -1
		default:
			c = treeCompare(ae[i].name, ae[i].isDir(), be[k].name, be[k].isDir())
		}
		var x, y treeEntry
		var okx, oky bool
		switch {
		case c < 0:
			x, okx = ae[i], true
			i++
		case c > 0:
			y, oky = be[k], true
			k++
		default:
			x, okx, y, oky = ae[i], true, be[k], true
			i++
			k++
		}
		if okx && oky && x.hash == y.hash && x.mode == y.mode {
			continue
		}
		name := x.name
		if !okx {
			name = y.name
		}
		p := joinPath(prefix, name)
		xd, yd := okx && x.isDir(), oky && y.isDir()
		if xd || yd {
			var xh, yh plumbing.Hash
			if xd {
				xh = x.hash
			}
			if yd {
				yh = y.hash
			}
			if err := r.diffTreesV(p, xh, yh, verify, fn); err != nil {
				return err
			}
		}
		if xf, yf := okx && !xd, oky && !yd; xf || yf {
			if err := fn(p, side{x, xf}, side{y, yf}); err != nil {
				return err
			}
		}
	}
	return nil
}

// conflictSummary words the conflicts of a merge as git reports them.
func conflictSummary(ms []pathMerge) []string {
	var out []string
	for _, m := range ms {
		if m.conflict != "" {
			out = append(out, fmt.Sprintf("CONFLICT (%s): %s", m.conflict, m.path))
		}
	}
	return out
}
