package shell

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-billy/v5/util"
)

// Tests of the two I/O paths gitops uses: the billy filesystem go-git
// opens repositories through, and the parallel scan behind git status.

func TestGitFSBasics(t *testing.T) {
	f := newFixture(t)
	f.dir("repo/.git")
	b, err := f.j.GitFS(f.abs("repo"))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	// Writes inside .git are allowed here (and only here).
	if err := util.WriteFile(b, ".git/objects/ab/cdef", []byte("obj"), 0o444); err != nil {
		t.Fatalf("write inside .git: %v", err)
	}
	if f.read("repo/.git/objects/ab/cdef") != "obj" {
		t.Fatal("content")
	}
	if _, err := f.j.WriteFile(f.abs("repo/.git/x"), []byte("x"), WriteOptions{}); CodeOf(err) != CodeDenied {
		t.Fatalf("the jail itself still refuses .git writes: %v", err)
	}
	// Temp file then rename, as go-git writes packs and loose objects.
	tf, err := b.TempFile(".git/objects/pack", "tmp_")
	if err != nil {
		t.Fatal(err)
	}
	tf.Write([]byte("pack"))
	tf.Close()
	if !strings.HasPrefix(tf.Name(), ".git/objects/pack/tmp_") {
		t.Fatalf("temp name %q", tf.Name())
	}
	if err := b.Rename(tf.Name(), ".git/objects/pack/pack-1.pack"); err != nil {
		t.Fatal(err)
	}
	// Chroot: names are relative to the chroot.
	dot, err := b.Chroot(".git")
	if err != nil {
		t.Fatal(err)
	}
	if dot.Root() != filepath.Join(f.abs("repo"), ".git") {
		t.Fatalf("root %q", dot.Root())
	}
	fi, err := dot.Stat("objects/pack/pack-1.pack")
	if err != nil || fi.Size() != 4 {
		t.Fatalf("stat through chroot: %v", err)
	}
	lf, err := dot.OpenFile("refs/heads/main", os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if lf.Name() != "refs/heads/main" {
		t.Fatalf("name %q", lf.Name())
	}
	if err := lf.Lock(); err != nil {
		t.Fatal(err)
	}
	lf.Unlock()
	lf.Close()
	ents, err := dot.ReadDir("refs/heads")
	if err != nil || len(ents) != 1 || ents[0].Name() != "main" {
		t.Fatalf("readdir: %v %v", ents, err)
	}
	if _, err := dot.Open("../../canary/secret.txt"); err == nil {
		t.Fatal("chroot escape")
	}
	if err := b.Symlink("target", "dir/link"); err != nil {
		t.Fatal(err)
	}
	if got, _ := b.Readlink("dir/link"); got != "target" {
		t.Fatalf("readlink %q", got)
	}
	var _ billy.Change = b
}

func TestGitFSStaysInside(t *testing.T) {
	f := newFixture(t)
	f.dir("repo")
	f.link("../../canary", "repo/out")
	f.file("repo/.env", "SECRET=1\n")
	b, err := f.j.GitFS(f.abs("repo"))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	for _, name := range []string{"../canary/secret.txt", "out/secret.txt", "/../canary/secret.txt"} {
		if r, err := b.Open(name); err == nil {
			data, _ := io.ReadAll(r)
			r.Close()
			t.Errorf("%s opened outside the folder: %q", name, data)
		}
	}
	if _, err := util.ReadFile(b, ".env"); CodeOf(err) != CodeDenied {
		t.Errorf("deny globs apply outside .git: %v", err)
	}
	if err := util.WriteFile(b, "sub/.env", []byte("x"), 0o644); CodeOf(err) != CodeDenied {
		t.Errorf("deny globs apply to writes: %v", err)
	}
	if _, err := f.j.GitFS(f.canary); CodeOf(err) != CodeOutsideJail {
		t.Errorf("GitFS outside the jail: %v", err)
	}
}

// scanAll runs a scan entering every folder and returns "rel kind" lines.
func scanAll(t *testing.T, j *Jail, abs string, workers int) []string {
	var mu sync.Mutex
	var out []string
	err := Scan(j, abs, workers, 0, func(d *ScanDir, depth int) []ScanNext[int] {
		var next []ScanNext[int]
		for i, e := range d.Entries {
			rel := e.Name
			if d.Rel != "" {
				rel = d.Rel + "/" + e.Name
			}
			if d.Denied(i) {
				continue
			}
			kind := "file"
			switch e.Type {
			case fs.ModeDir:
				kind = "dir"
				next = append(next, ScanNext[int]{Name: e.Name, Data: depth + 1})
			case fs.ModeSymlink:
				kind = "symlink"
			}
			st, err := d.EntryStat(i)
			if err != nil {
				t.Errorf("stat %s: %v", rel, err)
			}
			if kind == "file" && st.Size != int64(len("data "+e.Name)) {
				t.Errorf("%s size %d", rel, st.Size)
			}
			mu.Lock()
			out = append(out, rel+" "+kind)
			mu.Unlock()
		}
		return next
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

func TestScan(t *testing.T) {
	f := newFixture(t)
	for _, p := range []string{"a.txt", "d/b.txt", "d/e/c.txt", "d/e/f/g.txt", "secrets/x.txt", "k.pem", ".env"} {
		f.file(p, "data "+filepath.Base(p))
	}
	f.link("d", "ln")
	f.link("../../canary", "escape")
	want := []string{"a.txt file", "d dir", "d/b.txt file", "d/e dir", "d/e/c.txt file", "d/e/f dir", "d/e/f/g.txt file", "escape symlink", "ln symlink", "secrets dir"}
	for _, w := range []int{1, 3, 0} {
		got := scanAll(t, f.j, f.root, w)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("workers %d:\n%s\nwant\n%s", w, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	// Reading through a scan: a file yes, a denied one no, a symlink never
	// followed.
	Scan(f.j, f.root, 1, 0, func(d *ScanDir, _ int) []ScanNext[int] {
		if d.Rel != "" {
			return nil
		}
		if r, err := d.Open("a.txt"); err != nil {
			t.Errorf("open: %v", err)
		} else {
			data, _ := io.ReadAll(r)
			r.Close()
			if string(data) != "data a.txt" {
				t.Errorf("read %q", data)
			}
		}
		if _, err := d.Open("k.pem"); CodeOf(err) != CodeDenied {
			t.Errorf("denied file opened: %v", err)
		}
		if _, err := d.Open("escape"); err == nil {
			t.Error("a symlink was opened through")
		}
		if _, err := d.Open("../canary/secret.txt"); err == nil {
			t.Error("a path with .. was opened")
		}
		if target, err := d.Readlink("ln"); err != nil || target != "d" {
			t.Errorf("readlink %q %v", target, err)
		}
		if !d.HasChild("d", "e") || d.HasChild("ln", "e") {
			t.Error("HasChild")
		}
		return nil
	})
}

func TestScanVanishedFolder(t *testing.T) {
	f := newFixture(t)
	f.file("a/b/c.txt", "data c.txt")
	var seen []string
	var mu sync.Mutex
	Scan(f.j, f.root, 1, 0, func(d *ScanDir, _ int) []ScanNext[int] {
		mu.Lock()
		seen = append(seen, d.Rel)
		mu.Unlock()
		if d.Rel == "" {
			os.RemoveAll(f.abs("a"))
			return []ScanNext[int]{{Name: "a"}, {Name: "../escape"}}
		}
		if len(d.Entries) != 0 {
			t.Errorf("vanished folder listed %v", d.Entries)
		}
		if _, err := d.Lstat("b"); err == nil {
			t.Error("stat in a vanished folder")
		}
		return nil
	})
	if strings.Join(seen, ",") != ",a" {
		t.Fatalf("visited %q", seen)
	}
}
