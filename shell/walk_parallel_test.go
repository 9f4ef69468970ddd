package shell

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"
)

func fttRoot(t *testing.T) string {
	t.Helper()
	d, err := Canonical(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func fttJail(t *testing.T, root string, deny ...string) *Jail {
	t.Helper()
	j, err := Open(Config{Roots: []string{root}, Deny: deny, Noise: []string{".git", "node_modules"}, MaxReadBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	return j
}

func fttWrite(t *testing.T, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func fttRels(files []TreeFile) []string {
	out := []string{}
	for _, f := range files {
		s := f.Rel
		if f.Symlink {
			s += "@"
		}
		out = append(out, s)
	}
	return out
}

// truth is what a fresh walk lists now.
func fttTruth(t *testing.T, j *Jail, root string, opt FileTreeOptions) []string {
	t.Helper()
	opt.NoWatch = true
	ft, err := j.NewFileTree(root, opt)
	if err != nil {
		t.Fatal(err)
	}
	return fttRels(ft.Files())
}

func TestFileTreeListing(t *testing.T) {
	root := fttRoot(t)
	for _, p := range []string{"a.txt", "a/b.txt", "a-b.txt", "a0", "A.txt", "a/c/d.txt", "node_modules/m.js",
		".env", "sub/.env", ".env.example", "k.pem", "a/secrets/s.txt", ".git/HEAD", "z/y/x/w/v.txt", "é.txt",
		"logs/x.log", "keep.log", "src/.x.go.editord-0123456789ab.tmp"} {
		fttWrite(t, root, p, "x")
	}
	fttWrite(t, root, ".gitignore", "*.log\n!keep.log\n")
	if err := os.Symlink("a", filepath.Join(root, "alink")); err != nil {
		t.Fatal(err)
	}
	j := fttJail(t, root, ".env", ".env.*", "!.env.example", "*.pem", "**/secrets/**")
	ft, err := j.NewFileTree(root, FileTreeOptions{Gitignore: true, Noise: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ft.Close()
	want := []string{".env.example", ".gitignore", "A.txt", "a-b.txt", "a.txt", "a/b.txt", "a/c/d.txt", "a0", "alink@", "keep.log", "z/y/x/w/v.txt", "é.txt"}
	if got := fttRels(ft.Files()); !reflect.DeepEqual(got, want) {
		t.Fatalf("listing:\n got %q\nwant %q", got, want)
	}
	if !ft.Watching() {
		t.Log("inotify unavailable: sweep mode only")
	}
}

// Random changes, each followed by a Refresh that must equal a fresh walk,
// in watch mode and in sweep mode.
func TestFileTreeRefreshRandom(t *testing.T) {
	for _, noWatch := range []bool{false, true} {
		t.Run(fmt.Sprintf("nowatch=%v", noWatch), func(t *testing.T) {
			root := fttRoot(t)
			j := fttJail(t, root, "*.key")
			seed := uint64(42)
			if s := os.Getenv("EDITORD_TEST_SEED"); s != "" {
				fmt.Sscan(s, &seed)
			}
			rng := rand.New(rand.NewPCG(seed, 7))
			names := []string{"a", "b", "c", "d.txt", "e.go", "f.log", "g.key", "node_modules", ".git"}
			randRel := func() string {
				var segs []string
				for d := rng.IntN(4); d >= 0; d-- {
					segs = append(segs, names[rng.IntN(len(names))])
				}
				return strings.Join(segs, "/")
			}
			for i := 0; i < 30; i++ {
				p := filepath.Join(root, randRel(), names[rng.IntN(len(names))])
				os.MkdirAll(filepath.Dir(p), 0o755) // may fail where a file stands: fine
				os.WriteFile(p, []byte("x"), 0o644)
			}
			opt := FileTreeOptions{Gitignore: true, Noise: true, NoWatch: noWatch}
			ft, err := j.NewFileTree(root, opt)
			if err != nil {
				t.Fatal(err)
			}
			defer ft.Close()
			for step := 0; step < 150; step++ {
				rel := randRel()
				p := filepath.Join(root, rel)
				var what string
				switch rng.IntN(9) {
				case 0, 1:
					what = "create " + rel
					os.MkdirAll(filepath.Dir(p), 0o755)
					os.WriteFile(p, []byte("x"), 0o644)
				case 2:
					what = "mkdir " + rel
					os.MkdirAll(p, 0o755)
				case 3:
					what = "remove " + rel
					os.RemoveAll(p)
				case 4:
					dst := randRel()
					what = "rename " + rel + " " + dst
					os.MkdirAll(filepath.Dir(filepath.Join(root, dst)), 0o755)
					os.Rename(p, filepath.Join(root, dst))
				case 5:
					// Edit a .gitignore in place (same folder mtime).
					dir := filepath.Dir(p)
					what = "gitignore " + dir
					if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
						f, err := os.OpenFile(filepath.Join(dir, ".gitignore"), os.O_RDWR|os.O_CREATE, 0o644)
						if err == nil {
							f.Truncate(0)
							f.WriteString(names[rng.IntN(len(names))] + "\n")
							f.Close()
						}
					}
				case 6:
					what = "drop gitignore " + rel
					os.Remove(filepath.Join(filepath.Dir(p), ".gitignore"))
				case 7:
					what = "symlink " + rel
					os.MkdirAll(filepath.Dir(p), 0o755)
					os.Symlink("a", p)
				case 8:
					what = "nothing"
				}
				if _, err := ft.Refresh(); err != nil {
					t.Fatalf("step %d (%s): %v", step, what, err)
				}
				got, want := fttRels(ft.Files()), fttTruth(t, j, root, opt)
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("step %d (%s): refresh\n got %q\nwant %q", step, what, got, want)
				}
			}
		})
	}
}

func TestFileTreeGenAndNoop(t *testing.T) {
	root := fttRoot(t)
	fttWrite(t, root, "a/b.txt", "x")
	j := fttJail(t, root)
	ft, err := j.NewFileTree(root, FileTreeOptions{Gitignore: true, Noise: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ft.Close()
	gen := ft.Gen()
	list := ft.Files()
	// Rewriting a file in place changes no listing.
	fttWrite(t, root, "a/b.txt", "yy")
	if changed, err := ft.Refresh(); err != nil || changed || ft.Gen() != gen {
		t.Fatalf("content change: changed %v, err %v, gen %d -> %d", changed, err, gen, ft.Gen())
	}
	fttWrite(t, root, "a/c.txt", "x")
	if changed, err := ft.Refresh(); err != nil || !changed || ft.Gen() == gen {
		t.Fatalf("new file: changed %v, err %v", changed, err)
	}
	if len(list) != 1 || list[0].Rel != "a/b.txt" {
		t.Fatalf("a list handed out changed: %v", list)
	}
}

// In sweep mode, a folder changed within the file system's clock tick of
// its listing (simulated by putting its mtime back) is still re-listed,
// because its stamp was too young to trust.
func TestFileTreeRacySweep(t *testing.T) {
	root := fttRoot(t)
	fttWrite(t, root, "d/a.txt", "x")
	j := fttJail(t, root)
	ft, err := j.NewFileTree(root, FileTreeOptions{NoWatch: true})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "d")
	fi, _ := os.Stat(dir)
	fttWrite(t, root, "d/b.txt", "x")
	os.Chtimes(dir, fi.ModTime(), fi.ModTime())
	if _, err := ft.Refresh(); err != nil {
		t.Fatal(err)
	}
	if got := fttRels(ft.Files()); !reflect.DeepEqual(got, []string{"d/a.txt", "d/b.txt"}) {
		t.Fatalf("racy folder not re-listed: %q", got)
	}
	// An old, unchanged stamp is trusted: no re-listing.
	old := time.Now().Add(-time.Hour)
	os.Chtimes(dir, old, old)
	os.Chtimes(root, old, old)
	ft.Refresh()
	fttWrite(t, root, "d/c.txt", "x")
	os.Chtimes(dir, old, old)
	ft.Refresh()
	if got := fttRels(ft.Files()); len(got) != 2 {
		t.Fatalf("a trusted stamp was re-listed anyway (the test's premise is wrong): %q", got)
	}
}

func TestFileTreeBaseReplaced(t *testing.T) {
	root := fttRoot(t)
	fttWrite(t, root, "w/a.txt", "x")
	j := fttJail(t, root)
	base := filepath.Join(root, "w")
	ft, err := j.NewFileTree(base, FileTreeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer ft.Close()
	os.Rename(base, filepath.Join(root, "old"))
	fttWrite(t, root, "w/b.txt", "x")
	if _, err := ft.Refresh(); err != nil {
		t.Fatal(err)
	}
	if got := fttRels(ft.Files()); !reflect.DeepEqual(got, []string{"b.txt"}) {
		t.Fatalf("after the base was replaced: %q", got)
	}
	os.RemoveAll(base)
	if _, err := ft.Refresh(); CodeOf(err) != CodeNotFound {
		t.Fatalf("base gone: %v, want not_found", err)
	}
}

func TestFileTreeParents(t *testing.T) {
	root := fttRoot(t)
	fttWrite(t, root, "sub/a.gen", "x")
	fttWrite(t, root, "sub/b.txt", "x")
	fttWrite(t, root, "sub/x/only.txt", "x")
	j := fttJail(t, root)
	ft, err := j.NewFileTree(filepath.Join(root, "sub"), FileTreeOptions{Gitignore: true, Parents: []ParentRules{
		{Below: "sub", Rules: ParsePatterns([]string{"*.gen", "/sub/x/"})},
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer ft.Close()
	if got := fttRels(ft.Files()); !reflect.DeepEqual(got, []string{"b.txt"}) {
		t.Fatalf("parent rules: %q", got)
	}
}

func TestTreeReader(t *testing.T) {
	root := fttRoot(t)
	fttWrite(t, root, "a/text.txt", "hello\n")
	fttWrite(t, root, "a/bin.dat", "\x00\x01binary")
	fttWrite(t, root, "a/late.dat", strings.Repeat("x", 9000)+"\x00")
	fttWrite(t, root, "a/big.txt", strings.Repeat("x", 100))
	fttWrite(t, root, "b/c/d.txt", "deep")
	fttWrite(t, root, "s/secrets/k.txt", "no")
	fttWrite(t, root, "z.key", "no")
	os.Symlink("text.txt", filepath.Join(root, "a/link"))
	if err := syscall.Mkfifo(filepath.Join(root, "a/fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	j := fttJail(t, root, "*.key", "**/secrets/**")
	ft, err := j.NewFileTree(root, FileTreeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer ft.Close()
	rd, err := ft.NewReader()
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	type readCase struct {
		rel  string
		want string
		skip TreeSkip
		code Code
	}
	cases := []readCase{
		{"a/text.txt", "hello\n", TreeReadOK, ""},
		{"b/c/d.txt", "deep", TreeReadOK, ""},
		{"a/bin.dat", "", TreeBinary, ""},
		{"a/late.dat", strings.Repeat("x", 9000) + "\x00", TreeReadOK, ""}, // NUL past the first 8 KiB
		{"a/big.txt", "", TreeTooLarge, ""},
		{"a/link", "", TreeNotRegular, ""},
		{"a/fifo", "", TreeNotRegular, ""},
		{"a/missing.txt", "", TreeNotRegular, CodeNotFound},
		{"z.key", "", TreeNotRegular, CodeDenied},
		{"s/secrets/k.txt", "", TreeNotRegular, CodeDenied},
		{"../etc/passwd", "", TreeNotRegular, CodeInvalidArgument},
		{"a/../../x", "", TreeNotRegular, CodeInvalidArgument},
		{"b/c/d.txt", "deep", TreeReadOK, ""},
	}
	// Both read paths: openat2 in one call, and folder by folder.
	for _, noOpenat2 := range []bool{false, true} {
		ftNoOpenat2Store(noOpenat2)
		for _, tc := range cases {
			data, skip, err := rd.Read(tc.rel, 50, true)
			if tc.rel == "a/late.dat" {
				data, skip, err = rd.Read(tc.rel, 1<<20, true)
			}
			if tc.code != "" {
				if CodeOf(err) != tc.code {
					t.Errorf("no openat2 %v: %s: err %v, want %s", noOpenat2, tc.rel, err, tc.code)
				}
				continue
			}
			if err != nil || skip != tc.skip || string(data) != tc.want {
				t.Errorf("no openat2 %v: %s: %q, %v, %v; want %q, %v", noOpenat2, tc.rel, data, skip, err, tc.want, tc.skip)
			}
		}
	}
	ftNoOpenat2Store(false)
	if !rd.Exists("a/link") || rd.Exists("a/nope") || rd.Exists("z.key") {
		t.Error("Exists")
	}
	// A folder swapped for a symlink is not followed.
	os.RemoveAll(filepath.Join(root, "b/c"))
	os.Symlink(root+"/a", filepath.Join(root, "b/c"))
	rd2, _ := ft.NewReader()
	defer rd2.Close()
	if data, skip, err := rd2.Read("b/c/text.txt", 50, true); data != nil || (err == nil && skip != TreeNotRegular) {
		t.Errorf("read through a swapped-in symlink: %q, %v, %v", data, skip, err)
	}
	// The same through the folder-by-folder path (kernels without openat2).
	ftNoOpenat2Store(true)
	rd3, _ := ft.NewReader()
	if data, _, err := rd3.Read("b/c/text.txt", 50, true); data != nil || err == nil {
		t.Errorf("read through a swapped-in symlink, folder by folder: %q, %v", data, err)
	}
	rd3.Close()
	ftNoOpenat2Store(false)
	for _, f := range ft.Files() {
		if f.Rel == "a/text.txt" {
			if data, _, err := rd2.ReadFile(f, 50, true); err != nil || string(data) != "hello\n" {
				t.Errorf("ReadFile: %q %v", data, err)
			}
		}
	}
}

func TestDenyChecker(t *testing.T) {
	root := fttRoot(t)
	os.MkdirAll(filepath.Join(root, "w"), 0o755)
	j := fttJail(t, root, "*.key", "**/secrets/**", "/w/top.txt")
	d := j.NewDenyChecker(filepath.Join(root, "w"))
	for rel, want := range map[string]bool{
		"a.key": true, "x/a.key": true, "secrets/a": true, "x/secrets/y/z": true,
		"top.txt": true, "x/top.txt": false, "ok.txt": false, "secrets": false,
	} {
		if got := d.Denied(rel, false); got != want {
			t.Errorf("Denied(%q) = %v, want %v", rel, got, want)
		}
	}
	if !j.NewDenyChecker("/elsewhere").Denied("a", false) {
		t.Error("outside the jail must be denied")
	}
}

// The checker's answers (each folder's segments split once) are those of
// deciding each path and each of its folders from scratch, for paths
// below the jail root and below a sub-folder.
func TestDenyCheckerAgreesWithDecide(t *testing.T) {
	root := fttRoot(t)
	os.MkdirAll(filepath.Join(root, "w", "v"), 0o755)
	j := fttJail(t, root, "*.key", "**/secrets/**", "/w/top.txt", "a/b", "!a/b/keep", "x*", "build/")
	names := []string{"a", "b", "keep", "secrets", "top.txt", "k.key", "x1", "build", "w", "v"}
	r := rand.New(rand.NewPCG(4, 4))
	for _, base := range []string{"", "w", "w/v"} {
		d := j.NewDenyChecker(filepath.Join(root, base))
		prefix := ""
		if base != "" {
			prefix = base + "/"
		}
		for i := 0; i < 3000; i++ {
			segs := make([]string, 1+r.IntN(4))
			for k := range segs {
				segs[k] = names[r.IntN(len(names))]
			}
			rel := strings.Join(segs, "/")
			want := false
			full := prefix + rel
			parts := strings.Split(full, "/")
			for k := 1; k <= len(parts) && !want; k++ {
				m, ex := j.deny.Decide(strings.Join(parts[:k], "/"), k < len(parts))
				want = m && ex
			}
			if got := d.Denied(rel, false); got != want {
				t.Fatalf("base %q: Denied(%q) = %v, deciding from scratch %v", base, rel, got, want)
			}
		}
	}
}
