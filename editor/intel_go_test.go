package editor

import (
	"context"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/editord/editord/editor/lsp"
	"github.com/editord/editord/shell/sandbox"
	"github.com/editord/editord/workspace"
)

// A small module of three packages, one name used across them.
var goModule = map[string]string{
	"go.mod": "module example.com/m\n\ngo 1.22\n",
	"lib/lib.go": `package lib

// Greet says hello to name.
func Greet(name string) string { return "hello " + name }

// Größe has a name with characters beyond ASCII.
var Größe = 1
`,
	"cmd/main.go": `package main

import (
	"fmt"

	"example.com/m/lib"
)

func main() { fmt.Println(lib.Greet("x"), "é", lib.Größe) }
`,
	"app/app.go": `package app

import "example.com/m/lib"

// Hello greets the world.
func Hello() string { return lib.Greet("world") }
`,
}

func goEnv(t *testing.T) *tcEnv {
	e := tcNew(t, lspServer(t, "go"))
	lspWrite(e, goModule)
	return e
}

func TestGoDefinitionReferencesHover(t *testing.T) {
	e := goEnv(t)
	ctx := context.Background()
	// lib.Greet in cmd/main.go: line 9, "Greet" starts at column 31.
	def, err := e.s.Definition(ctx, &DefinitionRequest{Path: "cmd/main.go", Line: 9, Column: 33})
	if err != nil {
		t.Fatal(err)
	}
	if len(def.Definitions) != 1 {
		t.Fatalf("definitions %+v", def)
	}
	d := def.Definitions[0]
	if d.Path != "lib/lib.go" || d.Line != 4 || d.Column != 6 || d.EndColumn != 11 || !strings.Contains(d.Text, "func Greet(") {
		t.Fatalf("definition %+v, want lib/lib.go:4:6-11", d)
	}
	// Columns are characters: after "é" (2 bytes, 1 character) Größe
	// starts at column 52 of that line.
	line := strings.Split(goModule["cmd/main.go"], "\n")[8]
	col := len([]rune(line[:strings.Index(line, "Größe")])) + 1
	def, err = e.s.Definition(ctx, &DefinitionRequest{Path: "cmd/main.go", Line: 9, Column: col + 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(def.Definitions) != 1 || def.Definitions[0].Line != 7 || def.Definitions[0].Column != 5 || def.Definitions[0].EndColumn != 10 {
		t.Fatalf("definition of Größe %+v, want lib/lib.go:7:5-10", def.Definitions)
	}
	// fmt.Println is in the standard library, outside the jail.
	def, err = e.s.Definition(ctx, &DefinitionRequest{Path: "cmd/main.go", Line: 9, Column: 21})
	if err != nil {
		t.Fatal(err)
	}
	if len(def.Definitions) != 0 || def.OutsideJail != 1 {
		t.Fatalf("definition of fmt.Println %+v, want one outside the jail", def)
	}

	refs, err := e.s.References(ctx, &ReferencesRequest{Path: "lib/lib.go", Line: 4, Column: 7})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range refs.References {
		got = append(got, r.Path+":"+itoa(r.Line)+":"+itoa(r.Column))
	}
	want := "app/app.go:6:34 cmd/main.go:9:31 lib/lib.go:4:6"
	if strings.Join(got, " ") != want || refs.Total != 3 {
		t.Fatalf("references %v (total %d), want %s", got, refs.Total, want)
	}
	refs, err = e.s.References(ctx, &ReferencesRequest{Path: "lib/lib.go", Line: 4, Column: 7, IncludeDeclaration: tcPtr(false), Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	if refs.Total != 2 || len(refs.References) != 1 || !refs.Truncated {
		t.Fatalf("references without the declaration, limit 1: %+v", refs)
	}

	h, err := e.s.Hover(ctx, &HoverRequest{Path: "cmd/main.go", Line: 9, Column: 33})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(h.Contents, "func lib.Greet(name string) string") || !strings.Contains(h.Contents, "Greet says hello") {
		t.Fatalf("hover %q", h.Contents)
	}
}

func TestGoSymbols(t *testing.T) {
	e := goEnv(t)
	ctx := context.Background()
	out, err := e.s.Symbols(ctx, &SymbolsRequest{Path: "lib/lib.go"})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Symbols) != 2 || out.Symbols[0].Name != "Greet" || out.Symbols[0].Kind != "function" || out.Symbols[0].Line != 4 ||
		out.Symbols[1].Name != "Größe" || out.Symbols[1].Kind != "variable" {
		t.Fatalf("outline %+v", out.Symbols)
	}
	ws, err := e.s.Symbols(ctx, &SymbolsRequest{Query: "Hello"})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, s := range ws.Symbols {
		found = found || (s.Name == "Hello" && s.Path == "app/app.go" && s.Line == 6)
	}
	if !found {
		t.Fatalf("workspace symbols for Hello: %+v", ws.Symbols)
	}
	if _, err := e.s.Symbols(ctx, &SymbolsRequest{}); tcCode(err) != "invalid_argument" {
		t.Fatalf("neither path nor query: %v", err)
	}
}

// A Go workspace symbol query is answered from editord's index, which
// follows every change: a save, the person's draft (and its end), a move
// of a file and of a folder, a deletion, another program's write in the
// journal; a file the build leaves out declares nothing.
func TestGoSymbolsIndexFollowsChanges(t *testing.T) {
	e := goEnv(t)
	ctx := context.Background()
	names := func(query string) []string {
		t.Helper()
		out, err := e.s.Symbols(ctx, &SymbolsRequest{Query: query, Language: "go"})
		if err != nil {
			t.Fatal(err)
		}
		var n []string
		for _, s := range out.Symbols {
			if strings.HasPrefix(s.Name, query) {
				n = append(n, s.Name+"@"+s.Path+":"+itoa(s.Line))
			}
		}
		return n
	}
	out, err := e.s.Symbols(ctx, &SymbolsRequest{Query: "Greet", Language: "go"})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Symbols) != 1 || out.Total != 1 || out.Truncated {
		t.Fatalf("Greet: %+v", out)
	}
	if g := out.Symbols[0]; g.Name != "Greet" || g.Kind != "function" || g.Container != "example.com/m/lib" ||
		g.Path != "lib/lib.go" || g.Line != 4 || g.Column != 6 || g.EndLine != 4 {
		t.Fatalf("Greet: %+v", g)
	}
	if gr := names("Größe"); strings.Join(gr, " ") != "Größe@lib/lib.go:7" {
		t.Fatalf("Größe: %v", gr)
	}
	// A save adds a symbol.
	if _, err := e.s.Save(ctx, &SaveRequest{Path: "app/greeter.go", Content: "package app\n\nfunc GreetAll() {}\n", Force: true}); err != nil {
		t.Fatal(err)
	}
	if got := names("GreetAll"); strings.Join(got, " ") != "GreetAll@app/greeter.go:3" {
		t.Fatalf("after a save: %v", got)
	}
	// A draft of the person's adds one, a changed draft replaces it, and
	// the draft discarded takes it away.
	open, err := e.s.Open(ctx, &OpenRequest{Path: "lib/lib.go"})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"GreetTwice", "GreetThrice"} {
		draft := goModule["lib/lib.go"] + "\nfunc " + name + "() {}\n"
		if _, err := e.s.Draft(ctx, &DraftRequest{Path: "lib/lib.go", Content: &draft, BaseVersion: open.Version}); err != nil {
			t.Fatal(err)
		}
		if got := names("Greet"); !slices.Contains(got, name+"@lib/lib.go:9") || len(got) != 3 {
			t.Fatalf("with a draft declaring %s: %v", name, got)
		}
	}
	if _, err := e.s.Draft(ctx, &DraftRequest{Path: "lib/lib.go"}); err != nil {
		t.Fatal(err)
	}
	if got := names("Greet"); strings.Join(got, " ") != "Greet@lib/lib.go:4 GreetAll@app/greeter.go:3" {
		t.Fatalf("after the draft was discarded: %v", got)
	}
	// A file moved, then its folder: the names follow, the package too.
	if _, err := e.s.Move(ctx, &MoveRequest{From: "app/greeter.go", To: "app/welcome.go"}); err != nil {
		t.Fatal(err)
	}
	if got := names("GreetAll"); strings.Join(got, " ") != "GreetAll@app/welcome.go:3" {
		t.Fatalf("after a move: %v", got)
	}
	if _, err := e.s.Move(ctx, &MoveRequest{From: "app", To: "web"}); err != nil {
		t.Fatal(err)
	}
	out, err = e.s.Symbols(ctx, &SymbolsRequest{Query: "Hello", Language: "go"})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Symbols) != 1 || out.Symbols[0].Path != "web/app.go" || out.Symbols[0].Container != "example.com/m/web" {
		t.Fatalf("after the folder moved: %+v", out.Symbols)
	}
	if _, err := e.s.Delete(ctx, &DeleteRequest{Path: "web/welcome.go"}); err != nil {
		t.Fatal(err)
	}
	if got := names("GreetAll"); len(got) != 0 {
		t.Fatalf("after a delete: %v", got)
	}
	// Another program writes (the watcher journals it): a new name, and a
	// file the build leaves out on this platform declares nothing.
	ext := goModule["lib/lib.go"] + "\nfunc GreetOutside() {}\n"
	tcWriteFile(t, filepath.Join(e.root, "lib/lib.go"), ext, 0o644)
	other := "plan9"
	if runtime.GOOS == "plan9" {
		other = "linux"
	}
	tcWriteFile(t, filepath.Join(e.root, "lib/lib_"+other+".go"), "package lib\n\nfunc GreetElsewhere() {}\n", 0o644)
	tcWriteFile(t, filepath.Join(e.root, "lib/gen.go"), "//go:build ignore\n\npackage main\n\nfunc GreetIgnored() {}\n", 0o644)
	var evs []workspace.Event
	for _, p := range []string{"lib/lib.go", "lib/lib_" + other + ".go", "lib/gen.go"} {
		evs = append(evs, workspace.Event{Root: e.root, Path: p, Kind: "modified", Cause: "external", By: "external"})
	}
	if err := e.s.store.AppendGrouped(ctx, evs, e.s.cfg.Limits.ChangesKept); err != nil {
		t.Fatal(err)
	}
	if got := names("Greet"); strings.Join(got, " ") != "Greet@lib/lib.go:4 GreetOutside@lib/lib.go:9" {
		t.Fatalf("after another program's writes: %v", got)
	}
}

