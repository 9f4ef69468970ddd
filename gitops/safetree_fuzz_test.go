package gitops

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/editord/editord/shell"
	"github.com/go-git/go-git/v5/plumbing"
)

// Fuzzing tree entry names, two ways: VerifyEntryName against a plain
// restatement of git's rules (FuzzTreeEntryName), and whole trees built
// from the names written through the one verified path into a real
// repository, after which not a byte under .git and nothing beside the
// worktree may differ (FuzzCheckoutNames).
//
//	go test ./gitops -run '^$' -fuzz FuzzTreeEntryName
//	go test ./gitops -run '^$' -fuzz FuzzCheckoutNames

// entryNameSeeds are the look-alikes git's own tests and CVEs used, and
// their near misses.
var entryNameSeeds = []string{
	".git", ".GIT", ".Git", ".git.", ".git ", ".git. . .", ".git::$INDEX_ALLOCATION", ".git:", "git~1", "GIT~1", "git~1.",
	".g\u200cit", ".g\u200dit", "\u200e.git", ".git\u200f", ".gi\ufefft", ".g\u202eit", ".git\xff", ".g\xffit",
	`a\.git`, `a\git~1`, `.git\x`, ".gitmodules", ".GITMODULES.", "gitmod~1", "gi7eba~1", ".gitmodules::$DATA",
	".", "..", "", "a/b", "a\x00b", "...", ".gitx", ".gitignore", "git", ".gît", ".g\u200bit", " .git", "..git",
	"hooks", "pre-commit", "gl", "a.txt", strings.Repeat("x", 300),
}

const (
	fzRegular = iota
	fzExecutable
	fzSymlink
	fzTree
	fzGitlink
)

var fuzzModes = []uint32{modeRegular, modeExecutable, modeSymlink, modeTree, modeGitlink}

func FuzzTreeEntryName(f *testing.F) {
	for _, s := range entryNameSeeds {
		for m := range fuzzModes {
			f.Add(s, uint8(m))
		}
	}
	f.Fuzz(func(t *testing.T, name string, m uint8) {
		mode := fuzzModes[int(m)%len(fuzzModes)]
		err := VerifyEntryName(name, mode)
		bad := name == "" || name == "." || name == ".." || strings.ContainsAny(name, "/\x00") ||
			plainDotGit(name) || mode == modeSymlink && shell.IsDotGitmodules(name)
		if (err != nil) != bad {
			t.Fatalf("VerifyEntryName(%q, %o) = %v; the plain rules say refused=%v", name, mode, err, bad)
		}
		if !strings.Contains(name, "/") {
			if perr := VerifyPath(name, mode); (perr != nil) != (err != nil) {
				t.Fatalf("VerifyPath(%q) = %v but VerifyEntryName = %v", name, perr, err)
			}
			if perr := VerifyPath("dir/"+name+"/x", modeRegular); perr == nil && err != nil && mode == modeTree {
				t.Fatalf("VerifyPath accepts %q as a folder", name)
			}
		}
		// The worktree filesystem refuses at least what the verifier
		// refuses as .git, and nothing the verifier lets through.
		if err == nil && shell.HasDotGitSegment(name) {
			t.Fatalf("%q passed the verifier but the worktree filesystem refuses it", name)
		}
		if plainDotGit(name) && !shell.HasDotGitSegment(name) {
			t.Fatalf("%q names .git but the worktree filesystem lets it through", name)
		}
	})
}

