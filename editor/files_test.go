package editor

// The functions that shape the workspace (docs/contract.md §2, §4): the shared
// record (workspace::open/get, buffers), move, create, delete, tree, and the
// jail as seen through the editor.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/editord/editord/shell"
)

func TestWorkspaceOpenGet(t *testing.T) {
	e := tcNew(t)
	ctx := context.Background()
	e.write("a.txt", "a\n")
	e.write("sub/b.txt", "b\n")
	e.mkdir("other")

	v, err := e.s.WorkspaceGet(ctx, nil)
	if err != nil || v.Root != e.root || len(v.Buffers) != 0 || v.Expanded == nil {
		t.Fatalf("fresh workspace: %+v %v", v, err)
	}
	e.open("a.txt")
	if _, err := e.s.Tree(ctx, &TreeRequest{Expand: []string{"sub"}}); err != nil {
		t.Fatal(err)
	}

	// Repoint at a subfolder (relative to the current root): its own session.
	v, err = e.s.WorkspaceOpen(ctx, &WorkspaceOpenRequest{Root: "sub"})
	if err != nil || v.Root != e.abs("sub") || len(v.Buffers) != 0 || len(v.Expanded) != 0 {
		t.Fatalf("open sub: %+v %v", v, err)
	}
	// Paths are now relative to the new root, for every process.
	other := e.service()
	if o, err := other.Open(ctx, &OpenRequest{Path: "b.txt"}); err != nil || o.Path != "b.txt" {
		t.Fatalf("open in the new root from another process: %+v %v", o, err)
	}
	if got := e.buffers(e.s); !slices.Equal(got, []string{"b.txt"}) {
		t.Fatalf("sub buffers %v", got)
	}
	// Back to the first root (absolute): its buffers and expanded are kept.
	v, err = other.WorkspaceOpen(ctx, &WorkspaceOpenRequest{Root: e.root})
	if err != nil || v.Root != e.root || len(v.Buffers) != 1 || v.Buffers[0].Path != "a.txt" || !slices.Equal(v.Expanded, []string{"sub"}) {
		t.Fatalf("back to the root: %+v %v", v, err)
	}
	if v.Buffers[0].Version != Version([]byte("a\n")) || v.Buffers[0].Language != "plaintext" || v.Buffers[0].Mtime == 0 {
		t.Errorf("buffer %+v", v.Buffers[0])
	}
	if g, err := e.s.WorkspaceGet(ctx, nil); err != nil || g.Root != e.root {
		t.Fatalf("get after another process repointed: %+v %v", g, err)
	}
	// A symlinked folder is stored by its real path.
	e.symlink("other", "otherlink")
	if v, err := e.s.WorkspaceOpen(ctx, &WorkspaceOpenRequest{Root: "otherlink"}); err != nil || v.Root != e.abs("other") {
		t.Fatalf("open through a link: %+v %v", v, err)
	}
	if _, err := e.s.WorkspaceOpen(ctx, &WorkspaceOpenRequest{Root: e.root}); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name, root string
		code       shell.Code
	}{
		{"a file", "a.txt", shell.CodeNotADirectory},
		{"missing", "nope", shell.CodeNotFound},
		{"outside the jail", e.canary, shell.CodeOutsideJail},
		{"dot-dot out", "../canary", shell.CodeOutsideJail},
		{"empty", "", shell.CodeInvalidArgument},
		{"NUL", "su\x00b", shell.CodeInvalidArgument},
	}
	for _, tt := range tests {
		_, err := e.s.WorkspaceOpen(ctx, &WorkspaceOpenRequest{Root: tt.root})
		if tcCode(err) != tt.code {
			t.Errorf("%s: got %v, want %s", tt.name, err, tt.code)
		}
	}
	if g, _ := e.s.WorkspaceGet(ctx, nil); g.Root != e.root {
		t.Errorf("a refused open moved the root to %s", g.Root)
	}
	e.checkCanary()
}

