package gitops

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

// TestAheadBehindMatchesGit builds a history of branches and merges (many
// commits share a timestamp, which is what trips a date-ordered walk) and
// compares every pair's counts with git rev-list --left-right --count.
func TestAheadBehindMatchesGit(t *testing.T) {
	for seed := range int64(6) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel()
			aheadBehindScenario(t, seed)
		})
	}
}

func aheadBehindScenario(t *testing.T, seed int64) {
	f := newFixture(t)
	rng := rand.New(rand.NewSource(seed))
	f.write("f.txt", "0\n")
	f.commitAll("root")
	branches := []string{"main"}
	for i := range 40 {
		switch op := rng.Intn(4); {
		case op == 0 && len(branches) < 5:
			name := fmt.Sprintf("b%d", i)
			f.git("branch", name, branches[rng.Intn(len(branches))])
			branches = append(branches, name)
		case op == 1 && len(branches) > 1:
			a, b := branches[rng.Intn(len(branches))], branches[rng.Intn(len(branches))]
			if a != b {
				f.git("checkout", "-q", a)
				gitCmd(f.dir, "merge", "-q", "--no-edit", "-X", "theirs", b)
				if out, _ := gitCmd(f.dir, "status", "--porcelain"); out != "" {
					f.git("merge", "--abort")
				}
			}
		default:
			f.git("checkout", "-q", branches[rng.Intn(len(branches))])
			f.write(fmt.Sprintf("f%d.txt", i), fmt.Sprint(i)+"\n")
			f.commitAll(fmt.Sprint("c", i))
		}
	}
	r := f.open()
	hashes := map[string]plumbing.Hash{}
	for _, b := range branches {
		hashes[b] = plumbing.NewHash(strings.TrimSpace(f.git("rev-parse", b)))
	}
	for _, a := range branches {
		for _, b := range branches {
			ahead, behind, err := r.aheadBehind(hashes[a], hashes[b])
			if err != nil {
				t.Fatal(err)
			}
			var ga, gb int
			fmt.Sscan(f.git("rev-list", "--left-right", "--count", a+"..."+b), &ga, &gb)
			if ahead != ga || behind != gb {
				t.Errorf("%s...%s: ours %d/%d, git %d/%d", a, b, ahead, behind, ga, gb)
			}
		}
	}
}
