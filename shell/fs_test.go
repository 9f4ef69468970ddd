package shell

import (
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestReadFile(t *testing.T) {
	big := strings.Repeat("0123456789", 100) // 1000 bytes
	cases := []struct {
		name      string
		content   string
		limit     int64
		maxRead   int64
		wantData  string
		truncated bool
	}{
		{"whole", "hello\n", 0, 0, "hello\n", false},
		{"empty", "", 0, 0, "", false},
		{"empty with limit", "", 10, 0, "", false},
		{"under the limit", big, 2000, 0, big, false},
		{"at the limit", big, 1000, 0, big, false},
		{"one over the limit", big, 999, 0, big[:999], true},
		{"far over the limit", big, 10, 0, big[:10], true},
		{"jail cap beats a larger limit", big, 5000, 100, big[:100], true},
		{"jail cap when no limit", big, 0, 100, big[:100], true},
		{"limit under the jail cap", big, 50, 100, big[:50], true},
		{"crlf bom kept", "\xef\xbb\xbfa\r\nb", 0, 0, "\xef\xbb\xbfa\r\nb", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t, withMaxRead(c.maxRead))
			f.file("f.txt", c.content)
			res, err := f.j.ReadFile(f.abs("f.txt"), c.limit)
			wantCode(t, err, "")
			equalBytes(t, "data", res.Data, []byte(c.wantData))
			if res.Truncated != c.truncated {
				t.Fatalf("truncated %v", res.Truncated)
			}
			if res.Info.Size != int64(len(c.content)) {
				t.Fatalf("Info.Size %d, want the full size %d", res.Info.Size, len(c.content))
			}
			if res.Info.Kind != KindFile || res.Info.Name != "f.txt" {
				t.Fatalf("info %+v", res.Info)
			}
			if fi, _ := os.Stat(f.abs("f.txt")); res.Info.ModTime != fi.ModTime().Unix() || res.Info.ModNano != fi.ModTime().UnixNano() {
				t.Fatalf("mtime %d/%d, disk %v", res.Info.ModTime, res.Info.ModNano, fi.ModTime())
			}
		})
	}
}

