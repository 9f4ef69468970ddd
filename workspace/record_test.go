package workspace

import (
	"reflect"
	"slices"
	"testing"
)

func TestWithin(t *testing.T) {
	tests := []struct {
		p, base string
		want    bool
	}{
		{"src/app", "src", true},
		{"src", "src", true},
		{"src/app/main.go", "src/app", true},
		{"src/application.rs", "src/app", false},
		{"src/app.txt", "src/app", false},
		{"src/app", "sr", false},
		{"src", "src/app", false},
		{"srcx/a", "src", false},
		{"a", "", true},
		{"a/b", "", true},
		{"", "", true},
		{"/abs/out", "", false},
		{"/abs/out/x", "/abs/out", true},
		{"/abs/outer", "/abs/out", false},
		{"/abs", "/", true},
		{"rel", "/", false},
		{"", "src", false},
	}
	for _, tt := range tests {
		if got := Within(tt.p, tt.base); got != tt.want {
			t.Errorf("Within(%q, %q) = %v, want %v", tt.p, tt.base, got, tt.want)
		}
	}
}

func TestRemap(t *testing.T) {
	tests := []struct {
		p, from, to string
		want        string
		ok          bool
	}{
		{"src/app", "src/app", "lib/app", "lib/app", true},
		{"src/app/main.go", "src/app", "lib/app", "lib/app/main.go", true},
		{"src/app/a/b/c.go", "src/app", "x", "x/a/b/c.go", true},
		{"src/application.rs", "src/app", "lib/app", "src/application.rs", false},
		{"src/app.txt", "src/app", "lib", "src/app.txt", false},
		{"other/file", "src", "lib", "other/file", false},
		{"src/a.go", "src", "", "a.go", true},
		{"a.go", "", "sub", "sub/a.go", true},
		{"/out/x/y", "/out/x", "in", "in/y", true},
		{"in/y", "in", "/out/z", "/out/z/y", true},
	}
	for _, tt := range tests {
		got, ok := Remap(tt.p, tt.from, tt.to)
		if got != tt.want || ok != tt.ok {
			t.Errorf("Remap(%q, %q, %q) = %q, %v; want %q, %v", tt.p, tt.from, tt.to, got, ok, tt.want, tt.ok)
		}
	}
}

func bufs(paths ...string) []Buffer {
	out := make([]Buffer, len(paths))
	for i, p := range paths {
		out[i] = Buffer{Path: p, Version: "v-" + p}
	}
	return out
}

func paths(bs []Buffer) []string {
	out := make([]string, len(bs))
	for i, b := range bs {
		out[i] = b.Path
	}
	return out
}

func TestSessionUpsertClose(t *testing.T) {
	r := newRecord()
	s := r.Session("/root")
	if s.Buffers == nil || s.Expanded == nil || r.Session("/root") != s {
		t.Fatal("Session must create once, with empty (non-nil) lists")
	}
	for _, p := range []string{"c", "a", "b"} {
		if !s.Upsert(Buffer{Path: p, Version: "1"}) {
			t.Errorf("Upsert(%s) reported no change", p)
		}
	}
	if s.Upsert(Buffer{Path: "a", Version: "1"}) {
		t.Error("Upsert of an identical buffer reported a change")
	}
	if !s.Upsert(Buffer{Path: "a", Version: "2", Mtime: 5, Language: "go"}) {
		t.Error("Upsert of a refreshed buffer reported no change")
	}
	if got := paths(s.Buffers); !slices.Equal(got, []string{"c", "a", "b"}) || s.Buffers[1].Version != "2" {
		t.Fatalf("after upserts: %+v", s.Buffers)
	}
	if !s.Close("a") || s.Close("a") || s.Close("c/") {
		t.Error("Close reports wrongly")
	}
	if got := paths(s.Buffers); !slices.Equal(got, []string{"c", "b"}) {
		t.Fatalf("after close: %v", got)
	}
}

func TestSessionCloseBeneath(t *testing.T) {
	tests := []struct {
		path         string
		closed, left []string
		expanded     []string
	}{
		{"src/app", []string{"src/app/main.go", "src/app/x/y.go"}, []string{"src/application.rs", "top.txt", "src/app.txt"}, []string{"src"}},
		{"src", []string{"src/application.rs", "src/app/main.go", "src/app/x/y.go", "src/app.txt"}, []string{"top.txt"}, []string{}},
		{"top.txt", []string{"top.txt"}, []string{"src/application.rs", "src/app/main.go", "src/app/x/y.go", "src/app.txt"}, []string{"src", "src/app", "src/app/x"}},
		{"nothing", []string{}, []string{"src/application.rs", "src/app/main.go", "src/app/x/y.go", "top.txt", "src/app.txt"}, []string{"src", "src/app", "src/app/x"}},
	}
	for _, tt := range tests {
		s := &Session{
			Buffers:  bufs("src/application.rs", "src/app/main.go", "src/app/x/y.go", "top.txt", "src/app.txt"),
			Expanded: []string{"src", "src/app", "src/app/x"},
		}
		closed := s.CloseBeneath(tt.path)
		if !slices.Equal(closed, tt.closed) || !slices.Equal(paths(s.Buffers), tt.left) || !slices.Equal(s.Expanded, tt.expanded) {
			t.Errorf("CloseBeneath(%q): closed %v left %v expanded %v; want %v %v %v",
				tt.path, closed, paths(s.Buffers), s.Expanded, tt.closed, tt.left, tt.expanded)
		}
	}
}

