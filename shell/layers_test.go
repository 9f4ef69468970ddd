package shell

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The layers (docs/design.md): cmd → protocol → editor → search,
// workspace, gitops → shell, diff. Imports flow down or across a layer,
// never up, and the leaves import no package of editord. A package takes
// the layer of the longest prefix below that names one, so a new room
// (editor/turns) lives in its parent's layer unless listed here.

const module = "github.com/editord/editord/"

var layerOf = map[string]int{
	"shell": 0, "diff": 0, "editor/wire": 0,
	"search": 1, "workspace": 1, "gitops": 1,
	"shell/sandbox": 1, // editor::run's box, built on the jail
	"editor":        2,
	"protocol":      3,
	"cmd":           4,
}

// beside lists rooms that share a layer with a package they must not
// import: the watcher sees the service only through its own interface.
var beside = map[string]string{"editor/watch": "editor"}

// layer is the layer of a package path relative to the module, or -1.
func layer(rel string) int {
	for p := rel; ; {
		if l, ok := layerOf[p]; ok {
			return l
		}
		i := strings.LastIndexByte(p, '/')
		if i < 0 {
			return -1
		}
		p = p[:i]
	}
}

func TestLayers(t *testing.T) {
	root := repoRoot(t)
	fset := token.NewFileSet()
	var bad []string
	checked := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if name := d.Name(); rel != "." && (name == "testdata" || name == "node_modules" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		pkg := filepath.ToSlash(filepath.Dir(rel))
		from := layer(pkg)
		if from < 0 {
			bad = append(bad, rel+": package "+pkg+" has no layer (add it to layerOf and docs/design.md)")
			return nil
		}
		file, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		checked++
		for _, imp := range file.Imports {
			ipath, _ := strconv.Unquote(imp.Path.Value)
			to, ok := strings.CutPrefix(ipath, module)
			if !ok {
				continue
			}
			switch l := layer(to); {
			case beside[pkg] == to:
				bad = append(bad, rel+": "+pkg+" imports "+to+", which it sits beside (docs/design.md)")
			case from == 0:
				bad = append(bad, rel+": "+pkg+" is a leaf and imports "+to)
			case l > from:
				bad = append(bad, rel+": "+pkg+" imports "+to+", a layer above it")
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked == 0 {
		t.Fatal("no Go file found: the check checked nothing")
	}
	sort.Strings(bad)
	if len(bad) > 0 {
		t.Fatalf("imports against the layers (docs/design.md):\n  %s", strings.Join(bad, "\n  "))
	}
}

// The checker's layer lookup: a room takes its parent's layer unless it
// is listed.
func TestLayerOf(t *testing.T) {
	for rel, want := range map[string]int{
		"editor": 2, "editor/turns": 2, "editor/wire": 0, "protocol/pagetest": 3,
		"cmd/editord": 4, "shell": 0, "elsewhere": -1,
	} {
		if got := layer(rel); got != want {
			t.Errorf("layer(%q) = %d, want %d", rel, got, want)
		}
	}
}