func TestReadFileSpecial(t *testing.T) {
	f := newFixture(t)
	f.dir("d")
	f.link("d", "dl")
	if err := syscall.Mkfifo(f.abs("fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	f.link("fifo", "fifo-link")
	l, err := net.Listen("unix", f.abs("sock"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for _, c := range []struct {
		rel  string
		want Code
	}{
		{"d", CodeIsADirectory},
		{"dl", CodeIsADirectory},
		{"", CodeIsADirectory},
		{"fifo", CodeInvalidArgument},
		{"fifo-link", CodeInvalidArgument},
		{"sock", CodeInvalidArgument},
	} {
		done := make(chan error, 1)
		go func() { _, err := f.j.ReadFile(f.abs(c.rel), 0); done <- err }()
		select {
		case err := <-done:
			wantCode(t, err, c.want)
		case <-time.After(5 * time.Second):
			// Unblock the reader so the test can end.
			if w, err := os.OpenFile(f.abs("fifo"), os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				w.Close()
			}
			t.Fatalf("ReadFile(%q) hangs", c.rel)
		}
	}
	// Every other call on a socket says what it is.
	_, err = f.j.ReadDir(f.abs("sock"))
	wantCode(t, err, CodeNotADirectory)
	_, _, err = f.j.ReadTail(f.abs("sock"), 10)
	wantCode(t, err, CodeInvalidArgument)
	_, _, err = f.j.TryLock(f.abs("sock"))
	wantCode(t, err, CodeInvalidArgument)
	_, err = f.j.WriteFile(f.abs("sock"), []byte("x"), WriteOptions{Exclusive: true})
	wantCode(t, err, CodeExists)

	// The other readers of a FIFO must not hang either.
	for name, op := range map[string]func() error{
		"ReadTail": func() error { _, _, err := f.j.ReadTail(f.abs("fifo"), 10); return err },
		"ReadDir":  func() error { _, err := f.j.ReadDir(f.abs("fifo")); return err },
		"Walk": func() error {
			return f.j.Walk(f.abs("fifo"), WalkOptions{}, func(WalkEntry) error { return nil })
		},
		"TryLock": func() error {
			unlock, _, err := f.j.TryLock(f.abs("fifo"))
			if unlock != nil {
				unlock()
			}
			return err
		},
		"LockShared": func() error {
			unlock, err := f.j.LockShared(context.Background(), f.abs("fifo"))
			if unlock != nil {
				unlock()
			}
			return err
		},
	} {
		done := make(chan error, 1)
		go func() { done <- op() }()
		select {
		case err := <-done:
			if err == nil {
				t.Errorf("%s on a FIFO succeeded", name)
			}
		case <-time.After(5 * time.Second):
			if w, err := os.OpenFile(f.abs("fifo"), os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				w.Close()
			}
			t.Fatalf("%s on a FIFO hangs", name)
		}
	}
}

// A sparse 10 GB file read with a 2 MB limit returns 2 MB and reports the
// full size; memory stays bounded by the limit.
func TestReadFileSparseBounded(t *testing.T) {
	f := newFixture(t)
	fh, err := os.Create(f.abs("sparse.bin"))
	if err != nil {
		t.Fatal(err)
	}
	const size = 10 << 30
	if err := fh.Truncate(size); err != nil {
		fh.Close()
		t.Skipf("cannot make a sparse file here: %v", err)
	}
	fh.WriteAt([]byte("head"), 0)
	fh.Close()
	const limit = 2 << 20
	res, err := f.j.ReadFile(f.abs("sparse.bin"), limit)
	wantCode(t, err, "")
	if len(res.Data) != limit || !res.Truncated || res.Info.Size != size {
		t.Fatalf("len %d truncated %v size %d", len(res.Data), res.Truncated, res.Info.Size)
	}
	if cap(res.Data) > limit+64<<10 {
		t.Fatalf("buffer capacity %d for a %d limit", cap(res.Data), limit)
	}
	if string(res.Data[:4]) != "head" {
		t.Fatalf("prefix %q", res.Data[:4])
	}
	// With no limit the jail's cap (16 MiB here) still bounds the read.
	res, err = f.j.ReadFile(f.abs("sparse.bin"), 0)
	wantCode(t, err, "")
	if int64(len(res.Data)) != f.j.MaxReadBytes() || !res.Truncated || res.Info.Size != size {
		t.Fatalf("len %d truncated %v size %d", len(res.Data), res.Truncated, res.Info.Size)
	}
}

func TestIsBinary(t *testing.T) {
	late := append(bytes.Repeat([]byte("a"), 8192), 0)
	edge := append(bytes.Repeat([]byte("a"), 8191), 0)
	cases := []struct {
		name string
		data []byte
		want bool
	}{
		{"empty", nil, false},
		{"text", []byte("hello\n"), false},
		{"utf8", []byte("héllo ✓"), false},
		{"bom crlf", []byte("\xef\xbb\xbfa\r\n"), false},
		{"nul first", []byte{0, 'a'}, true},
		{"nul middle", []byte("a\x00b"), true},
		{"nul at byte 8191", edge, true},
		{"nul at byte 8192 is past the sniff", late, false},
		{"latin1 is not binary by this sniff", []byte("caf\xe9"), false},
	}
	for _, c := range cases {
		if got := IsBinary(c.data); got != c.want {
			t.Errorf("%s: IsBinary = %v", c.name, got)
		}
	}
}

func TestReadDir(t *testing.T) {
	f := newFixture(t)
	f.file("b.txt", "bb")
	f.file("a.txt", "a")
	f.file("B.txt", "B")
	f.file("a/inner.txt", "x")
	f.file("a.b", "x")
	f.file(".env", "S")
	f.file(".env.example", "E")
	f.file("k.pem", "P")
	f.file("secrets.txt", "ok")
	f.file("secrets/s.txt", "no")
	f.file(".a.txt.editord-0123456789ab.tmp", "tmp")
	f.link("a.txt", "zlink")
	f.link("missing", "zdangling")
	f.link(f.canary, "zout")
	f.dir("empty")

	ents, err := f.j.ReadDir(f.root)
	wantCode(t, err, "")
	var names []string
	byName := map[string]DirEntry{}
	for _, e := range ents {
		names = append(names, e.Name)
		byName[e.Name] = e
	}
	want := []string{".env.example", "B.txt", "a", "a.b", "a.txt", "b.txt", "empty", "secrets", "secrets.txt", "zdangling", "zlink", "zout"}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("names %q\nwant  %q", names, want)
	}
	checks := []struct {
		name, kind, target string
		size               int64
	}{
		{"a", KindDir, "", -1},
		{"b.txt", KindFile, "", 2},
		{"zlink", KindSymlink, "a.txt", -1},
		{"zdangling", KindSymlink, "missing", -1},
		{"zout", KindSymlink, f.canary, -1},
	}
	for _, c := range checks {
		e := byName[c.name]
		if e.Kind != c.kind || e.Target != c.target || (c.size >= 0 && e.Size != c.size) {
			t.Errorf("%s: %+v", c.name, e)
		}
	}

	// The listing of a denied folder's parent is fine; the denied folder's
	// contents are hidden, and listing through a folder link works.
	ents, err = f.j.ReadDir(f.abs("secrets"))
	wantCode(t, err, "")
	if len(ents) != 0 {
		t.Fatalf("secrets/ lists %v", ents)
	}
	f.link("a", "alink")
	ents, err = f.j.ReadDir(f.abs("alink"))
	wantCode(t, err, "")
	if len(ents) != 1 || ents[0].Name != "inner.txt" {
		t.Fatalf("alink lists %v", ents)
	}

	for _, c := range []struct {
		rel  string
		want Code
	}{
		{"a.txt", CodeNotADirectory},
		{"zlink", CodeNotADirectory},
		{"missing", CodeNotFound},
		{"zdangling", CodeNotFound},
		{"zout", CodeOutsideJail},
		{"empty", ""},
	} {
		_, err := f.j.ReadDir(f.abs(c.rel))
		wantCode(t, err, c.want)
	}
}

// A folder reached under a denied name through a link lists nothing: what
// cannot be read is not listed.
func TestReadDirDeniedThroughLink(t *testing.T) {
	f := newFixture(t)
	f.file("plain/x.txt", "x")
	f.dir("a")
	f.link("../plain", "a/secrets")
	_, err := f.j.ReadFile(f.abs("a/secrets/x.txt"), 0)
	wantCode(t, err, CodeDenied)
	ents, err := f.j.ReadDir(f.abs("a/secrets"))
	wantCode(t, err, "")
	if len(ents) != 0 {
		t.Fatalf("a/secrets (a link to plain/) lists %v, which cannot be read", ents)
	}
	var seen []string
	err = f.j.Walk(f.abs("a/secrets"), WalkOptions{}, func(e WalkEntry) error { seen = append(seen, e.Rel); return nil })
	wantCode(t, err, "")
	if len(seen) != 0 {
		t.Fatalf("walk of a/secrets sees %v, which cannot be read", seen)
	}
}

func TestMkdir(t *testing.T) {
	cases := []struct {
		name        string
		setup       func(f *fixture)
		rel         string
		parents     bool
		want        Code
		wantCreated bool
	}{
		{name: "new", rel: "d", wantCreated: true},
		{name: "existing folder", setup: func(f *fixture) { f.dir("d") }, rel: "d"},
		{name: "existing folder with parents", setup: func(f *fixture) { f.dir("d") }, rel: "d", parents: true},
		{name: "file in the way", setup: func(f *fixture) { f.file("d", "x") }, rel: "d", want: CodeExists},
		{name: "file in the way with parents", setup: func(f *fixture) { f.file("d", "x") }, rel: "d", parents: true, want: CodeExists},
		{name: "missing parent", rel: "p/q", want: CodeNotFound},
		{name: "parents", rel: "p/q/r", parents: true, wantCreated: true},
		{name: "file as a parent", setup: func(f *fixture) { f.file("p", "x") }, rel: "p/q", want: CodeNotADirectory},
		{name: "file as a parent with parents", setup: func(f *fixture) { f.file("p", "x") }, rel: "p/q/r", parents: true, want: CodeNotADirectory},
		{name: "through a folder link", setup: func(f *fixture) { f.dir("real"); f.link("real", "rl") }, rel: "rl/new", wantCreated: true},
		{name: "link to a folder", setup: func(f *fixture) { f.dir("real"); f.link("real", "rl") }, rel: "rl"},
		{name: "root", rel: ""},
		{name: "denied", rel: "secrets/x", parents: true, want: CodeDenied},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			if c.setup != nil {
				c.setup(f)
			}
			created, err := f.j.Mkdir(f.abs(c.rel), c.parents)
			wantCode(t, err, c.want)
			if created != c.wantCreated {
				t.Fatalf("created %v", created)
			}
			if c.want == "" {
				if fi, err := os.Stat(f.abs(c.rel)); err != nil || !fi.IsDir() {
					t.Fatalf("no folder at %s: %v", c.rel, err)
				}
			}
		})
	}
}

func TestRemove(t *testing.T) {
	cases := []struct {
		name      string
		rel       string
		recursive bool
		want      Code
		gone      []string // must not exist afterwards
		kept      []string // must still exist
	}{
		{name: "file", rel: "a.txt", gone: []string{"a.txt"}},
		{name: "empty folder", rel: "empty", gone: []string{"empty"}},
		{name: "non-empty folder", rel: "full", want: CodeNotEmpty, kept: []string{"full/x.txt"}},
		{name: "non-empty folder recursive", rel: "full", recursive: true, gone: []string{"full"}},
		{name: "missing", rel: "nope", want: CodeNotFound},
		{name: "missing recursive", rel: "nope", recursive: true, want: CodeNotFound},
		{name: "file link removes the link only", rel: "flink", gone: []string{"flink"}, kept: []string{"a.txt"}},
		{name: "folder link removes the link only", rel: "dlink", gone: []string{"dlink"}, kept: []string{"full/x.txt"}},
		{name: "folder link recursive removes the link only", rel: "dlink", recursive: true, gone: []string{"dlink"}, kept: []string{"full/x.txt"}},
		{name: "link out of the jail removes the link only", rel: "outlink", recursive: true, gone: []string{"outlink"}},
		{name: "dangling link", rel: "dangling", gone: []string{"dangling"}},
		{name: "through a folder link", rel: "dlink/x.txt", gone: []string{"full/x.txt"}, kept: []string{"dlink"}},
		{name: "root", rel: "", recursive: true, want: CodeDenied},
		{name: "file as a parent", rel: "a.txt/x", want: CodeNotADirectory},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			f.file("a.txt", "a")
			f.dir("empty")
			f.file("full/x.txt", "x")
			f.file("full/sub/y.txt", "y")
			f.link("a.txt", "flink")
			f.link("full", "dlink")
			f.link(f.canary, "outlink")
			f.link("missing", "dangling")
			wantCode(t, f.j.Remove(f.abs(c.rel), c.recursive), c.want)
			for _, g := range c.gone {
				if f.exists(g) {
					t.Errorf("%s still exists", g)
				}
			}
			for _, k := range c.kept {
				if !f.exists(k) {
					t.Errorf("%s was removed", k)
				}
			}
		})
	}
}

