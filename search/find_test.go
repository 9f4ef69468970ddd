package search

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func findPaths(t *testing.T, e *Engine, root string, opt FindOptions) (*FindResult, []string) {
	t.Helper()
	if opt.Limit == 0 {
		opt.Limit = 1000
	}
	res, err := e.Find(context.Background(), root, opt)
	if err != nil {
		t.Fatal(err)
	}
	return res, paths(res.Matches)
}

func gitRepo(t *testing.T) string {
	t.Helper()
	needGit(t)
	root := tempRoot(t)
	writeTree(t, root, map[string]string{
		".gitignore":             "*.log\nignored-dir/\n",
		"src/tree/mod.rs":        "",
		"src/models/user.rs":     "",
		"tracked-ignored.log":    "",
		"spaces in name.txt":     "",
		"unicodé/ß.txt":          "",
		`quote"d.txt`:            "",
		"gone.txt":               "",
		".env":                   "SECRET=1",
		"certs/server.pem":       "",
		"build/tracked-output.o": "",
		"sub/inner.go":           "",
	})
	git(t, root, "init", "-q")
	git(t, root, "add", "-A")
	git(t, root, "add", "-f", "tracked-ignored.log")
	git(t, root, "commit", "-qm", "init")
	writeTree(t, root, map[string]string{
		"untracked.go":          "",
		"also.log":              "",
		"ignored-dir/x.go":      "",
		"node_modules/m/i.js":   "",
		"sub/untracked-sub.txt": "",
	})
	os.Remove(filepath.Join(root, "gone.txt")) // tracked, deleted from the work tree
	return root
}

func TestFindInRepository(t *testing.T) {
	root := gitRepo(t)
	e := New(openJail(t, root, testDeny, testNoise))
	res, got := findPaths(t, e, root, FindOptions{IncludeUntracked: true})
	want := []string{".gitignore", "build/tracked-output.o", `quote"d.txt`, "spaces in name.txt", "src/models/user.rs",
		"src/tree/mod.rs", "sub/inner.go", "sub/untracked-sub.txt", "tracked-ignored.log", "unicodé/ß.txt", "untracked.go"}
	if !res.FromGit || !reflect.DeepEqual(got, want) || res.Scanned != len(want) || res.Truncated {
		t.Fatalf("from_git %v scanned %d truncated %v\n got %q\nwant %q", res.FromGit, res.Scanned, res.Truncated, got, want)
	}
	res, got = findPaths(t, e, root, FindOptions{IncludeUntracked: false})
	want = []string{".gitignore", "build/tracked-output.o", "gone.txt", `quote"d.txt`, "spaces in name.txt", "src/models/user.rs",
		"src/tree/mod.rs", "sub/inner.go", "tracked-ignored.log", "unicodé/ß.txt"}
	if !res.FromGit || !reflect.DeepEqual(got, want) {
		t.Fatalf("tracked only (git's index as it stands):\n got %q\nwant %q", got, want)
	}
	_, got = findPaths(t, e, root, FindOptions{Query: "mod", IncludeUntracked: true, Limit: 2})
	if !reflect.DeepEqual(got, []string{"src/tree/mod.rs", "src/models/user.rs"}) {
		t.Fatalf("mod: %q", got)
	}
	res, _ = findPaths(t, e, root, FindOptions{Query: "ß", IncludeUntracked: true})
	if len(res.Matches) != 1 || res.Matches[0].Path != "unicodé/ß.txt" || !reflect.DeepEqual(res.Matches[0].Positions, []int{9}) {
		t.Fatalf("unicode: %+v", res.Matches)
	}
}

func TestFindSubfolderOfRepository(t *testing.T) {
	root := gitRepo(t)
	writeTree(t, root, map[string]string{"sub/x.log": "", "sub/deeper/y.go": ""})
	e := New(openJail(t, root, testDeny, testNoise))
	res, got := findPaths(t, e, filepath.Join(root, "sub"), FindOptions{IncludeUntracked: true})
	want := []string{"deeper/y.go", "inner.go", "untracked-sub.txt"}
	if !res.FromGit || !reflect.DeepEqual(got, want) {
		t.Fatalf("subfolder: from_git %v\n got %q\nwant %q", res.FromGit, got, want)
	}
}

func TestFindOutsideRepository(t *testing.T) {
	root := tempRoot(t)
	writeTree(t, root, map[string]string{
		".gitignore": "*.tmp\n", "a.go": "", "b.tmp": "", "x/.gitignore": "!keep.tmp\nlocal/\n",
		"x/keep.tmp": "", "x/drop.tmp": "", "x/local/z.go": "", "node_modules/y.js": "", "k.key": "",
	})
	e := New(openJail(t, root, testDeny, testNoise))
	res, got := findPaths(t, e, root, FindOptions{IncludeUntracked: true})
	want := []string{".gitignore", "a.go", "x/.gitignore", "x/keep.tmp"}
	if res.FromGit || !reflect.DeepEqual(got, want) {
		t.Fatalf("from_git %v\n got %q\nwant %q", res.FromGit, got, want)
	}
}

