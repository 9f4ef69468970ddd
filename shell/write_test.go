package shell

import (
	"errors"
	"io/fs"
	"os"
	"sync"
	"sync/atomic"
	"testing"
)

func TestWriteFileBytesExact(t *testing.T) {
	cases := []struct {
		name string
		data []byte
	}{
		{"empty", []byte{}},
		{"nil", nil},
		{"lf", []byte("a\nb\n")},
		{"crlf", []byte("a\r\nb\r\n")},
		{"mixed", []byte("a\r\nb\nc\r")},
		{"bom", []byte("\xef\xbb\xbfhello\n")},
		{"no final newline", []byte("no newline")},
		{"utf8", []byte("héllo wörld ✓\n")},
		{"trailing spaces", []byte("x  \t\n  \n")},
		{"nul", []byte("a\x00b")},
		{"big", make([]byte, 3<<20)},
	}
	for _, c := range cases {
		for _, existing := range []bool{false, true} {
			name := c.name
			if existing {
				name += "/overwrite"
			}
			t.Run(name, func(t *testing.T) {
				f := newFixture(t)
				if existing {
					f.file("f.txt", "old content that is longer than some new ones\n")
				}
				info, err := f.j.WriteFile(f.abs("f.txt"), c.data, WriteOptions{})
				wantCode(t, err, "")
				got, err := os.ReadFile(f.abs("f.txt"))
				if err != nil {
					t.Fatal(err)
				}
				equalBytes(t, "on disk", got, c.data)
				if info.Size != int64(len(c.data)) || info.Kind != KindFile || info.Name != "f.txt" {
					t.Fatalf("info %+v", info)
				}
				res, err := f.j.ReadFile(f.abs("f.txt"), 0)
				wantCode(t, err, "")
				equalBytes(t, "read back", res.Data, c.data)
				if tmp := tempFiles(t, f.root); len(tmp) > 0 {
					t.Fatalf("temp files left: %v", tmp)
				}
			})
		}
	}
}

func TestWriteFileMode(t *testing.T) {
	cases := []struct {
		name     string
		existing fs.FileMode // 0: the file does not exist
		perm     fs.FileMode
		want     fs.FileMode
	}{
		{"new gets 0644", 0, 0, 0o644},
		{"new with perm", 0, 0o600, 0o600},
		{"new with exec perm", 0, 0o755, 0o755},
		{"executable stays 0755", 0o755, 0, 0o755},
		{"private stays 0600", 0o600, 0, 0o600},
		{"existing mode beats perm", 0o600, 0o644, 0o600},
		{"odd mode kept", 0o640, 0, 0o640},
		{"read-only file kept read-only", 0o444, 0, 0o444},
	}
	old := umask(0o077) // a strict umask must not change the result
	defer umask(old)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			if c.existing != 0 {
				mustWrite(t, f.abs("f.sh"), "#!/bin/sh\n", c.existing)
			}
			_, err := f.j.WriteFile(f.abs("f.sh"), []byte("#!/bin/sh\necho hi\n"), WriteOptions{Perm: c.perm})
			wantCode(t, err, "")
			fi, err := os.Stat(f.abs("f.sh"))
			if err != nil {
				t.Fatal(err)
			}
			if fi.Mode().Perm() != c.want {
				t.Fatalf("mode %v, want %v", fi.Mode().Perm(), c.want)
			}
		})
	}
}