func TestBuffers(t *testing.T) {
	e := tcNew(t)
	ctx := context.Background()
	for _, p := range []string{"c.go", "a.ts", "b.md"} {
		e.write(p, p+"\n")
		e.open(p)
	}
	if got := e.buffers(e.s); !slices.Equal(got, []string{"c.go", "a.ts", "b.md"}) {
		t.Fatalf("open order: %v", got)
	}
	// Re-opening a changed file refreshes it in place.
	e.write("c.go", "package c\n")
	e.open("c.go")
	v, err := e.s.BuffersList(ctx, nil)
	if err != nil || v.Root != e.root {
		t.Fatal(err)
	}
	if got := e.buffers(e.s); !slices.Equal(got, []string{"c.go", "a.ts", "b.md"}) {
		t.Fatalf("re-open changed the order: %v", got)
	}
	if v.Buffers[0].Version != Version([]byte("package c\n")) || v.Buffers[0].Language != "go" || v.Buffers[1].Language != "typescript" || v.Buffers[2].Language != "markdown" {
		t.Errorf("buffers %+v", v.Buffers)
	}
	// Another process sees the same tab set; an absolute path is stored relative.
	other := e.service()
	if o, err := other.Open(ctx, &OpenRequest{Path: e.abs("a.ts")}); err != nil || o.Path != "a.ts" {
		t.Fatalf("absolute open: %+v %v", o, err)
	}
	if got := e.buffers(other); !slices.Equal(got, []string{"c.go", "a.ts", "b.md"}) {
		t.Fatalf("second process sees %v", got)
	}

	tests := []struct {
		path   string
		closed bool
		left   []string
	}{
		{"./a.ts", true, []string{"c.go", "b.md"}},
		{"a.ts", false, []string{"c.go", "b.md"}},
		{"b", false, []string{"c.go", "b.md"}},
		{"nothing/here.txt", false, []string{"c.go", "b.md"}},
		{e.abs("c.go"), true, []string{"b.md"}},
	}
	for _, tt := range tests {
		r, err := e.s.BuffersClose(ctx, &BuffersCloseRequest{Path: tt.path})
		if err != nil {
			t.Fatalf("close %s: %v", tt.path, err)
		}
		got := make([]string, len(r.Buffers))
		for i, b := range r.Buffers {
			got[i] = b.Path
		}
		if r.Closed != tt.closed || !slices.Equal(got, tt.left) || r.Root != e.root {
			t.Errorf("close %s: closed %v left %v, want %v %v", tt.path, r.Closed, got, tt.closed, tt.left)
		}
	}
	// Close never touches the disk.
	for _, p := range []string{"c.go", "a.ts", "b.md"} {
		if !e.exists(p) {
			t.Errorf("closing removed %s", p)
		}
	}
	if e.read("c.go") != "package c\n" {
		t.Error("closing changed a file")
	}
	// Close through the catalog: idempotent, a JSON result either way.
	for _, want := range []bool{true, false} {
		m, err := tcCallJSON(t, e.s, "editor::buffers::close", `{"path": "b.md"}`)
		if err != nil || m["closed"] != want {
			t.Fatalf("catalog close: %v %v", m, err)
		}
	}
}

