package editor

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// TestReviewWholeWorktree: editor::git::hunks without path is the whole
// change in one call: every changed file with git's own counts (git diff
// HEAD --numstat; untracked files whole), and a patch that git apply turns
// HEAD into the worktree with (issue 26: reviewing one's own change cost a
// status and a call per file).
func TestReviewWholeWorktree(t *testing.T) {
	e := gtNew(t, "")
	e.write("a.go", "package a\n\nfunc A() {}\n")
	e.write("lib/b.go", "package lib\n\nvar x = 1\nvar y = 2\n")
	e.write("gone.txt", "bye\n")
	e.write("img.bin", "\x00\x01")
	e.commitAll("base")
	e.write("a.go", "package a\n\nfunc A() int { return 1 }\n")
	e.write("lib/b.go", "package lib\n\nvar x = 10\n")
	os.Remove(filepath.Join(e.repo, "gone.txt"))
	e.write("lib/new.go", "package lib\n\nfunc New() {}\n")
	e.write("img.bin", "\x00\x02")
	e.git("add", "lib/b.go") // staged and unstaged alike: head sees both

	res := gtMust[GitHunksResponse](e, "editor::git::hunks", `{"against":"head","context_lines":3}`)
	want := map[string]string{"lib/new.go": "3 0"}
	for _, l := range strings.Split(strings.TrimSpace(e.git("diff", "HEAD", "--numstat")), "\n") {
		f := strings.Fields(l)
		if f[0] == "-" {
			want[f[2]] = "binary"
		} else {
			want[f[2]] = f[0] + " " + f[1]
		}
	}
	got := map[string]string{}
	var order []string
	for _, f := range res.Files {
		order = append(order, f.Path)
		if f.Skipped != "" {
			got[f.Path] = f.Skipped
		} else {
			got[f.Path] = fmt.Sprintf("%d %d", f.Added, f.Removed)
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("files %v, want (git diff HEAD --numstat and the untracked file) %v", got, want)
	}
	if !sort.StringsAreSorted(order) || res.LeftOut != 0 || res.Path != "" {
		t.Fatalf("order %v, left_out %d, path %q", order, res.LeftOut, res.Path)
	}

	// The patch makes HEAD the worktree (all but the binary file).
	clone := t.TempDir()
	if out, err := exec.Command("git", "clone", "-q", e.repo, clone).CombinedOutput(); err != nil {
		t.Fatalf("clone: %v\n%s", err, out)
	}
	os.WriteFile(filepath.Join(clone, "review.patch"), []byte(res.Patch), 0o644)
	if out, err := gtGit(clone, "apply", "review.patch"); err != nil {
		t.Fatalf("git apply: %v\n%s\n%s", err, out, res.Patch)
	}
	for _, p := range []string{"a.go", "lib/b.go", "lib/new.go"} {
		b, _ := os.ReadFile(filepath.Join(clone, p))
		if string(b) != e.read(p) {
			t.Errorf("%s after git apply: %q, want %q", p, b, e.read(p))
		}
	}
	if _, err := os.Stat(filepath.Join(clone, "gone.txt")); err == nil {
		t.Error("gone.txt survived the patch")
	}

	// paths narrows; worktree leaves out what is staged.
	lib := gtMust[GitHunksResponse](e, "editor::git::hunks", `{"against":"head","paths":["lib"]}`)
	if len(lib.Files) != 2 || lib.Files[0].Path != "lib/b.go" || lib.Files[1].Path != "lib/new.go" {
		t.Fatalf("paths [lib]: %+v", lib.Files)
	}
	wt := gtMust[GitHunksResponse](e, "editor::git::hunks", `{"against":"worktree"}`)
	for _, f := range wt.Files {
		if f.Path == "lib/b.go" {
			t.Fatalf("against worktree lists lib/b.go, whose change is all staged: %+v", wt.Files)
		}
	}
	if _, err := gtCall[GitHunksResponse](e, "editor::git::hunks", `{"against":"head","path":"a.go","paths":["lib"]}`); err == nil {
		t.Fatal("path and paths together were accepted")
	}
}

// TestReviewBudget: a change bigger than the text budget lists every file,
// keeps the patch within the budget, and says which diffs it left out.
func TestReviewBudget(t *testing.T) {
	e := gtNew(t, "")
	for i := range 12 {
		e.write(fmt.Sprintf("f%02d.txt", i), "x\n")
	}
	e.commitAll("base")
	for i := range 12 {
		e.write(fmt.Sprintf("f%02d.txt", i), strings.Repeat("a changed line "+strconv.Itoa(i)+"\n", 400))
	}
	res := gtMust[GitHunksResponse](e, "editor::git::hunks", `{"against":"head"}`)
	if len(res.Files) != 12 || len(res.Patch) > reviewBudget {
		t.Fatalf("%d files, %d bytes of patch (budget %d)", len(res.Files), len(res.Patch), reviewBudget)
	}
	out := 0
	for _, f := range res.Files {
		if f.Added != 400 || f.Removed != 1 {
			t.Fatalf("%s: +%d -%d, want +400 -1 whether or not its diff is shown", f.Path, f.Added, f.Removed)
		}
		if !f.InPatch {
			out++
			if strings.Contains(res.Patch, "+++ b/"+f.Path) {
				t.Fatalf("%s is in the patch but in_patch is false", f.Path)
			}
		}
	}
	if out == 0 || out != res.LeftOut {
		t.Fatalf("left_out %d, files without their diff %d", res.LeftOut, out)
	}
}
