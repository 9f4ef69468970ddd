package editor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCommitSummaryIsGitShortstat: whatever the mode (stage_all, staged
// only, paths, a root commit), the second line of the commit's summary is
// what `git show --shortstat` prints for the commit git recorded. An agent
// checking its work must never read "0 files changed" for a commit that
// holds files (issue 26).
func TestCommitSummaryIsGitShortstat(t *testing.T) {
	big := strings.Repeat("a line of a file over a mebibyte\n", 40_000)
	cases := []struct {
		name    string
		prepare func(e *gtEnv)
		args    string
	}{
		{"root commit", func(e *gtEnv) {
			e.write("a.txt", "one\ntwo\n")
			e.write("sub/b.txt", "three\n")
		}, `{"message":"first"}`},
		{"stage_all after git's own commit (cache-tree valid)", func(e *gtEnv) {
			e.write("a.txt", "one\ntwo\nthree\n")
			e.write("b.txt", "b\n")
			e.commitAll("base")
			e.write("a.txt", "one\n2\nthree\nfour\n")
		}, `{"message":"edit"}`},
		{"staged only (stage_all false)", func(e *gtEnv) {
			e.write("a.txt", "one\ntwo\nthree\n")
			e.write("b.txt", "b\n")
			e.commitAll("base")
			e.write("a.txt", "one\nthree\n")
			e.write("b.txt", "b\nb2\nb3\n")
			e.git("add", "a.txt", "b.txt")
			e.write("c.txt", "not staged\n")
		}, `{"message":"staged","stage_all":false}`},
		{"paths", func(e *gtEnv) {
			e.write("a.txt", "one\n")
			e.write("dir/x.txt", "x\n")
			e.commitAll("base")
			e.write("a.txt", "uno\n")
			e.write("dir/x.txt", "x\ny\n")
			e.write("dir/new.txt", "new\nfile\n")
		}, `{"message":"paths","paths":["dir"]}`},
		{"deletion, rename with an edit, binary, a file over 1 MiB", func(e *gtEnv) {
			e.write("gone.txt", "bye\nbye\n")
			e.write("old/name.go", strings.Repeat("package x // a line that stays\n", 20))
			e.write("img.bin", "\x00\x01\x02")
			e.write("big.txt", big)
			e.commitAll("base")
			os.Remove(filepath.Join(e.repo, "gone.txt"))
			os.RemoveAll(filepath.Join(e.repo, "old"))
			e.write("new/name.go", strings.Repeat("package x // a line that stays\n", 20)+"func f() {}\n")
			e.write("img.bin", "\x00\x03")
			e.write("big.txt", big+"one more\n")
		}, `{"message":"mixed"}`},
		{"insertions only", func(e *gtEnv) {
			e.write("a.txt", "one\n")
			e.commitAll("base")
			e.write("a.txt", "one\ntwo\n")
		}, `{"message":"grow"}`},
		{"deletions only", func(e *gtEnv) {
			e.write("a.txt", "one\ntwo\n")
			e.commitAll("base")
			e.write("a.txt", "one\n")
		}, `{"message":"shrink"}`},
		{"mode only", func(e *gtEnv) {
			e.write("run.sh", "echo hi\n")
			e.commitAll("base")
			os.Chmod(filepath.Join(e.repo, "run.sh"), 0o755)
		}, `{"message":"exec"}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := gtNew(t, "")
			c.prepare(e)
			res := gtMust[GitCommitResponse](e, "editor::git::commit", c.args)
			if !res.Committed {
				t.Fatalf("not committed: %q", res.Summary)
			}
			want := strings.TrimSpace(e.git("show", "--shortstat", "--format=", res.SHA))
			lines := strings.Split(res.Summary, "\n")
			if len(lines) < 2 || strings.TrimSpace(lines[1]) != want {
				t.Fatalf("summary %q\nwant its second line to be git's --shortstat %q", res.Summary, want)
			}
			if !strings.HasPrefix(lines[1], " ") {
				t.Errorf("git indents the stat line by one space: %q", lines[1])
			}
		})
	}
}
