package turns

import (
	"fmt"
	"hash/fnv"
	"reflect"
	"strings"
	"testing"

	"github.com/editord/editord/diff"
	"github.com/editord/editord/workspace"
)

// version is docs/contract.md §3's version (the editor's, which this package is
// given).
func version(data []byte) string {
	h := fnv.New64a()
	h.Write(data)
	return fmt.Sprintf("%x-%016x", len(data), h.Sum64())
}

func open(t *testing.T, dir string, cfg Config) *Book {
	t.Helper()
	st, err := workspace.OpenStore(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	b, err := Open(st, cfg, version, func(m string) { t.Logf("warn: %s", m) })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

type fakeDisk map[string]string

func (d fakeDisk) Read(root, path string) (Side, error) {
	c, ok := d[path]
	if !ok {
		return Side{}, nil
	}
	return Side{Exists: true, Data: []byte(c), Version: version([]byte(c)), Mode: 0o644}, nil
}

var seq int64

// change is the event of a write of path from before to after by by.
func change(by, path, before, after string) workspace.Event {
	seq++
	ev := workspace.Event{Seq: seq, Root: "/r", Path: path, Kind: "modified", Cause: "editor::save", By: by}
	switch {
	case before == "":
		ev.Kind = "created"
	case after == "":
		ev.Kind = "deleted"
	}
	if ev.Kind != "created" {
		p := version([]byte(before))
		ev.Prev, ev.Before = &p, []byte(before)
	}
	if ev.Kind != "deleted" {
		v := version([]byte(after))
		ev.Version, ev.After = &v, []byte(after)
	}
	return ev
}

func TestUndoHunkAndMapRange(t *testing.T) {
	before := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n"
	after := "a\nB\nc\nd\ne\nf\ng\nh\ni\nJ\nk\n"
	d := diff.Unified(before, after, diff.Options{Context: 0})
	if len(d.Hunks) != 2 {
		t.Fatalf("hunks %+v", d.Hunks)
	}
	if got := string(undoHunk([]byte(after), []byte(before), d.Hunks[1])); got != "a\nB\nc\nd\ne\nf\ng\nh\ni\nj\n" {
		t.Fatalf("second hunk undone: %q", got)
	}
	if got := string(undoHunk([]byte(after), []byte(before), d.Hunks[0])); got != "a\nb\nc\nd\ne\nf\ng\nh\ni\nJ\nk\n" {
		t.Fatalf("first hunk undone: %q", got)
	}
	// Lines 9–10 of after (J, k) are lines 10–11 of now, where a line was
	// put before them.
	now := "zero\n" + after
	if s, e := mapRange([]byte(after), []byte(now), 9, 11); span([]byte(now), s, e) != "J\nk\n" {
		t.Fatalf("mapped to %d–%d: %q", s, e, span([]byte(now), s, e))
	}
	// A range someone rewrote maps to what is there now.
	now = strings.Replace(after, "J\n", "X\nY\n", 1)
	if s, e := mapRange([]byte(after), []byte(now), 9, 10); span([]byte(now), s, e) != "X\nY\n" {
		t.Fatalf("mapped to %q", span([]byte(now), s, e))
	}
}

func TestSegsJoinAndCompose(t *testing.T) {
	w := func(kind, prev, after string) *write { return &write{kind: kind, prev: prev, after: after} }
	for _, c := range []struct {
		steps []*write
		want  []string
	}{
		{[]*write{w("modified", "1", "2"), w("modified", "2", "3")}, []string{"modified 1 3"}},
		{[]*write{w("modified", "1", "2"), w("modified", "9", "3")}, []string{"modified 1 2", "modified 9 3"}}, // someone wrote between
		{[]*write{w("created", "", "2"), w("modified", "2", "3")}, []string{"created  3"}},
		{[]*write{w("created", "", "2"), w("deleted", "2", "")}, []string{"  "}},
		{[]*write{w("modified", "1", "2"), w("deleted", "2", "")}, []string{"deleted 1 "}},
		{[]*write{w("deleted", "1", ""), w("created", "", "5")}, []string{"modified 1 5"}},
	} {
		e := &entry{steps: c.steps}
		var got []string
		for _, s := range e.segs() {
			got = append(got, s.kind+" "+s.prev+" "+s.after)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%v: got %q, want %q", c.steps, got, c.want)
		}
	}
}

func TestMatchBy(t *testing.T) {
	for _, c := range []struct {
		by, want string
		ok       bool
	}{
		{"claude-code#3f2a", "", true}, {"claude-code#3f2a", "claude-code", true}, {"claude-code#3f2a", "claude-code#3f2a", true},
		{"claude-code#3f2a", "claude-code#0000", false}, {"claude-codex#1", "claude-code", false}, {"cli", "cli", true},
	} {
		if matchBy(c.by, c.want) != c.ok {
			t.Errorf("matchBy(%q, %q) = %v", c.by, c.want, !c.ok)
		}
	}
}

// What a book knows survives its log's rewrite and another process's
// reading: the same turns, files, hunks and marks.
func TestBookRewriteAndReload(t *testing.T) {
	dir := t.TempDir()
	b := open(t, dir, Config{Kept: 4})
	disk := fakeDisk{}
	for i := range 12 {
		by := fmt.Sprintf("w#%d", i%3)
		if _, err := b.Begin(by, fmt.Sprintf("task %d", i)); err != nil {
			t.Fatal(err)
		}
		p := fmt.Sprintf("f%d.txt", i%5)
		before := disk[p]
		after := before + fmt.Sprintf("line %d\n", i)
		disk[p] = after
		b.Stamp([]workspace.Event{change(by, p, before, after)})
	}
	list, _ := b.List(Query{Limit: 100})
	if len(list) != 4 {
		t.Fatalf("kept %d turns, want 4: %+v", len(list), list)
	}
	if err := b.Mark(list[0].Turn, "/r", list[0].Paths[0], nil, 1, "p#1", ""); err != nil {
		t.Fatal(err)
	}
	b.mu.Lock()
	b.rewrite()
	b.mu.Unlock()
	other := open(t, dir, Config{Kept: 4})
	a, _ := b.List(Query{Limit: 100})
	c, _ := other.List(Query{Limit: 100})
	for i := range a {
		a[i].Open, c[i].Open = false, false
	}
	if !reflect.DeepEqual(a, c) || !a[0].Reviewed {
		t.Fatalf("after the rewrite, another process lists\n%+v\nnot\n%+v", c, a)
	}
	_, fa, _, err := b.Detail(a[1].Turn, disk)
	if err != nil {
		t.Fatal(err)
	}
	_, fc, _, _ := other.Detail(a[1].Turn, disk)
	if !reflect.DeepEqual(fa, fc) || len(fa) != 1 || len(fa[0].Hunks) != 1 {
		t.Fatalf("detail differs after the rewrite:\n%+v\n%+v", fa, fc)
	}
	// Ids go on after the rewrite.
	s, err := other.Begin("w#9", "")
	if err != nil || s.Turn != "t13" {
		t.Fatalf("next turn %q %v", s.Turn, err)
	}
}
