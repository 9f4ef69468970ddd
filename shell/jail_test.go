package shell

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// layout fills the fixture with the files and links every resolution case
// refers to. The canary gets a link back into the jail (for the
// leave-and-re-enter chain) before the snapshot.
func layout(f *fixture) {
	f.file("a.txt", "hello\n")
	f.file("sub/b.txt", "bee\n")
	f.file("sub/.env", "SUB=1\n")
	f.file(".env", "A=1\n")
	f.file(".env.local", "B=1\n")
	f.file(".env.example", "A=\n")
	f.file("key.pem", "pem\n")
	f.file("id.key", "key\n")
	f.file("sub/x.pem", "pem\n")
	f.file("a/secrets/x", "top secret\n")
	f.file("secrets/y", "top secret\n")
	f.file("secrets.txt", "not a secret\n")
	f.file("plain/z.txt", "z\n")
	f.file(".git/HEAD", "ref: refs/heads/main\n")
	f.file(".git/config", "[core]\n")
	f.file("sub/.git/HEAD", "nested\n")

	f.link("/etc", "etc-link")
	f.link(f.canary, "out-link")
	f.link("../canary/secret.txt", "out-rel")
	f.link("../jail/a.txt", "reenter")            // leaves by .. and comes back
	f.link(f.canary+"/back", "chain")             // leaves for a link that points back in
	f.link("a.txt", "in-link")                    // read and written through
	f.link("../in-link", "sub/link-to-link")      // a chain that stays inside
	f.link("sub", "dirlink")                      // a folder link inside the jail
	f.link("../a.txt", "sub/up-link")             // .. that stays inside
	f.link(f.root+"/a.txt", "abs-in-link")        // absolute, inside
	f.link("missing.txt", "dangling")             // dangling
	f.link("nowhere/missing.txt", "dangling-dir") // dangling, parent missing too
	f.link("loop2", "loop1")
	f.link("loop1", "loop2")
	f.link("self", "self")
	f.link(".env", "env-link")
	f.link("sub/.env", "subenv-link")
	f.link("a/secrets", "secretdir-link")
	f.link("secrets.txt", "secrets-txt-link")
	f.link(".git", "gitlink")
	f.link("key.pem", "pem-link")
	if err := os.Symlink(f.root+"/a.txt", filepath.Join(f.canary, "back")); err != nil {
		f.t.Fatal(err)
	}
	f.seal()
}

