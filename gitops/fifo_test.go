package gitops

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/editord/editord/shell"
)

// A FIFO where git keeps a file used to hang every git function forever
// (open(2) of a FIFO for reading waits for a writer). Every file git code
// reads now opens non-blocking and must be a regular file: each location
// below makes the git functions answer, within a bound, with an error
// naming the path.

// gitCall is one git function, run on a fresh Repo.
type gitCall struct {
	name string
	run  func(j *shell.Jail, dir string) error
}

func gitCalls() []gitCall {
	open := func(j *shell.Jail, dir string, fn func(r *Repo) error) error {
		r, err := Open(j, dir)
		if err != nil {
			return err
		}
		defer r.Close()
		return fn(r)
	}
	ctx := context.Background()
	return []gitCall{
		{"status", func(j *shell.Jail, dir string) error {
			return open(j, dir, func(r *Repo) error { _, err := r.Status(ctx); return err })
		}},
		{"hunks", func(j *shell.Jail, dir string) error {
			return open(j, dir, func(r *Repo) error { _, _, _, err := r.HunkSides("head", "", "a.txt", 1<<20); return err })
		}},
		{"show", func(j *shell.Jail, dir string) error {
			return open(j, dir, func(r *Repo) error { _, _, err := r.Show("HEAD", "a.txt", 1<<20); return err })
		}},
		{"commit", func(j *shell.Jail, dir string) error {
			return open(j, dir, func(r *Repo) error {
				_, err := r.Commit(ctx, CommitOptions{Message: "m", StageAll: true})
				return err
			})
		}},
		{"fetch", func(j *shell.Jail, dir string) error {
			return open(j, dir, func(r *Repo) error {
				_, err := r.Sync(ctx, SyncOptions{Action: "fetch", Timeout: time.Second})
				return err
			})
		}},
		{"stash", func(j *shell.Jail, dir string) error {
			return open(j, dir, func(r *Repo) error { _, err := r.Stash(ctx, StashOptions{Action: "push"}); return err })
		}},
		{"undo-commit", func(j *shell.Jail, dir string) error {
			return open(j, dir, func(r *Repo) error { _, _, err := r.UndoCommit(ctx); return err })
		}},
	}
}

// mkfifoAt replaces the file at p (if any) by a FIFO. The cleanup opens
// it for writing, releasing a reader the code before the fix left blocked.
func mkfifoAt(t *testing.T, p string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(p), 0o755)
	os.Remove(p)
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	t.Cleanup(func() {
		for range 100 {
			fd, err := syscall.Open(p, syscall.O_WRONLY|syscall.O_NONBLOCK, 0)
			if err != nil {
				return // no reader waiting
			}
			syscall.Close(fd)
			time.Sleep(10 * time.Millisecond)
		}
	})
}

func TestFIFOInGitDir(t *testing.T) {
	type location struct {
		name  string
		path  func(f *fixture) string // the FIFO
		setup func(t *testing.T, f *fixture, fifo string)
		must  []string // the calls that read it: each must fail naming it
	}
	all := []string{"status", "hunks", "show", "commit", "fetch", "stash", "undo-commit"}
	locations := []location{
		{name: ".git/config", path: func(f *fixture) string { return f.path(".git/config") }, must: all},
		{name: ".git/HEAD", path: func(f *fixture) string { return f.path(".git/HEAD") }, must: []string{"status", "show", "commit", "fetch", "stash", "undo-commit"}},
		{name: "refs/heads/main", path: func(f *fixture) string { return f.path(".git/refs/heads/main") }, must: []string{"status", "show", "commit", "fetch", "stash", "undo-commit"}},
		{name: ".git/packed-refs", path: func(f *fixture) string { return f.path(".git/packed-refs") }, must: []string{"status", "show", "undo-commit"},
			setup: func(t *testing.T, f *fixture, fifo string) { f.git("pack-refs", "--all") }},
		{name: ".git/index", path: func(f *fixture) string { return f.path(".git/index") }, must: []string{"status", "hunks", "commit", "stash"}},
		{name: ".git/info/exclude", path: func(f *fixture) string { return f.path(".git/info/exclude") }, must: []string{"status", "commit", "stash"}},
		{name: "the HEAD commit's object", path: func(f *fixture) string {
			h := strings.TrimSpace(f.git("rev-parse", "HEAD"))
			return f.path(".git/objects/" + h[:2] + "/" + h[2:])
		}, must: []string{"status", "show", "commit", "stash", "undo-commit"}},
		{name: ".git/commondir", path: func(f *fixture) string { return f.path(".git/commondir") }, must: all},
	}
	calls := gitCalls()
	cases := 0
	for _, loc := range locations {
		t.Run(loc.name, func(t *testing.T) {
			f := newFixture(t)
			f.write("a.txt", "a\n")
			f.commitAll("base")
			f.git("remote", "add", "origin", "http://"+silentRemote(t)+"/repo.git")
			f.write("a.txt", "changed\n")
			fifo := loc.path(f)
			if loc.setup != nil {
				loc.setup(t, f, fifo)
			}
			mkfifoAt(t, fifo)
			for _, c := range calls {
				cases++
				err := callWithin(t, c, f.jail, f.dir)
				must := false
				for _, m := range loc.must {
					must = must || m == c.name
				}
				switch {
				case must && (err == nil || !strings.Contains(err.Error(), fifo)):
					t.Errorf("%s with a FIFO at %s: %v; want an error naming it", c.name, fifo, err)
				case err != nil && strings.Contains(err.Error(), fifo) && !strings.Contains(err.Error(), "named pipe"):
					t.Errorf("%s: %v does not say what is wrong with it", c.name, err)
				}
			}
		})
	}
	t.Logf("%d locations x %d git functions = %d calls", len(locations), len(calls), cases)
}

