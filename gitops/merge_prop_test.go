package gitops

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestMergeMatchesGitRandom merges random branches with editord and with
// git merge in a copy: the same files (markers included), the same index
// (stages), the same status; and for clean merges the same tree. (git
// merge's content merge is not git merge-file's: it diffs with the
// histogram algorithm and joins conflicts less eagerly; 2 of 150 cases
// differed before editord did the same.)
func TestMergeMatchesGitRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(21))
	cases := 60
	if testing.Short() {
		cases = 8
	}
	for c := range cases {
		t.Run(fmt.Sprint(c), func(t *testing.T) {
			f := newFixture(t)
			files := map[string][]string{}
			for i := range 6 {
				files[fmt.Sprintf("f%d.txt", i)] = randomText(rng, 5+rng.Intn(25), "\n")
			}
			write := func(fs map[string][]string) {
				for p, lines := range fs {
					if lines == nil {
						os.Remove(f.path(p))
						continue
					}
					f.write(p, strings.Join(lines, ""))
				}
			}
			write(files)
			f.commitAll("base")
			branch := func(name string) {
				f.git("switch", "-q", "-C", name, "main")
				fs := map[string][]string{}
				names := make([]string, 0, len(files))
				for p := range files {
					names = append(names, p)
				}
				sort.Strings(names) // the same draws every run
				for _, p := range names {
					lines := files[p]
					switch rng.Intn(6) {
					case 0: // unchanged
					case 1:
						if rng.Intn(3) == 0 {
							fs[p] = nil // deleted
						}
					default:
						fs[p] = mutate(rng, lines, "\n")
					}
				}
				if rng.Intn(3) == 0 {
					fs[fmt.Sprintf("new%d.txt", rng.Intn(2))] = randomText(rng, 3, "\n")
				}
				write(fs)
				f.commitAll(name)
			}
			branch("theirs")
			branch("ours")
			f.git("branch", "-q", "-f", "main", "ours")
			f.git("switch", "-q", "main")
			twin := f.copyRepo()
			res, err := f.open().MergeRef(context.Background(), "theirs", "", nil)
			if err != nil {
				t.Fatal(err)
			}
			_, gerr := gitCmd(twin, "merge", "-q", "--no-edit", "theirs")
			if res.OK != (gerr == nil) {
				t.Fatalf("editord ok %v (%s), git merge ok %v", res.OK, res.Summary, gerr == nil)
			}
			var paths []string
			filepath.Walk(twin, func(p string, info os.FileInfo, err error) error {
				if err == nil && !info.IsDir() && !strings.Contains(p, "/.git/") {
					paths = append(paths, strings.TrimPrefix(p, twin+"/"))
				}
				return nil
			})
			sort.Strings(paths)
			for _, p := range paths {
				if got, want := readMaybe(f.path(p)), readMaybe(filepath.Join(twin, p)); got != want {
					if d := os.Getenv("MERGE_DEBUG"); d != "" {
						base := strings.TrimSpace(f.git("merge-base", "main", "theirs"))
						for _, v := range []string{base, "main", "theirs"} {
							out, _ := gitCmd(f.dir, "show", v+":"+p)
							os.WriteFile(filepath.Join(d, fmt.Sprint(c)+"-"+strings.ReplaceAll(v, "/", "_")[:min(6, len(v))]), []byte(out), 0o644)
						}
					}
					t.Errorf("%s:\n%s\ngit:\n%s", p, got, want)
				}
			}
			if got, want := f.git("ls-files", "-s"), f.gitIn(twin, "ls-files", "-s"); got != want {
				t.Errorf("index:\n%s\ngit:\n%s", got, want)
			}
			if got, want := f.git("status", "--porcelain"), f.gitIn(twin, "status", "--porcelain"); got != want {
				t.Errorf("status:\n%s\ngit:\n%s", got, want)
			}
			if res.OK {
				if got, want := f.git("rev-parse", "HEAD^{tree}"), f.gitIn(twin, "rev-parse", "HEAD^{tree}"); got != want {
					t.Errorf("tree %s, git's %s", got, want)
				}
			}
		})
	}
}

func readMaybe(p string) string {
	b, err := os.ReadFile(p)
	if err != nil {
		return "<absent>"
	}
	return string(b)
}