func TestJailResolution(t *testing.T) {
	type op func(f *fixture) error
	read := func(rel string) op {
		return func(f *fixture) error { _, err := f.j.ReadFile(f.abs(rel), 0); return err }
	}
	readRaw := func(p func(f *fixture) string) op {
		return func(f *fixture) error { _, err := f.j.ReadFile(p(f), 0); return err }
	}
	stat := func(rel string) op {
		return func(f *fixture) error { _, err := f.j.Stat(f.abs(rel)); return err }
	}
	lstat := func(rel string) op {
		return func(f *fixture) error { _, err := f.j.Lstat(f.abs(rel)); return err }
	}
	write := func(rel string) op {
		return func(f *fixture) error {
			_, err := f.j.WriteFile(f.abs(rel), []byte("pwned\n"), WriteOptions{})
			return err
		}
	}
	writeRaw := func(p func(f *fixture) string) op {
		return func(f *fixture) error {
			_, err := f.j.WriteFile(p(f), []byte("pwned\n"), WriteOptions{Parents: true})
			return err
		}
	}
	writeParents := func(rel string) op {
		return func(f *fixture) error {
			_, err := f.j.WriteFile(f.abs(rel), []byte("pwned\n"), WriteOptions{Parents: true})
			return err
		}
	}
	mkdir := func(rel string) op {
		return func(f *fixture) error { _, err := f.j.Mkdir(f.abs(rel), true); return err }
	}
	remove := func(rel string, rec bool) op {
		return func(f *fixture) error { return f.j.Remove(f.abs(rel), rec) }
	}
	removeRaw := func(p func(f *fixture) string) op {
		return func(f *fixture) error { return f.j.Remove(p(f), true) }
	}
	rename := func(from, to string) op {
		return func(f *fixture) error { return f.j.Rename(f.abs(from), f.abs(to), true) }
	}
	readDir := func(rel string) op {
		return func(f *fixture) error { _, err := f.j.ReadDir(f.abs(rel)); return err }
	}
	walk := func(rel string) op {
		return func(f *fixture) error {
			return f.j.Walk(f.abs(rel), WalkOptions{}, func(WalkEntry) error { return nil })
		}
	}
	lock := func(rel string) op {
		return func(f *fixture) error {
			unlock, _, err := f.j.TryLock(f.abs(rel))
			if unlock != nil {
				unlock()
			}
			return err
		}
	}

	cases := []struct {
		name string
		op   op
		want Code
	}{
		// .. and absolute paths
		{"dotdot escapes", readRaw(func(f *fixture) string { return f.root + "/../canary/secret.txt" }), CodeOutsideJail},
		{"dotdot deep escapes", readRaw(func(f *fixture) string { return f.root + "/sub/../../canary/secret.txt" }), CodeOutsideJail},
		{"dotdot write escapes", writeRaw(func(f *fixture) string { return f.root + "/../canary/secret.txt" }), CodeOutsideJail},
		{"dotdot new file escapes", writeRaw(func(f *fixture) string { return f.root + "/../canary/new/x.txt" }), CodeOutsideJail},
		{"dotdot remove escapes", removeRaw(func(f *fixture) string { return f.root + "/../canary" }), CodeOutsideJail},
		{"dotdot that stays inside", readRaw(func(f *fixture) string { return f.root + "/sub/../a.txt" }), ""},
		{"absolute outside", readRaw(func(f *fixture) string { return "/etc/hostname" }), CodeOutsideJail},
		{"absolute canary", readRaw(func(f *fixture) string { return f.canary + "/secret.txt" }), CodeOutsideJail},
		{"absolute canary write", writeRaw(func(f *fixture) string { return f.canary + "/secret.txt" }), CodeOutsideJail},
		{"sibling with the root as prefix", readRaw(func(f *fixture) string { return f.root + "x/a.txt" }), CodeOutsideJail},
		{"root parent", removeRaw(func(f *fixture) string { return f.base }), CodeOutsideJail},

		// symlinks that leave
		{"link to /etc stat", stat("etc-link"), CodeOutsideJail},
		{"link to /etc read below", read("etc-link/hostname"), CodeOutsideJail},
		{"link to /etc readdir", readDir("etc-link"), CodeOutsideJail},
		{"link to /etc walk", walk("etc-link"), CodeOutsideJail},
		{"link to /etc write below", write("etc-link/editord-test"), CodeOutsideJail},
		{"link to /etc mkdir below", mkdir("etc-link/editord-test"), CodeOutsideJail},
		{"link out read", read("out-link/secret.txt"), CodeOutsideJail},
		{"link out write", write("out-link/secret.txt"), CodeOutsideJail},
		{"link out write new", writeParents("out-link/new/x.txt"), CodeOutsideJail},
		{"link out remove below", remove("out-link/secret.txt", false), CodeOutsideJail},
		{"link out remove below recursive", remove("out-link/deep", true), CodeOutsideJail},
		{"link out rename from below", rename("out-link/secret.txt", "stolen.txt"), CodeOutsideJail},
		{"link out rename to below", rename("a.txt", "out-link/secret.txt"), CodeOutsideJail},
		{"link out lock below", lock("out-link/secret.txt"), CodeOutsideJail},
		{"relative link out read", read("out-rel"), CodeOutsideJail},
		{"relative link out write", write("out-rel"), CodeOutsideJail},
		{"leave and re-enter by ..", read("reenter"), CodeOutsideJail},
		{"leave and re-enter by ..: write", write("reenter"), CodeOutsideJail},
		{"leave and re-enter by a chain", read("chain"), CodeOutsideJail},
		{"leave and re-enter by a chain: write", write("chain"), CodeOutsideJail},

		// symlinks that stay
		{"link inside read", read("in-link"), ""},
		{"link inside stat", stat("in-link"), ""},
		{"folder link read", read("dirlink/b.txt"), ""},
		{"up link inside", read("sub/up-link"), ""},
		{"absolute link inside", read("abs-in-link"), ""},

		// dangling links and loops
		{"dangling stat", stat("dangling"), CodeNotFound},
		{"dangling lstat is fine", lstat("dangling"), ""},
		{"dangling read", read("dangling"), CodeNotFound},
		{"dangling write", write("dangling"), CodeNotFound},
		{"dangling write with parents", writeParents("dangling-dir"), CodeNotFound},
		{"dangling remove removes the link", remove("dangling", false), ""},
		{"missing plain file", read("nope.txt"), CodeNotFound},
		{"missing folder", read("nope/x.txt"), CodeNotFound},
		{"file as folder", read("a.txt/x"), CodeNotADirectory},
		{"loop stat", stat("loop1"), CodeInvalidArgument},
		{"loop read", read("loop1"), CodeInvalidArgument},
		{"loop write", write("loop1"), CodeInvalidArgument},
		{"loop below", read("loop1/x"), CodeInvalidArgument},
		{"self loop", read("self"), CodeInvalidArgument},

		// malformed paths
		{"NUL read", readRaw(func(f *fixture) string { return f.root + "/a\x00.txt" }), CodeInvalidArgument},
		{"NUL write", writeRaw(func(f *fixture) string { return f.root + "/a\x00.txt" }), CodeInvalidArgument},
		{"NUL remove", removeRaw(func(f *fixture) string { return f.root + "/\x00" }), CodeInvalidArgument},
		{"relative read", readRaw(func(f *fixture) string { return "a.txt" }), CodeInvalidArgument},
		{"relative write", writeRaw(func(f *fixture) string { return "a.txt" }), CodeInvalidArgument},
		{"relative dotdot", readRaw(func(f *fixture) string { return "../a.txt" }), CodeInvalidArgument},
		{"empty path", readRaw(func(f *fixture) string { return "" }), CodeInvalidArgument},

		// deny globs
		{"deny .env", read(".env"), CodeDenied},
		{"deny .env stat", stat(".env"), CodeDenied},
		{"deny sub/.env", read("sub/.env"), CodeDenied},
		{"deny .env.local", read(".env.local"), CodeDenied},
		{"allow .env.example", read(".env.example"), ""},
		{"deny *.pem", read("key.pem"), CodeDenied},
		{"deny sub/*.pem", read("sub/x.pem"), CodeDenied},
		{"deny *.key", read("id.key"), CodeDenied},
		{"deny a/secrets/x", read("a/secrets/x"), CodeDenied},
		{"deny secrets/y", read("secrets/y"), CodeDenied},
		{"allow secrets.txt", read("secrets.txt"), ""},
		{"deny write new .env", write("new/.env"), CodeDenied},
		{"deny write new pem", write("new.pem"), CodeDenied},
		{"deny mkdir in secrets", mkdir("a/secrets/more"), CodeDenied},
		{"deny remove .env", remove(".env", false), CodeDenied},
		{"deny rename .env away", rename(".env", "env.txt"), CodeDenied},
		{"deny rename onto .env", rename("a.txt", ".env"), CodeDenied},
		{"deny rename into secrets", rename("a.txt", "a/secrets/a.txt"), CodeDenied},
		{"deny lock on .env", lock(".env"), CodeDenied},
		{"deny link to .env", read("env-link"), CodeDenied},
		{"deny link to .env stat", stat("env-link"), CodeDenied},
		{"deny write through link to .env", write("env-link"), CodeDenied},
		{"deny link to sub/.env", read("subenv-link"), CodeDenied},
		{"deny link to pem", read("pem-link"), CodeDenied},
		{"deny through a folder link into secrets", read("secretdir-link/x"), CodeDenied},
		{"allow link to secrets.txt", read("secrets-txt-link"), ""},

		// .git
		{".git read allowed", read(".git/HEAD"), ""},
		{".git write", write(".git/config"), CodeDenied},
		{".git write new", write(".git/hooks/pre-commit"), CodeDenied},
		{".git nested write", write("sub/.git/HEAD"), CodeDenied},
		{".git write through link", write("gitlink/config"), CodeDenied},
		{".git mkdir", mkdir(".git/x"), CodeDenied},
		{".git remove file", remove(".git/HEAD", false), CodeDenied},
		{".git remove itself", remove(".git", true), CodeDenied},
		{".git rename out", rename(".git/HEAD", "HEAD"), CodeDenied},
		{".git rename in", rename("a.txt", ".git/a.txt"), CodeDenied},
		{".git rename itself", rename(".git", "git"), CodeDenied},

		// the root itself
		{"remove root", remove("", true), CodeDenied},
		{"remove root via ..", removeRaw(func(f *fixture) string { return f.root + "/sub/.." }), CodeDenied},
		{"remove root trailing slash", removeRaw(func(f *fixture) string { return f.root + "/" }), CodeDenied},
		{"remove root dot", removeRaw(func(f *fixture) string { return f.root + "/." }), CodeDenied},
		{"rename root", func(f *fixture) error { return f.j.Rename(f.root, f.abs("x"), false) }, CodeDenied},
		{"write root", write(""), CodeIsADirectory},
		{"read root", read(""), CodeIsADirectory},
	}
	// One fixture serves every case that must change nothing: after each,
	// the canary and the jail itself are compared byte for byte with their
	// snapshots, so a refused call is proven to have had no effect at all
	// (no folder made by Parents before the refusal, no temp file left).
	// Cases that succeed by changing the jail get a fixture of their own.
	mutates := map[string]bool{"dangling remove removes the link": true}
	shared := newFixture(t)
	layout(shared)
	jailSnap := snapshot(t, shared.root)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := shared
			if mutates[c.name] {
				f = newFixture(t)
				layout(f)
			}
			wantCode(t, c.op(f), c.want)
			f.checkCanary()
			if !mutates[c.name] {
				if d := diffSnap(jailSnap, snapshot(t, f.root)); d != "" {
					t.Fatalf("the jail changed:\n%s", d)
				}
			}
			if _, err := os.Stat("/etc/editord-test"); err == nil {
				t.Fatalf("a file appeared in /etc")
			}
		})
	}
}