func TestRename(t *testing.T) {
	cases := []struct {
		name      string
		from, to  string
		overwrite bool
		want      Code
		check     func(t *testing.T, f *fixture)
	}{
		{name: "file", from: "a.txt", to: "c.txt", check: func(t *testing.T, f *fixture) {
			if f.exists("a.txt") || f.read("c.txt") != "a" {
				t.Fatal("not moved")
			}
		}},
		{name: "existing without overwrite", from: "a.txt", to: "b.txt", want: CodeExists, check: func(t *testing.T, f *fixture) {
			if f.read("a.txt") != "a" || f.read("b.txt") != "b" {
				t.Fatal("changed")
			}
		}},
		{name: "existing with overwrite", from: "a.txt", to: "b.txt", overwrite: true, check: func(t *testing.T, f *fixture) {
			if f.exists("a.txt") || f.read("b.txt") != "a" {
				t.Fatal("not moved")
			}
		}},
		{name: "dangling link at to counts as existing", from: "a.txt", to: "dangling", want: CodeExists},
		{name: "parents created", from: "a.txt", to: "x/y/z.txt", check: func(t *testing.T, f *fixture) {
			if f.read("x/y/z.txt") != "a" {
				t.Fatal("not moved")
			}
		}},
		{name: "folder", from: "d", to: "e/d2", check: func(t *testing.T, f *fixture) {
			if f.read("e/d2/f.txt") != "f" || f.exists("d") {
				t.Fatal("not moved")
			}
		}},
		{name: "folder into itself", from: "d", to: "d/inner", want: CodeInvalidArgument, check: func(t *testing.T, f *fixture) {
			if f.exists("d/inner") {
				t.Fatal("a failed move left a folder behind")
			}
		}},
		{name: "folder deep into itself", from: "d", to: "d/x/y/z", want: CodeInvalidArgument, check: func(t *testing.T, f *fixture) {
			if f.exists("d/x") {
				t.Fatal("a failed move left folders behind")
			}
		}},
		{name: "folder onto itself", from: "d", to: "d", overwrite: true},
		{name: "similar prefix is not inside", from: "d", to: "dd/x", check: func(t *testing.T, f *fixture) {
			if f.read("dd/x/f.txt") != "f" {
				t.Fatal("not moved")
			}
		}},
		{name: "symlink moves as a link", from: "flink", to: "sub/flink2", check: func(t *testing.T, f *fixture) {
			fi, err := os.Lstat(f.abs("sub/flink2"))
			if err != nil || fi.Mode()&os.ModeSymlink == 0 {
				t.Fatal("the link did not move as a link")
			}
			if f.read("a.txt") != "a" || f.exists("flink") {
				t.Fatal("target touched or link not moved")
			}
		}},
		{name: "folder link moves as a link", from: "dlink", to: "dlink2", check: func(t *testing.T, f *fixture) {
			fi, err := os.Lstat(f.abs("dlink2"))
			if err != nil || fi.Mode()&os.ModeSymlink == 0 || !f.exists("d/f.txt") {
				t.Fatal("the link did not move as a link")
			}
		}},
		{name: "link out of the jail moves as a link", from: "outlink", to: "outlink2"},
		{name: "missing from", from: "nope", to: "x", want: CodeNotFound},
		// overwrite replaces files; a folder in the way stays (as os.Rename does).
		{name: "file over folder", from: "a.txt", to: "d", overwrite: true, want: CodeExists},
		{name: "folder over non-empty folder", from: "d", to: "e2", overwrite: true, want: CodeExists, check: func(t *testing.T, f *fixture) {
			if f.read("e2/g.txt") != "g" || f.read("d/f.txt") != "f" {
				t.Fatal("changed")
			}
		}},
		{name: "file over a link to a folder replaces the link", from: "a.txt", to: "dlink", overwrite: true, check: func(t *testing.T, f *fixture) {
			if f.read("dlink") != "a" || f.read("d/f.txt") != "f" {
				t.Fatal("not replaced")
			}
		}},
		{name: "onto the root", from: "a.txt", to: "", overwrite: true, want: CodeDenied},
		{name: "to below a file", from: "a.txt", to: "b.txt/x", want: CodeNotADirectory},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			f.file("a.txt", "a")
			f.file("b.txt", "b")
			f.file("d/f.txt", "f")
			f.file("e2/g.txt", "g")
			f.link("a.txt", "flink")
			f.link("d", "dlink")
			f.link(f.canary, "outlink")
			f.link("missing", "dangling")
			f.dir("sub")
			wantCode(t, f.j.Rename(f.abs(c.from), f.abs(c.to), c.overwrite), c.want)
			if c.check != nil {
				c.check(t, f)
			}
		})
	}
}

