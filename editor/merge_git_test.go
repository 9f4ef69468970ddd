package editor

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Three-way saves agree with git: on random texts, a save guarded by a
// stale version the server handed out writes exactly what
// `git merge-file -p yours base disk` prints when git merges cleanly, and
// when git finds conflicts it is a conflict with the same number of them,
// each holding the lines git puts between its markers, and nothing is
// written.

// tmLines draws n lines from a mix that repeats (braces, blank lines) and
// one that does not, so that the diffs have real code's ambiguities.
func tmLines(rng *rand.Rand, n int, eol string) []string {
	common := []string{"}", "", "\treturn nil", "{", "x", "// --"}
	out := make([]string, n)
	for i := range out {
		if rng.Intn(3) == 0 {
			out[i] = common[rng.Intn(len(common))] + eol
		} else {
			out[i] = fmt.Sprintf("line %d %d", rng.Intn(30), rng.Intn(3)) + eol
		}
	}
	return out
}

// tmMutate makes one to three random edits: insert, delete or replace a run.
func tmMutate(rng *rand.Rand, lines []string, eol string) []string {
	out := append([]string(nil), lines...)
	for range 1 + rng.Intn(3) {
		at := rng.Intn(len(out) + 1)
		n := 1 + rng.Intn(3)
		switch op := rng.Intn(3); {
		case op == 0 || len(out) == 0:
			out = append(out[:at], append(tmLines(rng, n, eol), out[at:]...)...)
		case op == 1:
			out = append(out[:at], out[min(at+n, len(out)):]...)
		default:
			out = append(out[:at], append(tmLines(rng, n, eol), out[min(at+n, len(out)):]...)...)
		}
	}
	return out
}

func tmJoin(lines []string, cut bool) string {
	s := strings.Join(lines, "")
	if cut {
		s = strings.TrimRight(s, "\r\n")
	}
	return s
}

// tmGitMerge runs git merge-file -p on the three texts: its output and
// its conflict count (git's exit status).
func tmGitMerge(t *testing.T, dir, yours, base, disk string) (string, int) {
	t.Helper()
	for name, data := range map[string]string{"yours": yours, "base": base, "disk": disk} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(tcGit(t), "merge-file", "-p", "-L", "yours", "-L", "base", "-L", "disk", "yours", "base", "disk")
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout = &out
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return out.String(), 0
	case errors.As(err, &ee) && ee.ExitCode() > 0 && ee.ExitCode() < 127:
		return out.String(), ee.ExitCode()
	}
	t.Fatalf("git merge-file: %v", err)
	return "", 0
}

// tmGitConflicts cuts git's output into its conflicts: the lines between
// <<<<<<< and =======, and between ======= and >>>>>>>.
func tmGitConflicts(out string) (yours, disk []string) {
	var cur *strings.Builder
	var a, b strings.Builder
	for l := range strings.Lines(out) {
		switch strings.TrimRight(l, "\r\n") {
		case "<<<<<<< yours":
			a.Reset()
			cur = &a
			continue
		case "=======":
			b.Reset()
			cur = &b
			continue
		case ">>>>>>> disk":
			yours, disk = append(yours, a.String()), append(disk, b.String())
			cur = nil
			continue
		}
		if cur != nil {
			cur.WriteString(l)
		}
	}
	return yours, disk
}

// tmSpan is the text of lines span of text.
func tmSpan(text string, sp LineSpan) string {
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines[sp.StartLine-1:sp.StartLine-1+sp.Lines], "")
}

// tmSameBlock compares a region's text with git's block of it, which ends
// with a line end even when the region's last line has none.
func tmSameBlock(region, block string) bool {
	trim := func(s string) string { return strings.TrimSuffix(strings.TrimSuffix(s, "\n"), "\r") }
	return trim(region) == trim(block)
}

func TestThreeWaySaveMatchesGitMergeFile(t *testing.T) {
	tcGit(t)
	e := tcNew(t)
	ctx := context.Background()
	dir := t.TempDir()
	rng := rand.New(rand.NewSource(22))
	cases := 240
	if testing.Short() {
		cases = 200
	}
	var clean, merged, conflicted int
	for i := range cases {
		eol := "\n"
		if i%5 == 4 {
			eol = "\r\n"
		}
		baseLines := tmLines(rng, rng.Intn(25), eol)
		base := tmJoin(baseLines, i%7 == 3)
		disk := tmJoin(tmMutate(rng, baseLines, eol), i%11 == 5)
		yours := tmJoin(tmMutate(rng, baseLines, eol), i%13 == 6)
		path := fmt.Sprintf("m%d.txt", i)
		e.write(path, base)
		o := e.open(path)
		e.write(path, disk) // another program's change
		r, err := e.s.Save(ctx, &SaveRequest{Path: path, Content: yours, ExpectedVersion: &o.Version})
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		want, n := tmGitMerge(t, dir, yours, base, disk)
		got := e.read(path)
		show := func() string {
			return fmt.Sprintf("case %d\nbase %q\ndisk %q\nyours %q\ngit (%d) %q\nreply %+v", i, base, disk, yours, n, want, r)
		}
		if n == 0 {
			clean++
			if !r.Saved || r.Conflict || got != want {
				t.Fatalf("git merges cleanly, the save did not write its result (disk %q)\n%s", got, show())
			}
			if disk != base && r.Version != Version([]byte(want)) {
				t.Fatalf("version %s is not the merged content's\n%s", r.Version, show())
			}
			if r.Merged {
				merged++
				if r.BaseVersion == nil || *r.BaseVersion != o.Version || r.MergedPatch == nil {
					t.Fatalf("merged without base_version or merged_patch\n%s", show())
				}
				if applied := tcGitApply(t, path, yours, *r.MergedPatch); *r.MergedPatch != "" && applied != want {
					t.Fatalf("merged_patch applied to yours gives %q\n%s", applied, show())
				}
			} else if disk != base && yours != disk {
				t.Fatalf("the disk had changed, the save did not say merged\n%s", show())
			}
			continue
		}
		conflicted++
		if !r.Conflict || r.Saved || got != disk {
			t.Fatalf("git finds %d conflicts, the save wrote (disk %q)\n%s", n, got, show())
		}
		if len(r.Conflicts) != n {
			t.Fatalf("%d conflicts, git has %d\n%s", len(r.Conflicts), n, show())
		}
		gy, gd := tmGitConflicts(want)
		for k, c := range r.Conflicts {
			if !tmSameBlock(tmSpan(yours, c.Yours), gy[k]) || !tmSameBlock(tmSpan(disk, c.Theirs), gd[k]) {
				t.Fatalf("conflict %d is yours %q / disk %q, git's is %q / %q\n%s", k, tmSpan(yours, c.Yours), tmSpan(disk, c.Theirs), gy[k], gd[k], show())
			}
		}
		if r.TheirsPatch == nil || r.YoursPatch == nil || r.BaseVersion == nil {
			t.Fatalf("a conflict without the three sides\n%s", show())
		}
		if tcGitApply(t, path, base, *r.TheirsPatch) != disk || tcGitApply(t, path, base, *r.YoursPatch) != yours {
			t.Fatalf("theirs_patch/yours_patch do not go from the base to each side\n%s", show())
		}
	}
	t.Logf("%d cases: %d merged cleanly (%d with both sides changed), %d conflicted", cases, clean, merged, conflicted)
	if merged < cases/5 || conflicted < cases/5 {
		t.Fatalf("the random cases are lopsided: %d merges, %d conflicts of %d", merged, conflicted, cases)
	}
}