// A symlink inside the jail is read and written through: the link stays a
// link and its target gets the bytes.
func TestSymlinkWriteThrough(t *testing.T) {
	for _, name := range []string{"in-link", "abs-in-link", "sub/up-link", "sub/link-to-link"} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			layout(f)
			before, _ := os.Readlink(f.abs(name))
			res, err := f.j.ReadFile(f.abs(name), 0)
			wantCode(t, err, "")
			equalBytes(t, "read through", res.Data, []byte("hello\n"))

			info, err := f.j.WriteFile(f.abs(name), []byte("through\r\n"), WriteOptions{})
			wantCode(t, err, "")
			if info.Size != 9 || info.Kind != KindFile {
				t.Fatalf("info %+v", info)
			}
			fi, err := os.Lstat(f.abs(name))
			if err != nil || fi.Mode()&os.ModeSymlink == 0 {
				t.Fatalf("%s is no longer a symlink: %v %v", name, fi, err)
			}
			if after, _ := os.Readlink(f.abs(name)); after != before {
				t.Fatalf("link target changed: %q -> %q", before, after)
			}
			if got := f.read("a.txt"); got != "through\r\n" {
				t.Fatalf("target got %q", got)
			}
			if tmp := tempFiles(t, f.root); len(tmp) > 0 {
				t.Fatalf("temp files left: %v", tmp)
			}
		})
	}
}

