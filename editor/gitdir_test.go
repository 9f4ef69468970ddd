package editor

// Issue 15 item 10: a workspace root inside a git dir is refused, and a
// repository's config (remote URLs can hold tokens) is never returned by
// open, search or tree unless jail.allow_git_config. On main
// editor::workspace::open {"root": ".git"} was accepted for every
// surface, and .git/config was readable.

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/editord/editord/shell"
)

func TestGitDirRootsAreRefused(t *testing.T) {
	e := gtNew(t, "")
	e.write("src/a.go", "package a\n")
	e.commitAll("first")
	if _, err := gtGit(e.repo, "init", "-q", "--bare", "bare.git"); err != nil {
		t.Fatal(err)
	}
	os.Symlink(".git", filepath.Join(e.repo, "gl"))
	for _, root := range []string{".git", ".git/refs", ".git/objects", "gl", "gl/refs/heads", "bare.git", "bare.git/refs", filepath.Join(e.repo, ".git")} {
		_, err := gtCall[WorkspaceView](e, "editor::workspace::open", `{"root": "`+root+`"}`)
		tcWantCode(t, err, shell.CodeDenied)
		if !strings.Contains(err.Error(), "git dir") {
			t.Errorf("%s: %v", root, err)
		}
	}
	if v := gtMust[WorkspaceView](e, "editor::workspace::get", `{}`); v.Root != e.repo {
		t.Errorf("a refused open moved the root to %s", v.Root)
	}
	// A folder merely named like one is fine.
	gtMust[WorkspaceView](e, "editor::workspace::open", `{"root": "src"}`)

	cfg := DefaultConfig()
	cfg.Jail.Roots = []string{e.repo}
	if _, err := New(cfg, Options{Root: filepath.Join(e.repo, ".git"), StateDir: t.TempDir()}); err == nil || !strings.Contains(err.Error(), "git dir") {
		t.Errorf("--root .git: %v", err)
	}
}

func TestGitConfigIsNeverReturned(t *testing.T) {
	e := gtNew(t, "")
	e.git("remote", "add", "origin", "https://user:TOKEN123@example.com/r.git")
	os.MkdirAll(filepath.Join(e.repo, ".git", "modules", "sub"), 0o755)
	os.WriteFile(filepath.Join(e.repo, ".git", "modules", "sub", "config"), []byte("url = https://x:TOKEN123@example.com\n"), 0o644)
	e.write("a.txt", "a\n")
	call := func(s *Service, id, args string) (string, error) {
		f, _ := Lookup(id)
		out, err := f.Call(context.Background(), s, json.RawMessage(args))
		b, _ := json.Marshal(out)
		return string(b), err
	}
	for _, tc := range []struct{ id, args string }{
		{"editor::open", `{"path": ".git/config"}`},
		{"editor::open", `{"path": ".git/modules/sub/config"}`},
		{"editor::open", `{"path": "` + filepath.Join(e.repo, ".git", "config") + `"}`},
	} {
		_, err := call(e.s, tc.id, tc.args)
		tcWantCode(t, err, shell.CodeDenied)
	}
	out, err := call(e.s, "editor::tree", `{"path": ".git", "max_depth": 3}`)
	if err != nil || strings.Contains(out, `"name":"config"`) || !strings.Contains(out, `"HEAD"`) {
		t.Errorf("tree of .git: %v %.300s", err, out)
	}
	// Even with .git not a noise folder, search does not look inside.
	cfg := DefaultConfig()
	cfg.Jail.Roots = []string{e.repo}
	cfg.Walk.Noise = nil
	s, err := New(cfg, Options{Root: e.repo, StateDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	out, err = call(s, "editor::search", `{"pattern": "TOKEN123"}`)
	if err != nil || strings.Contains(out, "TOKEN123") {
		t.Errorf("search found the token: %v %.300s", err, out)
	}
	// git still reads its config.
	if _, err := call(e.s, "editor::git::status", `{}`); err != nil {
		t.Fatal(err)
	}
	// allow_git_config lets a person who wants it read it.
	cfg.Jail.AllowGitConfig = true
	s2, err := New(cfg, Options{Root: e.repo, StateDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if out, err := call(s2, "editor::open", `{"path": ".git/config"}`); err != nil || !strings.Contains(out, "TOKEN123") {
		t.Errorf("with allow_git_config: %v %.200s", err, out)
	}
}