func TestRealpath(t *testing.T) {
	f := newFixture(t)
	f.file("d/a.txt", "a")
	f.link("d", "dl")
	f.link("dl/a.txt", "chain")
	f.link("missing", "dangling")
	for _, c := range []struct {
		rel, want string
		code      Code
	}{
		{"d/a.txt", "d/a.txt", ""},
		{"dl/a.txt", "d/a.txt", ""},
		{"chain", "d/a.txt", ""},
		{"dl", "d", ""},
		{"", "", ""},
		{"dangling", "", CodeNotFound},
		{"nope", "", CodeNotFound},
	} {
		got, err := f.j.Realpath(f.abs(c.rel))
		wantCode(t, err, c.code)
		if c.code == "" && got != f.abs(c.want) {
			t.Errorf("Realpath(%q) = %q, want %q", c.rel, got, f.abs(c.want))
		}
	}
}

func TestStatLstat(t *testing.T) {
	f := newFixture(t)
	f.file("a.txt", "abc")
	f.link("a.txt", "l")
	f.dir("d")
	in, err := f.j.Stat(f.abs("l"))
	wantCode(t, err, "")
	if in.Kind != KindFile || in.Size != 3 || in.Ino == 0 {
		t.Fatalf("Stat(l) = %+v", in)
	}
	in, err = f.j.Lstat(f.abs("l"))
	wantCode(t, err, "")
	if in.Kind != KindSymlink {
		t.Fatalf("Lstat(l) = %+v", in)
	}
	in, err = f.j.Stat(f.abs("d"))
	wantCode(t, err, "")
	if in.Kind != KindDir {
		t.Fatalf("Stat(d) = %+v", in)
	}
	in, err = f.j.Stat(f.root)
	wantCode(t, err, "")
	if in.Kind != KindDir {
		t.Fatalf("Stat(root) = %+v", in)
	}
}

