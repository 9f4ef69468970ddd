package gitops

import (
	"context"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// remoteSetup is our repository (f), a bare remote, and another clone that
// plays a colleague pushing to the remote with git.
type remoteSetup struct {
	f     *fixture
	bare  string
	other string
}

func newRemoteSetup(t *testing.T, url func(bare string) string) *remoteSetup {
	f := newFixture(t)
	bare := filepath.Join(f.dir, "..", "remote.git")
	bare, _ = filepath.Abs(bare)
	f.gitIn(filepath.Dir(bare), "init", "-q", "--bare", bare)
	f.gitIn(bare, "config", "http.receivepack", "true")
	f.write("a.txt", "a\n")
	f.write("dir/b.txt", "b\n")
	f.commitAll("base")
	f.git("remote", "add", "origin", url(bare))
	f.git("push", "-q", "-u", "origin", "main")
	other := filepath.Join(filepath.Dir(bare), "other")
	f.gitIn(filepath.Dir(bare), "clone", "-q", url(bare), other)
	return &remoteSetup{f: f, bare: bare, other: other}
}

// colleague commits a change in the other clone and pushes it.
func (s *remoteSetup) colleague(rel, content, msg string) {
	s.f.t.Helper()
	p := filepath.Join(s.other, rel)
	os.MkdirAll(filepath.Dir(p), 0o755)
	os.WriteFile(p, []byte(content), 0o644)
	s.f.gitIn(s.other, "add", "-A")
	s.f.gitIn(s.other, "commit", "-q", "-m", msg)
	s.f.gitIn(s.other, "push", "-q", "origin", "HEAD")
}

func (s *remoteSetup) sync(action string, touched *[]Touched) *SyncResult {
	s.f.t.Helper()
	res, err := s.f.open().Sync(context.Background(), SyncOptions{Action: action, Timeout: 20 * time.Second, OnTouch: func(t Touched) {
		if touched != nil {
			*touched = append(*touched, t)
		}
	}})
	if err != nil {
		s.f.t.Fatalf("sync %s: %v", action, err)
	}
	return res
}

// exerciseRemote runs fetch, pull, a refused diverged pull and push.
func exerciseRemote(t *testing.T, s *remoteSetup) {
	f := s.f
	res := s.sync("fetch", nil)
	if !res.OK || res.Ahead != 0 || res.Behind != 0 {
		t.Fatalf("fetch, nothing new: %+v", res)
	}
	s.colleague("a.txt", "a from colleague\n", "colleague 1")
	s.colleague("dir/new ü.txt", "new\n", "colleague 2")
	res = s.sync("fetch", nil)
	if !res.OK || res.Behind != 2 {
		t.Fatalf("fetch: %+v", res)
	}
	if f.read("a.txt") != "a\n" {
		t.Fatal("fetch changed a file")
	}
	f.write("local.txt", "a local untracked file\n")
	var touched []Touched
	res = s.sync("pull", &touched)
	if !res.OK || res.Behind != 0 || res.Ahead != 0 {
		t.Fatalf("pull: %+v", res)
	}
	if f.read("a.txt") != "a from colleague\n" || f.read("dir/new ü.txt") != "new\n" {
		t.Fatal("pull did not update the files")
	}
	if len(touched) != 2 || touched[0].Path != "a.txt" || touched[0].Kind != "modified" || touched[1].Kind != "created" {
		t.Errorf("touched: %+v", touched)
	}
	if head, remote := strings.TrimSpace(f.git("rev-parse", "HEAD")), strings.TrimSpace(f.gitIn(s.other, "rev-parse", "HEAD")); head != remote {
		t.Fatalf("HEAD %s, remote %s", head, remote)
	}
	f.checkRepo("after pull")
	if rl := f.git("reflog", "-1", "--format=%gs"); rl != "pull: Fast-forward\n" {
		t.Errorf("reflog %q", rl)
	}
	// Local changes in the way of a pull.
	s.colleague("a.txt", "a again\n", "colleague 3")
	f.write("a.txt", "my edit\n")
	res = s.sync("pull", nil)
	if res.OK || !strings.Contains(res.Summary, "a.txt") || f.read("a.txt") != "my edit\n" {
		t.Fatalf("pull over a local change: %+v", res)
	}
	f.git("checkout", "--", "a.txt")
	if res = s.sync("pull", nil); !res.OK {
		t.Fatalf("pull: %+v", res)
	}
	// Diverged: a local commit and a remote one.
	s.colleague("remote.txt", "r\n", "colleague 4")
	f.write("mine.txt", "m\n")
	f.commitAll("mine")
	head := strings.TrimSpace(f.git("rev-parse", "HEAD"))
	res = s.sync("pull", nil)
	if res.OK || !strings.Contains(res.Summary, "diverged") || res.Ahead != 1 || res.Behind != 1 {
		t.Fatalf("diverged pull: %+v", res)
	}
	if now := strings.TrimSpace(f.git("rev-parse", "HEAD")); now != head || f.exists("remote.txt") {
		t.Fatal("a refused pull changed something")
	}
	// Push refused (non-fast-forward), then accepted after catching up.
	res = s.sync("push", nil)
	if res.OK || !strings.Contains(res.Summary, "rejected") {
		t.Fatalf("non-fast-forward push: %+v", res)
	}
	f.git("reset", "-q", "--hard", "HEAD~1")
	if res = s.sync("pull", nil); !res.OK {
		t.Fatalf("pull: %+v", res)
	}
	f.write("mine.txt", "m\n")
	f.commitAll("mine again")
	res = s.sync("push", nil)
	if !res.OK || res.Ahead != 0 || res.Behind != 0 {
		t.Fatalf("push: %+v", res)
	}
	if got, want := strings.TrimSpace(f.gitIn(s.bare, "rev-parse", "main")), strings.TrimSpace(f.git("rev-parse", "HEAD")); got != want {
		t.Fatalf("remote main %s, ours %s", got, want)
	}
	f.gitIn(s.bare, "fsck", "--strict", "--no-dangling")
	if res = s.sync("push", nil); !res.OK || !strings.Contains(res.Summary, "up to date") {
		t.Fatalf("second push: %+v", res)
	}
	f.checkRepo("end")
}

func TestSyncFileRemote(t *testing.T) {
	s := newRemoteSetup(t, func(bare string) string { return "file://" + bare })
	exerciseRemote(t, s)
}

func TestSyncPlainPathRemote(t *testing.T) {
	s := newRemoteSetup(t, func(bare string) string { return bare })
	exerciseRemote(t, s)
}

// httpBackend serves the folder holding bare repositories through git
// http-backend (CGI), optionally behind basic auth.
func httpBackend(t *testing.T, root, user, pass string) *httptest.Server {
	t.Helper()
	execPath, err := gitCmd(root, "--exec-path")
	if err != nil {
		t.Skip("git --exec-path failed")
	}
	backend := filepath.Join(strings.TrimSpace(execPath), "git-http-backend")
	if _, err := os.Stat(backend); err != nil {
		t.Skip("git-http-backend not found")
	}
	h := &cgi.Handler{
		Path: backend,
		Env:  []string{"GIT_PROJECT_ROOT=" + root, "GIT_HTTP_EXPORT_ALL=1", "REMOTE_USER=tester", "GIT_CONFIG_NOSYSTEM=1", "HOME=" + testHome},
	}
	var handler http.Handler = h
	if user != "" {
		handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			u, p, ok := r.BasicAuth()
			if !ok || u != user || p != pass {
				w.Header().Set("WWW-Authenticate", `Basic realm="test"`)
				http.Error(w, "auth", http.StatusUnauthorized)
				return
			}
			h.ServeHTTP(w, r)
		})
	}
	srv := httptest.NewServer(handler)
	t.Cleanup(srv.Close)
	return srv
}

