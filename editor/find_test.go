package editor

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/editord/editord/shell"
)

// fsService opens a Service on a fresh root holding files (path -> content).
func fsService(t *testing.T, files map[string]string, adjust ...func(*Config)) (*Service, string) {
	t.Helper()
	root, err := shell.Canonical(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for rel, content := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg := DefaultConfig()
	for _, a := range adjust {
		a(&cfg)
	}
	s, err := New(cfg, Options{Root: root, StateDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, root
}

// fsCall runs a function through the catalog, as every surface does.
func fsCall(t *testing.T, s *Service, id, args string) (json.RawMessage, error) {
	t.Helper()
	f, ok := Lookup(id)
	if !ok {
		t.Fatalf("%s is not in the catalog", id)
	}
	resp, err := f.Call(context.Background(), s, json.RawMessage(args))
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(resp)
	if err != nil {
		t.Fatal(err)
	}
	return b, nil
}

func fsGit(t *testing.T, dir string, args ...string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	home := t.TempDir()
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+home, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func fsFindPaths(r *FindResponse) []string {
	out := []string{}
	for _, m := range r.Matches {
		out = append(out, m.Path)
	}
	return out
}

func TestFindFunction(t *testing.T) {
	s, root := fsService(t, map[string]string{
		"src/tree/mod.rs": "", "src/models/user.rs": "", "App.tsx": "", "app.go": "",
		".gitignore": "*.log\n", "debug.log": "", ".env": "x", "node_modules/a/mod.js": "",
	})
	fsGit(t, root, "init", "-q")
	fsGit(t, root, "add", "-A")
	fsGit(t, root, "commit", "-qm", "init")
	os.WriteFile(filepath.Join(root, "untracked_mod.txt"), nil, 0o644)
	os.WriteFile(filepath.Join(root, "node_modules/untracked.js"), nil, 0o644)

	ctx := context.Background()
	r, err := s.Find(ctx, &FindRequest{Query: "mod"})
	if err != nil {
		t.Fatal(err)
	}
	if got := fsFindPaths(r); len(got) < 2 || got[0] != "src/tree/mod.rs" || !r.FromGit || r.Truncated {
		t.Fatalf("mod: %q from_git %v", got, r.FromGit)
	}
	if r.Matches[0].Positions == nil || !reflect.DeepEqual(r.Matches[0].Positions, []int{9, 10, 11}) {
		t.Fatalf("positions %v", r.Matches[0].Positions)
	}
	r, _ = s.Find(ctx, &FindRequest{Query: "App", Limit: 1})
	if got := fsFindPaths(r); !reflect.DeepEqual(got, []string{"App.tsx"}) {
		t.Fatalf("App: %q", got)
	}
	no := false
	r, _ = s.Find(ctx, &FindRequest{Query: "", IncludeUntracked: &no})
	// Tracked files come from git's index as they are, a tracked file in a
	// noise folder included; untracked ones come from the walk.
	want := []string{".gitignore", "App.tsx", "app.go", "node_modules/a/mod.js", "src/models/user.rs", "src/tree/mod.rs"}
	if got := fsFindPaths(r); !reflect.DeepEqual(got, want) || r.Scanned != len(want) {
		t.Fatalf("tracked only: %q (scanned %d), want %q", got, r.Scanned, want)
	}
	r, _ = s.Find(ctx, &FindRequest{Query: ""})
	if got := fsFindPaths(r); !reflect.DeepEqual(got, append(want, "untracked_mod.txt")) {
		t.Fatalf("with untracked: %q", got)
	}

	// Through the catalog: the wire shape, defaults and refusals.
	raw, err := fsCall(t, s, "editor::find", `{"query": "user"}`)
	if err != nil {
		t.Fatal(err)
	}
	var wire map[string]any
	json.Unmarshal(raw, &wire)
	for _, k := range []string{"matches", "scanned", "truncated", "from_git"} {
		if _, ok := wire[k]; !ok {
			t.Fatalf("response lacks %q: %s", k, raw)
		}
	}
	if !strings.Contains(string(raw), `"path":"src/models/user.rs"`) || !strings.Contains(string(raw), `"positions":[`) {
		t.Fatalf("wire: %s", raw)
	}
	for _, bad := range []string{`{}`, `{"query": "a", "limit": -1}`, `{"query": 3}`, `{"query": "a", "limt": 3}`} {
		if _, err := fsCall(t, s, "editor::find", bad); shell.CodeOf(err) != shell.CodeInvalidArgument {
			t.Errorf("%s: %v, want invalid_argument", bad, err)
		}
	}
}

func TestFindLimitsFromConfig(t *testing.T) {
	files := map[string]string{}
	for _, n := range []string{"a", "b", "c", "d", "e", "f"} {
		files[n+".txt"] = ""
	}
	s, _ := fsService(t, files, func(c *Config) {
		c.Limits.FindLimit = 2
		c.Limits.MaxFindCandidates = 4
	})
	r, err := s.Find(context.Background(), &FindRequest{Query: "txt"})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Matches) != 2 || r.Scanned != 4 || !r.Truncated || r.FromGit {
		t.Fatalf("limit 2 of 4 candidates: %+v", r)
	}
}

// A second find sees a file created in between (by anyone), and a change
// through the service itself.
func TestFindSeesChanges(t *testing.T) {
	s, root := fsService(t, map[string]string{"a.go": ""})
	ctx := context.Background()
	if _, err := s.Find(ctx, &FindRequest{Query: "zeta"}); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "zeta.go"), nil, 0o644)
	r, _ := s.Find(ctx, &FindRequest{Query: "zeta"})
	if got := fsFindPaths(r); !reflect.DeepEqual(got, []string{"zeta.go"}) {
		t.Fatalf("after an outside write: %q", got)
	}
	if _, err := s.Create(ctx, &CreateRequest{Path: "deep/er/zeta2.go", Kind: "file"}); err != nil {
		t.Fatal(err)
	}
	r, _ = s.Find(ctx, &FindRequest{Query: "zeta"})
	if got := fsFindPaths(r); !reflect.DeepEqual(got, []string{"zeta.go", "deep/er/zeta2.go"}) {
		t.Fatalf("after editor::create: %q", got)
	}
	if _, err := s.Delete(ctx, &DeleteRequest{Path: "zeta.go"}); err != nil {
		t.Fatal(err)
	}
	r, _ = s.Find(ctx, &FindRequest{Query: "zeta"})
	if got := fsFindPaths(r); !reflect.DeepEqual(got, []string{"deep/er/zeta2.go"}) {
		t.Fatalf("after editor::delete: %q", got)
	}
}

func TestFindSchemas(t *testing.T) {
	for _, id := range []string{"editor::find", "editor::search"} {
		f, ok := Lookup(id)
		if !ok {
			t.Fatalf("%s missing", id)
		}
		if !f.Annotations.ReadOnly || f.Annotations.Destructive || f.Annotations.OpenWorld {
			t.Errorf("%s annotations %+v", id, f.Annotations)
		}
		for _, schema := range []map[string]any{f.InputSchema(), f.OutputSchema()} {
			fsCheckDescribed(t, id, schema)
		}
	}
}

// fsCheckDescribed fails on a schema property without a description.
func fsCheckDescribed(t *testing.T, id string, schema map[string]any) {
	props, _ := schema["properties"].(map[string]any)
	for name, p := range props {
		pm := p.(map[string]any)
		if d, _ := pm["description"].(string); d == "" {
			t.Errorf("%s: field %q has no description", id, name)
		}
		fsCheckDescribed(t, id, pm)
		if items, ok := pm["items"].(map[string]any); ok {
			fsCheckDescribed(t, id, items)
		}
	}
}