func TestMove(t *testing.T) {
	type tc struct {
		name      string
		from, to  string
		overwrite bool
		code      shell.Code
		remapped  int
		buffers   []string // after, in order
		expanded  []string
		disk      map[string]string // path → content afterwards ("" = must not exist)
	}
	// Every case starts from the same workspace:
	//   src/app/main.go, src/app/util/u.go, src/application.rs, src/app.txt,
	//   docs/readme.md, taken.txt
	// buffers (in this order): src/application.rs, src/app/main.go,
	// src/app/util/u.go, docs/readme.md, taken.txt
	// expanded: src, src/app, src/app/util
	tests := []tc{
		{
			name: "file rename", from: "docs/readme.md", to: "docs/README.md", remapped: 1,
			buffers:  []string{"src/application.rs", "src/app/main.go", "src/app/util/u.go", "docs/README.md", "taken.txt"},
			expanded: []string{"src", "src/app", "src/app/util"},
			disk:     map[string]string{"docs/README.md": "readme\n", "docs/readme.md": ""},
		},
		{
			name: "file into new folders", from: "taken.txt", to: "x/y/z.txt", remapped: 1,
			buffers:  []string{"src/application.rs", "src/app/main.go", "src/app/util/u.go", "docs/readme.md", "x/y/z.txt"},
			expanded: []string{"src", "src/app", "src/app/util"},
			disk:     map[string]string{"x/y/z.txt": "taken\n", "taken.txt": ""},
		},
		{
			name: "folder: whole segments only", from: "src/app", to: "lib/app", remapped: 4,
			buffers:  []string{"src/application.rs", "lib/app/main.go", "lib/app/util/u.go", "docs/readme.md", "taken.txt"},
			expanded: []string{"src", "lib/app", "lib/app/util"},
			disk:     map[string]string{"lib/app/main.go": "main\n", "src/application.rs": "rs\n", "src/app.txt": "txt\n", "src/app": ""},
		},
		{
			name: "folder holding nothing open", from: "docs", to: "documentation", remapped: 1,
			buffers:  []string{"src/application.rs", "src/app/main.go", "src/app/util/u.go", "documentation/readme.md", "taken.txt"},
			expanded: []string{"src", "src/app", "src/app/util"},
		},
		{
			name: "absolute paths", from: "/ROOT/src/app/util", to: "/ROOT/util", remapped: 2,
			buffers:  []string{"src/application.rs", "src/app/main.go", "util/u.go", "docs/readme.md", "taken.txt"},
			expanded: []string{"src", "src/app", "util"},
		},
		{
			name: "existing to refused", from: "docs/readme.md", to: "taken.txt", code: shell.CodeExists,
			disk: map[string]string{"docs/readme.md": "readme\n", "taken.txt": "taken\n"},
		},
		{
			name: "existing to with overwrite", from: "docs/readme.md", to: "taken.txt", overwrite: true, remapped: 1,
			buffers:  []string{"src/application.rs", "src/app/main.go", "src/app/util/u.go", "taken.txt"},
			expanded: []string{"src", "src/app", "src/app/util"},
			disk:     map[string]string{"taken.txt": "readme\n", "docs/readme.md": ""},
		},
		{name: "into itself", from: "src", to: "src/app/inner", code: shell.CodeInvalidArgument, disk: map[string]string{"src/app/main.go": "main\n"}},
		{name: "onto itself", from: "src", to: "./src/", code: shell.CodeInvalidArgument},
		{name: "the root", from: ".", to: "elsewhere", code: shell.CodeDenied},
		{name: "the root, absolute", from: "/ROOT", to: "elsewhere", code: shell.CodeDenied},
		{name: "missing from", from: "nope.txt", to: "yes.txt", code: shell.CodeNotFound},
		{name: "out of the jail", from: "taken.txt", to: "../taken.txt", code: shell.CodeOutsideJail, disk: map[string]string{"taken.txt": "taken\n"}},
		{name: "onto a denied name", from: "taken.txt", to: "config/.env", code: shell.CodeDenied, disk: map[string]string{"taken.txt": "taken\n", "config/.env": ""}},
		{name: "into .git", from: "taken.txt", to: ".git/hooks/pre-commit", code: shell.CodeDenied},
		{name: "NUL", from: "taken.txt", to: "a\x00b", code: shell.CodeInvalidArgument},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := tcNew(t)
			ctx := context.Background()
			files := map[string]string{
				"src/app/main.go": "main\n", "src/app/util/u.go": "u\n", "src/application.rs": "rs\n",
				"src/app.txt": "txt\n", "docs/readme.md": "readme\n", "taken.txt": "taken\n",
			}
			for p, c := range files {
				e.write(p, c)
			}
			for _, p := range []string{"src/application.rs", "src/app/main.go", "src/app/util/u.go", "docs/readme.md", "taken.txt"} {
				e.open(p)
			}
			if _, err := e.s.Tree(ctx, &TreeRequest{Expand: []string{"src", "src/app", "src/app/util"}}); err != nil {
				t.Fatal(err)
			}
			before := e.buffers(e.s)
			from := strings.Replace(tt.from, "/ROOT", e.root, 1)
			to := strings.Replace(tt.to, "/ROOT", e.root, 1)
			r, err := e.s.Move(ctx, &MoveRequest{From: from, To: to, Overwrite: tt.overwrite})
			tcWantCode(t, err, tt.code)
			for p, c := range tt.disk {
				if c == "" {
					if e.exists(p) {
						t.Errorf("%s still exists", p)
					}
				} else if got := e.read(p); got != c {
					t.Errorf("%s holds %q, want %q", p, got, c)
				}
			}
			if tt.code != "" {
				if got := e.buffers(e.s); !slices.Equal(got, before) {
					t.Errorf("a refused move changed the buffers: %v", got)
				}
				e.checkCanary()
				return
			}
			if r.Remapped != tt.remapped {
				t.Errorf("remapped %d, want %d", r.Remapped, tt.remapped)
			}
			got := make([]string, len(r.Buffers))
			for i, b := range r.Buffers {
				got[i] = b.Path
			}
			if !slices.Equal(got, tt.buffers) {
				t.Errorf("response buffers %v, want %v", got, tt.buffers)
			}
			if got := e.buffers(e.service()); !slices.Equal(got, tt.buffers) {
				t.Errorf("recorded buffers %v, want %v", got, tt.buffers)
			}
			if got := e.expanded(e.s); !slices.Equal(got, tt.expanded) {
				t.Errorf("expanded %v, want %v", got, tt.expanded)
			}
			if r.Root != e.root || r.From == "" || r.To == "" || filepath.IsAbs(r.To) {
				t.Errorf("response %+v", r)
			}
		})
	}
}

