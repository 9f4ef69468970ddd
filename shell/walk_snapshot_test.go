package shell

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

func treeRels(t *FileTree) []string {
	var out []string
	for _, f := range t.Files() {
		out = append(out, f.Rel)
	}
	return out
}

// ageAll sets every folder's and file's times a minute back, so that no
// stamp is too young to vouch for a listing.
func ageAll(t *testing.T, root string) {
	old := time.Now().Add(-time.Minute)
	filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if err == nil {
			os.Chtimes(p, old, old)
		}
		return nil
	})
}

// A tree taken up from a snapshot is the tree a walk gives, whatever
// changed since the snapshot (files and folders added and removed, a
// folder replaced, a .gitignore rewritten in place with the same size), and
// only the folders that changed are listed again.
func TestFileTreeSnapshot(t *testing.T) {
	f := newFixture(t)
	for _, p := range []string{"a/x.go", "a/b/y.go", "a/b/c/z.go", "d/w.go", "d/keep.log", "e/f/g.go", "top.txt", ".gitignore", "a/.gitignore", "secret.pem"} {
		f.file(p, "x\n")
	}
	mustWrite(t, f.abs(".gitignore"), "*.tmp\n", 0o644)
	mustWrite(t, f.abs("a/.gitignore"), "ign/\n", 0o644)
	f.file("a/ign/hidden.go", "x\n")
	ageAll(t, f.root)
	opt := FileTreeOptions{Gitignore: true, Noise: true, NoWatch: true}
	tree, err := f.j.NewFileTree(f.root, opt)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := tree.Snapshot("k")
	if err != nil {
		t.Fatal(err)
	}
	tree.Close()

	// Unchanged: the same files, and no folder listed again.
	before := ftListings.Load()
	loaded, changed, err := f.j.LoadFileTree(f.root, opt, snap, "k")
	if err != nil || changed {
		t.Fatalf("unchanged tree: changed %v, %v", changed, err)
	}
	walked, _ := f.j.NewFileTree(f.root, opt)
	if got, want := treeRels(loaded), treeRels(walked); !slices.Equal(got, want) {
		t.Fatalf("from the snapshot %v, a walk %v", got, want)
	}
	if n := ftListings.Load() - before - int64(walked.Dirs()); n != 0 {
		t.Errorf("taking up an unchanged tree listed %d folders", n)
	}

	// Changed: each kind of change is seen.
	f.file("a/b/new.go", "x\n")
	os.Remove(f.abs("d/w.go"))
	os.RemoveAll(f.abs("e/f"))
	f.file("e/f/other.go", "x\n") // a new folder under the same name
	f.file("h/i/j.go", "x\n")
	f.file("a/b/c/z.tmp", "x\n")
	mustWrite(t, f.abs("a/.gitignore"), "b/c\n", 0o644) // same size, other rules
	old := time.Now().Add(-time.Minute)
	os.Chtimes(f.abs("a/.gitignore"), old, old)
	loaded, changed, err = f.j.LoadFileTree(f.root, opt, snap, "k")
	if err != nil || !changed {
		t.Fatalf("changed tree: changed %v, %v", changed, err)
	}
	walked, _ = f.j.NewFileTree(f.root, opt)
	if got, want := treeRels(loaded), treeRels(walked); !slices.Equal(got, want) {
		t.Fatalf("after changes, from the snapshot %v, a walk %v", got, want)
	}
	if !slices.Contains(treeRels(loaded), "a/ign/hidden.go") || slices.Contains(treeRels(loaded), "a/b/c/z.go") {
		t.Fatalf("the rewritten .gitignore's rules are not applied: %v", treeRels(loaded))
	}
}

// A snapshot of another key, base or jail configuration, or anything that
// is not a snapshot, is refused, never half used.
func TestFileTreeSnapshotRefused(t *testing.T) {
	f := newFixture(t)
	f.file("a/x.go", "x\n")
	opt := FileTreeOptions{Gitignore: true, Noise: true, NoWatch: true}
	tree, err := f.j.NewFileTree(f.root, opt)
	if err != nil {
		t.Fatal(err)
	}
	snap, _ := tree.Snapshot("k")
	if _, _, err := f.j.LoadFileTree(f.root, opt, snap, "other"); !errors.Is(err, errSnapshot) {
		t.Errorf("another key: %v", err)
	}
	if _, _, err := f.j.LoadFileTree(f.root, FileTreeOptions{Gitignore: false, NoWatch: true}, snap, "k"); !errors.Is(err, errSnapshot) {
		t.Errorf("other options: %v", err)
	}
	g, err := Open(Config{Roots: []string{f.root}, Deny: []string{"*.go"}, Noise: defaultNoise})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if _, _, err := g.LoadFileTree(f.root, opt, snap, "k"); !errors.Is(err, errSnapshot) {
		t.Errorf("another deny configuration: %v", err)
	}
	for n := 0; n < len(snap); n += max(1, len(snap)/50) {
		if _, _, err := f.j.LoadFileTree(f.root, opt, snap[:n], "k"); !errors.Is(err, errSnapshot) {
			t.Fatalf("cut at %d of %d: %v", n, len(snap), err)
		}
	}
}
