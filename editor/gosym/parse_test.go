package gosym

import (
	"fmt"
	"strings"
	"testing"
)

func declStrings(ds []Decl) string {
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&b, "%s %s %d:%d-%d\n", d.Kind, d.Name, d.Line, d.Column, d.EndLine)
	}
	return b.String()
}

func TestParseDeclarations(t *testing.T) {
	src := `package shapes

type List[T any] struct {
	items []T
	*Base
	io.Reader
	meta struct {
		Größe int
	}
	_ int
}

func (l *List[T]) Len() int {
	return len(l.items)
}

type Number interface {
	~int | ~float64
	fmt.Stringer
	Value() float64
}

type Op func(int) int
type ID = string

const (
	A, B = 1, 2
	_    = 3
)

var café = "é"; var Größe = 1

func New() {}
`
	pkg, decls, ok := Parse("shapes/list.go", []byte(src))
	if !ok || pkg != "shapes" {
		t.Fatalf("ok %v, package %q", ok, pkg)
	}
	want := `struct List 3:6-11
field List.items 4:2-4
field List.Base 5:2-5
field List.Reader 6:2-6
field List.meta 7:2-9
field List.meta.Größe 8:3-8
method List.Len 13:19-15
interface Number 17:6-21
interface Number.Stringer 19:2-19
method Number.Value 20:2-20
function Op 23:6-23
class ID 24:6-24
constant A 27:2-27
constant B 27:5-27
variable café 31:5-31
variable Größe 31:21-31
function New 33:6-33
`
	if got := declStrings(decls); got != want {
		t.Fatalf("got:\n%swant:\n%s", got, want)
	}
}

// Files the build leaves out on this platform, or that need cgo, declare
// nothing; a file with a syntax error declares what precedes it.
func TestParseBuildSelection(t *testing.T) {
	for name, src := range map[string]string{
		"a_plan9.go":   "package a\nfunc F() {}\n",
		"a_windows.go": "package a\nfunc F() {}\n",
		"tagged.go":    "//go:build ignore\n\npackage a\nfunc F() {}\n",
		"cgo.go":       "package a\n\nimport \"C\"\n\nfunc F() {}\n",
		"_hidden.go":   "package a\nfunc F() {}\n",
	} {
		if _, ds, ok := Parse("a/"+name, []byte(src)); ok || len(ds) != 0 {
			t.Errorf("%s: ok %v, %v", name, ok, ds)
		}
	}
	_, ds, ok := Parse("a/broken.go", []byte("package a\n\nfunc Before() {}\n\nfunc (\n"))
	if !ok || len(ds) == 0 || ds[0].Name != "Before" {
		t.Fatalf("broken file: ok %v, %v", ok, ds)
	}
	if _, _, ok := Parse("a/x.go", []byte("not go at all")); ok {
		t.Fatal("a file without a package clause parsed")
	}
}

func TestModulePath(t *testing.T) {
	for src, want := range map[string]string{
		"module example.com/m\n\ngo 1.22\n":     "example.com/m",
		"// c\nmodule \"example.com/q\" // x\n": "example.com/q",
		"go 1.22\n":                             "",
	} {
		if got := ModulePath([]byte(src)); got != want {
			t.Errorf("%q: %q, want %q", src, got, want)
		}
	}
}
