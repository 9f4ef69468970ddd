package watch

// The watcher's tests run it as cmd/editord does: beside a real
// editor.Service on a workspace in a temp dir, several of them on one
// state dir for several processes. Helpers of the watcher's tests start
// with tw; these, which make workspaces, with tc, as editor's do.

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/editord/editord/editor"
)

// The service is what the watcher needs, as the compiler checks here.
var _ Service = editor.WatchHost{}

// svc is one editord process under test: the service, and its watcher.
type svc struct {
	*editor.Service
	w *Watcher
}

func newSvc(s *editor.Service) *svc { return &svc{Service: s, w: New()} }

// RunWatcher runs the process's watcher until ctx ends.
func (s *svc) RunWatcher(ctx context.Context) { s.w.Run(ctx, s.WatchHost()) }

func (s *svc) WatcherStatus() Status                  { return s.w.Status() }
func (s *svc) watchFences() (flushed, settled uint64) { return s.w.Fences() }
func (s *svc) setWatchFence(prefix string)            { s.w.SetFence(prefix) }
func (s *svc) watchElectionsLost() uint64             { return s.w.ElectionsLost() }
func (s *svc) setWatchLimit(n int)                    { s.w.SetLimit(n) }
func (s *svc) watchHolds(p string) bool               { return s.w.Holds(p) }
func (s *svc) root() (string, error)                  { return activeRoot(s.WatchHost()) }

// tcEnv is one workspace under test: a root, a state dir, and a process
// on them.
type tcEnv struct {
	t     testing.TB
	base  string // canonical temp dir holding root and state
	root  string // the jail root and active workspace root (canonical)
	state string
	cfg   editor.Config
	s     *svc
}

// tcNew builds an empty workspace and a process with the default config,
// adjusted by the optional funcs.
func tcNew(t testing.TB, adjust ...func(*editor.Config)) *tcEnv {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	e := &tcEnv{t: t, base: base, root: filepath.Join(base, "ws"), state: filepath.Join(base, "state"), cfg: editor.DefaultConfig()}
	if err := os.MkdirAll(e.root, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range adjust {
		f(&e.cfg)
	}
	e.s = e.service()
	return e
}

// service opens another process on the same root and state dir.
func (e *tcEnv) service() *svc { return e.serviceAt(e.root) }

// serviceAt opens another process on the state dir, started on root.
func (e *tcEnv) serviceAt(root string) *svc {
	e.t.Helper()
	s, err := editor.New(e.cfg, editor.Options{Root: root, StateDir: e.state, Warn: func(m string) { e.t.Logf("warn: %s", m) }})
	if err != nil {
		e.t.Fatalf("New: %v", err)
	}
	e.t.Cleanup(func() { s.Close() })
	return newSvc(s)
}

func (e *tcEnv) abs(rel string) string { return filepath.Join(e.root, filepath.FromSlash(rel)) }

// write puts a file in the workspace (parents included), mode 0644.
func (e *tcEnv) write(rel, content string) {
	e.t.Helper()
	p := e.abs(rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		e.t.Fatal(err)
	}
	tcWriteFile(e.t, p, content, 0o644)
}

func (e *tcEnv) mkdir(rel string) {
	e.t.Helper()
	if err := os.MkdirAll(e.abs(rel), 0o755); err != nil {
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

// open opens rel as a buffer (a tab).
func (e *tcEnv) open(rel string) *editor.OpenResponse {
	e.t.Helper()
	r, err := e.s.Open(context.Background(), &editor.OpenRequest{Path: rel})
	if err != nil {
		e.t.Fatalf("open %s: %v", rel, err)
	}
	return r
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

// stN picks a count for the quick run (go test) or the long one
// (EDITORD_STRESS=long, make stress).
func stN(short, long int) int {
	if os.Getenv("EDITORD_STRESS") == "long" {
		return long
	}
	return short
}
