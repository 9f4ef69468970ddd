package gitops

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// The .git property: random sequences of every git write editord makes
// (pull, fetch, push, commit, stash push and pop, undo-commit), against a
// remote that now and then serves hostile trees (every hostileCases entry),
// stashes crafted the same way, and a worktree holding links to .git and
// into it. After each of our writes, every path under .git that changed
// must be one git itself changes for that operation: objects, the refs
// and reflogs it moves, the index, ORIG_HEAD, FETCH_HEAD. hooks/, config,
// info/, HEAD and everything else never change. A new write (issue 13's
// merge, switch, restore) is one more entry in gitWrites.
//
// EDITORD_STRESS=long runs more and longer sequences; GITOPS_SEED as in
// TestStatusProperty.

// gitWrite is one of our operations and the paths under .git git would
// change doing it (prefixes end in "/").
type gitWrite struct {
	name  string
	may   []string
	run   func(p *gitdirProp) string
	count int
}

var (
	fetchMay = []string{"objects/", "refs/remotes/", "logs/refs/remotes/", "FETCH_HEAD", "packed-refs"}
	headMay  = []string{"refs/heads/main", "logs/HEAD", "logs/refs/heads/", "ORIG_HEAD"}
	stashMay = []string{"refs/stash", "logs/refs/stash", "index"}
)

func gitWrites() []*gitWrite {
	sync := func(action string) func(p *gitdirProp) string {
		return func(p *gitdirProp) string {
			res, err := p.f.open().Sync(context.Background(), SyncOptions{Action: action, Timeout: 20 * time.Second})
			return outcome(res != nil && res.OK, err)
		}
	}
	return []*gitWrite{
		{name: "fetch", may: fetchMay, run: sync("fetch")},
		{name: "pull", may: concat(fetchMay, headMay, []string{"index"}), run: sync("pull")},
		{name: "push", may: concat(fetchMay), run: sync("push")},
		{name: "commit", may: concat([]string{"objects/", "index"}, headMay), run: func(p *gitdirProp) string {
			res, err := p.f.open().Commit(context.Background(), CommitOptions{Message: "ours", StageAll: true})
			return outcome(res != nil && res.Committed, err)
		}},
		{name: "stash push", may: concat([]string{"objects/"}, stashMay), run: func(p *gitdirProp) string {
			res, err := p.f.open().Stash(context.Background(), StashOptions{Action: "push", IncludeUntracked: p.rng.Intn(2) == 0})
			return outcome(res != nil && res.OK, err)
		}},
		{name: "stash pop", may: stashMay, run: func(p *gitdirProp) string {
			res, err := p.f.open().Stash(context.Background(), StashOptions{Action: "pop"})
			return outcome(res != nil && res.OK, err)
		}},
		{name: "undo-commit", may: headMay, run: func(p *gitdirProp) string {
			_, _, err := p.f.open().UndoCommit(context.Background())
			return outcome(err == nil, err)
		}},
	}
}

func concat(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

func outcome(ok bool, err error) string {
	switch {
	case err != nil:
		return "error"
	case ok:
		return "ok"
	}
	return "not done"
}

// gitdirProp is one sequence's state.
type gitdirProp struct {
	s          *remoteSetup
	f          *fixture
	rng        *rand.Rand
	lastBenign string // the remote's newest commit without a hostile entry
	n          int
}

// remoteCommit makes a commit on the remote's main on top of lastBenign
// with ents replacing or adding root entries.
func (p *gitdirProp) remoteCommit(ents []rawEnt) string {
	t := p.f.t
	old := lsTree(t, p.s.bare, p.lastBenign+"^{tree}")
	names := map[string]bool{}
	for _, e := range ents {
		names[e.name] = true
	}
	all := ents
	for _, e := range old {
		if !names[e.name] {
			all = append(all, e)
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].name < all[j].name })
	tree := rawTree(t, p.s.bare, all...)
	c := gitStdin(t, p.s.bare, []byte("remote\n"), "commit-tree", tree, "-p", p.lastBenign)
	p.f.gitIn(p.s.bare, "update-ref", "refs/heads/main", c)
	return c
}

