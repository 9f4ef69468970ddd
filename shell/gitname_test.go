package shell

import (
	"os"
	"testing"

	"github.com/go-git/go-billy/v5/util"
)

func TestIsDotGit(t *testing.T) {
	yes := []string{".git", ".GIT", ".gIt", ".git.", ".git ", ".git. .", ".git...", ".git::$INDEX_ALLOCATION", ".git:x",
		"git~1", "GIT~1", "git~1.", "git~1 :", ".git\\x", ".g\u200cit", "\u200c.git", ".git\u200d", ".\u200e\u200fgit", ".gi\ufefft",
		".g\u202ait", ".g\u206fit", ".git\u200c\u200c", ".git\xff", ".git\u200c\xfe."}
	no := []string{"", ".", "..", "git", ".gi", ".gitx", ".git.x", ".gitignore", ".gitmodules", "git~2", "git~1x", "xgit",
		".git\u200bx", ".g\u200bit", "..git", " .git", "\xff.git", ".g\xffit", "a.git", ".gît"}
	for _, n := range yes {
		if !IsDotGit(n) || !HasDotGitSegment(n) || !HasDotGitSegment("a/"+n+"/b") {
			t.Errorf("IsDotGit(%q) = false", n)
		}
	}
	for _, n := range no {
		if IsDotGit(n) || HasDotGitSegment("a/"+n+"/b") {
			t.Errorf("IsDotGit(%q) = true", n)
		}
	}
	// After a backslash (a separator on Windows): the NTFS spellings.
	for _, n := range []string{`a\.git`, `a\.GIT.`, `x\y\git~1`, `\.git`} {
		if !HasDotGitSegment(n) {
			t.Errorf("HasDotGitSegment(%q) = false", n)
		}
	}
	mods := []string{".gitmodules", ".GITMODULES", ".gitmodules.", ".gitmodules ", ".gitmodules::$DATA", "gitmod~1", "GITMOD~4",
		"gi7eba~1", "gi7eba~9", "GI7EB~12", ".g\u200citmodules"}
	for _, n := range mods {
		if !IsDotGitmodules(n) {
			t.Errorf("IsDotGitmodules(%q) = false", n)
		}
	}
	for _, n := range []string{".gitmodule", ".gitmodulesx", "GI7EBA~12", "gitmod~5", "gi7eba~0", "gi7ebb~1", "gitmodules", ".git"} {
		if IsDotGitmodules(n) {
			t.Errorf("IsDotGitmodules(%q) = true", n)
		}
	}
}

