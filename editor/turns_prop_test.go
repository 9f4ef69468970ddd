package editor

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// The revert property (issue 21): over random histories of several
// writers (agents, a person, another program writing the disk directly),
// with edits, creates, moves, deletes, partial reverts and reverts of
// reverts, every revert
//
//   - removes only lines the reverted hunks added and brings back only lines
//     they removed: every other line, whoever wrote it and whenever, stays,
//     in its order (lines are unique, so "intact" is exact);
//   - undoes exactly the hunks asked for that stand (history's status), and
//     no other; leaves the lines of a refused hunk as they are;
//   - leaves every file it does not name byte for byte.

const propWriters = 3 // agents #0, #1 and a person #2; external writes too

type propRun struct {
	t     *testing.T
	e     *tcEnv
	rnd   *rand.Rand
	dir   string // this history's folder under the root
	next  int    // the next line's number
	turns []string
	log   []string // what happened, for a failure's message
}

func (p *propRun) line(who string) string {
	p.next++
	return fmt.Sprintf("%s L%d %s\n", p.dir, p.next, who)
}

func (p *propRun) files() []string {
	var out []string
	filepath.WalkDir(p.e.abs(p.dir), func(q string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(p.e.root, q)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(out)
	return out
}

func (p *propRun) snapshot() map[string]string {
	m := map[string]string{}
	for _, f := range p.files() {
		m[f] = p.e.read(f)
	}
	return m
}

// edit changes a few lines of content as who: replaces, inserts, deletes.
func (p *propRun) edit(content, who string) string {
	ls := strings.SplitAfter(content, "\n")
	if ls[len(ls)-1] == "" {
		ls = ls[:len(ls)-1]
	}
	for n := 1 + p.rnd.IntN(3); n > 0; n-- {
		i := p.rnd.IntN(len(ls) + 1)
		switch op := p.rnd.IntN(3); {
		case op == 0 || len(ls) < 3:
			ls = slices.Insert(ls, i, p.line(who))
		case op == 1 && i < len(ls):
			ls = slices.Delete(ls, i, i+1)
		case i < len(ls):
			ls[i] = p.line(who)
		}
	}
	return strings.Join(ls, "")
}

func (p *propRun) fresh(who string) string {
	var b strings.Builder
	for n := 3 + p.rnd.IntN(12); n > 0; n-- {
		b.WriteString(p.line(who))
	}
	return b.String()
}

func (p *propRun) step() {
	w := p.rnd.IntN(propWriters + 1)
	who := fmt.Sprintf("w#%d", w)
	ctx := tnCtx(who)
	files := p.files()
	pick := func() string { return files[p.rnd.IntN(len(files))] }
	switch r := p.rnd.IntN(100); {
	case w == propWriters: // another program, straight to the disk
		if len(files) == 0 {
			return
		}
		f := pick()
		tcWriteFile(p.t, p.e.abs(f), p.edit(p.e.read(f), "ext"), 0o644)
		p.log = append(p.log, "external edit "+f)
	case r < 10:
		if _, err := p.e.s.Turn(ctx, &TurnRequest{Action: "begin"}); err != nil {
			p.t.Fatal(err)
		}
		p.log = append(p.log, who+" begins a turn")
	case r < 60 && len(files) > 0:
		f := pick()
		p.e.tnSave(who, f, p.edit(p.e.read(f), who))
		p.log = append(p.log, who+" edits "+f)
	case r < 70 || len(files) < 2:
		f := path.Join(p.dir, fmt.Sprintf("f%d.txt", p.next))
		if p.rnd.IntN(3) == 0 {
			f = path.Join(p.dir, fmt.Sprintf("d%d", p.rnd.IntN(2)), fmt.Sprintf("f%d.txt", p.next))
		}
		if _, err := p.e.s.Create(ctx, &CreateRequest{Path: f, Kind: "file", Content: p.fresh(who)}); err != nil {
			p.t.Fatal(err)
		}
		p.log = append(p.log, who+" creates "+f)
	case r < 78:
		f := pick()
		to := path.Join(p.dir, fmt.Sprintf("m%d.txt", p.next))
		p.next++
		if _, err := p.e.s.Move(ctx, &MoveRequest{From: f, To: to}); err != nil {
			p.t.Fatal(err)
		}
		p.log = append(p.log, who+" moves "+f+" to "+to)
	case r < 84:
		f := pick()
		// A file, or now and then the whole folder it is in.
		recursive := path.Dir(f) != p.dir && p.rnd.IntN(2) == 0
		if recursive {
			f = path.Dir(f)
		}
		if _, err := p.e.s.Delete(ctx, &DeleteRequest{Path: f, Recursive: recursive}); err != nil {
			p.t.Fatal(err)
		}
		p.log = append(p.log, who+" deletes "+f)
	default:
		p.revert(who)
	}
}

// hunkLines are the lines a hunk of a patch adds and removes, by id (the
// patch's @@ blocks in order, from 1).
func hunkLines(patch string) (added, removed map[int][]string) {
	added, removed = map[int][]string{}, map[int][]string{}
	id := 0
	for _, l := range strings.SplitAfter(patch, "\n") {
		switch {
		case strings.HasPrefix(l, "@@"):
			id++
		case strings.HasPrefix(l, "+++ ") || strings.HasPrefix(l, "--- "):
		case strings.HasPrefix(l, "+"):
			added[id] = append(added[id], l[1:])
		case strings.HasPrefix(l, "-"):
			removed[id] = append(removed[id], l[1:])
		}
	}
	return added, removed
}

func (p *propRun) revert(who string) {
	if len(p.turns) == 0 {
		return
	}
	id := p.turns[p.rnd.IntN(len(p.turns))]
	d, err := p.e.s.History(context.Background(), &HistoryRequest{Turn: id})
	if err != nil {
		p.t.Fatalf("history %s: %v", id, err)
	}
	req := &RevertRequest{Turn: id}
	var only string
	var hunks []int
	if len(d.Files) > 0 && p.rnd.IntN(2) == 0 {
		f := d.Files[p.rnd.IntN(len(d.Files))]
		only, req.Path = f.Path, f.Path
		if f.Now != nil {
			req.Path = *f.Now
		}
		if len(f.Hunks) > 1 && p.rnd.IntN(2) == 0 {
			for _, h := range f.Hunks {
				if p.rnd.IntN(2) == 0 {
					hunks = append(hunks, h.ID)
				}
			}
			if len(hunks) == 0 {
				hunks = []int{f.Hunks[0].ID}
			}
			req.Hunks = hunks
		}
	}
	before := p.snapshot()
	if os.Getenv("EDITORD_TURNS_DEBUG") != "" {
		js, _ := json.MarshalIndent(d, "", " ")
		p.t.Logf("revert %+v of\n%s\nfiles before:\n%v", req, js, before)
	}
	r, err := p.e.s.Revert(tnCtx(who), req)
	if err != nil {
		p.t.Fatalf("revert %+v: %v\n%s", req, err, strings.Join(p.log, "\n"))
	}
	p.log = append(p.log, fmt.Sprintf("%s reverts %s %s %v: undone %+v refused %d", who, id, req.Path, req.Hunks, r.Undone, len(r.Refused)))
	after := p.snapshot()
	fail := func(format string, args ...any) {
		p.t.Helper()
		p.t.Fatalf("%s\n%s", fmt.Sprintf(format, args...), strings.Join(p.log, "\n"))
	}
	// What the revert may take away (lines the undone hunks added) and
	// bring back (lines they removed).
	mayGo, mayCome := map[string]bool{}, map[string]bool{}
	undone := map[string][]int{}
	for _, u := range r.Undone {
		undone[u.Path] = u.Hunks
	}
	for _, f := range d.Files {
		if only != "" && f.Path != only {
			continue
		}
		add, rem := hunkLines(f.Patch)
		now := f.Path
		if f.Now != nil {
			now = *f.Now
		}
		var got []int
		var named bool
		for _, u := range r.Undone {
			if u.Path == now || u.From != nil && *u.From == now || f.From != nil && u.Path == *f.From {
				got, named = u.Hunks, true
			}
		}
		for _, h := range f.Hunks {
			asked := only == "" || len(hunks) == 0 || slices.Contains(hunks, h.ID)
			did := slices.Contains(got, h.ID)
			if did {
				if !asked {
					fail("%s: hunk %d of %s undone, not asked for", id, h.ID, f.Path)
				}
				for _, l := range add[h.ID] {
					mayGo[l] = true
				}
				for _, l := range rem[h.ID] {
					mayCome[l] = true
				}
			}
			// A hunk that stands is undone, unless a later stretch of the
			// same turn in the file made the same change again (its undo,
			// done first, then covers both).
			stretches := strings.Count("\n"+f.Patch, "\n--- ")
			if asked && h.Status == "stands" && !did && f.Note == "" && stretches == 1 {
				fail("%s: hunk %d of %s stood, was asked for, and was not undone (undone %v, named %v): %+v", id, h.ID, f.Path, got, named, r)
			}
		}
	}
	count := func(m map[string]string) map[string]int {
		c := map[string]int{}
		for _, content := range m {
			for _, l := range strings.SplitAfter(content, "\n") {
				if l != "" {
					c[l]++
				}
			}
		}
		return c
	}
	cb, ca := count(before), count(after)
	for l, n := range cb {
		if ca[l] < n && !mayGo[l] {
			fail("%s: the revert removed %q, which no undone hunk added", id, l)
		}
	}
	for l, n := range ca {
		if cb[l] < n && !mayCome[l] {
			fail("%s: the revert brought %q, which no undone hunk removed", id, l)
		}
	}
	// Order: what stays of each file is as it was.
	for f, a := range after {
		b, ok := before[f]
		if !ok {
			continue
		}
		keep := func(s string, drop map[string]bool) string {
			var out []string
			for _, l := range strings.SplitAfter(s, "\n") {
				if l != "" && !drop[l] {
					out = append(out, l)
				}
			}
			return strings.Join(out, "")
		}
		if keep(a, mayCome) != keep(b, mayGo) {
			fail("%s: %s changed beyond its undone hunks:\nbefore:\n%s\nafter:\n%s", id, f, b, a)
		}
	}
	for f, b := range before {
		if _, named := undone[f]; named {
			continue
		}
		moved := false
		for _, u := range r.Undone {
			if u.From != nil && *u.From == f {
				moved = true
			}
		}
		if a, ok := after[f]; !moved && (!ok || a != b) {
			fail("%s: %s, which the revert does not name, changed", id, f)
		}
	}
	if r.Turn != "" {
		p.turns = append(p.turns, r.Turn)
	}
}

func TestTurnsRevertProperty(t *testing.T) {
	n := 500
	if testing.Short() {
		n = 60
	}
	e := tcNew(t)
	seen := map[string]bool{}
	seed := uint64(21) // EDITORD_TURNS_SEED explores other histories
	if v := os.Getenv("EDITORD_TURNS_SEED"); v != "" {
		fmt.Sscan(v, &seed)
	}
	from, to := 0, n-1
	if v := os.Getenv("EDITORD_TURNS_HISTORIES"); v != "" {
		fmt.Sscanf(v, "%d-%d", &from, &to) // replay some, to look at a failure
	}
	for k := range n {
		if k < from || k > to {
			continue
		}
		p := &propRun{t: t, e: e, rnd: rand.New(rand.NewPCG(uint64(k), seed)), dir: fmt.Sprintf("h%03d", k)}
		e.mkdir(p.dir)
		for i := range 2 {
			f := path.Join(p.dir, fmt.Sprintf("base%d.txt", i))
			e.write(f, p.fresh("base"))
		}
		for range 20 + p.rnd.IntN(15) {
			p.step()
			// The turns of this history, as they come.
			h, err := e.s.History(context.Background(), &HistoryRequest{Path: p.dir, Limit: 50})
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range h.Turns {
				if !seen[s.Turn] {
					seen[s.Turn] = true
					p.turns = append(p.turns, s.Turn)
				}
			}
		}
		p.revert("w#0") // at least one revert per history
	}
}
