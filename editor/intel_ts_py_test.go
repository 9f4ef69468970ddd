package editor

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var tsProject = map[string]string{
	"tsconfig.json": `{"compilerOptions": {"strict": true, "target": "es2020", "module": "commonjs"}, "include": ["src"]}` + "\n",
	"src/lib.ts": `/** Greets someone. */
export function greet(name: string): string {
  return "hello " + name;
}
`,
	"src/main.ts": `import { greet } from "./lib";

const s: string = greet("x");
console.log(s, greet("y"));
`,
}

func TestTypeScriptServer(t *testing.T) {
	e := tcNew(t, lspServer(t, "typescript"))
	lspWrite(e, tsProject)
	ctx := context.Background()
	def, err := e.s.Definition(ctx, &DefinitionRequest{Path: "src/main.ts", Line: 3, Column: 20})
	if err != nil {
		t.Fatal(err)
	}
	if len(def.Definitions) != 1 || def.Definitions[0].Path != "src/lib.ts" || def.Definitions[0].Line != 2 || def.Definitions[0].Column != 17 {
		t.Fatalf("definition %+v", def)
	}
	refs, err := e.s.References(ctx, &ReferencesRequest{Path: "src/lib.ts", Line: 2, Column: 18})
	if err != nil {
		t.Fatal(err)
	}
	if refs.Total != 4 { // the declaration, the import, two calls
		t.Fatalf("references %+v", refs)
	}
	h, err := e.s.Hover(ctx, &HoverRequest{Path: "src/main.ts", Line: 3, Column: 20})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(h.Contents, "greet(name: string): string") {
		t.Fatalf("hover %q", h.Contents)
	}
	out, err := e.s.Symbols(ctx, &SymbolsRequest{Path: "src/lib.ts"})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Symbols) == 0 || out.Symbols[0].Name != "greet" || out.Symbols[0].Kind != "function" {
		t.Fatalf("outline %+v", out.Symbols)
	}
	// A type error in the person's draft.
	open, err := e.s.Open(ctx, &OpenRequest{Path: "src/main.ts"})
	if err != nil {
		t.Fatal(err)
	}
	draft := strings.Replace(tsProject["src/main.ts"], `greet("x")`, `greet(42)`, 1)
	if _, err := e.s.Draft(ctx, &DraftRequest{Path: "src/main.ts", Content: &draft, BaseVersion: open.Version}); err != nil {
		t.Fatal(err)
	}
	diag, err := e.s.Diagnostics(ctx, &DiagnosticsRequest{Path: "src/main.ts"})
	if err != nil {
		t.Fatal(err)
	}
	if diag.Errors != 1 || diag.Diagnostics[0].Line != 3 || !strings.Contains(diag.Diagnostics[0].Message, "number") {
		t.Fatalf("diagnostics of the draft %+v", diag)
	}
	if _, err := e.s.Draft(ctx, &DraftRequest{Path: "src/main.ts"}); err != nil {
		t.Fatal(err)
	}
	res, err := e.s.Rename(ctx, &RenameRequest{Path: "src/lib.ts", Line: 2, Column: 18, NewName: "welcome"})
	if err != nil {
		t.Fatal(err)
	}
	versions := map[string]string{}
	for _, f := range res.Files {
		versions[f.Path] = f.Version
	}
	if len(versions) != 2 || res.Edits != 4 {
		t.Fatalf("rename dry run %+v", res)
	}
	res, err = e.s.Rename(ctx, &RenameRequest{Path: "src/lib.ts", Line: 2, Column: 18, NewName: "welcome", Versions: versions})
	if err != nil || !res.Applied {
		t.Fatalf("rename: %+v, %v", res, err)
	}
	for p, c := range tsProject {
		got, _ := os.ReadFile(e.abs(p))
		if want := strings.ReplaceAll(c, "greet", "welcome"); string(got) != want {
			t.Fatalf("%s after the rename:\n%s", p, got)
		}
	}
	// The root holds Go too: a query naming no language asks the server
	// that runs and Go's index, which needs none running.
	lspWrite(e, map[string]string{"go.mod": "module example.com/w\n\ngo 1.22\n", "tools/welcome.go": "package tools\n\nfunc Welcome() {}\n"})
	ws, err := e.s.Symbols(ctx, &SymbolsRequest{Query: "welcome"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	ts := false
	for _, s := range ws.Symbols {
		got = append(got, s.Name+"@"+s.Path)
		ts = ts || (s.Name == "welcome" && strings.HasPrefix(s.Path, "src/"))
	}
	// The write closed every document the server held: it answers from the
	// file editord holds open for it (intelAnchor), not "No Project".
	if !ts || !slices.Contains(got, "Welcome@tools/welcome.go") {
		t.Fatalf("a query naming no language, TypeScript's server running, in a root with Go: %v", got)
	}
}

// The workspace's own node_modules/typescript is never what runs.
func TestTypeScriptServerIgnoresTheWorkspaceTypeScript(t *testing.T) {
	e := tcNew(t, lspServer(t, "typescript"))
	lspWrite(e, tsProject)
	marker := filepath.Join(e.canary, "ran")
	evil := "require('fs').writeFileSync(" + jsString(marker) + ", 'tsserver'); process.exit(1);\n"
	lspWrite(e, map[string]string{
		"node_modules/typescript/package.json":      `{"name": "typescript", "version": "5.9.3", "main": "lib/typescript.js"}` + "\n",
		"node_modules/typescript/lib/tsserver.js":   evil,
		"node_modules/typescript/lib/typescript.js": evil,
	})
	out, err := e.s.Symbols(context.Background(), &SymbolsRequest{Path: "src/lib.ts"})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Symbols) == 0 {
		t.Fatalf("no symbols: %+v", out)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the workspace's tsserver ran")
	}
}