func TestFindTruncated(t *testing.T) {
	root := tempRoot(t)
	writeTree(t, root, map[string]string{"a": "", "b": "", "c": "", "d": "", "e": ""})
	e := New(openJail(t, root, nil, testNoise))
	res, got := findPaths(t, e, root, FindOptions{MaxCandidates: 3, IncludeUntracked: true})
	if !res.Truncated || res.Scanned != 3 || !reflect.DeepEqual(got, []string{"a", "b", "c"}) {
		t.Fatalf("truncated %v scanned %d %q", res.Truncated, res.Scanned, got)
	}
	res, _ = findPaths(t, e, root, FindOptions{MaxCandidates: 5, IncludeUntracked: true})
	if res.Truncated || res.Scanned != 5 {
		t.Fatalf("exactly at the cap: truncated %v scanned %d", res.Truncated, res.Scanned)
	}
}

// The cache is reused while nothing changes, and every kind of change is
// seen by the next call.
func TestFindFreshness(t *testing.T) {
	root := gitRepo(t)
	e := New(openJail(t, root, testDeny, testNoise))
	opt := FindOptions{IncludeUntracked: true}
	_, before := findPaths(t, e, root, opt)
	s := e.state(root)
	cand, tree := s.cand, s.tree
	findPaths(t, e, root, opt)
	if s.cand != cand || s.tree != tree {
		t.Fatal("a second call with nothing changed rebuilt the candidates")
	}
	has := func(list []string, p string) bool {
		for _, x := range list {
			if x == p {
				return true
			}
		}
		return false
	}
	steps := []struct {
		name  string
		do    func()
		check func(list []string) bool
	}{
		{"create", func() { writeTree(t, root, map[string]string{"src/new_file.rs": ""}) }, func(l []string) bool { return has(l, "src/new_file.rs") }},
		{"create in a new folder", func() { writeTree(t, root, map[string]string{"fresh/dir/f.go": ""}) }, func(l []string) bool { return has(l, "fresh/dir/f.go") }},
		{"delete", func() { os.Remove(filepath.Join(root, "untracked.go")) }, func(l []string) bool { return !has(l, "untracked.go") }},
		{"rename folder", func() { os.Rename(filepath.Join(root, "fresh"), filepath.Join(root, "moved")) }, func(l []string) bool { return has(l, "moved/dir/f.go") && !has(l, "fresh/dir/f.go") }},
		{"gitignore edit", func() {
			f, _ := os.OpenFile(filepath.Join(root, ".gitignore"), os.O_APPEND|os.O_WRONLY, 0)
			f.WriteString("*.rs\n")
			f.Close()
		}, func(l []string) bool { return !has(l, "src/new_file.rs") && has(l, "src/tree/mod.rs") }},
		{"info/exclude", func() {
			os.WriteFile(filepath.Join(root, ".git/info/exclude"), []byte("moved/\n"), 0o644)
		}, func(l []string) bool { return !has(l, "moved/dir/f.go") }},
		{"git rm", func() { git(t, root, "rm", "-q", "--cached", "src/models/user.rs") }, func(l []string) bool { return !has(l, "src/models/user.rs") }},
		{"git add -f", func() { git(t, root, "add", "-f", "also.log") }, func(l []string) bool { return has(l, "also.log") }},
	}
	for _, st := range steps {
		st.do()
		_, got := findPaths(t, e, root, opt)
		if !st.check(got) {
			t.Fatalf("after %s: %q", st.name, got)
		}
	}
	if reflect.DeepEqual(before, nil) {
		t.Fatal("no candidates at all")
	}
}

func TestFindDenyAppliesToIndex(t *testing.T) {
	root := gitRepo(t)
	e := New(openJail(t, root, append(testDeny, "sub/"), testNoise))
	_, got := findPaths(t, e, root, FindOptions{IncludeUntracked: false})
	for _, p := range got {
		if p == ".env" || strings.HasSuffix(p, ".pem") || strings.HasPrefix(p, "sub/") {
			t.Fatalf("denied path %q offered", p)
		}
	}
}

func TestFindEvictsRoots(t *testing.T) {
	root := tempRoot(t)
	var roots []string
	for i := 0; i < maxCachedRoots+2; i++ {
		d := filepath.Join(root, string(rune('a'+i)))
		writeTree(t, d, map[string]string{"f.txt": ""})
		roots = append(roots, d)
	}
	e := New(openJail(t, root, nil, testNoise))
	for _, r := range roots {
		findPaths(t, e, r, FindOptions{IncludeUntracked: true})
	}
	if len(e.roots) != maxCachedRoots {
		t.Fatalf("%d roots cached, want %d", len(e.roots), maxCachedRoots)
	}
}

func TestEngineClose(t *testing.T) {
	root := tempRoot(t)
	writeTree(t, root, map[string]string{"a.go": ""})
	e := New(openJail(t, root, nil, testNoise))
	findPaths(t, e, root, FindOptions{IncludeUntracked: true})
	findPaths(t, e, root, FindOptions{IncludeUntracked: true}) // arms the watches
	e.Close()
	writeTree(t, root, map[string]string{"b.go": ""})
	if _, got := findPaths(t, e, root, FindOptions{IncludeUntracked: true}); !reflect.DeepEqual(got, []string{"a.go", "b.go"}) {
		t.Fatalf("after Close: %q", got)
	}
}