// callWithin runs a git function and fails the test if it does not return
// within 10 s.
func callWithin(t *testing.T, c gitCall, j *shell.Jail, dir string) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- c.run(j, dir) }()
	select {
	case err := <-done:
		return err
	case <-time.After(10 * time.Second):
		t.Fatalf("%s hung (a FIFO blocked it)", c.name)
		return nil
	}
}

// TestFIFOUserFiles: the files of the user's own git setup, a FIFO each:
// the global config and core.excludesFile. Not parallel: it sets the
// environment.
func TestFIFOUserFiles(t *testing.T) {
	base, _ := filepath.EvalSymlinks(t.TempDir())
	calls := gitCalls()
	for _, tc := range []struct{ name, gitconfig string }{
		{"global config", ""},
		{"core.excludesFile", "[core]\n\texcludesFile = %s\n"},
		{"default excludes file (XDG git/ignore)", "-"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.write("a.txt", "a\n")
			f.commitAll("base")
			f.write("a.txt", "changed\n")
			fifo := filepath.Join(base, strings.ReplaceAll(tc.name, " ", "-")+".fifo")
			cfg := filepath.Join(base, "gitconfig-"+strings.ReplaceAll(tc.name, " ", "-"))
			identity := "[user]\n\tname = T\n\temail = t@example.com\n"
			switch tc.gitconfig {
			case "":
				fifo = cfg
			case "-":
				xdg := filepath.Join(base, "xdg")
				fifo = filepath.Join(xdg, "git", "ignore")
				t.Setenv("XDG_CONFIG_HOME", xdg)
				os.WriteFile(cfg, []byte(identity), 0o644)
			default:
				os.WriteFile(cfg, []byte(identity+fmt.Sprintf(tc.gitconfig, fifo)), 0o644)
			}
			mkfifoAt(t, fifo)
			t.Setenv("GIT_CONFIG_GLOBAL", cfg)
			for _, c := range calls {
				err := callWithin(t, c, f.jail, f.dir)
				reads := tc.gitconfig == "" || c.name == "status" || c.name == "commit" || c.name == "stash"
				if reads && (err == nil || !strings.Contains(err.Error(), fifo) || !strings.Contains(err.Error(), "named pipe")) {
					t.Errorf("%s with a FIFO at %s: %v; want an error naming it", c.name, fifo, err)
				}
			}
		})
	}
}

// A repository's own core.excludesFile is not read: it could name any file
// on the machine (here a FIFO, which would also hang; and a file of rules
// outside the jail, which must not change what status shows).
func TestRepoLocalExcludesFileIgnored(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "a\n")
	f.commitAll("base")
	outside := filepath.Join(t.TempDir(), "rules")
	os.WriteFile(outside, []byte("*.secret\n"), 0o644)
	fifo := filepath.Join(t.TempDir(), "fifo")
	mkfifoAt(t, fifo)
	f.write("x.secret", "s\n")
	for _, p := range []string{outside, fifo} {
		f.git("config", "core.excludesFile", p)
		st, err := callStatus(t, f)
		if err != nil {
			t.Fatalf("repo-local core.excludesFile %s: %v", p, err)
		}
		found := false
		for _, e := range st.Entries {
			found = found || e.Path == "x.secret"
		}
		if !found {
			t.Fatalf("the repository's core.excludesFile (%s) was read: x.secret is hidden", p)
		}
	}
	// The user's own core.excludesFile is honoured, as git does.
	cfg := filepath.Join(t.TempDir(), "gitconfig")
	os.WriteFile(cfg, []byte(fmt.Sprintf("[user]\n\tname = T\n\temail = t@example.com\n[core]\n\texcludesFile = %s\n", outside)), 0o644)
	t.Setenv("GIT_CONFIG_GLOBAL", cfg)
	f.git("config", "--unset", "core.excludesFile")
	st, err := callStatus(t, f)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range st.Entries {
		if e.Path == "x.secret" {
			t.Fatal("the user's core.excludesFile was not honoured")
		}
	}
	f.checkStatus("user excludes file")
}

func callStatus(t *testing.T, f *fixture) (*Status, error) {
	var st *Status
	err := callWithin(t, gitCall{"status", func(j *shell.Jail, dir string) error {
		r, err := Open(j, dir)
		if err != nil {
			return err
		}
		defer r.Close()
		st, err = r.Status(context.Background())
		return err
	}}, f.jail, f.dir)
	return st, err
}
