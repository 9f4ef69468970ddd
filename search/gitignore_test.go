package search

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// A workspace exercising .gitignore: negation, folder patterns, nested
// files, anchored patterns, "**", classes, escapes, info/exclude.
var ignoreFixture = map[string]string{
	".gitignore": "# comment\n*.log\n!important.log\n/build-out/\ndocs/*.tmp\n**/cache/\ntmp*\n!tmp-keep.txt\n" +
		"\\#hash.txt\ntrailing\\ \n*.[oa]\nnested-neg/\ndata/**/*.bin\n[Bb]in/\nfoo/bar\na/**/b\n",
	"a.log": "", "important.log": "", "sub/b.log": "", "sub/important.log": "",
	"build-out/x": "", "sub/build-out/y": "", "docs/a.tmp": "", "docs/sub/b.tmp": "", "docs/ok.md": "",
	"x/cache/c": "", "cache/d": "", "tmpfile": "", "tmp-keep.txt": "", "sub/tmpdir/e": "",
	"#hash.txt": "", "trailing ": "", "trailing": "", "lib.o": "", "lib.a": "", "lib.c": "",
	"nested-neg/f": "", "data/a/b/c.bin": "", "data/c.bin": "", "data/keep.txt": "", "data/c.bin.txt": "",
	"Bin/x": "", "bin/y": "", "binary/z": "", "foo/bar": "", "q/foo/bar": "", "foo/baz": "",
	"a/b": "", "a/x/b": "", "a/x/y/b": "", "a/x/c": "",
	"sub/.gitignore": "!*.log\nlocal/\n/anch.txt\ndeep/**/x.txt\n",
	"sub/local/z":    "", "sub/x/local/z": "", "sub/anch.txt": "", "sub/y/anch.txt": "",
	"sub/deep/a/b/x.txt": "", "sub/deep/x.txt": "", "sub/deep/y.txt": "",
	"sub/inner/.gitignore": "*\n!*/\n!*.keep\n",
	"sub/inner/a.txt":      "", "sub/inner/b.keep": "", "sub/inner/d/e.keep": "", "sub/inner/d/f.txt": "",
	"excluded-by-info.txt": "", "sub/excluded-by-info.txt": "",
	"spaces in name.txt": "", "unicodé/ß.txt": "", `quote"d.txt`: "",
}

func ignoreRepo(t *testing.T) string {
	t.Helper()
	needGit(t)
	root := tempRoot(t)
	writeTree(t, root, ignoreFixture)
	git(t, root, "init", "-q")
	if err := os.WriteFile(filepath.Join(root, ".git/info/exclude"), []byte("excluded-by-info.txt\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

// walkFiles lists what the engine's walk sees under root.
func walkFiles(t *testing.T, e *Engine, root string) []string {
	t.Helper()
	s := e.state(root)
	s.mu.Lock()
	defer s.mu.Unlock()
	f, err := s.refresh(findRepo(s.j, root), true, false)
	if err != nil {
		t.Fatal(err)
	}
	out := []string{}
	for _, tf := range f.tree.Files() {
		out = append(out, tf.Rel)
	}
	return out
}

func sorted(s []string) []string {
	s = append([]string{}, s...)
	sort.Strings(s)
	return s
}

func TestGitignoreMatchesGit(t *testing.T) {
	root := ignoreRepo(t)
	for _, sub := range []string{"", "sub", "sub/inner", "docs"} {
		t.Run("root="+sub, func(t *testing.T) {
			dir := filepath.Join(root, sub)
			// Only .git is a noise folder here, and nothing is denied, so the
			// walk must list exactly git's untracked, non-ignored files.
			e := New(openJail(t, root, nil, []string{".git"}))
			got := walkFiles(t, e, dir)
			want := gitLines(t, dir, "ls-files", "-z", "--others", "--exclude-standard")
			if !reflect.DeepEqual(sorted(got), sorted(want)) {
				t.Fatalf("walk differs from git ls-files --others --exclude-standard:\n got %q\nwant %q", sorted(got), sorted(want))
			}
			if !sort.StringsAreSorted(got) {
				t.Fatalf("walk not in byte order: %q", got)
			}
		})
	}
}

// Every file on disk is either listed by the walk or ignored according to
// git check-ignore, never both.
func TestGitignoreMatchesCheckIgnore(t *testing.T) {
	root := ignoreRepo(t)
	e := New(openJail(t, root, nil, []string{".git"}))
	listed := map[string]bool{}
	for _, p := range walkFiles(t, e, root) {
		listed[p] = true
	}
	var all []string
	for p := range ignoreFixture {
		all = append(all, p)
	}
	sort.Strings(all)
	stdinFile := filepath.Join(t.TempDir(), "paths")
	os.WriteFile(stdinFile, []byte(strings.Join(all, "\x00")+"\x00"), 0o644)
	ignored := map[string]bool{}
	cmdOut := gitCheckIgnore(t, root, stdinFile)
	for _, p := range cmdOut {
		ignored[p] = true
	}
	for _, p := range all {
		if listed[p] == ignored[p] {
			t.Errorf("%q: walk lists it %v, git check-ignore ignores it %v", p, listed[p], ignored[p])
		}
	}
}

func gitCheckIgnore(t *testing.T, dir, stdinFile string) []string {
	t.Helper()
	in, err := os.Open(stdinFile)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	cmd := gitCmd(t, dir, "check-ignore", "--stdin", "-z")
	cmd.Stdin = in
	out, _ := cmd.Output() // exit 1 when nothing is ignored
	var paths []string
	for _, p := range strings.Split(string(out), "\x00") {
		if p != "" {
			paths = append(paths, p)
		}
	}
	return paths
}