func TestSyncHTTPBackend(t *testing.T) {
	needGit(t)
	var srv *httptest.Server
	s := newRemoteSetup(t, func(bare string) string {
		if srv == nil {
			srv = httpBackend(t, filepath.Dir(bare), "", "")
		}
		return srv.URL + "/" + filepath.Base(bare)
	})
	exerciseRemote(t, s)
}

func TestSyncHTTPCredentials(t *testing.T) {
	needGit(t)
	var srv *httptest.Server
	var base string
	s := newRemoteSetup(t, func(bare string) string {
		if srv == nil {
			srv = httpBackend(t, filepath.Dir(bare), "alice", "s3cret")
			base = strings.Replace(srv.URL, "http://", "http://alice:s3cret@", 1) + "/" + filepath.Base(bare)
		}
		return base
	})
	f := s.f
	s.colleague("a.txt", "changed\n", "c1")
	if res := s.sync("pull", nil); !res.OK {
		t.Fatalf("pull with credentials in the URL: %+v", res)
	}
	// Without them in the URL: the credential helper supplies them.
	plain := srv.URL + "/" + filepath.Base(s.bare)
	f.git("remote", "set-url", "origin", plain)
	s.colleague("a.txt", "changed again\n", "c2")
	res := s.sync("fetch", nil)
	if res.OK || !strings.Contains(res.Summary, "credential") {
		t.Fatalf("no credentials anywhere: %+v", res)
	}
	// Helpers come from the user's global config (a repository's own are
	// not run: TestCredentialHelperFromRepository).
	globalHelper(t, "!f() { test \"$1\" = get && echo username=alice && echo password=s3cret; true; }; f")
	if res = s.sync("pull", nil); !res.OK || f.read("a.txt") != "changed again\n" {
		t.Fatalf("pull through the credential helper: %+v", res)
	}
	globalHelper(t, "!f() { test \"$1\" = get && echo username=alice && echo password=wrong; true; }; f")
	if res = s.sync("fetch", nil); res.OK || !strings.Contains(res.Summary, "credentials") {
		t.Fatalf("wrong password: %+v", res)
	}
}