func TestWriteFileOptions(t *testing.T) {
	cases := []struct {
		name  string
		setup func(f *fixture)
		path  string
		opt   WriteOptions
		data  string
		want  Code
		check func(t *testing.T, f *fixture)
	}{
		{name: "missing folder without parents", path: "x/y/z.txt", want: CodeNotFound},
		{name: "parents creates folders", path: "x/y/z.txt", opt: WriteOptions{Parents: true}, data: "z",
			check: func(t *testing.T, f *fixture) {
				if f.read("x/y/z.txt") != "z" {
					t.Fatal("content")
				}
				if fi, _ := os.Stat(f.abs("x/y")); fi == nil || !fi.IsDir() {
					t.Fatal("x/y not a folder")
				}
			}},
		{name: "parents through a file", setup: func(f *fixture) { f.file("x", "file") }, path: "x/y.txt",
			opt: WriteOptions{Parents: true}, want: CodeNotADirectory},
		{name: "exclusive new", path: "n.txt", opt: WriteOptions{Exclusive: true}, data: "n",
			check: func(t *testing.T, f *fixture) {
				if f.read("n.txt") != "n" {
					t.Fatal("content")
				}
			}},
		{name: "exclusive existing", setup: func(f *fixture) { f.file("e.txt", "old") }, path: "e.txt",
			opt: WriteOptions{Exclusive: true}, want: CodeExists,
			check: func(t *testing.T, f *fixture) {
				if f.read("e.txt") != "old" {
					t.Fatal("clobbered")
				}
			}},
		{name: "exclusive existing folder", setup: func(f *fixture) { f.dir("d") }, path: "d",
			opt: WriteOptions{Exclusive: true}, want: CodeExists}, // "creating anything where anything already exists is exists"
		{name: "exclusive on a link to a file", setup: func(f *fixture) { f.file("t.txt", "old"); f.link("t.txt", "l") },
			path: "l", opt: WriteOptions{Exclusive: true}, want: CodeExists},
		{name: "exclusive with parents", path: "p/q/r.txt", opt: WriteOptions{Exclusive: true, Parents: true}, data: "r"},
		{name: "folder target", setup: func(f *fixture) { f.dir("d") }, path: "d", want: CodeIsADirectory},
		{name: "folder link target", setup: func(f *fixture) { f.dir("d"); f.link("d", "dl") }, path: "dl", want: CodeIsADirectory},
		{name: "root target", path: "", want: CodeIsADirectory},
		{name: "too large", path: "big.txt", data: "0123456789x", want: CodeTooLarge,
			check: func(t *testing.T, f *fixture) {
				if f.exists("big.txt") {
					t.Fatal("a too-large write created the file")
				}
			}},
		{name: "at the limit", path: "big.txt", data: "0123456789"},
		{name: "too large overwrite keeps old", setup: func(f *fixture) { f.file("big.txt", "old") }, path: "big.txt",
			data: "0123456789x", want: CodeTooLarge,
			check: func(t *testing.T, f *fixture) {
				if f.read("big.txt") != "old" {
					t.Fatal("clobbered")
				}
			}},
		{name: "long name", path: string(make255('n')), data: "long"},
		{name: "name too long", path: string(make256('n')), data: "long", want: CodeInvalidArgument},
		{name: "temp-looking name", path: ".f.editord-000000000000.tmp", data: "t"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t, withMaxWrite(10))
			if c.setup != nil {
				c.setup(f)
			}
			_, err := f.j.WriteFile(f.abs(c.path), []byte(c.data), c.opt)
			wantCode(t, err, c.want)
			if c.check != nil {
				c.check(t, f)
			}
			if c.want == "" && c.path != "" {
				if got := f.read(c.path); got != c.data {
					t.Fatalf("content %q, want %q", got, c.data)
				}
			}
			for _, tmp := range tempFiles(t, f.root) {
				if tmp != f.abs(".f.editord-000000000000.tmp") {
					t.Fatalf("temp file left: %s", tmp)
				}
			}
		})
	}
}

func make255(c byte) []byte {
	b := make([]byte, 255)
	for i := range b {
		b[i] = c
	}
	return b
}

func make256(c byte) []byte { return append(make255(c), c) }

func TestWriteFileBeforeHook(t *testing.T) {
	cases := []struct {
		name     string
		existing bool
		opt      WriteOptions
	}{
		{"overwrite", true, WriteOptions{}},
		{"create", false, WriteOptions{}},
		{"exclusive", false, WriteOptions{Exclusive: true}},
		{"parents", false, WriteOptions{Parents: true}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			if c.existing {
				mustWrite(t, f.abs("d/f.txt"), "old content\n", 0o755)
			} else {
				f.dir("d")
			}
			boom := errors.New("someone slipped in")
			var sawTemp bool
			opt := c.opt
			opt.Before = func() error {
				// The new content is durable in a temp file by now.
				sawTemp = len(tempFiles(t, f.root)) == 1
				return boom
			}
			_, err := f.j.WriteFile(f.abs("d/f.txt"), []byte("new content\n"), opt)
			if !errors.Is(err, boom) {
				t.Fatalf("want the hook's error, got %v", err)
			}
			if !sawTemp {
				t.Fatal("the hook ran without exactly one temp file in place")
			}
			if c.existing {
				if got := f.read("d/f.txt"); got != "old content\n" {
					t.Fatalf("old file changed: %q", got)
				}
				if fi, _ := os.Stat(f.abs("d/f.txt")); fi.Mode().Perm() != 0o755 {
					t.Fatalf("old file mode changed: %v", fi.Mode())
				}
			} else if f.exists("d/f.txt") {
				t.Fatal("an aborted create left the file")
			}
			if tmp := tempFiles(t, f.root); len(tmp) > 0 {
				t.Fatalf("temp files left: %v", tmp)
			}
		})
	}
	t.Run("hook passes", func(t *testing.T) {
		f := newFixture(t)
		f.file("f.txt", "old")
		calls := 0
		_, err := f.j.WriteFile(f.abs("f.txt"), []byte("new"), WriteOptions{Before: func() error {
			calls++
			if f.read("f.txt") != "old" {
				t.Error("the old file was replaced before the hook ran")
			}
			return nil
		}})
		wantCode(t, err, "")
		if calls != 1 || f.read("f.txt") != "new" {
			t.Fatalf("calls %d, content %q", calls, f.read("f.txt"))
		}
	})
}

