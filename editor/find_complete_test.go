package editor

import (
	"context"
	"fmt"
	"testing"
)

// TestFindExactPathAboveCandidateCap: a file past max_find_candidates (in
// byte order) is still found by its exact path; the cut is reported, not
// silent (issue 12: an existing tracked file was not found even by its
// exact path at 228k files).
func TestFindExactPathAboveCandidateCap(t *testing.T) {
	files := map[string]string{}
	for i := range 60 {
		files[fmt.Sprintf("pkg%02d/file%02d.go", i, i)] = ""
	}
	for _, git := range []bool{false, true} {
		t.Run(fmt.Sprintf("git %v", git), func(t *testing.T) {
			s, root := fsService(t, files, func(c *Config) { c.Limits.MaxFindCandidates = 10 })
			if git {
				fsGit(t, root, "init", "-q")
				fsGit(t, root, "add", "-A")
				fsGit(t, root, "commit", "-qm", "init")
			}
			for _, q := range []string{"pkg55/file55.go", "./pkg55/file55.go"} {
				r, err := s.Find(context.Background(), &FindRequest{Query: q})
				if err != nil {
					t.Fatal(err)
				}
				if got := fsFindPaths(r); len(got) == 0 || got[0] != "pkg55/file55.go" {
					t.Errorf("%q past the candidate cap: %q", q, got)
				}
				if !r.Truncated || r.FromGit != git {
					t.Errorf("%q: truncated %v from_git %v", q, r.Truncated, r.FromGit)
				}
			}
		})
	}
}

// TestFindReadsLargeGitIndex: git's index is read whatever its size: it is
// git's data, not a user file under max_read_bytes (issue 12: a 32 MB index
// was over the 16 MiB read limit, find fell back to a walk and cut it).
func TestFindReadsLargeGitIndex(t *testing.T) {
	files := map[string]string{".gitignore": "ignored/\n"}
	for i := range 400 {
		files[fmt.Sprintf("dir%03d/a-rather-long-file-name-%03d.go", i, i)] = ""
	}
	files["ignored/tracked-anyway.go"] = ""
	s, root := fsService(t, files, func(c *Config) { c.Jail.MaxReadBytes = 4096 })
	fsGit(t, root, "init", "-q")
	fsGit(t, root, "add", "-A")
	fsGit(t, root, "add", "-f", "ignored/tracked-anyway.go")
	fsGit(t, root, "commit", "-qm", "init")
	r, err := s.Find(context.Background(), &FindRequest{Query: "tracked-anyway"})
	if err != nil {
		t.Fatal(err)
	}
	if !r.FromGit || r.Scanned != 402 {
		t.Fatalf("from_git %v, scanned %d: the index (over max_read_bytes) was not read", r.FromGit, r.Scanned)
	}
	if got := fsFindPaths(r); len(got) == 0 || got[0] != "ignored/tracked-anyway.go" {
		t.Fatalf("a tracked file in an ignored folder: %q", got)
	}
}
