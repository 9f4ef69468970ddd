package editor

// Shared helpers for the editor's contract tests. Every name starts with tc
// so that they never collide with the helpers of other test files in this
// package.

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/editord/editord/shell"
)

// tcEnv is one workspace under test: a jail root with a canary folder beside
// it (outside the jail), a state dir, and a Service on them.
type tcEnv struct {
	t      testing.TB
	base   string // canonical temp dir holding root, canary and state
	root   string // the jail root and active workspace root (canonical)
	canary string // outside the jail: no call may ever change it
	state  string
	cfg    Config
	s      *Service
	snap   map[string]string
}

// tcNew builds an empty workspace and a Service with the default config,
// adjusted by the optional funcs.
func tcNew(t testing.TB, adjust ...func(*Config)) *tcEnv {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	e := &tcEnv{
		t:      t,
		base:   base,
		root:   filepath.Join(base, "ws"),
		canary: filepath.Join(base, "canary"),
		state:  filepath.Join(base, "state"),
		cfg:    DefaultConfig(),
	}
	for _, d := range []string{e.root, filepath.Join(e.canary, "deep")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	tcWriteFile(t, filepath.Join(e.canary, "secret.txt"), "canary: do not touch\n", 0o644)
	tcWriteFile(t, filepath.Join(e.canary, "deep", "f.txt"), "deep canary\r\n", 0o600)
	tcWriteFile(t, filepath.Join(e.canary, "x"), "outside x\n", 0o644)
	e.snap = tcSnapshot(t, e.canary)
	for _, f := range adjust {
		f(&e.cfg)
	}
	e.s = e.service()
	return e
}

// service opens another Service on the same root and state dir, as a second
// process would.
func (e *tcEnv) service() *Service {
	e.t.Helper()
	s, err := New(e.cfg, Options{Root: e.root, StateDir: e.state, Warn: func(m string) { e.t.Logf("warn: %s", m) }})
	if err != nil {
		e.t.Fatalf("New: %v", err)
	}
	e.t.Cleanup(func() { s.Close() })
	return s
}

func (e *tcEnv) abs(rel string) string { return filepath.Join(e.root, filepath.FromSlash(rel)) }

// write puts a file in the workspace (parents included), mode 0644.
func (e *tcEnv) write(rel, content string) {
	e.t.Helper()
	e.writeMode(rel, content, 0o644)
}

func (e *tcEnv) writeMode(rel, content string, mode fs.FileMode) {
	e.t.Helper()
	p := e.abs(rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		e.t.Fatal(err)
	}
	tcWriteFile(e.t, p, content, mode)
}

func (e *tcEnv) mkdir(rel string) {
	e.t.Helper()
	if err := os.MkdirAll(e.abs(rel), 0o755); err != nil {
		e.t.Fatal(err)
	}
}

func (e *tcEnv) symlink(target, rel string) {
	e.t.Helper()
	if err := os.Symlink(target, e.abs(rel)); err != nil {
		e.t.Fatal(err)
	}
}

// read returns the bytes of a workspace file; the test fails if it is missing.
func (e *tcEnv) read(rel string) string {
	e.t.Helper()
	b, err := os.ReadFile(e.abs(rel))
	if err != nil {
		e.t.Fatalf("reading %s: %v", rel, err)
	}
	return string(b)
}

func (e *tcEnv) exists(rel string) bool {
	_, err := os.Lstat(e.abs(rel))
	return err == nil
}

// setMtime moves a file's mtime to a whole second, off from now.
func (e *tcEnv) setMtime(rel string, unix int64) {
	e.t.Helper()
	tm := time.Unix(unix, 0)
	if err := os.Chtimes(e.abs(rel), tm, tm); err != nil {
		e.t.Fatal(err)
	}
}

func (e *tcEnv) mtime(rel string) int64 {
	e.t.Helper()
	fi, err := os.Stat(e.abs(rel))
	if err != nil {
		e.t.Fatal(err)
	}
	return fi.ModTime().Unix()
}

// checkCanary fails the test if anything beside the jail changed.
func (e *tcEnv) checkCanary() {
	e.t.Helper()
	now := tcSnapshot(e.t, e.canary)
	if len(now) != len(e.snap) {
		e.t.Errorf("canary changed: had %d entries, now %d: %v", len(e.snap), len(now), now)
	}
	for k, v := range e.snap {
		if now[k] != v {
			e.t.Errorf("canary %s changed: %q → %q", k, v, now[k])
		}
	}
}

// paths lists the buffer paths of the active root, in tab order.
func (e *tcEnv) buffers(s *Service) []string {
	e.t.Helper()
	v, err := s.BuffersList(context.Background(), &BuffersListRequest{Limit: viewLimitCap})
	if err != nil {
		e.t.Fatalf("buffers::list: %v", err)
	}
	out := make([]string, len(v.Buffers))
	for i, b := range v.Buffers {
		out[i] = b.Path
	}
	return out
}

func (e *tcEnv) open(rel string) *OpenResponse {
	e.t.Helper()
	r, err := e.s.Open(context.Background(), &OpenRequest{Path: rel})
	if err != nil {
		e.t.Fatalf("open %s: %v", rel, err)
	}
	return r
}

func (e *tcEnv) expanded(s *Service) []string {
	e.t.Helper()
	v, err := s.WorkspaceGet(context.Background(), nil)
	if err != nil {
		e.t.Fatalf("workspace::get: %v", err)
	}
	return v.Expanded
}

func tcWriteFile(t testing.TB, p, content string, mode fs.FileMode) {
	t.Helper()
	if err := os.WriteFile(p, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil { // past the umask
		t.Fatal(err)
	}
}

// tcSnapshot maps every path under dir to its kind, mode and bytes.
func tcSnapshot(t testing.TB, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		v := fi.Mode().String()
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			l, _ := os.Readlink(p)
			v += " -> " + l
		case fi.Mode().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			v += " " + string(b)
		}
		out[strings.TrimPrefix(p, dir)] = v
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// tcCall runs a function the way every surface does: by id, with JSON args.
func tcCall(t testing.TB, s *Service, id, args string) (any, error) {
	t.Helper()
	f, ok := Lookup(id)
	if !ok {
		t.Fatalf("no function %s in the catalog", id)
	}
	return f.Call(context.Background(), s, json.RawMessage(args))
}

// tcCallJSON runs a function and returns its response as generic JSON.
func tcCallJSON(t testing.TB, s *Service, id, args string) (map[string]any, error) {
	t.Helper()
	out, err := tcCall(t, s, id, args)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatalf("%s: response does not marshal: %v", id, err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m, nil
}

// tcCode is the stable code of err ("" for nil).
func tcCode(err error) shell.Code {
	if err == nil {
		return ""
	}
	var se *shell.Error
	if !errors.As(err, &se) {
		return "untyped: " + shell.Code(err.Error())
	}
	return se.Code
}

// tcWantCode fails unless err carries code (or is nil when code is "").
func tcWantCode(t testing.TB, err error, code shell.Code) {
	t.Helper()
	if got := tcCode(err); got != code {
		if code == "" {
			t.Fatalf("want success, got %s: %v", got, err)
		}
		t.Fatalf("want %s, got %q (%v)", code, got, err)
	}
}

func tcPtr[T any](v T) *T { return &v }

// tcGit is the git binary, or skips the test.
func tcGit(t testing.TB) string {
	t.Helper()
	p, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed")
	}
	return p
}

// tcGitApply applies patch to a file holding before (at path inside a fresh
// folder) with the real git apply and returns the result.
func tcGitApply(t testing.TB, path, before, patch string) string {
	t.Helper()
	git := tcGit(t)
	dir := t.TempDir()
	p := filepath.Join(dir, filepath.FromSlash(path))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	tcWriteFile(t, p, before, 0o644)
	pf := filepath.Join(t.TempDir(), "change.patch")
	tcWriteFile(t, pf, patch, 0o644)
	cmd := exec.Command(git, "apply", "--whitespace=nowarn", pf)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git apply refused the patch: %v\n%s\npatch:\n%s", err, out, patch)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// tcRemoveJournal deletes the change journal, as a person cleaning the
// state dir would.
func tcRemoveJournal(e *tcEnv) error {
	return os.Remove(filepath.Join(e.s.StateDir(), "changes.jsonl"))
}
