package gitops

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/editord/editord/shell"
)

// Tests build fixture repositories with the real git and compare what
// gitops says or writes with what git says or reads.

var testHome string

func TestMain(m *testing.M) {
	flag.Parse()
	// The fixture tests wait on git processes more than they compute, so
	// run a few more of them at once than there are CPUs (unless told otherwise).
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		flag.Set("test.parallel", fmt.Sprint(2*runtime.GOMAXPROCS(0)))
	}
	home, err := os.MkdirTemp("", "gitops-home-")
	if err != nil {
		panic(err)
	}
	testHome, _ = filepath.EvalSymlinks(home)
	cfg := filepath.Join(testHome, "gitconfig")
	os.WriteFile(cfg, []byte("[user]\n\tname = Test Person\n\temail = test@example.com\n[init]\n\tdefaultBranch = main\n[gc]\n\tauto = 0\n[maintenance]\n\tauto = false\n[advice]\n\tdetachedHead = false\n"), 0o644)
	os.Setenv("HOME", testHome)
	os.Setenv("XDG_CONFIG_HOME", filepath.Join(testHome, "xdg"))
	os.Setenv("GIT_CONFIG_GLOBAL", cfg)
	os.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	for _, k := range []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE"} {
		os.Unsetenv(k)
	}
	code := m.Run()
	os.RemoveAll(home)
	os.Exit(code)
}

func needGit(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
}

// fixture is a repository in a temp dir with a jail over it.
type fixture struct {
	t    testing.TB
	dir  string // canonical worktree
	jail *shell.Jail
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	needGit(t)
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, dir: dir}
	f.git("init", "-q")
	f.openJail(dir)
	return f
}

// openJail opens the fixture's jail over an existing folder (its root).
func (f *fixture) openJail(root string) {
	j, err := shell.Open(shell.Config{Roots: []string{root}, MaxReadBytes: 64 << 20, MaxWriteBytes: 64 << 20,
		Deny: []string{".env", ".env.*", "!.env.example", "*.pem", "*.key", "**/secrets/**"}})
	if err != nil {
		f.t.Fatal(err)
	}
	f.t.Cleanup(func() { j.Close() })
	f.jail = j
}

func (f *fixture) gitIn(dir string, args ...string) string {
	f.t.Helper()
	out, err := gitCmd(dir, args...)
	if err != nil {
		f.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

func (f *fixture) git(args ...string) string {
	f.t.Helper()
	return f.gitIn(f.dir, args...)
}

func gitCmd(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func (f *fixture) path(rel string) string { return filepath.Join(f.dir, filepath.FromSlash(rel)) }

func (f *fixture) write(rel, content string) {
	f.t.Helper()
	p := f.path(rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) read(rel string) string {
	f.t.Helper()
	b, err := os.ReadFile(f.path(rel))
	if err != nil {
		f.t.Fatal(err)
	}
	return string(b)
}

func (f *fixture) exists(rel string) bool {
	_, err := os.Lstat(f.path(rel))
	return err == nil
}

// commitAll stages everything with git and commits.
func (f *fixture) commitAll(msg string) string {
	f.t.Helper()
	f.git("add", "-A")
	f.git("commit", "-q", "--allow-empty", "-m", msg)
	return strings.TrimSpace(f.git("rev-parse", "HEAD"))
}

// open opens the repository holding root (default: the fixture's dir).
func (f *fixture) open(root ...string) *Repo {
	f.t.Helper()
	r0 := f.dir
	if len(root) > 0 {
		r0 = root[0]
	}
	r, err := Open(f.jail, r0)
	if err != nil {
		f.t.Fatal(err)
	}
	f.t.Cleanup(func() { r.Close() })
	return r
}

func (f *fixture) status() *Status {
	f.t.Helper()
	r := f.open()
	st, err := r.Status(context.Background())
	if err != nil {
		f.t.Fatal(err)
	}
	return st
}

// gitStatus parses `git status --porcelain=v2 -z -uall` into our rows.
func (f *fixture) gitStatus() []StatusEntry {
	f.t.Helper()
	out := f.git("status", "--porcelain=v2", "-z", "--untracked-files=all")
	recs := strings.Split(out, "\x00")
	var rows []StatusEntry
	for i := 0; i < len(recs); i++ {
		rec := recs[i]
		if rec == "" {
			continue
		}
		switch rec[0] {
		case '1':
			fl := strings.SplitN(rec, " ", 9)
			rows = append(rows, StatusEntry{Path: fl[8], X: fl[1][0], Y: fl[1][1]})
		case '2':
			fl := strings.SplitN(rec, " ", 10)
			rows = append(rows, StatusEntry{Path: fl[9], From: recs[i+1], X: fl[1][0], Y: fl[1][1]})
			i++
		case 'u':
			fl := strings.SplitN(rec, " ", 11)
			rows = append(rows, StatusEntry{Path: fl[10], X: codeUnmerged, Y: codeUnmerged})
		case '?':
			rows = append(rows, StatusEntry{Path: rec[2:], X: codeUntracked, Y: codeUntracked})
		}
	}
	sortRows(rows)
	return rows
}

func sortRows(rows []StatusEntry) {
	sort.SliceStable(rows, func(a, b int) bool {
		ua, ub := rows[a].X == codeUntracked, rows[b].X == codeUntracked
		if ua != ub {
			return ub
		}
		return rows[a].Path < rows[b].Path
	})
}

func rowsString(rows []StatusEntry) string {
	var b strings.Builder
	for _, r := range rows {
		fmt.Fprintf(&b, "%c%c %s", r.X, r.Y, r.Path)
		if r.From != "" {
			fmt.Fprintf(&b, " <- %s", r.From)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// checkStatus compares our status rows with git's.
func (f *fixture) checkStatus(context string) *Status {
	f.t.Helper()
	st := f.status()
	ours := append([]StatusEntry(nil), st.Entries...)
	sortRows(ours)
	want := f.gitStatus()
	if rowsString(ours) != rowsString(want) {
		f.t.Fatalf("%s: status differs from git\nours:\n%sgit:\n%s", context, rowsString(ours), rowsString(want))
	}
	return st
}

func runCmd(name string, args ...string) (string, error) {
	out, err := exec.Command(name, args...).CombinedOutput()
	return string(out), err
}
