package gitops

// Span is a run of lines of one side: the first line, 0-based, and how
// many (0: an empty run, before line Start).
type Span struct{ Start, Lines int }

// Merge3Conflict is where one conflict of a merge is on each side. Base
// spans the whole region git's merge found in conflict before it shrank
// the sides to the lines where they differ (git's own markers of the
// diff3 style show that much of the base too).
type Merge3Conflict struct{ Base, Ours, Theirs Span }

// Merge3Conflicts is Merge3, also saying where each conflict is: the
// output (with markers when there are conflicts) and one entry per
// conflict, in order.
func Merge3Conflicts(in Merge3Input) (out []byte, conflicts []Merge3Conflict) {
	p := planMerge3(in)
	if p.whole != nil {
		return p.whole, nil
	}
	for _, m := range p.ms {
		if m.mode == 0 {
			conflicts = append(conflicts, Merge3Conflict{Base: Span{m.i0, m.chg0}, Ours: Span{m.i1, m.chg1}, Theirs: Span{m.i2, m.chg2}})
		}
	}
	return fillMerge(in, p.base, p.ours, p.theirs, p.ms), conflicts
}