func jsString(s string) string {
	return `"` + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), `"`, `\"`) + `"`
}

var pyProject = map[string]string{
	"pyproject.toml":  "[project]\nname = \"m\"\nversion = \"0\"\n",
	"pkg/__init__.py": "",
	"pkg/lib.py": `def greet(name: str) -> str:
    """Greets someone."""
    return "hello " + name
`,
	"main.py": `from pkg.lib import greet

print(greet("x"), greet("y"))
`,
}

func TestPythonServer(t *testing.T) {
	e := tcNew(t, lspServer(t, "python"))
	lspWrite(e, pyProject)
	ctx := context.Background()
	def, err := e.s.Definition(ctx, &DefinitionRequest{Path: "main.py", Line: 3, Column: 8})
	if err != nil {
		t.Fatal(err)
	}
	if len(def.Definitions) != 1 || def.Definitions[0].Path != "pkg/lib.py" || def.Definitions[0].Line != 1 || def.Definitions[0].Column != 5 {
		t.Fatalf("definition %+v", def)
	}
	refs, err := e.s.References(ctx, &ReferencesRequest{Path: "pkg/lib.py", Line: 1, Column: 6})
	if err != nil {
		t.Fatal(err)
	}
	if refs.Total != 4 { // the definition, the import, two calls
		t.Fatalf("references %+v", refs)
	}
	h, err := e.s.Hover(ctx, &HoverRequest{Path: "main.py", Line: 3, Column: 8})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(h.Contents, "def greet(name: str) -> str") {
		t.Fatalf("hover %q", h.Contents)
	}
	open, err := e.s.Open(ctx, &OpenRequest{Path: "main.py"})
	if err != nil {
		t.Fatal(err)
	}
	draft := pyProject["main.py"] + "greet(1, 2)\n"
	if _, err := e.s.Draft(ctx, &DraftRequest{Path: "main.py", Content: &draft, BaseVersion: open.Version}); err != nil {
		t.Fatal(err)
	}
	diag, err := e.s.Diagnostics(ctx, &DiagnosticsRequest{Path: "main.py"})
	if err != nil {
		t.Fatal(err)
	}
	if diag.Errors != 1 || diag.Diagnostics[0].Line != 4 {
		t.Fatalf("diagnostics of the draft %+v", diag)
	}
	ws, err := e.s.Symbols(ctx, &SymbolsRequest{Query: "greet"})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, s := range ws.Symbols {
		found = found || (s.Name == "greet" && s.Path == "pkg/lib.py")
	}
	if !found {
		t.Fatalf("workspace symbols %+v", ws.Symbols)
	}
}
