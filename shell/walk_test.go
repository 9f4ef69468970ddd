package shell

import (
	"errors"
	"io/fs"
	"os"
	"reflect"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"
)

func walkFixture(t *testing.T) *fixture {
	f := newFixture(t)
	for _, p := range []string{
		"a.txt", "a/b.txt", "a-b.txt", "a0", "A.txt", "a/c/d.txt", "a/c.txt",
		"b/x.txt", "node_modules/m/index.js", "build/out.bin", "src/build/gen.go",
		".env", "sub/.env", ".env.example", "k.pem", "a/secrets/s.txt", "secrets.txt",
		".git/HEAD", "src/main.go", "src/.x.go.editord-0123456789ab.tmp",
		"é.txt", "z/y/x/w/v.txt",
	} {
		f.file(p, "x")
	}
	f.dir("emptydir")
	f.link("a", "alink")          // a folder link: reported, not followed
	f.link(f.canary, "outlink")   // a link out: reported, not followed
	f.link("missing", "dangling") // dangling: reported
	f.link("../..", "src/uplink") // would loop back above the root
	f.link(".", "self")           // would loop
	return f
}

func collect(t *testing.T, f *fixture, rel string, opt WalkOptions) ([]WalkEntry, error) {
	var out []WalkEntry
	err := f.j.Walk(f.abs(rel), opt, func(e WalkEntry) error {
		out = append(out, e)
		return nil
	})
	return out, err
}

func rels(ents []WalkEntry) []string {
	var out []string
	for _, e := range ents {
		out = append(out, e.Rel)
	}
	return out
}

// sortKey makes a folder sort as "name/", so that a walk's output is in
// byte order of path: a.txt before a/b.txt, as git and the contract order.
func sortKey(e WalkEntry) string {
	if e.Kind == KindDir {
		return e.Rel + "/"
	}
	return e.Rel
}

func TestWalkOrderAndContent(t *testing.T) {
	f := walkFixture(t)
	ents, err := collect(t, f, "", WalkOptions{})
	wantCode(t, err, "")
	got := rels(ents)
	// Byte order of path, folders as "name/": the keys strictly increase.
	for i := 1; i < len(ents); i++ {
		if sortKey(ents[i-1]) >= sortKey(ents[i]) {
			t.Fatalf("out of byte order: %q then %q\nall: %q", ents[i-1].Rel, ents[i].Rel, got)
		}
	}
	var files []string
	for _, e := range ents {
		if e.Kind != KindDir {
			files = append(files, e.Rel)
		}
	}
	if !sort.StringsAreSorted(files) {
		t.Fatalf("files not in byte order of path: %q", files)
	}
	idx := map[string]int{}
	for i, r := range got {
		idx[r] = i
	}
	if idx["a-b.txt"] > idx["a/b.txt"] || idx["a.txt"] > idx["a/b.txt"] || idx["a/c.txt"] > idx["a/c/d.txt"] {
		t.Fatalf("a.txt and a-b.txt must come before a/b.txt; a/c.txt before a/c/d.txt: %q", got)
	}
	want := map[string]string{
		"a": KindDir, "a.txt": KindFile, "alink": KindSymlink, "outlink": KindSymlink, "dangling": KindSymlink,
		"src/uplink": KindSymlink, "self": KindSymlink, "emptydir": KindDir, "node_modules/m/index.js": KindFile,
		"build/out.bin": KindFile, ".env.example": KindFile, "secrets.txt": KindFile, "é.txt": KindFile,
		"z/y/x/w/v.txt": KindFile,
	}
	for r, k := range want {
		i, ok := idx[r]
		if !ok {
			t.Errorf("%s missing from the walk", r)
			continue
		}
		if ents[i].Kind != k {
			t.Errorf("%s: kind %s, want %s", r, ents[i].Kind, k)
		}
	}
	for _, r := range []string{".env", "sub/.env", "k.pem", "a/secrets/s.txt", ".git", ".git/HEAD",
		"src/.x.go.editord-0123456789ab.tmp", "alink/b.txt", "outlink/secret.txt", "self/a.txt"} {
		if _, ok := idx[r]; ok {
			t.Errorf("%s should be left out", r)
		}
	}
	for _, e := range ents {
		if e.Depth != strings.Count(e.Rel, "/")+1 || e.Name != e.Rel[strings.LastIndex(e.Rel, "/")+1:] {
			t.Errorf("entry %+v", e)
		}
	}
	// The same walk twice gives the same output.
	again, _ := collect(t, f, "", WalkOptions{})
	if !reflect.DeepEqual(ents, again) {
		t.Fatal("two walks differ")
	}
}

