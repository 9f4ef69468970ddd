package turns

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/editord/editord/diff"
)

// Plan is what undoing (part of) a turn does to one file: from the file as
// read now to the result, which the service writes guarded by Now's
// version (a writer that lands in between makes it plan again).
type Plan struct {
	Root    string
	Path    string // where the file is now
	Now     Side   // as read for this plan
	To      string // where it is after the revert (Path, unless moved back)
	Result  Side   // what is there after the revert (Exists false: removed)
	Kind    string // modified, deleted, restored, moved; "" when nothing changes
	Hunks   []int  // the turn's hunks undone
	Refused []Refusal
	Entry   string // the file as the turn left it (for marks)
	Of      int    // its hunk count
	Whole   bool   // the whole file was asked for
	Patch   string // Now -> Result at To
}

// Selection names what to undo of a turn: everything (Path ""), one file
// (Path, as the turn left it or where it is now), or hunks of it.
type Selection struct {
	Path  string
	Hunks []int
}

// Plan plans undoing sel of turn id against the disk now. found is false
// when the turn is not kept; a path the turn did not change is an error
// naming the turn's files.
func (b *Book) Plan(id string, sel Selection, disk Disk) (sum Summary, plans []*Plan, found bool, err error) {
	sn, ok := b.snap(id)
	if !ok {
		return Summary{}, nil, false, nil
	}
	vs := b.views(sn, nil)
	if sel.Path != "" {
		var keep []*view
		for _, v := range vs {
			if v.e.path == sel.Path || v.nowPath == sel.Path || v.e.first == sel.Path {
				keep = append(keep, v)
			}
		}
		if len(keep) == 0 {
			return sn.sum, nil, true, fmt.Errorf("turn %s did not change %s; its files: %s", id, sel.Path, listPaths(vs))
		}
		vs = keep[:1]
	}
	for _, v := range vs {
		p, err := b.PlanFile(v, sel.Hunks, disk)
		if err != nil {
			return sn.sum, nil, true, err
		}
		plans = append(plans, p)
	}
	return sn.sum, plans, true, nil
}

// Replan plans one file of a plan again (its write met a later change).
func (b *Book) Replan(id string, p *Plan, hunks []int, disk Disk) (*Plan, error) {
	_, plans, _, err := b.Plan(id, Selection{Path: p.Entry, Hunks: hunks}, disk)
	if err != nil || len(plans) == 0 {
		return nil, err
	}
	return plans[0], nil
}