func TestDanglingWriteCreatesNothing(t *testing.T) {
	f := newFixture(t)
	layout(f)
	for _, opt := range []WriteOptions{{}, {Parents: true}, {Exclusive: true}} {
		_, err := f.j.WriteFile(f.abs("dangling"), []byte("x"), opt)
		wantCode(t, err, CodeNotFound)
		_, err = f.j.WriteFile(f.abs("dangling-dir"), []byte("x"), opt)
		wantCode(t, err, CodeNotFound)
	}
	if f.exists("missing.txt") || f.exists("nowhere") {
		t.Fatal("a write through a dangling link created its target")
	}
	if fi, err := os.Lstat(f.abs("dangling")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the dangling link is gone")
	}
}

func TestContainsDeniedCheckPath(t *testing.T) {
	f := newFixture(t)
	cases := []struct {
		p                string
		contains, denied bool
	}{
		{f.root, true, false},
		{f.root + "/a.txt", true, false},
		{f.root + "/sub/.env", true, true},
		{f.root + "/.env.example", true, false},
		{f.root + "/a/secrets/x", true, true},
		{f.root + "/secrets.txt", true, false},
		{f.root + "/../canary", false, true},
		{f.canary, false, true},
		{f.root + "x", false, true},
		{"relative", false, true},
	}
	for _, c := range cases {
		if got := f.j.Contains(c.p); got != c.contains {
			t.Errorf("Contains(%q) = %v", c.p, got)
		}
		if got := f.j.Denied(c.p, false); got != c.denied {
			t.Errorf("Denied(%q) = %v", c.p, got)
		}
	}
	wantCode(t, CheckPath("/a\x00b"), CodeInvalidArgument)
	wantCode(t, CheckPath("a/b"), CodeInvalidArgument)
	wantCode(t, CheckPath("/a/b"), "")
	if got := f.j.Roots(); len(got) != 1 || got[0] != f.root {
		t.Fatalf("Roots() = %v", got)
	}
}