func TestAppendAndReadTail(t *testing.T) {
	f := newFixture(t)
	for _, s := range []string{"one\n", "two\n", "three\n"} {
		wantCode(t, f.j.AppendFile(f.abs("log/j.jsonl"), []byte(s)), CodeNotFound)
	}
	f.dir("log")
	for _, s := range []string{"one\n", "two\n", "three\n"} {
		wantCode(t, f.j.AppendFile(f.abs("log/j.jsonl"), []byte(s)), "")
	}
	if fi, _ := os.Stat(f.abs("log/j.jsonl")); fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v", fi.Mode())
	}
	for _, c := range []struct {
		n    int64
		want string
	}{{-5, ""}, {0, ""}, {6, "three\n"}, {100, "one\ntwo\nthree\n"}} {
		got, size, err := f.j.ReadTail(f.abs("log/j.jsonl"), c.n)
		wantCode(t, err, "")
		if string(got) != c.want || size != 14 {
			t.Errorf("ReadTail(%d) = %q, %d", c.n, got, size)
		}
	}
	wantCode(t, f.j.AppendFile(f.abs(".env"), []byte("x")), CodeDenied)
	wantCode(t, f.j.AppendFile(f.abs("../canary/secret.txt"), []byte("x")), CodeOutsideJail)
	f.link(filepath.Join(f.canary, "secret.txt"), "out")
	wantCode(t, f.j.AppendFile(f.abs("out"), []byte("x")), CodeOutsideJail)
	_, _, err := f.j.ReadTail(f.abs("log"), 10)
	wantCode(t, err, CodeIsADirectory)
}

// TestOpenDirRootFIFO: openDirRoot, which every folder open of the walks
// and scans goes through (the portable ones too), fails at once on a FIFO
// where a folder is expected instead of blocking until a writer comes.
func TestOpenDirRootFIFO(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	r, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	done := make(chan error, 1)
	go func() {
		sub, err := openDirRoot(r, "fifo")
		if err == nil {
			sub.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("a FIFO opened as a folder")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("openDirRoot blocked on a FIFO")
	}
}
