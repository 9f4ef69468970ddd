package editor

import (
	"strings"
	"testing"
)

// TestGitStashShowPaths: show with paths gives only their part of the
// stash's patch (the files git diff stash@{0}^1 stash@{0} -- path names), so a patch too large
// for one reply can be read file by file; paths is still refused for the
// actions that take none.
func TestGitStashShowPaths(t *testing.T) {
	e := gtNew(t, "")
	e.write("a.txt", "a\n")
	e.write("src/b.txt", "b\n")
	e.write("src/sub/c.txt", "c\n")
	e.write("srcx.txt", "x\n")
	e.commitAll("base")
	e.write("a.txt", "A\n")
	e.write("src/b.txt", "B\n")
	e.write("src/sub/c.txt", "C\n")
	e.write("srcx.txt", "X\n")
	e.git("stash", "push", "-q", "-m", "wip")

	all := gtMust[GitStashResponse](e, "editor::git::stash", `{"action": "show"}`)
	if len(all.Files) != 4 {
		t.Fatalf("show: %+v", all)
	}
	sh := gtMust[GitStashResponse](e, "editor::git::stash", `{"action": "show", "paths": ["src"]}`)
	want := e.git("diff", "--name-only", "stash@{0}^1", "stash@{0}", "--", "src")
	if strings.Join(sh.Files, ",")+"\n" != strings.ReplaceAll(want, "\n", ",")[:len(want)-1]+"\n" || strings.Join(sh.Files, ",") != "src/b.txt,src/sub/c.txt" || !strings.Contains(sh.Patch, "+B\n") || !strings.Contains(sh.Patch, "+C\n") || strings.Contains(sh.Patch, "srcx") || strings.Contains(sh.Patch, "a.txt") {
		t.Fatalf("show src: %+v\ngit:\n%s", sh, want)
	}
	sh = gtMust[GitStashResponse](e, "editor::git::stash", `{"action": "show", "paths": ["a.txt"]}`)
	if strings.Join(sh.Files, ",") != "a.txt" || !strings.Contains(sh.Patch, "-a\n+A\n") || strings.Count(sh.Patch, "diff --git") != 1 {
		t.Fatalf("show a.txt: %+v", sh)
	}
	if _, err := gtCall[GitStashResponse](e, "editor::git::stash", `{"action": "drop", "paths": ["a.txt"]}`); err == nil {
		t.Fatal("drop with paths was accepted")
	}
}

// TestGitStashShowFilesRootRelative: with the root a subfolder of the
// repository, show names files as every git function does (root-relative,
// absolute outside the root); paths select root-relative too.
func TestGitStashShowFilesRootRelative(t *testing.T) {
	e := gtNew(t, "pkg")
	e.write("pkg/a.txt", "a\n")
	e.write("top.txt", "t\n")
	e.commitAll("base")
	e.write("pkg/a.txt", "b\n")
	e.write("top.txt", "t2\n")
	e.git("stash", "push", "-q")
	sh := gtMust[GitStashResponse](e, "editor::git::stash", `{"action": "show"}`)
	if want := "a.txt," + e.repo + "/top.txt"; strings.Join(sh.Files, ",") != want {
		t.Fatalf("files %v, want %s", sh.Files, want)
	}
	sh = gtMust[GitStashResponse](e, "editor::git::stash", `{"action": "show", "paths": ["a.txt"]}`)
	if strings.Join(sh.Files, ",") != "a.txt" || !strings.Contains(sh.Patch, "diff --git a/pkg/a.txt b/pkg/a.txt") {
		t.Fatalf("show a.txt: %+v", sh)
	}
}
