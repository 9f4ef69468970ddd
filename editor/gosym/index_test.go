package gosym

import (
	"fmt"
	"strings"
	"testing"
)

func found(ms []Match) string {
	var b []string
	for _, m := range ms {
		b = append(b, fmt.Sprintf("%s.%s@%s:%d", m.Package, m.Name, m.Path, m.Line))
	}
	return strings.Join(b, " ")
}

func TestIndexFollowsFilesAndModules(t *testing.T) {
	x := New()
	x.SetModule("", "example.com/m")
	x.SetModule("tools", "example.com/tools")
	x.Set("a/a.go", []byte("package a\n\nfunc Run() {}\n"))
	x.Set("a/a_test.go", []byte("package a_test\n\nfunc TestRun() {}\n"))
	x.Set("tools/gen/gen.go", []byte("package main\n\nfunc Run() {}\n"))
	x.Set("loose.go", []byte("package m\n\nvar Runner = 1\n"))

	ms, total := x.Query("Run", 10)
	// The two named Run first (the shorter text, then path order), then
	// Runner, then TestRun; the external test package's path ends in _test.
	want := "example.com/m/a.Run@a/a.go:3 example.com/tools/gen.Run@tools/gen/gen.go:3 example.com/m.Runner@loose.go:3 example.com/m/a_test.TestRun@a/a_test.go:3"
	if found(ms) != want || total != 4 {
		t.Fatalf("Run: %d\n%s\nwant\n%s", total, found(ms), want)
	}
	if ms, total := x.Query("Run", 1); len(ms) != 1 || total != 4 {
		t.Fatalf("limit 1: %d of %d", len(ms), total)
	}
	// pkg.Name matches, and a.Run best ("main.Run" holds the letters too).
	if ms, _ := x.Query("a.Run", 10); len(ms) == 0 || found(ms[:1]) != "example.com/m/a.Run@a/a.go:3" {
		t.Fatalf("a.Run: %s", found(ms))
	}

	// A folder moved (taken out, its files and go.mod told again at their
	// new place): its files and their package follow; a file moved into a
	// folder the go command skips leaves the index.
	x.Remove("tools")
	x.SetModule("cmd/tools", "example.com/tools")
	x.Set("cmd/tools/gen/gen.go", []byte("package main\n\nfunc Run() {}\n"))
	if ms, _ := x.Query("Run", 2); found(ms) != "example.com/m/a.Run@a/a.go:3 example.com/tools/gen.Run@cmd/tools/gen/gen.go:3" {
		t.Fatalf("after the move: %s", found(ms))
	}
	x.Remove("loose.go")
	x.Set("testdata/loose.go", []byte("package m\n\nvar Runner = 1\n"))
	if x.Has("testdata/loose.go") || x.Has("loose.go") {
		t.Fatal("a file moved into testdata is still indexed")
	}
	// A folder removed (its module too: a file made there later is in the
	// root's module), a file replaced.
	x.Remove("cmd")
	x.Set("cmd/tools/x.go", []byte("package x\n\nvar Y = 1\n"))
	if ms, _ := x.Query("Y", 1); len(ms) != 1 || ms[0].Package != "example.com/m/cmd/tools" {
		t.Fatalf("a file made where a removed module was: %+v", ms)
	}
	x.Remove("cmd/tools/x.go")
	x.Set("a/a.go", []byte("package a\n\nfunc Walk() {}\n"))
	if ms, total := x.Query("Run", 10); found(ms) != "example.com/m/a_test.TestRun@a/a_test.go:3" || total != 1 {
		t.Fatalf("after the removal: %s", found(ms))
	}
	if x.Len() != 2 {
		t.Fatalf("%d files indexed", x.Len())
	}
	if ms, total := x.Query("  ", 10); len(ms) != 0 || total != 0 {
		t.Fatalf("a blank query: %v", ms)
	}
}

// Many files: the answer is the same whatever the order the files came in
// (each shard ranks its own; the merge's order is total).
func TestIndexOrderIndependent(t *testing.T) {
	var rels []string
	src := map[string][]byte{}
	for i := range 400 {
		rel := fmt.Sprintf("p%d/f%d.go", i%37, i)
		rels = append(rels, rel)
		src[rel] = fmt.Appendf(nil, "package p%d\n\nfunc Handle%d() {}\n\nfunc Handle() {}\n\ntype handler%d struct{ Handle int }\n", i%37, i%13, i)
	}
	read := func(rel string) ([]byte, bool) { return src[rel], true }
	a := New()
	a.SetAll(rels, read)
	b := New()
	for i := len(rels) - 1; i >= 0; i-- {
		b.Set(rels[i], src[rels[i]])
	}
	for _, q := range []string{"Handle", "handler1", "hdl", "p3.Handle"} {
		ma, ta := a.Query(q, 50)
		mb, tb := b.Query(q, 50)
		if found(ma) != found(mb) || ta != tb || len(ma) == 0 {
			t.Fatalf("%q: %d vs %d\n%s\n%s", q, ta, tb, found(ma), found(mb))
		}
	}
}
