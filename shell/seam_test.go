package shell

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The one I/O seam (docs/design.md): only shell touches the operating system's
// files and processes. Every other non-test Go file in the repository is
// checked here: no os/exec, fsnotify or flock import, and no call (or
// function value) of os's file functions.

var seamForbiddenImports = map[string]bool{
	"os/exec":                      true,
	"github.com/fsnotify/fsnotify": true,
	"github.com/gofrs/flock":       true,
}

var seamForbiddenOS = map[string]bool{
	"ReadFile": true, "WriteFile": true, "Open": true, "OpenFile": true, "Create": true,
	"CreateTemp": true, "Remove": true, "RemoveAll": true, "Rename": true, "Mkdir": true,
	"MkdirAll": true, "MkdirTemp": true, "Stat": true, "Lstat": true, "ReadDir": true,
	"Chmod": true, "Symlink": true, "Readlink": true, "OpenRoot": true, "Chdir": true,
	"Truncate": true, "Link": true,
}

// repoRoot walks up from the working folder to the one holding go.mod.
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the working folder")
		}
		dir = parent
	}
}

// seamViolations lists every breach of the seam under root, as
// "path:line: what", and counts the files it checked.
func seamViolations(root string) (out []string, checked int, err error) {
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			name := d.Name()
			if rel != "." && (rel == "shell" || name == "testdata" || name == "vendor" || name == "node_modules" ||
				strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			// A nested module is another repository's business.
			if rel != "." {
				if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
					return filepath.SkipDir
				}
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		// Object resolution tells a package name (unresolved) from a local
		// variable that shadows it.
		file, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			return fmt.Errorf("parsing %s: %w", rel, err)
		}
		checked++
		osNames := map[string]bool{}
		for _, imp := range file.Imports {
			ipath, _ := strconv.Unquote(imp.Path.Value)
			line := fset.Position(imp.Pos()).Line
			if seamForbiddenImports[ipath] {
				out = append(out, fmt.Sprintf("%s:%d: imports %s (only shell may)", rel, line, ipath))
			}
			if ipath != "os" {
				continue
			}
			switch {
			case imp.Name == nil:
				osNames["os"] = true
			case imp.Name.Name == ".":
				out = append(out, fmt.Sprintf("%s:%d: dot-imports os", rel, line))
			case imp.Name.Name != "_":
				osNames[imp.Name.Name] = true
			}
		}
		if len(osNames) == 0 {
			return nil
		}
		ast.Inspect(file, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); ok && id.Obj == nil && osNames[id.Name] && seamForbiddenOS[sel.Sel.Name] {
				out = append(out, fmt.Sprintf("%s:%d: uses os.%s (go through shell)", rel, fset.Position(sel.Pos()).Line, sel.Sel.Name))
			}
			return true
		})
		return nil
	})
	sort.Strings(out)
	return out, checked, err
}

func TestSeam(t *testing.T) {
	root := repoRoot(t)
	bad, checked, err := seamViolations(root)
	if err != nil {
		t.Fatal(err)
	}
	if checked == 0 {
		t.Fatalf("no Go file outside shell/ found under %s: the check checked nothing", root)
	}
	t.Logf("%d files checked", checked)
	if len(bad) > 0 {
		t.Fatalf("the I/O seam is broken: only shell may touch files and processes (docs/design.md, One I/O seam):\n  %s",
			strings.Join(bad, "\n  "))
	}
}

// The checker itself finds what it should, and nothing else.
func TestSeamChecker(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/x\n",
		"a/a.go": `package a

import (
	"os"
	"os/exec"
)

func F() { os.ReadFile("x"); exec.Command("x"); _ = os.Getenv("HOME") }
`,
		"b/b.go": `package b

import xos "os"

var open = xos.OpenFile

func G() error { return xos.MkdirAll("x", 0) }
`,
		"c/c.go": `package c

import . "os"

func H() { _ = Args }
`,
		"d/d.go": `package d

import (
	"github.com/gofrs/flock"
	_ "github.com/fsnotify/fsnotify"
)

var _ = flock.New
`,
		"e/e.go": `package e

import "os"

// os.ReadFile in a comment, and a string "os.Open" are fine; so are
// os.Getenv, os.Exit, os.Args and a local named os.
func F() { _ = os.Getenv("X"); _ = "os.Open(x)" }

type T struct{ ReadFile func() }

func G() { var os T; os.ReadFile() }
`,
		"a/a_test.go":      "package a\n\nimport \"os\"\n\nfunc T() { os.ReadFile(\"x\") }\n",
		"shell/s.go":       "package shell\n\nimport \"os/exec\"\n\nvar _ = exec.Command\n",
		"testdata/t.go":    "package t\n\nimport \"os/exec\"\n\nvar _ = exec.Command\n",
		"nested/go.mod":    "module example.com/y\n",
		"nested/n.go":      "package n\n\nimport \"os/exec\"\n\nvar _ = exec.Command\n",
		".hidden/h.go":     "package h\n\nimport \"os/exec\"\n\nvar _ = exec.Command\n",
		"a/notgo.txt":      "import \"os/exec\"\n",
		"a/deep/deeper.go": "package deep\n\nimport \"os\"\n\nfunc F() { os.Chdir(\"/\"); os.Truncate(\"x\", 0); os.Link(\"a\", \"b\") }\n",
	}
	for p, content := range files {
		mustWrite(t, filepath.Join(dir, p), content, 0o644)
	}
	got, checked, err := seamViolations(dir)
	if err != nil {
		t.Fatal(err)
	}
	if checked != 6 {
		t.Errorf("checked %d files, want 6 (a, b, c, d, e and deeper)", checked)
	}
	want := []string{
		"a/a.go:5: imports os/exec (only shell may)",
		"a/a.go:8: uses os.ReadFile (go through shell)",
		"a/deep/deeper.go:5: uses os.Chdir (go through shell)",
		"a/deep/deeper.go:5: uses os.Link (go through shell)",
		"a/deep/deeper.go:5: uses os.Truncate (go through shell)",
		"b/b.go:5: uses os.OpenFile (go through shell)",
		"b/b.go:7: uses os.MkdirAll (go through shell)",
		"c/c.go:3: dot-imports os",
		"d/d.go:4: imports github.com/gofrs/flock (only shell may)",
		"d/d.go:5: imports github.com/fsnotify/fsnotify (only shell may)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}