// The index's answer holds what gopls's own answers: every symbol gopls
// finds for a query (its name, kind and place) is in the index's answer.
func TestGoSymbolsIndexAgreesWithGopls(t *testing.T) {
	e := tcNew(t, lspServer(t, "go"))
	files := maps.Clone(goModule)
	files["lib/kinds.go"] = `package lib

import "io"

type Shape interface {
	io.Reader
	Area() float64
}

type Box struct {
	Width, Height float64
	io.Writer
	inner struct{ Depth int }
}

func (b *Box) Area() float64 { return b.Width * b.Height }

type Handler func(int) error

type Count int

const Origin, Limit = 0, 10

var (
	DefaultBox = Box{}
	_          = DefaultBox
)
`
	files["lib/kinds_test.go"] = "package lib_test\n\nimport \"testing\"\n\nfunc TestArea(t *testing.T) {}\n"
	lspWrite(e, files)
	ctx := context.Background()
	// gopls is asked through the running server: the file asked about
	// starts it.
	if _, err := e.s.Symbols(ctx, &SymbolsRequest{Path: "lib/kinds.go"}); err != nil {
		t.Fatal(err)
	}
	srv := e.s.lsp.Running()[0]
	for _, q := range []string{"Box", "Area", "Width", "Depth", "Reader", "Writer", "Handler", "Count", "Origin", "Limit", "DefaultBox", "TestArea", "Greet", "Shape"} {
		var raw []lsp.SymbolInformation
		if err := srv.Call(ctx, "workspace/symbol", map[string]any{"query": q}, &raw); err != nil {
			t.Fatal(err)
		}
		theirs := e.s.texts(srv, e.root).symbols(raw).symbols
		if len(theirs) == 0 {
			t.Fatalf("gopls found nothing for %q", q)
		}
		out, err := e.s.Symbols(ctx, &SymbolsRequest{Query: q, Language: "go", Limit: symbolsCap})
		if err != nil {
			t.Fatal(err)
		}
		key := func(s Symbol) string {
			return s.Name + " " + s.Kind + " " + s.Container + " " + s.Path + ":" + itoa(s.Line) + ":" + itoa(s.Column)
		}
		var ours []string
		for _, s := range out.Symbols {
			ours = append(ours, key(s))
		}
		for _, s := range theirs {
			if !slices.Contains(ours, key(s)) {
				t.Errorf("%q: gopls finds %s, the index does not:\n%s", q, key(s), strings.Join(ours, "\n"))
			}
		}
	}
}