// TestMoveOverwriteKeepsMovedBuffer: after a move over an open file, the
// buffer at the destination describes the file now there (the moved one),
// whichever of the two was opened first. A stale version there would make
// the next guarded save a false conflict and its tab show the old content.
func TestMoveOverwriteKeepsMovedBuffer(t *testing.T) {
	for _, order := range [][]string{{"from.txt", "to.txt"}, {"to.txt", "from.txt"}} {
		e := tcNew(t)
		ctx := context.Background()
		e.write("from.txt", "moved content\n")
		e.write("to.txt", "old destination\n")
		for _, p := range order {
			e.open(p)
		}
		r, err := e.s.Move(ctx, &MoveRequest{From: "from.txt", To: "to.txt", Overwrite: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Buffers) != 1 || r.Buffers[0].Path != "to.txt" || r.Buffers[0].Version != Version([]byte("moved content\n")) {
			t.Fatalf("open order %v: buffers after the move %+v", order, r.Buffers)
		}
	}
}

func TestCreate(t *testing.T) {
	tests := []struct {
		name, path, kind, content string
		code                      shell.Code
		created                   bool
		disk                      string // content afterwards for a file
	}{
		{name: "file", path: "new.txt", kind: "file", content: "hello\r\n", created: true, disk: "hello\r\n"},
		{name: "empty file", path: "empty.txt", kind: "file", created: true, disk: ""},
		{name: "file with parents", path: "a/b/c/new.go", kind: "file", content: "package c\n", created: true, disk: "package c\n"},
		{name: "folder with parents", path: "x/y/z", kind: "folder", created: true},
		{name: "existing file", path: "have.txt", kind: "file", content: "clobber\n", code: shell.CodeExists, disk: "have\n"},
		{name: "file where a folder is", path: "dir", kind: "file", code: shell.CodeExists},
		{name: "existing folder", path: "dir", kind: "folder", created: false},
		{name: "folder where a file is", path: "have.txt", kind: "folder", code: shell.CodeExists, disk: "have\n"},
		{name: "file through a dangling link", path: "dangling", kind: "file", code: shell.CodeExists},
		{name: "denied", path: "keys/server.pem", kind: "file", code: shell.CodeDenied},
		{name: "inside .git", path: ".git/config2", kind: "file", code: shell.CodeDenied},
		{name: "outside", path: "../escape.txt", kind: "file", code: shell.CodeOutsideJail},
		{name: "root", path: ".", kind: "folder", created: false},
		{name: "binary content", path: "b.bin", kind: "file", content: "\x00", code: shell.CodeBinary},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := tcNew(t)
			e.write("have.txt", "have\n")
			e.mkdir("dir")
			e.mkdir(".git")
			e.symlink("nowhere.txt", "dangling")
			r, err := e.s.Create(context.Background(), &CreateRequest{Path: tt.path, Kind: tt.kind, Content: tt.content})
			tcWantCode(t, err, tt.code)
			if tt.code == "" && (r.Created != tt.created || r.Kind != tt.kind || r.Path != strings.TrimPrefix(tt.path, ".")) {
				t.Errorf("response %+v", r)
			}
			fi, statErr := os.Lstat(e.abs(tt.path))
			switch {
			case tt.disk != "" || (tt.kind == "file" && tt.code == ""):
				if got := e.read(tt.path); got != tt.disk {
					t.Errorf("disk holds %q, want %q", got, tt.disk)
				}
			case tt.kind == "folder" && tt.code == "":
				if statErr != nil || !fi.IsDir() {
					t.Errorf("no folder at %s", tt.path)
				}
			case tt.code != "" && tt.path != "dir" && tt.path != "dangling" && statErr == nil:
				t.Errorf("a refused create left %s", tt.path)
			}
			if e.exists("nowhere.txt") {
				t.Error("create wrote through a dangling link")
			}
			e.checkCanary()
		})
	}
	// A created file is not opened, and emits one event.
	e := tcNew(t)
	if _, err := e.s.Create(context.Background(), &CreateRequest{Path: "n.txt", Kind: "file"}); err != nil {
		t.Fatal(err)
	}
	if b := e.buffers(e.s); len(b) != 0 {
		t.Errorf("create recorded a buffer: %v", b)
	}
}

