package gitops

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// randomText makes a file of n lines drawn from a mix of lines that repeat
// (braces, blank lines, common statements) and lines that do not, so that
// the diffs have the ambiguities real code has.
func randomText(rng *rand.Rand, n int, eol string) []string {
	common := []string{"}", "", "\treturn nil", "{", "\t}", "x", "// --", "end"}
	out := make([]string, n)
	for i := range out {
		if rng.Intn(3) == 0 {
			out[i] = common[rng.Intn(len(common))] + eol
		} else {
			out[i] = fmt.Sprintf("line %d %d", rng.Intn(40), rng.Intn(3)) + eol
		}
	}
	return out
}

// mutate applies a few random edits: replace, insert, delete runs.
func mutate(rng *rand.Rand, lines []string, eol string) []string {
	out := append([]string(nil), lines...)
	for range rng.Intn(5) {
		op := rng.Intn(3)
		at := 0
		if len(out) > 0 {
			at = rng.Intn(len(out) + 1)
		}
		n := 1 + rng.Intn(3)
		switch {
		case op == 0 || len(out) == 0: // insert
			ins := randomText(rng, n, eol)
			out = append(out[:at], append(ins, out[at:]...)...)
		case op == 1: // delete
			end := min(at+n, len(out))
			out = append(out[:at], out[end:]...)
		default: // replace
			end := min(at+n, len(out))
			ins := randomText(rng, n, eol)
			out = append(out[:at], append(ins, out[end:]...)...)
		}
	}
	return out
}

func joinText(lines []string, noFinalEOL bool) []byte {
	s := strings.Join(lines, "")
	if noFinalEOL {
		s = strings.TrimRight(s, "\r\n")
	}
	return []byte(s)
}

// gitMergeFile runs git merge-file -p with labels and returns its output
// and conflict count.
func gitMergeFile(t *testing.T, dir string, in Merge3Input, extra ...string) ([]byte, int) {
	t.Helper()
	for name, data := range map[string][]byte{"base": in.Base, "ours": in.Ours, "theirs": in.Theirs} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	args := append([]string{"merge-file", "-p"}, extra...)
	args = append(args, "-L", in.OursLabel, "-L", in.BaseLabel, "-L", in.TheirsLabel, "ours", "base", "theirs")
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	err := cmd.Run()
	n := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		n = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return stdout.Bytes(), n
}

// TestMerge3MatchesGitMergeFile compares Merge3 with git merge-file on 200
// random three-way cases, byte for byte, and the conflict count with its
// exit code; then 40 more in diff3 and zdiff3 styles.
func TestMerge3MatchesGitMergeFile(t *testing.T) {
	needGit(t)
	dir := t.TempDir()
	rng := rand.New(rand.NewSource(13))
	conflicted := 0
	run := func(i int, style MergeStyle, extra ...string) {
		eol := "\n"
		if rng.Intn(10) == 0 {
			eol = "\r\n"
		}
		base := randomText(rng, rng.Intn(30), eol)
		ours, theirs := mutate(rng, base, eol), mutate(rng, base, eol)
		in := Merge3Input{
			Base:      joinText(base, rng.Intn(8) == 0),
			Ours:      joinText(ours, rng.Intn(8) == 0),
			Theirs:    joinText(theirs, rng.Intn(8) == 0),
			OursLabel: "ours", BaseLabel: "base", TheirsLabel: "theirs", Style: style,
		}
		want, wantN := gitMergeFile(t, dir, in, extra...)
		got, n := Merge3(in)
		if !bytes.Equal(got, want) || n != wantN {
			t.Fatalf("case %d (%v): differs from git merge-file (%d conflicts, ours %d)\nbase:\n%q\nours:\n%q\ntheirs:\n%q\ngit:\n%s\nours:\n%s",
				i, extra, wantN, n, in.Base, in.Ours, in.Theirs, want, got)
		}
		if n > 0 {
			conflicted++
		}
	}
	for i := range merge3Cases {
		run(i, StyleMerge)
	}
	if conflicted < 40 {
		t.Fatalf("only %d of 200 cases had conflicts; the generator is too tame", conflicted)
	}
	for i := range 20 {
		run(200+i, StyleDiff3, "--diff3")
	}
	for i := range 20 {
		run(220+i, StyleZDiff3, "--zdiff3")
	}
}

var merge3Cases = 200
