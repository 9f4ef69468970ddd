package shell

import (
	"os"
	"testing"
)

// A batch's reads give what single reads give (content, or the same error
// code), through symlinks inside the jail, refused outside it and under
// deny rules, whether their folders are held yet or not; and a folder
// swapped for a symlink out of the jail mid-batch is not followed.
func TestFoldersBatchReadsAsSingleReads(t *testing.T) {
	f := newFixture(t)
	f.file("a/b/x.txt", "x\n")
	f.file("a/b/y.txt", "y\n")
	f.file("a/b/.env", "TOKEN=jail\n")
	f.file("top.txt", "top\n")
	f.link("a/b", "in")
	f.link("../canary", "out")
	f.link("../../canary/secret.txt", "a/b/leak.txt")
	paths := []string{"a/b/x.txt", "a/b/y.txt", "in/x.txt", "a/b/.env", "out/secret.txt", "a/b/leak.txt",
		"a/b/missing.txt", "a/b/x.txt/z", "top.txt", "a/b", "in/y.txt"}
	dirs := NewFolders()
	defer dirs.Close()
	for pass := range 2 { // the second with every folder held
		for _, p := range paths {
			want, wantErr := f.j.ReadFile(f.abs(p), 0)
			got, _, same, err := f.j.ReadFileUnless(dirs, f.abs(p), 0, FileID{})
			if same || CodeOf(err) != CodeOf(wantErr) || string(got.Data) != string(want.Data) {
				t.Fatalf("pass %d, %s: batch read %q, %v (same %v); single read %q, %v", pass, p, got.Data, err, same, want.Data, wantErr)
			}
		}
	}
	if _, ok := dirs.get(f.j.roots[0], "a/b"); !ok {
		t.Fatal("a/b was not held: the batch did not keep its folders")
	}

	// a/b moves away and a symlink to the canary takes its name: the
	// batch holds the folder it opened (now a/c), inside the jail.
	if err := os.Rename(f.abs("a/b"), f.abs("a/c")); err != nil {
		t.Fatal(err)
	}
	f.link("../../canary", "a/b")
	f.file("a/c/secret.txt", "jail's own\n")
	got, _, _, err := f.j.ReadFileUnless(dirs, f.abs("a/b/secret.txt"), 0, FileID{})
	if err != nil || string(got.Data) != "jail's own\n" {
		t.Fatalf("after the swap: %q, %v; want the held folder's file", got.Data, err)
	}
	// A fresh batch resolves the symlink, and refuses it.
	fresh := NewFolders()
	defer fresh.Close()
	if _, _, _, err := f.j.ReadFileUnless(fresh, f.abs("a/b/secret.txt"), 0, FileID{}); CodeOf(err) != CodeOutsideJail {
		t.Fatalf("a fresh batch read a/b/secret.txt through a symlink out of the jail: %v", err)
	}
}