// globalHelper points GIT_CONFIG_GLOBAL at a config with the test identity
// and the given credential helper plus extra lines (for the rest of the
// test; not parallel).
func globalHelper(t *testing.T, helper string, extra ...string) {
	t.Helper()
	cfg := filepath.Join(t.TempDir(), "gitconfig")
	body := "[user]\n\tname = Test Person\n\temail = test@example.com\n[init]\n\tdefaultBranch = main\n"
	if helper != "" {
		body += "[credential]\n\thelper = " + strconv.Quote(helper) + "\n"
	}
	for _, l := range extra {
		body += l + "\n"
	}
	if err := os.WriteFile(cfg, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GIT_CONFIG_GLOBAL", cfg)
}

func TestSyncTimeout(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "a\n")
	f.commitAll("base")
	f.git("remote", "add", "origin", "http://"+silentRemote(t)+"/repo.git")
	wantTimeout(t, f)
}

// silentRemote listens on loopback, accepts connections, holds them open
// and says nothing. It returns the address.
func silentRemote(t *testing.T) string { return silentRemoteNotify(t, nil) }

// wantTimeout fetches with a 300 ms git_timeout_ms from a remote that
// never answers: the sync must end, timed out, well within seconds.
func wantTimeout(t *testing.T, f *fixture) {
	t.Helper()
	start := time.Now()
	res, err := f.open().Sync(context.Background(), SyncOptions{Action: "fetch", Timeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if res.OK || !strings.Contains(res.Summary, "timed out") {
		t.Fatalf("hung remote: %+v", res)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("took %s", d)
	}
}

func TestSyncNoRemote(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "a\n")
	f.commitAll("base")
	res, err := f.open().Sync(context.Background(), SyncOptions{Action: "push"})
	if err != nil || res.OK || !strings.Contains(res.Summary, "no remote") {
		t.Fatalf("%+v %v", res, err)
	}
}

// TestFetchBranchyHistory fetches merges, a new branch and an annotated tag
// over file:// while the local branch has commits of its own; git fsck
// must accept the result and every remote-tracking ref must equal the
// remote's.
func TestFetchBranchyHistory(t *testing.T) {
	s := newRemoteSetup(t, func(bare string) string { return "file://" + bare })
	f := s.f
	f.write("local.txt", "mine\n")
	f.commitAll("local only")
	s.colleague("a.txt", "1\n", "c1")
	s.f.gitIn(s.other, "switch", "-q", "-c", "topic")
	s.colleague("t.txt", "topic\n", "t1")
	s.colleague("dir/b.txt", "b on topic\n", "t2")
	s.f.gitIn(s.other, "push", "-q", "origin", "topic")
	s.f.gitIn(s.other, "switch", "-q", "main")
	s.colleague("dir/c.txt", "c\n", "c2")
	s.f.gitIn(s.other, "merge", "-q", "--no-edit", "topic")
	s.f.gitIn(s.other, "tag", "-a", "-m", "release", "v2")
	s.f.gitIn(s.other, "push", "-q", "origin", "main", "v2")
	res := s.sync("fetch", nil)
	if !res.OK || res.Ahead != 1 || res.Behind != 5 {
		t.Fatalf("fetch: %+v", res)
	}
	if out, err := gitCmd(f.dir, "fsck", "--full", "--strict"); err != nil {
		t.Fatalf("git fsck: %v\n%s", err, out)
	}
	for _, ref := range []string{"main", "topic"} {
		want := strings.TrimSpace(f.gitIn(s.bare, "rev-parse", ref))
		if got := strings.TrimSpace(f.git("rev-parse", "origin/"+ref)); got != want {
			t.Errorf("origin/%s = %s, remote has %s", ref, got, want)
		}
	}
	// Every object of the remote's history is readable here.
	f.git("rev-list", "--objects", "origin/main", "origin/topic")
}

// TestSyncTimeoutIsStale: a remote that stops answering after a fetch made
// the branch 2 behind reports behind 2 and stale, never a fresh-looking 0.
func TestSyncTimeoutIsStale(t *testing.T) {
	s := newRemoteSetup(t, func(bare string) string { return "file://" + bare })
	f := s.f
	s.colleague("a.txt", "1\n", "c1")
	s.colleague("a.txt", "2\n", "c2")
	if res := s.sync("fetch", nil); !res.OK || res.Behind != 2 || res.Stale {
		t.Fatalf("fetch: %+v", res)
	}
	f.git("remote", "set-url", "origin", "http://"+silentRemote(t)+"/repo.git")
	for _, action := range []string{"fetch", "pull"} {
		res, err := f.open().Sync(context.Background(), SyncOptions{Action: action, Timeout: 300 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		if res.OK || !res.Stale || res.Behind != 2 || !strings.Contains(res.Summary, "as of the last completed fetch") {
			t.Fatalf("%s from a silent remote: %+v", action, res)
		}
	}
}
