package gitops

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCommitNothingStageableSaysWhy: when the only changes left are ones
// stage_all cannot add (a path git refuses, like .GIT/config; a deny-glob
// match; a nested repository), the summary names them and why, and never
// advises stage_all: true, which was already given. git add -A refuses
// the .GIT path too.
func TestCommitNothingStageableSaysWhy(t *testing.T) {
	cases := []struct {
		name, path, why string
	}{
		{"dotgit", ".GIT/config", "git refuses"},
		{"dotgit deep", "sub/.Git/hooks/x", "git refuses"},
		{"nested repository", "inner/", "repository of its own"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			f.write("a.txt", "a\n")
			f.commitAll("base")
			if strings.HasSuffix(c.path, "/") {
				os.MkdirAll(f.path(c.path), 0o755)
				f.gitIn(f.path(c.path), "init", "-q")
			} else {
				os.MkdirAll(filepath.Dir(f.path(c.path)), 0o755)
				os.WriteFile(f.path(c.path), []byte("x\n"), 0o644)
			}
			if c.why == "git refuses" {
				if out, err := gitCmd(f.copyRepo(), "add", "-A"); err == nil {
					t.Fatalf("git add -A accepts %s: %s", c.path, out)
				}
			}
			res, err := f.open().Commit(context.Background(), CommitOptions{Message: "m", StageAll: true})
			if err != nil || res.Committed {
				t.Fatalf("commit: %+v %v", res, err)
			}
			if strings.Contains(res.Summary, "with stage_all") || !strings.Contains(res.Summary, strings.TrimSuffix(c.path, "/")) || !strings.Contains(res.Summary, c.why) {
				t.Fatalf("summary %q: want the path %s and %q, and no advice to commit with stage_all", res.Summary, c.path, c.why)
			}
			// Without stage_all, the advice stands.
			res, err = f.open().Commit(context.Background(), CommitOptions{Message: "m"})
			if err != nil || res.Committed || !strings.Contains(res.Summary, "stage_all") {
				t.Fatalf("commit without stage_all: %+v %v", res, err)
			}
		})
	}
}

// TestCommitStageAllNamesWhatItLeftOut: a commit made with stage_all says
// which untracked paths it did not add.
func TestCommitStageAllNamesWhatItLeftOut(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "a\n")
	f.commitAll("base")
	f.write("a.txt", "b\n")
	os.MkdirAll(f.path(".GIT"), 0o755)
	os.WriteFile(f.path(".GIT/config"), []byte("x\n"), 0o644)
	res, err := f.open().Commit(context.Background(), CommitOptions{Message: "m", StageAll: true})
	if err != nil || !res.Committed || !strings.Contains(res.Summary, "not added: .GIT/config, which git refuses") {
		t.Fatalf("commit: %+v %v", res, err)
	}
	if got := f.git("show", "--name-only", "--format=", "HEAD"); got != "a.txt\n" {
		t.Fatalf("committed %q", got)
	}
}