// world makes one random change that is not ours: the remote, the
// worktree, a crafted stash. It returns a description.
func (p *gitdirProp) world() string {
	t, f, bare := p.f.t, p.f, p.s.bare
	p.n++
	switch p.rng.Intn(11) {
	case 0: // the remote moves on
		name := fmt.Sprintf("r%d.txt", p.rng.Intn(4))
		p.lastBenign = p.remoteCommit([]rawEnt{{"100644", name, rawBlob(t, bare, fmt.Sprintf("remote %d\n", p.n))}})
		return "remote commit " + name
	case 2: // the remote serves a hostile tree
		cases := hostileCases()
		tc := cases[p.rng.Intn(len(cases))]
		if tc.name == "empty name" {
			return "noop"
		}
		c := withEntries(t, bare, p.lastBenign, tc.ents(t, bare))
		f.gitIn(bare, "update-ref", "refs/heads/main", c)
		return "remote hostile " + tc.name
	case 3: // a link to .git (valid), or a folder of that name
		if p.rng.Intn(2) == 0 {
			p.lastBenign = p.remoteCommit([]rawEnt{{"120000", "gl", rawBlob(t, bare, ".git")}})
			return "remote link gl -> .git"
		}
		p.lastBenign = p.remoteCommit(dotGitAs("gl")(t, bare))
		return "remote folder gl/hooks"
	case 4, 9, 10: // the remote forgets its hostile commit
		f.gitIn(bare, "update-ref", "refs/heads/main", p.lastBenign)
		return "remote reset"
	case 5: // a local edit
		name := []string{"a.txt", "dir/b.txt", "l.txt", "dir/n.txt"}[p.rng.Intn(4)]
		if blocked(f, name) {
			return "noop"
		}
		f.write(name, fmt.Sprintf("local %d\n", p.n))
		return "edit " + name
	case 6: // a local link into .git
		name, target := []string{"gl", "hk", "dir/up"}[p.rng.Intn(3)], []string{".git", ".git/hooks", "../.git"}[p.rng.Intn(3)]
		os.RemoveAll(f.path(name))
		os.MkdirAll(filepath.Dir(f.path(name)), 0o755)
		os.Symlink(target, f.path(name))
		return "link " + name + " -> " + target
	case 7: // a hostile stash
		cases := hostileCases()
		tc := cases[p.rng.Intn(len(cases))]
		if p.rng.Intn(2) == 0 {
			craftStash(t, f, tc.ents(t, f.dir), nil)
		} else {
			craftStash(t, f, []rawEnt{{"120000", "gl", rawBlob(t, f.dir, ".git")}}, dotGitAs("gl")(t, f.dir))
		}
		return "hostile stash " + tc.name
	default: // git catches up with the remote when it can
		gitCmd(f.dir, "merge", "-q", "--ff-only", "origin/main")
		return "git merge --ff-only"
	}
}

// allowed reports whether a change to rel under .git is one git makes for
// the operation.
func allowed(rel string, may []string) bool {
	if strings.HasSuffix(rel, ".lock") {
		return false
	}
	for _, m := range may {
		if rel == strings.TrimSuffix(m, "/") || strings.HasSuffix(m, "/") && strings.HasPrefix(rel, m) ||
			strings.HasPrefix(m, rel+"/") { // a folder on the way to an allowed path
			return true
		}
	}
	return false
}

func TestGitDirProperty(t *testing.T) {
	needGit(t)
	seqs, steps := 6, 30
	if os.Getenv("EDITORD_STRESS") == "long" {
		seqs, steps = 40, 80
	}
	seed := int64(20260715)
	if s := os.Getenv("GITOPS_SEED"); s == "random" {
		seed = time.Now().UnixNano()
	} else if s != "" {
		fmt.Sscan(s, &seed)
	}
	t.Logf("seed %d (GITOPS_SEED=%d reproduces)", seed, seed)
	var mu sync.Mutex
	tally := map[string]map[string]int{}
	for n := range seqs {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			rng := rand.New(rand.NewSource(seed + int64(n)))
			s := newRemoteSetup(t, func(bare string) string { return "file://" + bare })
			p := &gitdirProp{s: s, f: s.f, rng: rng}
			p.lastBenign = strings.TrimSpace(s.f.gitIn(s.bare, "rev-parse", "main"))
			writes := gitWrites()
			var log []string
			for range steps {
				log = append(log, p.world())
				w := writes[rng.Intn(len(writes))]
				before := hashDir(t, s.f.path(".git"))
				res := w.run(p)
				log = append(log, w.name+": "+res)
				mu.Lock()
				if tally[w.name] == nil {
					tally[w.name] = map[string]int{}
				}
				tally[w.name][res]++
				mu.Unlock()
				after := hashDir(t, s.f.path(".git"))
				var bad []string
				for _, d := range strings.Split(diffHashes(before, after), "\n") {
					if d == "" {
						continue
					}
					_, rel, _ := strings.Cut(d, " ")
					if !allowed(rel, w.may) {
						bad = append(bad, d)
					}
				}
				if len(bad) > 0 {
					t.Fatalf("%s changed .git where git would not:\n%s\nsteps: %s", w.name, strings.Join(bad, "\n"), strings.Join(log, "; "))
				}
			}
			// The hostile trees fetched are in the store (as git fetch would keep
			// them); what must hold is that every reachable object is there.
			if out, err := gitCmd(s.f.dir, "fsck", "--connectivity-only", "--no-dangling"); err != nil {
				t.Fatalf("git fsck after %s: %v\n%s", strings.Join(log, "; "), err, out)
			}
		})
	}
	var names []string
	for k := range tally {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		t.Logf("%-12s %v", k, tally[k])
	}
}