// Exclusive creation is race-safe: of many writers creating one path,
// exactly one wins and the rest see exists.
func TestWriteFileExclusiveRace(t *testing.T) {
	for round := range 5 {
		f := newFixture(t)
		const n = 16
		var wins, exists atomic.Int32
		var wg sync.WaitGroup
		start := make(chan struct{})
		errs := make(chan error, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				_, err := f.j.WriteFile(f.abs("race/one.txt"), []byte{byte('a' + i)}, WriteOptions{Exclusive: true, Parents: true, NoSync: round%2 == 0})
				switch CodeOf(err) {
				case CodeInternal:
					if err == nil {
						wins.Add(1)
						return
					}
					errs <- err
				case CodeExists:
					exists.Add(1)
				default:
					errs <- err
				}
			}()
		}
		close(start)
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatalf("unexpected error: %v (%s)", err, CodeOf(err))
		}
		if wins.Load() != 1 || exists.Load() != n-1 {
			t.Fatalf("round %d: %d wins, %d exists", round, wins.Load(), exists.Load())
		}
		if got := f.read("race/one.txt"); len(got) != 1 {
			t.Fatalf("content %q", got)
		}
		if tmp := tempFiles(t, f.root); len(tmp) > 0 {
			t.Fatalf("temp files left: %v", tmp)
		}
	}
}

// Concurrent plain writers never leave a torn file: the result is one of
// the writers' contents, whole.
func TestWriteFileConcurrentAtomic(t *testing.T) {
	f := newFixture(t)
	f.file("f.txt", "start")
	contents := map[string]bool{}
	var datas [][]byte
	for i := range 8 {
		d := make([]byte, 64<<10)
		for k := range d {
			d[k] = byte('a' + i)
		}
		datas = append(datas, d)
		contents[string(d)] = true
	}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	var torn atomic.Int32
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			res, err := f.j.ReadFile(f.abs("f.txt"), 0)
			if err != nil {
				torn.Add(1)
				continue
			}
			if s := string(res.Data); s != "start" && !contents[s] {
				torn.Add(1)
			}
		}
	}()
	var wwg sync.WaitGroup
	for _, d := range datas {
		wwg.Add(1)
		go func() {
			defer wwg.Done()
			for range 10 {
				if _, err := f.j.WriteFile(f.abs("f.txt"), d, WriteOptions{NoSync: true}); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wwg.Wait()
	close(stop)
	wg.Wait()
	if torn.Load() > 0 {
		t.Fatalf("%d reads saw a torn or missing file", torn.Load())
	}
	if !contents[f.read("f.txt")] {
		t.Fatal("final content is not one writer's")
	}
	if tmp := tempFiles(t, f.root); len(tmp) > 0 {
		t.Fatalf("temp files left: %v", tmp)
	}
}

func TestIsTempName(t *testing.T) {
	cases := map[string]bool{
		".a.txt.editord-0a1b2c3d4e5f.tmp": true,
		".editord-x.tmp":                  true,
		"a.txt.editord-x.tmp":             false,
		".a.txt.editord-x":                false,
		".a.tmp":                          false,
		"a.txt":                           false,
	}
	for name, want := range cases {
		if got := IsTempName(name); got != want {
			t.Errorf("IsTempName(%q) = %v", name, got)
		}
	}
}