func TestSessionExpandCollapse(t *testing.T) {
	s := &Session{Buffers: []Buffer{}, Expanded: []string{}}
	for _, p := range []string{"a", "a/b", "a/b/c", "ab", "z"} {
		if !s.Expand(p) {
			t.Errorf("Expand(%s) reported no change", p)
		}
	}
	if s.Expand("a") {
		t.Error("expanding twice reported a change")
	}
	if !s.Collapse("a/b") || !slices.Equal(s.Expanded, []string{"a", "ab", "z"}) {
		t.Fatalf("collapse a/b: %v", s.Expanded)
	}
	if s.Collapse("a/b") || s.Collapse("nothing") {
		t.Error("collapsing what is not expanded reported a change")
	}
	if !s.Collapse("a") || !slices.Equal(s.Expanded, []string{"ab", "z"}) {
		t.Fatalf("collapse a (ab is another folder): %v", s.Expanded)
	}
}

func TestSessionMove(t *testing.T) {
	tests := []struct {
		name, from, to string
		n              int
		buffers        []string
		expanded       []string
	}{
		{"file", "top.txt", "renamed.txt", 1,
			[]string{"src/application.rs", "src/app/main.go", "src/app/x/y.go", "renamed.txt"}, []string{"src", "src/app", "src/app/x"}},
		{"folder, whole segments", "src/app", "lib/app", 4,
			[]string{"src/application.rs", "lib/app/main.go", "lib/app/x/y.go", "top.txt"}, []string{"src", "lib/app", "lib/app/x"}},
		{"parent folder", "src", "source", 6,
			[]string{"source/application.rs", "source/app/main.go", "source/app/x/y.go", "top.txt"}, []string{"source", "source/app", "source/app/x"}},
		{"nothing beneath", "docs", "documents", 0,
			[]string{"src/application.rs", "src/app/main.go", "src/app/x/y.go", "top.txt"}, []string{"src", "src/app", "src/app/x"}},
		{"onto an open file", "src/application.rs", "top.txt", 1,
			[]string{"top.txt", "src/app/main.go", "src/app/x/y.go"}, []string{"src", "src/app", "src/app/x"}},
	}
	for _, tt := range tests {
		s := &Session{
			Buffers:  bufs("src/application.rs", "src/app/main.go", "src/app/x/y.go", "top.txt"),
			Expanded: []string{"src", "src/app", "src/app/x"},
		}
		n := s.Move(tt.from, tt.to)
		if n != tt.n || !slices.Equal(paths(s.Buffers), tt.buffers) || !slices.Equal(s.Expanded, tt.expanded) {
			t.Errorf("%s: Move(%q, %q) = %d, buffers %v, expanded %v; want %d %v %v",
				tt.name, tt.from, tt.to, n, paths(s.Buffers), s.Expanded, tt.n, tt.buffers, tt.expanded)
		}
	}
}

// TestSessionMoveOntoOpenBuffer is the regression test for a move over an
// open file: the moved buffer (its version describes the file now at the
// destination) must win over the stale one, whichever was opened first.
func TestSessionMoveOntoOpenBuffer(t *testing.T) {
	moved := Buffer{Path: "from.txt", Version: "moved"}
	stale := Buffer{Path: "to.txt", Version: "stale"}
	for _, order := range [][]Buffer{{moved, stale}, {stale, moved}} {
		s := &Session{Buffers: slices.Clone(order), Expanded: []string{}}
		if n := s.Move("from.txt", "to.txt"); n != 1 {
			t.Errorf("remapped %d", n)
		}
		want := []Buffer{{Path: "to.txt", Version: "moved"}}
		if !reflect.DeepEqual(s.Buffers, want) {
			t.Errorf("order %v: buffers %+v, want %+v", order, s.Buffers, want)
		}
	}
	// Expanded folders merge without duplicates.
	s := &Session{Buffers: []Buffer{}, Expanded: []string{"a", "a/x", "b", "b/x"}}
	s.Move("a", "b")
	if !slices.Equal(s.Expanded, []string{"b", "b/x"}) {
		t.Errorf("expanded %v", s.Expanded)
	}
}