func TestDelete(t *testing.T) {
	tests := []struct {
		name      string
		path      string
		recursive bool
		code      shell.Code
		closed    []string
		buffers   []string
		expanded  []string
		gone      []string
		kept      []string
	}{
		{
			name: "file", path: "src/app/main.go", closed: []string{"src/app/main.go"},
			buffers:  []string{"src/application.rs", "src/app/util/u.go", "top.txt"},
			expanded: []string{"src", "src/app", "src/app/util"},
			gone:     []string{"src/app/main.go"}, kept: []string{"src/app/util/u.go"},
		},
		{
			name: "folder, recursive, whole segments", path: "src/app", recursive: true,
			closed:   []string{"src/app/main.go", "src/app/util/u.go"},
			buffers:  []string{"src/application.rs", "top.txt"},
			expanded: []string{"src"},
			gone:     []string{"src/app"}, kept: []string{"src/application.rs", "src/app.txt"},
		},
		{
			name: "file not open", path: "src/app.txt", closed: []string{},
			buffers:  []string{"src/application.rs", "src/app/main.go", "src/app/util/u.go", "top.txt"},
			expanded: []string{"src", "src/app", "src/app/util"},
			gone:     []string{"src/app.txt"},
		},
		{
			name: "empty folder", path: "empty", closed: []string{},
			buffers:  []string{"src/application.rs", "src/app/main.go", "src/app/util/u.go", "top.txt"},
			expanded: []string{"src", "src/app", "src/app/util"},
			gone:     []string{"empty"},
		},
		{
			name: "a link, not its target", path: "link", closed: []string{},
			buffers:  []string{"src/application.rs", "src/app/main.go", "src/app/util/u.go", "top.txt"},
			expanded: []string{"src", "src/app", "src/app/util"},
			gone:     []string{"link"}, kept: []string{"top.txt"},
		},
		{name: "non-empty folder without recursive", path: "src/app", code: shell.CodeNotEmpty, kept: []string{"src/app/main.go"}},
		{name: "the root", path: ".", recursive: true, code: shell.CodeDenied, kept: []string{"top.txt"}},
		{name: "the root, absolute", path: "/ROOT", recursive: true, code: shell.CodeDenied, kept: []string{"top.txt"}},
		{name: "the root, dot-dot", path: "src/..", recursive: true, code: shell.CodeDenied, kept: []string{"top.txt"}},
		{name: "missing", path: "nope", code: shell.CodeNotFound},
		{name: "outside", path: "../canary", recursive: true, code: shell.CodeOutsideJail},
		{name: "denied", path: ".env", code: shell.CodeDenied, kept: []string{".env"}},
		{name: "inside .git", path: ".git/HEAD", code: shell.CodeDenied, kept: []string{".git/HEAD"}},
		{name: "empty path", path: "", code: shell.CodeInvalidArgument},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := tcNew(t)
			ctx := context.Background()
			for p, c := range map[string]string{
				"src/app/main.go": "main\n", "src/app/util/u.go": "u\n", "src/application.rs": "rs\n",
				"src/app.txt": "txt\n", "top.txt": "top\n", ".env": "SECRET=1\n", ".git/HEAD": "ref: refs/heads/main\n",
			} {
				e.write(p, c)
			}
			e.mkdir("empty")
			e.symlink("top.txt", "link")
			for _, p := range []string{"src/application.rs", "src/app/main.go", "src/app/util/u.go", "top.txt"} {
				e.open(p)
			}
			if _, err := e.s.Tree(ctx, &TreeRequest{Expand: []string{"src", "src/app", "src/app/util"}}); err != nil {
				t.Fatal(err)
			}
			before := e.buffers(e.s)
			r, err := e.s.Delete(ctx, &DeleteRequest{Path: strings.Replace(tt.path, "/ROOT", e.root, 1), Recursive: tt.recursive})
			tcWantCode(t, err, tt.code)
			for _, p := range tt.gone {
				if e.exists(p) {
					t.Errorf("%s still exists", p)
				}
			}
			for _, p := range tt.kept {
				if !e.exists(p) {
					t.Errorf("%s was removed", p)
				}
			}
			e.checkCanary()
			if tt.code != "" {
				if got := e.buffers(e.s); !slices.Equal(got, before) {
					t.Errorf("a refused delete changed the buffers: %v", got)
				}
				return
			}
			if !r.Deleted || !slices.Equal(r.BuffersClosed, tt.closed) || r.Root != e.root {
				t.Errorf("response %+v, want closed %v", r, tt.closed)
			}
			if got := e.buffers(e.service()); !slices.Equal(got, tt.buffers) {
				t.Errorf("buffers %v, want %v", got, tt.buffers)
			}
			if got := e.expanded(e.s); !slices.Equal(got, tt.expanded) {
				t.Errorf("expanded %v, want %v", got, tt.expanded)
			}
			if b, _ := json.Marshal(r); !strings.Contains(string(b), `"buffers_closed":[`) {
				t.Errorf("buffers_closed must be an array: %s", b)
			}
		})
	}
}