// Roots are canonicalized: a jail opened through a symlinked path serves
// the real folder and stores the canonical path.
func TestOpenCanonicalRoot(t *testing.T) {
	f := newFixture(t)
	f.file("a.txt", "x")
	alias := filepath.Join(f.base, "alias")
	if err := os.Symlink(f.root, alias); err != nil {
		t.Fatal(err)
	}
	j, err := Open(Config{Roots: []string{alias}})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if j.Roots()[0] != f.root {
		t.Fatalf("root %q, want %q", j.Roots()[0], f.root)
	}
	if _, err := j.ReadFile(f.abs("a.txt"), 0); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(Config{}); err == nil {
		t.Fatal("a jail without roots opened")
	}
	if _, err := Open(Config{Roots: []string{f.abs("a.txt")}}); err == nil {
		t.Fatal("a jail rooted at a file opened")
	}
	if _, err := Open(Config{Roots: []string{f.abs("missing")}}); err == nil {
		t.Fatal("a jail rooted at a missing folder opened")
	}
}

// With several roots, a path belongs to the longest root holding it, and a
// move between roots is refused.
func TestMultipleRoots(t *testing.T) {
	f := newFixture(t)
	f.file("a.txt", "a")
	f.file("inner/b.txt", "b")
	other := filepath.Join(f.base, "other")
	mustWrite(t, filepath.Join(other, "c.txt"), "c", 0o644)
	j, err := Open(Config{Roots: []string{f.root, other, f.abs("inner")}})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	for _, p := range []string{f.abs("a.txt"), f.abs("inner/b.txt"), other + "/c.txt"} {
		if _, err := j.ReadFile(p, 0); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
	}
	wantCode(t, j.Rename(other+"/c.txt", f.abs("c.txt"), false), CodeInvalidArgument)
	wantCode(t, j.Remove(other, true), CodeDenied)
	wantCode(t, j.Remove(f.abs("inner"), true), CodeDenied)
	f.checkCanary()
}

func TestErrorClassification(t *testing.T) {
	f := newFixture(t)
	_, err := f.j.ReadFile(f.abs("nope.txt"), 0)
	var e *Error
	if !asError(err, &e) || e.Path != f.abs("nope.txt") || !strings.Contains(e.Message, "nope.txt") {
		t.Fatalf("error %#v does not name the path", err)
	}
	if AsError(nil, "x") != nil {
		t.Fatal("AsError(nil) is not nil")
	}
	if CodeOf(os.ErrClosed) != CodeInternal {
		t.Fatal("an uncoded error is not internal")
	}
	if got := AsError(os.ErrNotExist, "/p"); got.Code != CodeNotFound || got.Path != "/p" {
		t.Fatalf("AsError(ErrNotExist) = %+v", got)
	}
	if got := AsError(os.ErrExist, "/p"); got.Code != CodeExists {
		t.Fatalf("AsError(ErrExist) = %+v", got)
	}
	orig := Errorf(CodeBinary, "/p", "bin %d", 1)
	if AsError(orig, "/q") != orig || orig.Error() != "bin 1" {
		t.Fatal("AsError does not pass an *Error through")
	}
}

func asError(err error, e **Error) bool {
	x, ok := err.(*Error)
	*e = x
	return ok
}
