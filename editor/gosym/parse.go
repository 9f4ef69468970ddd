package gosym

import (
	"bytes"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"io"
	"path"
	"strconv"
	"unicode/utf8"
)

// Decl is one declared name of a file.
type Decl struct {
	// Name is the name as a workspace query shows it: Name, Type.Method,
	// Type.Field (Type.field.sub for a field of an anonymous struct).
	Name string
	Kind string // the contract's kind names: function, method, struct, ...
	// Line and Column place the name (1-based; the column in characters);
	// EndLine is the last line of its whole declaration.
	Line, Column, EndLine int
}

// goContext decides which files a build includes: this machine's GOOS and
// GOARCH, and no cgo (language servers run with CGO_ENABLED=0, so a file
// that needs cgo is left out of their packages, as here).
var goContext = func() build.Context {
	c := build.Default
	c.CgoEnabled = false
	return c
}()

// Parse lists the declarations of the Go file rel (root-relative) holding
// src, with its package name. A file the build leaves out (its name or its
// //go:build line excludes this platform, it imports "C", it is not
// valid Go up to its declarations) gives ok false: it declares nothing a
// build sees.
func Parse(rel string, src []byte) (pkg string, decls []Decl, ok bool) {
	ctx := goContext
	ctx.OpenFile = func(string) (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(src)), nil }
	dir, name := path.Split(rel)
	if match, err := ctx.MatchFile(dir, name); err != nil || !match {
		return "", nil, false
	}
	fset := token.NewFileSet()
	// A file with syntax errors further down still declares what precedes
	// them: the parser's partial tree is used, as a language server would.
	f, _ := parser.ParseFile(fset, rel, src, parser.SkipObjectResolution)
	if f == nil || f.Name == nil || !f.Package.IsValid() || f.Name.Name == "_" {
		return "", nil, false
	}
	for _, im := range f.Imports {
		if p, err := strconv.Unquote(im.Path.Value); err == nil && p == "C" {
			return "", nil, false
		}
	}
	w := walker{file: fset.File(f.Pos()), src: src}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			prefix, kind := "", "function"
			if d.Recv != nil && len(d.Recv.List) > 0 {
				kind = "method"
				if recv := baseName(d.Recv.List[0].Type); recv != "" {
					prefix = recv + "."
				}
			}
			w.add(prefix+d.Name.Name, kind, d.Name.Pos(), d.End())
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch spec := spec.(type) {
				case *ast.TypeSpec:
					w.add(spec.Name.Name, typeKind(spec.Type), spec.Name.Pos(), spec.End())
					w.members(spec.Name.Name+".", spec.Type)
				case *ast.ValueSpec:
					kind := "variable"
					if d.Tok == token.CONST {
						kind = "constant"
					}
					for _, n := range spec.Names {
						if n.Name != "_" {
							w.add(n.Name, kind, n.Pos(), spec.End())
						}
					}
				}
			}
		}
	}
	return f.Name.Name, w.decls, true
}

// typeKind names a type declaration's kind as gopls does, so that an
// outline (from the server) and a query (from the index) agree.
func typeKind(t ast.Expr) string {
	switch t.(type) {
	case *ast.StructType:
		return "struct"
	case *ast.InterfaceType:
		return "interface"
	case *ast.FuncType:
		return "function"
	}
	return "class"
}

// baseName is the type name an expression names: T for T, *T, pkg.T,
// T[K, V]; "" for a type literal.
func baseName(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.Ident:
			return t.Name
		case *ast.StarExpr:
			e = t.X
		case *ast.ParenExpr:
			e = t.X
		case *ast.SelectorExpr:
			return t.Sel.Name
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		default:
			return ""
		}
	}
}

type walker struct {
	file  *token.File
	src   []byte
	decls []Decl
}

// members declares the fields of a struct type and the methods of an
// interface type, prefixed (Type.), and the fields of anonymous structs
// within them (Type.field.sub).
func (w *walker) members(prefix string, t ast.Expr) {
	var fields []*ast.Field
	var embedded, named string
	switch t := t.(type) {
	case *ast.StructType:
		fields, embedded, named = t.Fields.List, "field", "field"
	case *ast.InterfaceType:
		fields, embedded, named = t.Methods.List, "interface", "method"
	default:
		return
	}
	for _, f := range fields {
		if len(f.Names) == 0 {
			// An embedded type; a constraint's union (~int | ~string) names
			// nothing.
			if n := baseName(f.Type); n != "" {
				w.add(prefix+n, embedded, f.Type.Pos(), f.End())
			}
			continue
		}
		for _, n := range f.Names {
			if n.Name != "_" {
				w.add(prefix+n.Name, named, n.Pos(), f.End())
				w.members(prefix+n.Name+".", f.Type)
			}
		}
	}
}

// add declares name at pos, its declaration ending at end.
func (w *walker) add(name, kind string, pos, end token.Pos) {
	if !pos.IsValid() || int(pos) < w.file.Base() || int(pos) > w.file.Base()+w.file.Size() {
		return
	}
	p := w.file.Position(pos)
	endLine := p.Line
	if end.IsValid() && int(end) <= w.file.Base()+w.file.Size() {
		endLine = w.file.Position(end - 1).Line
	}
	lineStart := p.Offset - (p.Column - 1)
	col := utf8.RuneCount(w.src[lineStart:p.Offset]) + 1
	w.decls = append(w.decls, Decl{Name: name, Kind: kind, Line: p.Line, Column: col, EndLine: max(endLine, p.Line)})
}
