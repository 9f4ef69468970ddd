package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/editord/editord/shell"
)

func TestPlanJail(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{".env", ".env.example", "sub/x.pem", "node_modules/pkg/test.key", "secrets/a/b.txt",
		".git/config", ".git/HEAD", ".git/hooks/pre-commit.sample", ".git/objects/ab/cdef", ".git/modules/m/config",
		"vendor/lib/.git", "src/main.go", "state/workspace.json"} {
		p := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	j, err := shell.Open(shell.Config{Roots: []string{root},
		Deny: []string{".env", ".env.*", "!.env.example", "*.pem", "*.key", "**/secrets/**", "**/.git/config", "**/.git/modules/**/config"}})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	p, err := PlanJail(j, filepath.Join(root, "state"), "/elsewhere")
	if err != nil {
		t.Fatal(err)
	}
	rel := func(list []string) string {
		var out []string
		for _, a := range list {
			out = append(out, strings.TrimPrefix(a, root+"/"))
		}
		return strings.Join(out, " ")
	}
	if got, want := rel(p.Hide), ".env node_modules/pkg/test.key secrets/a state sub/x.pem"; got != want {
		t.Errorf("hide: %s\nwant: %s", got, want)
	}
	if got, want := rel(p.ReadOnly), ".git vendor/lib/.git"; got != want {
		t.Errorf("read-only: %s\nwant: %s", got, want)
	}
	var covered []string
	for _, c := range p.Cover {
		covered = append(covered, c.Path)
	}
	if got, want := rel(covered), ".git/config .git/modules/m/config"; got != want {
		t.Errorf("covered: %s\nwant: %s", got, want)
	}
}