func TestTree(t *testing.T) {
	e := tcNew(t)
	ctx := context.Background()
	for p, c := range map[string]string{
		"b.txt": "bb\n", "a.txt": "a\n", "Z.txt": "z\n", ".env": "S=1\n", ".env.local": "S=2\n", ".env.example": "S=\n",
		"zdir/inner/deep/x.txt": "x\n", "adir/f.go": "package a\n", "adir/.env": "S=3\n", "key.pem": "k\n",
		"node_modules/m/index.js": "js\n", ".git/HEAD": "ref\n", "secrets/s.txt": "s\n", "src/build/gen.go": "g\n",
	} {
		e.write(p, c)
	}
	e.symlink("a.txt", "alink")
	e.mkdir(".env.d") // a folder matching the deny glob .env.*
	type node struct {
		path, kind string
		kids       []node
	}
	var flat func([]TreeEntry) []node
	flat = func(es []TreeEntry) []node {
		out := []node{}
		for _, x := range es {
			if x.Path != filepath.ToSlash(x.Path) || x.Name != filepath.Base(x.Path) {
				t.Errorf("entry %+v", x)
			}
			n := node{path: x.Path, kind: x.Kind}
			if x.Children != nil {
				n.kids = flat(x.Children)
			}
			out = append(out, n)
		}
		return out
	}
	r, err := e.s.Tree(ctx, &TreeRequest{MaxDepth: 1})
	if err != nil {
		t.Fatal(err)
	}
	got := flat(r.Entries)
	want := []node{
		{path: "adir", kind: "dir"}, {path: "secrets", kind: "dir"}, {path: "src", kind: "dir"}, {path: "zdir", kind: "dir"},
		{path: ".env.example", kind: "file"}, {path: "Z.txt", kind: "file"}, {path: "a.txt", kind: "file"},
		{path: "alink", kind: "symlink"}, {path: "b.txt", kind: "file"},
	}
	if r.Root != e.root || r.Path != "" || r.Truncated {
		t.Errorf("tree header %+v", r)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("max_depth 1:\n got %v\nwant %v", got, want)
	}
	for _, x := range r.Entries {
		if x.Path == "b.txt" && (x.Size != 3 || x.Mtime != e.mtime("b.txt")) {
			t.Errorf("b.txt %+v", x)
		}
	}
	// Default depth (4) reaches zdir/inner/deep/x.txt; noise below the top
	// level (src/build) and deny globs at any depth (adir/.env) stay out.
	r, err = e.s.Tree(ctx, &TreeRequest{})
	if err != nil {
		t.Fatal(err)
	}
	got = flat(r.Entries)
	if len(got[0].kids) != 1 || got[0].kids[0].path != "adir/f.go" {
		t.Errorf("adir: %v", got[0].kids)
	}
	// "**/secrets/**" denies what is inside secrets (gitignore semantics:
	// the folder itself is listed, empty).
	if len(got[1].kids) != 0 {
		t.Errorf("secrets lists denied files: %v", got[1].kids)
	}
	if len(got[2].kids) != 0 {
		t.Errorf("src lists noise: %v", got[2].kids)
	}
	deep := got[3].kids[0].kids[0]
	if deep.path != "zdir/inner/deep" || len(deep.kids) != 1 || deep.kids[0].path != "zdir/inner/deep/x.txt" {
		t.Errorf("depth 4: %v", got[3])
	}
	r, err = e.s.Tree(ctx, &TreeRequest{MaxDepth: 2})
	if err != nil {
		t.Fatal(err)
	}
	if z := flat(r.Entries)[3]; len(z.kids) != 1 || z.kids[0].kids != nil {
		t.Errorf("max_depth 2 went deeper: %v", z)
	}
	// A subfolder: paths stay root-relative.
	r, err = e.s.Tree(ctx, &TreeRequest{Path: "zdir/inner", MaxDepth: 1})
	if err != nil || r.Path != "zdir/inner" || len(r.Entries) != 1 || r.Entries[0].Path != "zdir/inner/deep" {
		t.Fatalf("subtree: %+v %v", r, err)
	}

	// expand persists for every surface; collapse removes descendants.
	r, err = e.s.Tree(ctx, &TreeRequest{MaxDepth: 1, Expand: []string{"zdir", "zdir/inner", "zdir/inner/deep", "adir"}})
	if err != nil || !slices.Equal(r.Expanded, []string{"zdir", "zdir/inner", "zdir/inner/deep", "adir"}) {
		t.Fatalf("expand: %v %v", r.Expanded, err)
	}
	other := e.service()
	if got := e.expanded(other); !slices.Equal(got, []string{"zdir", "zdir/inner", "zdir/inner/deep", "adir"}) {
		t.Fatalf("a second service sees expanded %v", got)
	}
	r, err = other.Tree(ctx, &TreeRequest{MaxDepth: 1, Collapse: []string{"zdir/inner"}, Expand: []string{"./adir/"}})
	if err != nil || !slices.Equal(r.Expanded, []string{"zdir", "adir"}) {
		t.Fatalf("collapse: %v %v", r.Expanded, err)
	}
	if got := e.expanded(e.s); !slices.Equal(got, []string{"zdir", "adir"}) {
		t.Fatalf("after collapse the first service sees %v", got)
	}

	tests := []struct {
		name string
		req  TreeRequest
		code shell.Code
	}{
		{"expand a file", TreeRequest{Expand: []string{"a.txt"}}, shell.CodeNotADirectory},
		{"expand a missing folder", TreeRequest{Expand: []string{"nope"}}, shell.CodeNotFound},
		{"expand a denied folder", TreeRequest{Expand: []string{".env.d"}}, shell.CodeDenied},
		{"list a file", TreeRequest{Path: "a.txt"}, shell.CodeNotADirectory},
		{"list a missing folder", TreeRequest{Path: "nope"}, shell.CodeNotFound},
		{"list outside", TreeRequest{Path: "../canary"}, shell.CodeOutsideJail},
		{"list a denied folder", TreeRequest{Path: ".env.d"}, shell.CodeDenied},
		{"list a denied file", TreeRequest{Path: "secrets/s.txt"}, shell.CodeDenied},
		{"expand outside", TreeRequest{Expand: []string{e.canary}}, shell.CodeOutsideJail},
	}
	for _, tt := range tests {
		_, err := e.s.Tree(ctx, &tt.req)
		if tcCode(err) != tt.code {
			t.Errorf("%s: %v, want %s", tt.name, err, tt.code)
		}
	}
	if got := e.expanded(e.s); !slices.Equal(got, []string{"zdir", "adir"}) {
		t.Errorf("refused calls changed expanded: %v", got)
	}
	e.checkCanary()
}