func listPaths(vs []*view) string {
	var b bytes.Buffer
	for i, v := range vs {
		if i == 10 {
			fmt.Fprintf(&b, " and %d more", len(vs)-i)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(v.e.path)
	}
	if b.Len() == 0 {
		return "none"
	}
	return b.String()
}

// PlanFile plans undoing the hunks of v (all of it when hunks is empty)
// against the file now. The turn's stretches are undone last to first,
// each hunk three-way on the result of the ones after it.
func (b *Book) PlanFile(v *view, hunks []int, disk Disk) (*Plan, error) {
	now, err := disk.Read(v.e.root, v.nowPath)
	if err != nil {
		return nil, err
	}
	p := &Plan{Root: v.e.root, Path: v.nowPath, Now: now, To: v.nowPath, Entry: v.e.path, Of: v.hunks, Whole: len(hunks) == 0}
	want := func(id int) bool { return p.Whole || slices.Contains(hunks, id) }
	if v.note != "" {
		p.Refused = append(p.Refused, Refusal{Path: v.nowPath, Reason: v.note, ChangedBy: orEmpty(v.later)})
		return p, nil
	}
	cur := now // the file as the plan leaves it so far
	refuse := func(h int, reason string, was, made []byte, nowPart string) {
		p.Refused = append(p.Refused, Refusal{Path: v.nowPath, Hunk: h, Reason: reason, AsWas: string(was), AsMade: string(made),
			AsNow: nowPart, ChangedBy: orEmpty(v.later)})
	}
	for i := len(v.segs) - 1; i >= 0; i-- {
		sv := v.segs[i]
		switch sv.kind {
		case "":
			continue
		case "moved":
			if !p.Whole {
				continue // a move has no hunk: only a whole file's revert undoes it
			}
			if !cur.Exists {
				refuse(0, fmt.Sprintf("%s was moved to %s by the turn and is gone since; nothing to move back", sv.from, sv.to), nil, nil, "")
				continue
			}
			p.To = sv.from
		case "created":
			if !want(sv.first) {
				continue
			}
			switch {
			case !cur.Exists:
				// already gone
			case !cur.Dir && bytes.Equal(cur.Data, sv.after):
				cur = Side{}
				p.Hunks = append(p.Hunks, sv.first)
			default:
				refuse(sv.first, fmt.Sprintf("the turn created %s and it was changed since; it is left as it is (undo the later changes first, or delete it yourself)", v.nowPath),
					nil, sv.after, string(cur.Data))
			}
		case "deleted":
			if !want(sv.first) {
				continue
			}
			switch {
			case !cur.Exists:
				mode := sv.mode
				if mode == 0 {
					mode = 0o644
				}
				cur = Side{Exists: true, Data: sv.before, Mode: mode}
				p.Hunks = append(p.Hunks, sv.first)
			case !cur.Dir && bytes.Equal(cur.Data, sv.before):
				// already back
			default:
				refuse(sv.first, fmt.Sprintf("the turn deleted %s and something else is there now; it is left as it is", v.nowPath),
					sv.before, nil, string(cur.Data))
			}
		default:
			ids := make([]int, 0, len(sv.hunks))
			for k := range sv.hunks {
				if want(sv.first + k) {
					ids = append(ids, sv.first+k)
				}
			}
			if len(ids) == 0 {
				continue
			}
			if !cur.Exists || cur.Dir {
				for _, id := range ids {
					h := sv.hunks[id-sv.first]
					refuse(id, fmt.Sprintf("%s was deleted after the turn; its hunks cannot be undone in it", v.nowPath),
						[]byte(span(sv.before, start(h.OldStart, h.OldLines), start(h.OldStart, h.OldLines)+h.OldLines)),
						[]byte(span(sv.after, start(h.NewStart, h.NewLines), start(h.NewStart, h.NewLines)+h.NewLines)), "")
				}
				continue
			}
			base := sv.after
			for k := len(ids) - 1; k >= 0; k-- {
				h := sv.hunks[ids[k]-sv.first]
				theirs := undoHunk(base, sv.before, h)
				merged, conflicts := undo(base, cur.Data, theirs)
				if conflicts > 0 {
					ns, ne := start(h.NewStart, h.NewLines), start(h.NewStart, h.NewLines)+h.NewLines
					ls, le := mapRange(base, cur.Data, ns, ne)
					refuse(ids[k], fmt.Sprintf("hunk %d (%s) of %s was changed after the turn; it is left as it is", ids[k], header(h), v.nowPath),
						[]byte(span(sv.before, start(h.OldStart, h.OldLines), start(h.OldStart, h.OldLines)+h.OldLines)),
						[]byte(span(base, ns, ne)), span(cur.Data, ls, le))
					p.Refused[len(p.Refused)-1].ChangedBy = b.changedBy(v, sv, h, now)
					continue
				}
				if !bytes.Equal(merged, cur.Data) {
					p.Hunks = append(p.Hunks, ids[k])
				}
				cur.Data, base = merged, theirs
			}
		}
	}
	slices.Sort(p.Hunks)
	p.Result = cur
	switch {
	case now.Exists && !cur.Exists:
		p.Kind = "deleted"
	case !now.Exists && cur.Exists:
		p.Kind = "restored"
	case p.To != p.Path:
		p.Kind = "moved"
	case now.Exists && !bytes.Equal(now.Data, cur.Data):
		p.Kind = "modified"
	}
	if p.Kind != "" && !cur.Dir && !now.Dir {
		d := diff.Unified(string(now.Data), string(cur.Data), diff.Options{Path: p.To, Context: diff.DefaultContext,
			OldMissing: !now.Exists, NewMissing: !cur.Exists})
		p.Patch = d.Patch
	}
	return p, nil
}

func orEmpty(ss []string) []string {
	if ss == nil {
		return []string{}
	}
	return ss
}

// mapRange maps the lines [s, e) of base to the lines of now that hold
// them (and whatever later writers put in their place), by the diff base
// -> now.
func mapRange(base, now []byte, s, e int) (int, int) {
	hs := diff.Unified(string(base), string(now), diff.Options{Context: 0}).Hunks
	left, right := s, e
	ldone := false
	for _, h := range hs {
		os, ns := start(h.OldStart, h.OldLines), start(h.NewStart, h.NewLines)
		oe, ne := os+h.OldLines, ns+h.NewLines
		if !ldone {
			switch {
			case oe <= s && os < s:
				left += h.NewLines - h.OldLines
			case os < s:
				left, ldone = ns, true
			default:
				ldone = true
			}
		}
		switch {
		case oe <= e && os < e:
			right = e + (ne - oe)
		case os < e:
			right = ne
		}
		if os >= e {
			break
		}
	}
	return left, max(left, right)
}
