package editor

import (
	"slices"
	"testing"
)

// editor::git::stage stages and unstages through the catalog, with paths
// root-relative when the root is a folder inside the repository, and the
// status git prints agrees.
func TestGitStageThroughCatalog(t *testing.T) {
	e := gtNew(t, "sub")
	e.write("sub/a.txt", "a\n")
	e.write("top.txt", "top\n")
	e.commitAll("base")
	e.write("sub/a.txt", "a, changed\n")
	e.write("sub/new.txt", "new\n")
	res := gtMust[GitStageResponse](e, "editor::git::stage", `{"paths": ["a.txt", "new.txt"]}`)
	if !slices.Equal(res.Changed, []string{"a.txt", "new.txt"}) || res.Summary != "staged 2 files: a.txt, new.txt" {
		t.Fatalf("stage: %+v", res)
	}
	if st := e.git("status", "--porcelain"); st != "M  sub/a.txt\nA  sub/new.txt\n" {
		t.Fatalf("git status after stage: %q", st)
	}
	again := gtMust[GitStageResponse](e, "editor::git::stage", `{"paths": ["."]}`)
	if len(again.Changed) != 0 || again.Summary == "" {
		t.Fatalf("staging what is staged: %+v", again)
	}
	res = gtMust[GitStageResponse](e, "editor::git::stage", `{"paths": ["new.txt"], "unstage": true}`)
	if !slices.Equal(res.Changed, []string{"new.txt"}) {
		t.Fatalf("unstage: %+v", res)
	}
	if st := e.git("status", "--porcelain"); st != "M  sub/a.txt\n?? sub/new.txt\n" {
		t.Fatalf("git status after unstage: %q", st)
	}
	if _, err := gtCall[GitStageResponse](e, "editor::git::stage", `{"paths": []}`); tcCode(err) != "invalid_argument" {
		t.Fatalf("no paths: %v", err)
	}
	if _, err := gtCall[GitStageResponse](e, "editor::git::stage", `{"paths": [".env"]}`); tcCode(err) != "denied" {
		t.Fatalf("a denied path: %v", err)
	}
}