// TestJailThroughEditor: every path-taking function refuses paths that leave
// the jail, denied paths and NUL bytes with the right code, and nothing
// beside the jail changes.
func TestJailThroughEditor(t *testing.T) {
	e := tcNew(t)
	e.write("ok.txt", "ok\n")
	e.write(".env", "TOKEN=1\n")
	e.write("sub/.env", "TOKEN=2\n")
	e.write("secrets/k.txt", "k\n")
	e.symlink("/etc", "etc")
	e.symlink("/etc/hostname", "hostlink")
	e.symlink("../canary/secret.txt", "canarylink")
	e.symlink(e.canary, "canarydir")
	e.symlink("nowhere.txt", "dangling")
	paths := []struct {
		name, path string
		code       shell.Code
		linkLast   bool
	}{
		{"dot-dot", "../x", shell.CodeOutsideJail, false},
		{"dot-dot inside then out", "sub/../../canary/x", shell.CodeOutsideJail, false},
		{"absolute outside", e.canary + "/x", shell.CodeOutsideJail, false},
		{"absolute system file", "/etc/hostname", shell.CodeOutsideJail, false},
		{"symlink to /etc", "etc/hostname", shell.CodeOutsideJail, false},
		{"symlink to a file in /etc", "hostlink", shell.CodeOutsideJail, true},
		{"relative symlink out", "canarylink", shell.CodeOutsideJail, true},
		{"symlink to the canary", "canarydir/x", shell.CodeOutsideJail, false},
		{"deny glob", ".env", shell.CodeDenied, false},
		{"deny glob at depth", "sub/.env", shell.CodeDenied, false},
		{"deny folder glob", "secrets/k.txt", shell.CodeDenied, false},
		{"NUL", "ok.txt\x00.png", shell.CodeInvalidArgument, false},
	}
	ctx := context.Background()
	for _, p := range paths {
		t.Run(p.name, func(t *testing.T) {
			calls := map[string]func() error{
				"open": func() error { _, err := e.s.Open(ctx, &OpenRequest{Path: p.path}); return err },
				"save": func() error {
					_, err := e.s.Save(ctx, &SaveRequest{Path: p.path, Content: "pwned\n", Force: true})
					return err
				},
				"create": func() error {
					_, err := e.s.Create(ctx, &CreateRequest{Path: p.path, Kind: "file", Content: "pwned\n"})
					return err
				},
				"delete": func() error {
					_, err := e.s.Delete(ctx, &DeleteRequest{Path: p.path, Recursive: true})
					return err
				},
				"move from": func() error { _, err := e.s.Move(ctx, &MoveRequest{From: p.path, To: "moved"}); return err },
				"move to": func() error {
					_, err := e.s.Move(ctx, &MoveRequest{From: "ok.txt", To: p.path, Overwrite: true})
					return err
				},
				"tree": func() error { _, err := e.s.Tree(ctx, &TreeRequest{Path: p.path}); return err },
			}
			if p.linkLast {
				// The path names a link inside the jail: deleting or moving
				// the link itself touches nothing outside, so only the
				// calls that follow it are checked.
				delete(calls, "delete")
				delete(calls, "move from")
				delete(calls, "move to")
			}
			for name, call := range calls {
				err := call()
				if tcCode(err) != p.code {
					t.Errorf("%s %q: %v, want %s", name, p.path, err, p.code)
				}
			}
			if e.read("ok.txt") != "ok\n" || e.read(".env") != "TOKEN=1\n" || !e.exists("secrets/k.txt") {
				t.Fatal("a refused call changed the workspace")
			}
			if e.exists("moved") {
				t.Fatal("a refused move happened")
			}
			e.checkCanary()
		})
	}
	// A dangling symlink inside the jail is not_found.
	_, err := e.s.Open(ctx, &OpenRequest{Path: "dangling"})
	tcWantCode(t, err, shell.CodeNotFound)
	_, err = e.s.Save(ctx, &SaveRequest{Path: "dangling", Content: "x", ExpectedVersion: tcPtr("0-0")})
	tcWantCode(t, err, shell.CodeNotFound)
	if e.exists("nowhere.txt") {
		t.Error("a guarded save through a dangling link created its target")
	}
	// Refused paths never reach the record.
	if b := e.buffers(e.s); len(b) != 0 {
		t.Errorf("refused opens recorded %v", b)
	}
	// .env.example is re-allowed by the default deny list.
	e.write(".env.example", "TOKEN=\n")
	if o := e.open(".env.example"); o.Content != "TOKEN=\n" {
		t.Errorf(".env.example: %+v", o)
	}
}