// The server sees the person's draft: diagnostics and definitions follow
// the unsaved text, and the disk is untouched.
func TestGoDraftsAndDiagnostics(t *testing.T) {
	e := goEnv(t)
	ctx := context.Background()
	clean, err := e.s.Diagnostics(ctx, &DiagnosticsRequest{Path: "app/app.go"})
	if err != nil {
		t.Fatal(err)
	}
	if clean.Total != 0 || !clean.Settled {
		t.Fatalf("diagnostics of a clean file: %+v", clean)
	}
	open, err := e.s.Open(ctx, &OpenRequest{Path: "app/app.go"})
	if err != nil {
		t.Fatal(err)
	}
	draft := strings.Replace(goModule["app/app.go"], `lib.Greet("world")`, `lib.Greet(42)`, 1) + "\nfunc Later() string { return Hello() }\n"
	if _, err := e.s.Draft(ctx, &DraftRequest{Path: "app/app.go", Content: &draft, BaseVersion: open.Version}); err != nil {
		t.Fatal(err)
	}
	diag, err := e.s.Diagnostics(ctx, &DiagnosticsRequest{Path: "app/app.go"})
	if err != nil {
		t.Fatal(err)
	}
	if diag.Errors != 1 || diag.Diagnostics[0].Line != 6 || !strings.Contains(diag.Diagnostics[0].Message, "cannot use 42") {
		t.Fatalf("diagnostics of the draft: %+v", diag)
	}
	// Line 8 exists only in the draft.
	def, err := e.s.Definition(ctx, &DefinitionRequest{Path: "app/app.go", Line: 8, Column: 31})
	if err != nil {
		t.Fatal(err)
	}
	if len(def.Definitions) != 1 || def.Definitions[0].Line != 6 || def.Definitions[0].Path != "app/app.go" {
		t.Fatalf("definition in the draft: %+v", def)
	}
	// The workspace's problems include the draft's.
	all, err := e.s.Diagnostics(ctx, &DiagnosticsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if all.Errors != 1 || all.Diagnostics[0].Path != "app/app.go" {
		t.Fatalf("workspace diagnostics: %+v", all)
	}
	// The draft discarded: the server reads the disk again.
	if _, err := e.s.Draft(ctx, &DraftRequest{Path: "app/app.go"}); err != nil {
		t.Fatal(err)
	}
	diag, err = e.s.Diagnostics(ctx, &DiagnosticsRequest{Path: "app/app.go"})
	if err != nil {
		t.Fatal(err)
	}
	if diag.Total != 0 {
		t.Fatalf("diagnostics after the draft was discarded: %+v", diag)
	}
	// A save by an agent, seen through the journal, is what the server
	// sees next.
	broken := strings.Replace(goModule["lib/lib.go"], `return "hello " + name`, `return 1`, 1)
	if _, err := e.s.Save(ctx, &SaveRequest{Path: "lib/lib.go", Content: broken, Force: true}); err != nil {
		t.Fatal(err)
	}
	diag, err = e.s.Diagnostics(ctx, &DiagnosticsRequest{Path: "lib/lib.go"})
	if err != nil {
		t.Fatal(err)
	}
	if diag.Errors != 1 || diag.Diagnostics[0].Line != 4 {
		t.Fatalf("diagnostics after a save: %+v", diag)
	}
}

func TestGoRename(t *testing.T) {
	e := goEnv(t)
	ctx := context.Background()
	req := &RenameRequest{Path: "cmd/main.go", Line: 9, Column: 32, NewName: "Welcome"}
	dry, err := e.s.Rename(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if dry.Applied || len(dry.Files) != 3 || dry.Edits != 4 { // the doc comment too
		t.Fatalf("dry run %+v", dry)
	}
	for _, f := range dry.Files {
		if !strings.Contains(f.Patch, "+") || !strings.Contains(f.Patch, "Welcome") {
			t.Fatalf("dry run patch of %s: %q", f.Path, f.Patch)
		}
		if got, _ := os.ReadFile(e.abs(f.Path)); string(got) != goModule[f.Path] {
			t.Fatalf("the dry run wrote %s", f.Path)
		}
	}
	versions := map[string]string{}
	for _, f := range dry.Files {
		versions[f.Path] = f.Version
	}

	// A file changed since the dry run: nothing is written.
	if _, err := e.s.Save(ctx, &SaveRequest{Path: "app/app.go", Content: goModule["app/app.go"] + "\n// more\n", Force: true}); err != nil {
		t.Fatal(err)
	}
	req.Versions = versions
	res, err := e.s.Rename(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if res.Applied || !res.Conflict || !strings.Contains(res.Reason, "app/app.go changed") {
		t.Fatalf("apply after a change: %+v", res)
	}
	for _, p := range []string{"lib/lib.go", "cmd/main.go"} {
		if got, _ := os.ReadFile(e.abs(p)); string(got) != goModule[p] {
			t.Fatalf("a refused rename wrote %s", p)
		}
	}

	// Dry run again, then apply: the files equal what gopls rename -w
	// makes of a copy.
	copyDir := t.TempDir()
	for p := range goModule {
		b, _ := os.ReadFile(e.abs(p))
		os.MkdirAll(filepath.Dir(filepath.Join(copyDir, p)), 0o755)
		tcWriteFile(t, filepath.Join(copyDir, p), string(b), 0o644)
	}
	req.Versions = nil
	dry, err = e.s.Rename(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	versions = map[string]string{}
	for _, f := range dry.Files {
		versions[f.Path] = f.Version
	}
	cursor, _ := e.s.store.LastSeq()
	req.Versions = versions
	res, err = e.s.Rename(WithCaller(ctx, NewCaller("agent#1")), req)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Applied || res.Conflict || len(res.Files) != 3 {
		t.Fatalf("apply %+v", res)
	}
	gopls := lspConfigCommand(e, "go")
	off := strings.Index(goModule["cmd/main.go"], "Greet(\"x\")")
	cmd := exec.Command(gopls, "rename", "-w", filepath.Join(copyDir, "cmd/main.go")+":#"+itoa(off), "Welcome")
	cmd.Dir = copyDir
	cmd.Env = append(os.Environ(), "GOPROXY=off", "GOTOOLCHAIN=local", "GOFLAGS=-mod=readonly")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gopls rename: %v\n%s", err, out)
	}
	for p := range goModule {
		ours, _ := os.ReadFile(e.abs(p))
		theirs, _ := os.ReadFile(filepath.Join(copyDir, p))
		if string(ours) != string(theirs) {
			t.Fatalf("%s after editor::rename:\n%s\nafter gopls rename:\n%s", p, ours, theirs)
		}
	}
	// Every file's event in the journal, one caller, one append.
	page, err := e.s.store.Read(workspace.Query{Since: cursor})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Events) != 3 {
		t.Fatalf("events %+v", page.Events)
	}
	for _, ev := range page.Events {
		if ev.Cause != "editor::rename" || ev.By != "agent#1" || ev.Kind != "modified" || !strings.Contains(ev.Patch, "Welcome") {
			t.Fatalf("event %+v", ev)
		}
	}
	// The server follows: Welcome is now defined in lib.
	def, err := e.s.Definition(ctx, &DefinitionRequest{Path: "app/app.go", Line: 6, Column: 36})
	if err != nil {
		t.Fatal(err)
	}
	if len(def.Definitions) != 1 || !strings.Contains(def.Definitions[0].Text, "func Welcome(") {
		t.Fatalf("definition after the rename: %+v", def)
	}
}

// A file with a draft is not renamed: the dry run marks it, the apply is
// refused with nothing written.
func TestGoRenameRefusesDrafts(t *testing.T) {
	e := goEnv(t)
	ctx := context.Background()
	open, err := e.s.Open(ctx, &OpenRequest{Path: "app/app.go"})
	if err != nil {
		t.Fatal(err)
	}
	draft := goModule["app/app.go"] + "// typing\n"
	if _, err := e.s.Draft(ctx, &DraftRequest{Path: "app/app.go", Content: &draft, BaseVersion: open.Version}); err != nil {
		t.Fatal(err)
	}
	req := &RenameRequest{Path: "lib/lib.go", Line: 4, Column: 6, NewName: "Welcome"}
	dry, err := e.s.Rename(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	req.Versions = map[string]string{}
	drafted := false
	for _, f := range dry.Files {
		req.Versions[f.Path] = f.Version
		drafted = drafted || (f.Path == "app/app.go" && f.Draft)
	}
	if !drafted {
		t.Fatalf("dry run %+v does not mark the draft", dry)
	}
	res, err := e.s.Rename(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if res.Applied || !res.Conflict || !strings.Contains(res.Reason, "unsaved edits") {
		t.Fatalf("apply over a draft: %+v", res)
	}
	if got, _ := os.ReadFile(e.abs("lib/lib.go")); string(got) != goModule["lib/lib.go"] {
		t.Fatal("a refused rename wrote lib/lib.go")
	}
}

// Nothing in the repository picks what the server runs: a go, a
// gopackagesdriver and a toolchain line of the repository's are not used,
// and the server's environment carries editord's guards.
func TestGoServerRunsNothingOfTheRepository(t *testing.T) {
	e := goEnv(t)
	marker := filepath.Join(e.canary, "ran")
	os.MkdirAll(e.abs("bin"), 0o755)
	for _, name := range []string{"go", "gopackagesdriver"} {
		tcWriteFile(t, e.abs("bin/"+name), "#!/bin/sh\necho "+name+" >> "+marker+"\nexit 1\n", 0o755)
	}
	tcWriteFile(t, e.abs("go.mod"), "module example.com/m\n\ngo 1.22\n\ntoolchain go1.99.1\n", 0o644)
	t.Setenv("PATH", e.abs("bin")+string(os.PathListSeparator)+"bin"+string(os.PathListSeparator)+os.Getenv("PATH"))
	ctx := context.Background()
	out, err := e.s.Symbols(ctx, &SymbolsRequest{Path: "lib/lib.go"})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Symbols) == 0 {
		t.Fatalf("no symbols: %+v", out)
	}
	if b, err := os.ReadFile(marker); err == nil {
		t.Fatalf("the server ran the repository's programs: %s", b)
	}
	srv := e.s.lsp.Running()[0]
	env, err := os.ReadFile(filepath.Join("/proc", itoa(serverPid(t, srv)), "environ"))
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	vars := map[string]string{}
	for _, kv := range strings.Split(string(env), "\x00") {
		k, v, _ := strings.Cut(kv, "=")
		vars[k] = v
	}
	for k, want := range map[string]string{"GOTOOLCHAIN": "local", "GOPROXY": "off", "CGO_ENABLED": "0", "GOPACKAGESDRIVER": "off"} {
		if vars[k] != want {
			t.Errorf("server's %s=%q, want %q", k, vars[k], want)
		}
	}
	// In the sandbox where there is one, with a home of its own.
	if sandbox.Available() == nil {
		if home := filepath.Join(e.state, "lsp", "go", "home"); !srv.Sandboxed || vars["HOME"] != home {
			t.Errorf("sandboxed %v, HOME=%s, want %s", srv.Sandboxed, vars["HOME"], home)
		}
	}
	for _, dir := range filepath.SplitList(vars["PATH"]) {
		if dir == e.abs("bin") || !filepath.IsAbs(dir) {
			t.Errorf("server's PATH holds %s", dir)
		}
	}
}

// A server that crashed is started again by the next call; one stopped
// (as when idle) too.
func TestGoServerRestarts(t *testing.T) {
	e := goEnv(t)
	ctx := context.Background()
	ask := func() {
		t.Helper()
		out, err := e.s.Symbols(ctx, &SymbolsRequest{Path: "lib/lib.go"})
		if err != nil || len(out.Symbols) != 2 {
			t.Fatalf("symbols: %+v, %v", out, err)
		}
	}
	ask()
	first := e.s.lsp.Running()[0]
	if err := syscall.Kill(first.Pid(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	// The next call sees it gone (or finds out from a failed request) and
	// starts another.
	for i := 0; ; i++ {
		out, err := e.s.Symbols(ctx, &SymbolsRequest{Path: "lib/lib.go"})
		if err == nil && len(out.Symbols) == 2 {
			break
		}
		if i > 2 || !strings.Contains(err.Error(), "exited") {
			t.Fatalf("after a crash: %v", err)
		}
	}
	second := e.s.lsp.Running()[0]
	if second.Pid() == first.Pid() {
		t.Fatal("the crashed server was not replaced")
	}
	e.s.lsp.Stop(second.Name, second.Root)
	if n := len(e.s.lsp.Running()); n != 0 {
		t.Fatalf("%d servers after stop", n)
	}
	ask()
}

func itoa(n int) string { return strconv.Itoa(n) }

// lspConfigCommand is the program of server name in e's config.
func lspConfigCommand(e *tcEnv, name string) string { return e.cfg.LSP[name].Command[0] }

// A server unused for its idle time is stopped; the next call starts one.
func TestGoServerStopsWhenIdle(t *testing.T) {
	e := tcNew(t, lspServer(t, "go"), func(c *Config) {
		srv := c.LSP["go"]
		srv.IdleSeconds = 1
		c.LSP["go"] = srv
	})
	lspWrite(e, goModule)
	ctx := context.Background()
	if _, err := e.s.Symbols(ctx, &SymbolsRequest{Path: "lib/lib.go"}); err != nil {
		t.Fatal(err)
	}
	pid := 0
	if run := e.s.lsp.Running(); len(run) == 1 {
		pid = run[0].Pid()
	}
	deadline := time.Now().Add(time.Minute)
	for len(e.s.lsp.Running()) > 0 {
		if time.Now().After(deadline) {
			t.Fatal("the idle server was not stopped")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := syscall.Kill(pid, 0); pid > 0 && err == nil {
		if st, err := os.ReadFile(filepath.Join("/proc", itoa(pid), "stat")); err == nil && !strings.Contains(string(st), ") Z ") {
			t.Fatalf("the stopped server %d is still running", pid)
		}
	}
	if _, err := e.s.Symbols(ctx, &SymbolsRequest{Path: "lib/lib.go"}); err != nil {
		t.Fatal(err)
	}
}

// An apply uses its dry run's plan only while nothing was written since:
// a file that starts using the name after the dry run is seen, and the
// apply is refused (the rename now changes another file), nothing written.
func TestGoRenamePlanFollowsWrites(t *testing.T) {
	e := goEnv(t)
	ctx := context.Background()
	req := &RenameRequest{Path: "lib/lib.go", Line: 4, Column: 6, NewName: "Welcome"}
	dry, err := e.s.Rename(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	req.Versions = map[string]string{}
	for _, f := range dry.Files {
		req.Versions[f.Path] = f.Version
	}
	if _, err := e.s.Create(ctx, &CreateRequest{Path: "app/more.go", Kind: "file",
		Content: "package app\n\nimport \"example.com/m/lib\"\n\nvar _ = lib.Greet\n"}); err != nil {
		t.Fatal(err)
	}
	res, err := e.s.Rename(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if res.Applied || !strings.Contains(res.Reason, "app/more.go") {
		t.Fatalf("apply after a new use of the name: %+v", res)
	}
	if got, _ := os.ReadFile(e.abs("lib/lib.go")); string(got) != goModule["lib/lib.go"] {
		t.Fatal("a refused rename wrote lib/lib.go")
	}
}

// A file's problems follow a change to another file it depends on: its
// own text is unchanged, so its last publication is fresh for its text,
// but not the server's word after the change (an agent renamed a function
// the file still calls).
func TestGoDiagnosticsFollowAnotherFile(t *testing.T) {
	e := goEnv(t)
	ctx := context.Background()
	clean, err := e.s.Diagnostics(ctx, &DiagnosticsRequest{Path: "cmd/main.go", WaitMS: 60000})
	if err != nil {
		t.Fatal(err)
	}
	if clean.Total != 0 || !clean.Settled {
		t.Fatalf("diagnostics of a clean file: %+v", clean)
	}
	renamed := strings.Replace(goModule["lib/lib.go"], "func Greet(", "func Welcome(", 1)
	if _, err := e.s.Save(ctx, &SaveRequest{Path: "lib/lib.go", Content: renamed, Force: true}); err != nil {
		t.Fatal(err)
	}
	diag, err := e.s.Diagnostics(ctx, &DiagnosticsRequest{Path: "cmd/main.go", WaitMS: 60000})
	if err != nil {
		t.Fatal(err)
	}
	if diag.Errors != 1 || diag.Diagnostics[0].Line != 9 || !strings.Contains(diag.Diagnostics[0].Message, "Greet") {
		t.Fatalf("cmd/main.go after lib.Greet was renamed: %+v", diag)
	}
}
