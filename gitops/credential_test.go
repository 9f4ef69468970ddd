package gitops

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A repository's own .git/config names programs too: credential.helper =
// !cmd runs when an https remote answers 401. A workspace is often a
// stranger's clone, so helpers are taken from the user's global and the
// system config only, unless the user's config trusts the repository
// (safe.directory naming it; "*" does not count).
func TestCredentialHelperFromRepository(t *testing.T) {
	needGit(t)
	var srv *httptest.Server
	s := newRemoteSetup(t, func(bare string) string {
		if srv == nil {
			srv = httpBackend(t, filepath.Dir(bare), "alice", "s3cret")
		}
		return strings.Replace(srv.URL, "http://", "http://alice:s3cret@", 1) + "/" + filepath.Base(bare)
	})
	f := s.f
	f.git("remote", "set-url", "origin", srv.URL+"/"+filepath.Base(s.bare)) // no credentials in the URL: 401
	marker := filepath.Join(t.TempDir(), "the-repository-ran-a-program")
	local := "!f() { touch '" + marker + "'; test \"$1\" = get && echo username=alice && echo password=s3cret; true; }; f"
	f.git("config", "credential.helper", local)
	ran := func() bool { _, err := os.Stat(marker); return err == nil }
	cases := []struct {
		name    string
		global  []string // lines of the user's global config
		trusted bool
	}{
		{name: "untrusted"},
		{name: "safe.directory = *", global: []string{"[safe]", "\tdirectory = *"}},
		{name: "safe.directory names another repository", global: []string{"[safe]", "\tdirectory = " + filepath.Join(filepath.Dir(f.dir), "other")}},
		{name: "safe.directory listed then reset", global: []string{"[safe]", "\tdirectory = " + f.dir, "\tdirectory ="}},
		{name: "safe.directory names it", global: []string{"[safe]", "\tdirectory = " + f.dir}, trusted: true},
		{name: "safe.directory covers it with /*", global: []string{"[safe]", "\tdirectory = " + filepath.Dir(f.dir) + "/*"}, trusted: true},
	}
	for _, tc := range cases {
		os.Remove(marker)
		globalHelper(t, "", tc.global...)
		res := s.sync("fetch", nil)
		if ran() != tc.trusted || res.OK != tc.trusted {
			t.Fatalf("%s: the repository's helper ran: %v; fetch: %+v", tc.name, ran(), res)
		}
	}
	// The repository cannot trust itself.
	os.Remove(marker)
	globalHelper(t, "")
	f.git("config", "safe.directory", f.dir)
	if res := s.sync("fetch", nil); ran() || res.OK {
		t.Fatalf("a repository's own safe.directory trusted it: %+v", res)
	}
	// The user's own helper still answers.
	globalHelper(t, "!f() { test \"$1\" = get && echo username=alice && echo password=s3cret; true; }; f")
	if res := s.sync("fetch", nil); !res.OK || ran() {
		t.Fatalf("the global helper: %+v (repository helper ran: %v)", res, ran())
	}
}