func TestWalkOptions(t *testing.T) {
	cases := []struct {
		name    string
		base    string
		opt     WalkOptions
		want    []string // must be present
		notWant []string // must be absent
		maxDep  int
	}{
		{name: "max depth 1", opt: WalkOptions{MaxDepth: 1},
			want: []string{"a", "a.txt", "node_modules", "z"}, notWant: []string{"a/b.txt", "z/y"}, maxDep: 1},
		{name: "max depth 2", opt: WalkOptions{MaxDepth: 2},
			want: []string{"a/b.txt", "a/c", "z/y"}, notWant: []string{"a/c/d.txt", "z/y/x"}, maxDep: 2},
		{name: "noise", opt: WalkOptions{Noise: true},
			want: []string{"a.txt", "src/main.go"}, notWant: []string{"node_modules", "node_modules/m/index.js", "build", "build/out.bin", "src/build", "src/build/gen.go"}},
		{name: "no noise", opt: WalkOptions{},
			want: []string{"node_modules/m/index.js", "build/out.bin", "src/build/gen.go"}},
		{name: "extra ignore", opt: WalkOptions{Ignore: ParsePatterns([]string{"*.txt", "!b/x.txt", "z/"})},
			want: []string{"b/x.txt", "src/main.go"}, notWant: []string{"a.txt", "a/b.txt", "z", "z/y/x/w/v.txt"}},
		{name: "sub folder base", base: "a",
			want: []string{"b.txt", "c", "c/d.txt", "c.txt"}, notWant: []string{"secrets/s.txt", "a/b.txt"}},
		{name: "folder link base is walked", base: "alink",
			want: []string{"b.txt", "c/d.txt"}, notWant: []string{"secrets/s.txt"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := walkFixture(t)
			ents, err := collect(t, f, c.base, c.opt)
			wantCode(t, err, "")
			idx := map[string]bool{}
			for _, e := range ents {
				idx[e.Rel] = true
				if c.maxDep > 0 && e.Depth > c.maxDep {
					t.Errorf("%s at depth %d", e.Rel, e.Depth)
				}
			}
			for _, r := range c.want {
				if !idx[r] {
					t.Errorf("%s missing", r)
				}
			}
			for _, r := range c.notWant {
				if idx[r] {
					t.Errorf("%s present", r)
				}
			}
		})
	}
}

func TestWalkSkipAndStop(t *testing.T) {
	f := walkFixture(t)
	var got []string
	err := f.j.Walk(f.root, WalkOptions{}, func(e WalkEntry) error {
		got = append(got, e.Rel)
		if e.Rel == "a" || e.Rel == "node_modules" {
			return SkipDir
		}
		if e.Rel == "a.txt" {
			return SkipDir // on a file: ignored, the walk goes on
		}
		return nil
	})
	wantCode(t, err, "")
	for _, r := range got {
		if strings.HasPrefix(r, "a/") || strings.HasPrefix(r, "node_modules/") {
			t.Fatalf("%s visited inside a skipped folder", r)
		}
	}
	if !contains(got, "b/x.txt") || !contains(got, "a-b.txt") {
		t.Fatalf("walk stopped early: %q", got)
	}

	stop := errors.New("stop")
	n := 0
	err = f.j.Walk(f.root, WalkOptions{}, func(e WalkEntry) error {
		n++
		if e.Rel == "a/b.txt" {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) {
		t.Fatalf("want the callback's error, got %v", err)
	}
	m := 0
	err = f.j.Walk(f.root, WalkOptions{}, func(e WalkEntry) error {
		m++
		return fs.SkipAll
	})
	if err != nil || m != 1 {
		t.Fatalf("SkipAll: err %v after %d entries", err, m)
	}
}

func TestWalkErrors(t *testing.T) {
	f := walkFixture(t)
	for _, c := range []struct {
		rel  string
		want Code
	}{
		{"missing", CodeNotFound},
		{"a.txt", CodeNotADirectory},
		{"outlink", CodeOutsideJail},
		{"dangling", CodeNotFound},
		{"emptydir", ""},
	} {
		_, err := collect(t, f, c.rel, WalkOptions{})
		wantCode(t, err, c.want)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Ignore files that are not regular files (a FIFO planted as
// .git/info/exclude or .gitignore) are skipped, not waited on.
func TestWalkIgnoreFileFIFO(t *testing.T) {
	f := newFixture(t)
	f.file("a.txt", "a")
	f.file("sub/b.txt", "b")
	f.dir(".git/info")
	for _, p := range []string{".git/info/exclude", "sub/.gitignore"} {
		if err := syscall.Mkfifo(f.abs(p), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	done := make(chan []string, 1)
	go func() {
		var got []string
		f.j.Walk(f.root, WalkOptions{Gitignore: true}, func(e WalkEntry) error {
			got = append(got, e.Rel)
			return nil
		})
		done <- got
	}()
	select {
	case got := <-done:
		if !contains(got, "a.txt") || !contains(got, "sub/b.txt") {
			t.Fatalf("walk saw %q", got)
		}
	case <-time.After(5 * time.Second):
		for _, p := range []string{".git/info/exclude", "sub/.gitignore"} {
			if w, err := os.OpenFile(f.abs(p), os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				w.Close()
			}
		}
		t.Fatal("a walk honouring .gitignore hangs on a FIFO")
	}
}
