package editor

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gtEnv is a workspace that is (or sits inside) a git repository built with
// the real git tool, and a Service on it.
type gtEnv struct {
	t    testing.TB
	repo string // the repository's worktree
	root string // the workspace root (the repo, or a folder inside it)
	s    *Service
}

// gtIsolate points git at a private home and global config with an
// identity, so the user's configuration never leaks into a test.
func gtIsolate(t testing.TB) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	home, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(home, "gitconfig")
	os.WriteFile(cfg, []byte("[user]\n\tname = Test Person\n\temail = test@example.com\n[init]\n\tdefaultBranch = main\n[gc]\n\tauto = 0\n[maintenance]\n\tauto = false\n[advice]\n\tdetachedHead = false\n"), 0o644)
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "xdg"))
	t.Setenv("GIT_CONFIG_GLOBAL", cfg)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	for _, k := range []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL"} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
	return home
}

// gtNew makes a repository and a Service whose root is sub inside it ("" for
// the repository itself).
func gtNew(t testing.TB, sub string) *gtEnv {
	t.Helper()
	gtIsolate(t)
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	e := &gtEnv{t: t, repo: dir, root: filepath.Join(dir, filepath.FromSlash(sub))}
	os.MkdirAll(e.root, 0o755)
	e.git("init", "-q")
	e.service()
	return e
}

func (e *gtEnv) service() *Service {
	e.t.Helper()
	cfg := DefaultConfig()
	cfg.Jail.Roots = []string{e.repo} // the repository may sit above the root
	s, err := New(cfg, Options{Root: e.root, StateDir: e.t.TempDir()})
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { s.Close() })
	e.s = s
	return s
}

func (e *gtEnv) git(args ...string) string {
	e.t.Helper()
	out, err := gtGit(e.repo, args...)
	if err != nil {
		e.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

func gtGit(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// write writes a file relative to the repository.
func (e *gtEnv) write(rel, content string) {
	e.t.Helper()
	p := filepath.Join(e.repo, filepath.FromSlash(rel))
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		e.t.Fatal(err)
	}
}

func (e *gtEnv) read(rel string) string {
	e.t.Helper()
	b, err := os.ReadFile(filepath.Join(e.repo, filepath.FromSlash(rel)))
	if err != nil {
		e.t.Fatal(err)
	}
	return string(b)
}

func (e *gtEnv) commitAll(msg string) string {
	e.t.Helper()
	e.git("add", "-A")
	e.git("commit", "-q", "--allow-empty", "-m", msg)
	return strings.TrimSpace(e.git("rev-parse", "HEAD"))
}

// call runs a function through the catalog and decodes its JSON response.
func gtCall[T any](e *gtEnv, id, args string) (*T, error) {
	e.t.Helper()
	f, ok := Lookup(id)
	if !ok {
		e.t.Fatalf("%s is not in the catalog", id)
	}
	resp, err := f.Call(context.Background(), e.s, json.RawMessage(args))
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(resp)
	if err != nil {
		e.t.Fatal(err)
	}
	out := new(T)
	if err := json.Unmarshal(b, out); err != nil {
		e.t.Fatal(err)
	}
	return out, nil
}

func gtMust[T any](e *gtEnv, id, args string) *T {
	e.t.Helper()
	out, err := gtCall[T](e, id, args)
	if err != nil {
		e.t.Fatalf("%s %s: %v", id, args, err)
	}
	return out
}