// plainDotGit restates git's .git spellings simply: on NTFS, a piece (the
// name, or what follows a backslash) cut at ':' and stripped of trailing
// dots and spaces, ASCII case folded, is ".git" or "git~1"; on HFS+ the
// name read up to invalid UTF-8, without its ignorable code points, ASCII
// case folded, is ".git".
func plainDotGit(name string) bool {
	for _, piece := range strings.Split(name, `\`) {
		if i := strings.IndexByte(piece, ':'); i >= 0 {
			piece = piece[:i]
		}
		piece = asciiLower(strings.TrimRight(piece, ". "))
		if piece == ".git" || piece == "git~1" {
			return true
		}
	}
	var b strings.Builder
	for s := name; s != ""; {
		r, n := utf8.DecodeRuneInString(s)
		if r == utf8.RuneError && n <= 1 || r == 0 {
			break
		}
		s = s[n:]
		switch r {
		case 0x200c, 0x200d, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e,
			0x206a, 0x206b, 0x206c, 0x206d, 0x206e, 0x206f, 0xfeff:
			continue
		}
		b.WriteRune(r)
	}
	return asciiLower(b.String()) == ".git"
}

func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

func FuzzCheckoutNames(f *testing.F) {
	needGit(f)
	for _, s := range entryNameSeeds {
		f.Add(s, "hooks", uint8(fzTree), uint8(2))
		f.Add(s, "pre-commit", uint8(fzSymlink), uint8(0))
	}
	f.Add("gl", "gl", uint8(fzTree), uint8(2|8)) // a folder gl and a link gl -> .git: a name twice
	f.Add("gl", "x", uint8(fzSymlink), uint8(0)) // a link to .git alone: allowed
	f.Add("d", ".git", uint8(fzTree), uint8(1))  // d/.git -> ../.git
	f.Add("..", "x", uint8(fzTree), uint8(0))    // out of the worktree
	f.Add("a", "hooks", uint8(fzTree), uint8(2)) // an ordinary folder: written
	fx := newFixture(f)
	parent := filepath.Dir(fx.dir)
	besideBefore := hashDir(f, parent)
	for p := range besideBefore {
		if p == "." || !strings.HasPrefix(p, filepath.Base(fx.dir)+"/") && p != filepath.Base(fx.dir) {
			continue
		}
		delete(besideBefore, p)
	}
	f.Fuzz(func(t *testing.T, n1, n2 string, k1, k2 uint8) {
		if strings.ContainsRune(n1+n2, 0) {
			return // a tree object cannot hold a NUL in a name (FuzzTreeEntryName covers it)
		}
		r, err := Open(fx.jail, fx.dir)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		var written []plumbing.Hash
		obj := func(typ plumbing.ObjectType, data []byte) plumbing.Hash {
			h, err := r.writeObject(typ, data)
			if err != nil {
				t.Fatal(err)
			}
			written = append(written, h)
			return h
		}
		tree := func(ents ...treeEntry) plumbing.Hash {
			var b bytes.Buffer
			for _, e := range ents {
				b.WriteString(strconv.FormatUint(uint64(e.mode), 8) + " " + e.name + "\x00")
				b.Write(e.hash[:])
			}
			return obj(plumbing.TreeObject, b.Bytes())
		}
		blob := func(s string) plumbing.Hash { return obj(plumbing.BlobObject, []byte(s)) }
		hooks := tree(treeEntry{name: "hooks", mode: modeTree, hash: tree(treeEntry{name: "pre-commit", mode: modeExecutable, hash: blob(hookScript)})})
		var inner treeEntry
		switch k2 & 3 {
		case 0:
			inner = treeEntry{name: n2, mode: modeRegular, hash: blob("inner\n")}
		case 1:
			inner = treeEntry{name: n2, mode: modeSymlink, hash: blob("../.git")}
		case 2:
			inner = treeEntry{name: n2, mode: modeTree, hash: hooks}
		case 3:
			inner = treeEntry{name: n2, mode: modeExecutable, hash: blob(hookScript)}
		}
		var top []treeEntry
		switch int(k1) % 5 {
		case fzRegular:
			top = append(top, treeEntry{name: n1, mode: modeRegular, hash: blob("x\n")})
		case fzExecutable:
			top = append(top, treeEntry{name: n1, mode: modeExecutable, hash: blob(hookScript)})
		case fzSymlink:
			top = append(top, treeEntry{name: n1, mode: modeSymlink, hash: blob(".git")})
		case fzTree:
			top = append(top, treeEntry{name: n1, mode: modeTree, hash: tree(inner)})
		case fzGitlink:
			top = append(top, treeEntry{name: n1, mode: modeGitlink, hash: blob("not a commit")})
		}
		if k2&8 != 0 {
			top = append(top, treeEntry{name: n2, mode: modeSymlink, hash: blob(".git")})
		}
		root := tree(top...)
		gitBefore := hashDir(t, fx.path(".git"))
		files, err := r.checkoutFiles(root, "the fuzzed tree")
		if err == nil {
			var changes []worktreeChange
			for p, e := range files {
				changes = append(changes, worktreeChange{Path: p, Entry: e})
			}
			_, _, err = r.applyWorktree(changes, nil)
			if err == nil {
				for p, e := range files {
					checkWritten(t, fx, p, e, r)
				}
			}
		}
		// Denied, or a name too long for the file system (which only the
		// write itself finds out, as with git).
		if err != nil && shell.CodeOf(err) != shell.CodeDenied && !strings.Contains(err.Error(), "too long") {
			t.Fatalf("%q %q %d %d: refused with %v (code %s), not denied", n1, n2, k1, k2, err, shell.CodeOf(err))
		}
		if shell.CodeOf(err) == shell.CodeDenied && len(worktreeHashes(t, fx.dir)) > 1 {
			t.Fatalf("%q %q %d %d: refused (%v) but the worktree holds %v", n1, n2, k1, k2, err, worktreeHashes(t, fx.dir))
		}
		if d := diffHashes(gitBefore, hashDir(t, fx.path(".git"))); d != "" {
			t.Fatalf("%q %q %d %d: .git changed:\n%s", n1, n2, k1, k2, d)
		}
		beside := hashDir(t, parent)
		for p := range beside {
			if p == filepath.Base(fx.dir) || strings.HasPrefix(p, filepath.Base(fx.dir)+"/") {
				delete(beside, p)
			}
		}
		if d := diffHashes(besideBefore, beside); d != "" {
			t.Fatalf("%q %q %d %d: beside the worktree:\n%s", n1, n2, k1, k2, d)
		}
		// Leave the fixture as it was: an empty worktree, no new objects.
		ents, _ := os.ReadDir(fx.dir)
		for _, e := range ents {
			if e.Name() != ".git" {
				os.RemoveAll(filepath.Join(fx.dir, e.Name()))
			}
		}
		for _, h := range written {
			os.Remove(fx.path(".git/objects/" + h.String()[:2] + "/" + h.String()[2:]))
		}
	})
}

// checkWritten checks that a file the verifier let through landed where
// its path says, as itself, with no link on the way.
func checkWritten(t *testing.T, fx *fixture, p string, e treeEntry, r *Repo) {
	t.Helper()
	if e.mode == modeGitlink {
		return
	}
	parts := strings.Split(p, "/")
	for i := 1; i < len(parts); i++ {
		fi, err := os.Lstat(fx.path(strings.Join(parts[:i], "/")))
		if err != nil || !fi.IsDir() {
			t.Fatalf("%s: %s is not a folder (%v)", p, strings.Join(parts[:i], "/"), err)
		}
	}
	want, _ := r.readBlob(e.hash)
	if e.mode == modeSymlink {
		if got, err := os.Readlink(fx.path(p)); err != nil || got != string(want) {
			t.Fatalf("%s: link %q %v", p, got, err)
		}
		return
	}
	if got, err := os.ReadFile(fx.path(p)); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("%s: %q %v", p, got, err)
	}
}

// TestCheckoutNamesSeeds says how many cases the seed corpora hold (for
// docs/reliability.md).
func TestCheckoutNamesSeeds(t *testing.T) {
	t.Log(fmt.Sprintf("FuzzTreeEntryName seeds: %d; FuzzCheckoutNames seeds: %d", len(entryNameSeeds)*len(fuzzModes), 2*len(entryNameSeeds)+5))
}