// The worktree filesystem never reaches .git, in any spelling, and never
// writes through a symbolic link; the git-dir filesystem still may.
func TestWorktreeFSRefusesDotGit(t *testing.T) {
	f := newFixture(t)
	f.dir("repo/.git/hooks")
	f.file("repo/.git/config", "[core]\n")
	f.file("repo/a.txt", "a\n")
	f.link(".git", "repo/gl")
	f.link("../.git/hooks", "repo/d/hooks")
	f.seal()
	w, err := f.j.WorktreeFS(f.abs("repo"))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for _, name := range []string{".git/config", ".GIT/config", ".git./config", "git~1/config", ".g\u200cit/config", "sub/.git/config"} {
		if _, err := util.ReadFile(w, name); CodeOf(err) != CodeDenied {
			t.Errorf("read %s: %v", name, err)
		}
		if err := util.WriteFile(w, name, []byte("x"), 0o644); CodeOf(err) != CodeDenied {
			t.Errorf("write %s: %v", name, err)
		}
		if _, err := w.Lstat(name); CodeOf(err) != CodeDenied {
			t.Errorf("lstat %s: %v", name, err)
		}
	}
	// Through a link to .git, or to a folder inside it.
	for _, name := range []string{"gl/hooks/pre-commit", "d/hooks/pre-commit"} {
		if err := util.WriteFile(w, name, []byte("#!/bin/sh\n"), 0o755); CodeOf(err) != CodeDenied {
			t.Errorf("write %s: %v", name, err)
		}
		if err := w.MkdirAll(name, 0o755); CodeOf(err) != CodeDenied {
			t.Errorf("mkdir %s: %v", name, err)
		}
		if _, err := w.TempFile(name[:len(name)-len("/pre-commit")], "x"); CodeOf(err) != CodeDenied {
			t.Errorf("temp file in %s: %v", name, err)
		}
		if err := w.Rename("a.txt", name); CodeOf(err) != CodeDenied {
			t.Errorf("rename to %s: %v", name, err)
		}
		if err := w.Symlink("x", name); CodeOf(err) != CodeDenied {
			t.Errorf("symlink %s: %v", name, err)
		}
	}
	if err := w.Chmod("gl", 0o777); CodeOf(err) != CodeDenied {
		t.Errorf("chmod through a link: %v", err)
	}
	if f, err := w.OpenFile("gl", os.O_WRONLY, 0); err == nil {
		f.Close()
		t.Error("opened a link for writing")
	}
	if f.exists("repo/.git/hooks/pre-commit") {
		t.Fatal("a hook was planted")
	}
	// The links themselves are ordinary entries: they can be removed.
	if err := w.Remove("gl"); err != nil {
		t.Fatalf("remove the link: %v", err)
	}
	ents, err := w.ReadDir("")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if e.Name() == ".git" {
			t.Error("ReadDir lists .git")
		}
	}
	// Writing elsewhere works as before.
	if err := util.WriteFile(w, "new/dir/b.txt", []byte("b"), 0o644); err != nil || f.read("repo/new/dir/b.txt") != "b" {
		t.Fatalf("ordinary write: %v", err)
	}
	g, err := f.j.GitFS(f.abs("repo/.git"))
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if _, err := util.ReadFile(g, "config"); err != nil {
		t.Fatalf("the git-dir filesystem reads config: %v", err)
	}
	f.checkCanary()
}

// TestJailRefusesWritesToDotGitSpellings: the jail's writes (save, edit,
// create, move, delete, restore) refuse every spelling git refuses as
// .git, as the worktree filesystem does: on a case-insensitive file system
// .GIT/hooks/pre-commit is .git/hooks/pre-commit. Reads are not refused,
// and names that merely start like it are written.
func TestJailRefusesWritesToDotGitSpellings(t *testing.T) {
	f := newFixture(t)
	f.dir(".git/hooks")
	for _, rel := range []string{".GIT/hooks/pre-commit", ".Git/config", ".git./x", "git~1/x", ".g\u200cit/x", "sub/.GIT/x", ".git"} {
		if _, err := f.j.WriteFile(f.abs(rel), []byte("x"), WriteOptions{}); CodeOf(err) != CodeDenied {
			t.Errorf("write %q: %v, want denied", rel, err)
		}
		if _, err := f.j.Mkdir(f.abs(rel), true); CodeOf(err) != CodeDenied {
			t.Errorf("mkdir %q: %v, want denied", rel, err)
		}
	}
	for _, rel := range []string{".github/x", ".gitignore", ".git-blame-ignore-revs", "git/x", ".gitx/y"} {
		if _, err := f.j.WriteFile(f.abs(rel), []byte("x"), WriteOptions{Parents: true}); err != nil {
			t.Errorf("write %q: %v", rel, err)
		}
	}
	f.file(".GIT/readme", "a\n")
	if _, err := f.j.ReadFile(f.abs(".GIT/readme"), 0); err != nil {
		t.Errorf("read .GIT/readme: %v", err)
	}
}

// TestUnderDotGit: a segment exactly ".git" is git's folder here; its
// look-alikes, which writes refuse (HasDotGitSegment), are folders like
// any other to a walk and the watcher.
func TestUnderDotGit(t *testing.T) {
	for p, want := range map[string]bool{
		".git": true, ".git/config": true, "a/.git": true, "sub/.git/hooks/x": true,
		"": false, "a": false, ".GIT/x": false, "a/.git./b": false, "x.git/y": false, ".gitignore": false, "a/git/b": false,
	} {
		if got := UnderDotGit(p); got != want {
			t.Errorf("UnderDotGit(%q) = %v, want %v", p, got, want)
		}
	}
}
