package gitops

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestPullMergeMessageAsGit: the message of a pull's merge commit is the
// one git pull --no-rebase writes, for every kind of remote URL: the
// ".git" suffix and trailing slashes dropped, credentials left out, and
// " into <branch>" on a branch other than main.
func TestPullMergeMessageAsGit(t *testing.T) {
	cases := []struct {
		name   string
		branch string // "" stays on main
		url    func(t *testing.T, bare string) string
	}{
		{"file", "", func(t *testing.T, bare string) string { return "file://" + bare }},
		{"path", "", func(t *testing.T, bare string) string { return bare }},
		{"path slash", "", func(t *testing.T, bare string) string { return bare + "/" }},
		{"path on a feature branch", "feature", func(t *testing.T, bare string) string { return bare }},
		{"http", "", func(t *testing.T, bare string) string {
			return httpBackend(t, filepath.Dir(bare), "", "").URL + "/" + filepath.Base(bare)
		}},
		{"http credentials", "", func(t *testing.T, bare string) string {
			srv := httpBackend(t, filepath.Dir(bare), "alice", "s3cret")
			return strings.Replace(srv.URL, "http://", "http://alice:s3cret@", 1) + "/" + filepath.Base(bare)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			needGit(t)
			var url string
			s := newRemoteSetup(t, func(bare string) string {
				if url == "" {
					url = c.url(t, bare)
				}
				return url
			})
			f := s.f
			if c.branch != "" {
				f.git("checkout", "-q", "-b", c.branch, "--track", "origin/main")
			}
			s.colleague("r.txt", "remote file\n", "remote add")
			f.write("l.txt", "local file\n")
			f.commitAll("local add")
			twin := s.twin()
			if res := s.pull(PullMerge); !res.OK {
				t.Fatalf("pull merge: %+v", res)
			}
			f.gitIn(twin, "pull", "-q", "--no-rebase", "--no-edit")
			got, want := f.git("log", "-1", "--format=%B"), f.gitIn(twin, "log", "-1", "--format=%B")
			if got != want {
				t.Fatalf("merge message %q, git pull's %q", got, want)
			}
			if strings.Contains(got, ".git") || strings.Contains(got, "s3cret") {
				t.Fatalf("merge message %q", got)
			}
		})
	}
}

// TestFetchHeadURL: the URL part of the message equals what git fetch
// writes into FETCH_HEAD, for the URLs a test can fetch from, and git's
// rule (transport_anonymize_url, then the ".git" suffix) for the others.
func TestFetchHeadURL(t *testing.T) {
	s := newRemoteSetup(t, func(bare string) string { return bare })
	f := s.f
	srv := httpBackend(t, filepath.Dir(s.bare), "alice", "s3cret")
	auth := strings.Replace(srv.URL, "http://", "http://alice:s3cret@", 1)
	plain := filepath.Join(filepath.Dir(s.bare), "plain")
	f.gitIn(filepath.Dir(plain), "clone", "-q", "--bare", s.bare, plain)
	for _, u := range []string{s.bare, s.bare + "/", s.bare + "//", "file://" + s.bare, "file://" + s.bare + "/",
		"../remote.git", plain, "file://" + plain, auth + "/remote.git", auth + "/remote.git/", auth + "/plain"} {
		f.git("fetch", "-q", u, "main")
		line := f.git("rev-parse", "--git-path", "FETCH_HEAD")
		data := readFile(t, filepath.Join(f.dir, strings.TrimSpace(line)))
		_, want, _ := strings.Cut(strings.TrimSpace(data), "' of ")
		if got := fetchHeadURL(u); got != want {
			t.Errorf("fetchHeadURL(%q) = %q, git fetch writes %q", u, got, want)
		}
	}
	for u, want := range map[string]string{
		"git@github.com:o/r.git":         "github.com:o/r",
		"ssh://git@host:22/r.git":        "ssh://host:22/r",
		"https://host/a@b/r.git":         "https://host/a@b/r",
		"https://u:p@host/r.git/":        "https://host/r",
		"a.git":                          "a.git",
		"ab.git":                         "ab",
		"me@there":                       "me@there",
		"/srv/me@there:x/r.git":          "/srv/me@there:x/r",
		"weird scheme://u@host/r.git":    "weird scheme://u@host/r",
		"git+ssh://u@host.example/r.git": "git+ssh://host.example/r",
	} {
		if got := fetchHeadURL(u); got != want {
			t.Errorf("fetchHeadURL(%q) = %q, want %q", u, got, want)
		}
	}
}

// TestMergeRefMessageSuppressDest: " into <branch>" follows
// merge.suppressDest as git merge reads it (a glob; an empty value clears
// the defaults main and master).
func TestMergeRefMessageSuppressDest(t *testing.T) {
	for _, cfg := range [][]string{nil, {"feat*"}, {""}, {"", "release"}} {
		for _, branch := range []string{"main", "feature", "release"} {
			f := newFixture(t)
			for _, v := range cfg {
				f.git("config", "--add", "merge.suppressDest", v)
			}
			f.write("a.txt", "a\n")
			f.commitAll("base")
			if branch != "main" {
				f.git("switch", "-q", "-c", branch)
			}
			f.git("switch", "-q", "-c", "topic")
			f.write("t.txt", "t\n")
			f.commitAll("topic")
			f.git("switch", "-q", branch)
			f.write("b.txt", "b\n")
			f.commitAll("ours")
			twin := f.copyRepo()
			if res, err := f.open().MergeRef(context.Background(), "topic", "", nil); err != nil || !res.OK {
				t.Fatalf("merge: %+v %v", res, err)
			}
			f.gitIn(twin, "merge", "-q", "--no-edit", "topic")
			if got, want := f.git("log", "-1", "--format=%s"), f.gitIn(twin, "log", "-1", "--format=%s"); got != want {
				t.Errorf("suppressDest %q on %s: message %q, git's %q", cfg, branch, got, want)
			}
		}
	}
}