// TestStoredForm: paths are stored root-relative, "/"-separated and
// cleaned; a path outside the root but inside a wider jail is stored
// absolute; ".." is fine while it stays inside the jail.
func TestStoredForm(t *testing.T) {
	e := tcNew(t)
	e.cfg.Jail.Roots = []string{e.base} // a jail wider than the root
	e.s = e.service()
	ctx := context.Background()
	e.write("sub/a.txt", "a\n")
	tcWriteFile(t, filepath.Join(e.base, "lib.txt"), "lib\n", 0o644)
	if err := os.MkdirAll(filepath.Join(e.base, "shared", "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	tcWriteFile(t, filepath.Join(e.base, "shared", "x", "y.txt"), "y\n", 0o644)
	tests := []struct{ in, stored string }{
		{"sub/a.txt", "sub/a.txt"},
		{"./sub//a.txt", "sub/a.txt"},
		{"sub/../sub/./a.txt", "sub/a.txt"},
		{e.abs("sub/a.txt"), "sub/a.txt"},
		{"../lib.txt", filepath.Join(e.base, "lib.txt")},
		{filepath.Join(e.base, "lib.txt"), filepath.Join(e.base, "lib.txt")},
		{e.root + "/../shared/x//y.txt", filepath.Join(e.base, "shared/x/y.txt")},
	}
	for _, tt := range tests {
		o, err := e.s.Open(ctx, &OpenRequest{Path: tt.in})
		if err != nil || o.Path != tt.stored {
			t.Errorf("open %q: path %v, want %q (%v)", tt.in, o, tt.stored, err)
		}
	}
	want := []string{"sub/a.txt", filepath.Join(e.base, "lib.txt"), filepath.Join(e.base, "shared/x/y.txt")}
	if got := e.buffers(e.s); !slices.Equal(got, want) {
		t.Fatalf("buffers %v, want %v", got, want)
	}
	// Moves and deletes outside the root remap the absolute stored form.
	r, err := e.s.Move(ctx, &MoveRequest{From: "../shared", To: "../common"})
	if err != nil || r.Remapped != 1 || r.From != filepath.Join(e.base, "shared") || r.To != filepath.Join(e.base, "common") {
		t.Fatalf("move outside the root: %+v %v", r, err)
	}
	want[2] = filepath.Join(e.base, "common/x/y.txt")
	if got := e.buffers(e.s); !slices.Equal(got, want) {
		t.Fatalf("after the move %v, want %v", got, want)
	}
	d, err := e.s.Delete(ctx, &DeleteRequest{Path: filepath.Join(e.base, "common"), Recursive: true})
	if err != nil || !slices.Equal(d.BuffersClosed, want[2:]) {
		t.Fatalf("delete outside the root: %+v %v", d, err)
	}
	if c, err := e.s.BuffersClose(ctx, &BuffersCloseRequest{Path: "../lib.txt"}); err != nil || !c.Closed {
		t.Fatalf("close outside the root: %+v %v", c, err)
	}
	// The workspace can be repointed anywhere inside the jail.
	if v, err := e.s.WorkspaceOpen(ctx, &WorkspaceOpenRequest{Root: ".."}); err != nil || v.Root != e.base {
		t.Fatalf("workspace::open ..: %+v %v", v, err)
	}
	if o, err := e.s.Open(ctx, &OpenRequest{Path: "ws/sub/a.txt"}); err != nil || o.Path != "ws/sub/a.txt" {
		t.Fatalf("open in the new root: %+v %v", o, err)
	}
}

// TestCorruptRecordKeepsServing: a corrupt state file is moved aside (never
// deleted) and the service goes on with an empty record.
func TestCorruptRecordKeepsServing(t *testing.T) {
	e := tcNew(t)
	e.write("a.txt", "a\n")
	e.open("a.txt")
	rf := filepath.Join(e.s.StateDir(), "workspace.json")
	if err := os.WriteFile(rf, []byte("{\"format\":1,\"sessions\":{\"x\""), 0o600); err != nil {
		t.Fatal(err)
	}
	s := e.service()
	v, err := s.WorkspaceGet(context.Background(), nil)
	if err != nil || v.Root != e.root || len(v.Buffers) != 0 {
		t.Fatalf("after corruption: %+v %v", v, err)
	}
	if o, err := s.Open(context.Background(), &OpenRequest{Path: "a.txt"}); err != nil || o.Content != "a\n" {
		t.Fatalf("open after corruption: %v", err)
	}
	if got := e.buffers(e.s); !slices.Equal(got, []string{"a.txt"}) {
		t.Fatalf("buffers %v", got)
	}
	aside, _ := filepath.Glob(rf + ".corrupt-*")
	if len(aside) != 1 {
		t.Fatalf("moved aside: %v", aside)
	}
}

// TestTreeMaxEntries: max_entries keeps the top of the tree whole, cuts
// its bottom, and says how much it left out and where.
func TestTreeMaxEntries(t *testing.T) {
	e := tcNew(t)
	ctx := context.Background()
	for _, d := range []string{"a", "b", "c"} {
		for i := range 5 {
			e.write(fmt.Sprintf("%s/f%d.txt", d, i), "x\n")
		}
	}
	e.write("top.txt", "t\n")
	r, err := e.s.Tree(ctx, &TreeRequest{MaxEntries: 6})
	if err != nil {
		t.Fatal(err)
	}
	// Level one whole (a, b, c, top.txt), then a's first two files.
	if len(r.Entries) != 4 || len(r.Entries[0].Children) != 2 || r.Entries[0].More != 3 || len(r.Entries[1].Children) != 0 || r.Entries[1].More != 5 || r.Entries[2].More != 5 {
		t.Fatalf("%+v", r.Entries)
	}
	if !r.Truncated || r.Omitted != 13 || r.Scanned != 19 {
		t.Fatalf("truncated %v omitted %d scanned %d", r.Truncated, r.Omitted, r.Scanned)
	}
	r, err = e.s.Tree(ctx, &TreeRequest{})
	if err != nil || r.Truncated || r.Omitted != 0 || len(r.Entries[2].Children) != 5 {
		t.Fatalf("default: %+v %v", r, err)
	}
	if _, err := e.s.Tree(ctx, &TreeRequest{MaxEntries: -1}); tcCode(err) != shell.CodeInvalidArgument {
		t.Fatalf("max_entries -1: %v", err)
	}
}
