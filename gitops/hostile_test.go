package gitops

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/editord/editord/shell"
)

// Hostile repositories: trees crafted byte by byte with git's plumbing
// (hash-object --literally, commit-tree, update-ref), holding entries that
// git's porcelain and fsck refuse. Whatever editord writes from them, not a
// byte under .git may change.

// rawEnt is one entry of a tree written byte by byte.
type rawEnt struct{ mode, name, hash string }

func gitStdin(t testing.TB, dir string, stdin []byte, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(stdin)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %s: %v", strings.Join(args, " "), err)
	}
	return strings.TrimSpace(string(out))
}

// rawTree writes a tree object holding exactly ents, in the order given.
func rawTree(t testing.TB, dir string, ents ...rawEnt) string {
	t.Helper()
	var b bytes.Buffer
	for _, e := range ents {
		fmt.Fprintf(&b, "%s %s\x00", e.mode, e.name)
		raw, err := hex.DecodeString(e.hash)
		if err != nil || len(raw) != 20 {
			t.Fatalf("bad hash %q", e.hash)
		}
		b.Write(raw)
	}
	return gitStdin(t, dir, b.Bytes(), "hash-object", "-w", "-t", "tree", "--literally", "--stdin")
}

func rawBlob(t testing.TB, dir, content string) string {
	t.Helper()
	return gitStdin(t, dir, []byte(content), "hash-object", "-w", "--stdin")
}

// lsTree lists a tree's entries as rawEnts.
func lsTree(t testing.TB, dir, tree string) []rawEnt {
	t.Helper()
	out := gitStdin(t, dir, nil, "ls-tree", "-z", tree)
	var ents []rawEnt
	for _, rec := range strings.Split(out, "\x00") {
		if rec == "" {
			continue
		}
		meta, name, _ := strings.Cut(rec, "\t")
		f := strings.Fields(meta)
		ents = append(ents, rawEnt{mode: strings.TrimLeft(f[0], "0"), name: name, hash: f[2]})
	}
	return ents
}

// hashDir maps every path under dir to a digest of what it is (kind,
// mode, content or link target), to prove a folder byte-identical.
func hashDir(t testing.TB, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			out[rel] = "link " + target
		case fi.IsDir():
			out[rel] = fmt.Sprintf("dir %o", fi.Mode().Perm())
		case fi.Mode().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(data)
			out[rel] = fmt.Sprintf("file %o %x", fi.Mode().Perm(), sum)
		default:
			out[rel] = "other " + fi.Mode().String()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// diffHashes describes how two hashDir maps differ ("" when they do not).
func diffHashes(before, after map[string]string) string {
	var d []string
	for p, h := range before {
		if a, ok := after[p]; !ok {
			d = append(d, "removed "+p)
		} else if a != h {
			d = append(d, "changed "+p)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			d = append(d, "added "+p)
		}
	}
	sort.Strings(d)
	return strings.Join(d, "\n")
}

// worktreeHashes is hashDir of the worktree dir without .git.
func worktreeHashes(t testing.TB, dir string) map[string]string {
	m := hashDir(t, dir)
	for p := range m {
		if p == ".git" || strings.HasPrefix(p, ".git/") {
			delete(m, p)
		}
	}
	return m
}

// hostileCase is one crafted tree: entries added to a commit's root tree
// and the entry a refusal must name.
type hostileCase struct {
	name  string
	ents  func(t testing.TB, dir string) []rawEnt
	names string // what the refusal names
}

const hookScript = "#!/bin/sh\ntouch /tmp/editord-hook-ran\n"

// hooksDir is a tree "hooks/pre-commit" (executable).
func hooksDir(t testing.TB, dir string) string {
	hooks := rawTree(t, dir, rawEnt{"100755", "pre-commit", rawBlob(t, dir, hookScript)})
	return rawTree(t, dir, rawEnt{"40000", "hooks", hooks})
}

// dotGitAs is a folder named name holding hooks/pre-commit.
func dotGitAs(name string) func(t testing.TB, dir string) []rawEnt {
	return func(t testing.TB, dir string) []rawEnt {
		return []rawEnt{{"40000", name, hooksDir(t, dir)}}
	}
}

func hostileCases() []hostileCase {
	cases := []hostileCase{}
	for _, n := range []string{".git", ".GIT", ".Git", ".git.", ".git ", ".git. . ", "git~1", "GIT~1", ".git::$INDEX_ALLOCATION",
		".g\u200cit", "\u200d.git", ".gi\ufefft", ".git\u200e"} {
		cases = append(cases, hostileCase{name: "folder " + n, ents: dotGitAs(n), names: n})
	}
	cases = append(cases,
		hostileCase{name: "symlink gl -> .git and gl/hooks in one tree", names: "gl", ents: func(t testing.TB, dir string) []rawEnt {
			return []rawEnt{{"120000", "gl", rawBlob(t, dir, ".git")}, {"40000", "gl", hooksDir(t, dir)}}
		}},
		hostileCase{name: "nested sub/.git/hooks", names: "sub/.git", ents: func(t testing.TB, dir string) []rawEnt {
			return []rawEnt{{"40000", "sub", rawTree(t, dir, rawEnt{"40000", ".git", hooksDir(t, dir)})}}
		}},
		hostileCase{name: "backslash a\\.git", names: `a\.git`, ents: dotGitAs(`a\.git`)},
		hostileCase{name: ".gitmodules symlink", names: ".gitmodules", ents: func(t testing.TB, dir string) []rawEnt {
			return []rawEnt{{"120000", ".gitmodules", rawBlob(t, dir, ".git/config")}}
		}},
		hostileCase{name: "GITMOD~1 symlink", names: "GITMOD~1", ents: func(t testing.TB, dir string) []rawEnt {
			return []rawEnt{{"120000", "GITMOD~1", rawBlob(t, dir, ".git/config")}}
		}},
		hostileCase{name: "dot-dot", names: "..", ents: func(t testing.TB, dir string) []rawEnt {
			return []rawEnt{{"40000", "..", rawTree(t, dir, rawEnt{"100644", "escaped.txt", rawBlob(t, dir, "x\n")})}}
		}},
		hostileCase{name: "dot", names: `"."`, ents: func(t testing.TB, dir string) []rawEnt {
			return []rawEnt{{"40000", ".", hooksDir(t, dir)}}
		}},
		hostileCase{name: "empty name", names: "empty name", ents: func(t testing.TB, dir string) []rawEnt {
			return []rawEnt{{"100644", "", rawBlob(t, dir, "x\n")}}
		}},
		hostileCase{name: "slash in a name", names: ".git/hooks/pre-commit", ents: func(t testing.TB, dir string) []rawEnt {
			return []rawEnt{{"100755", ".git/hooks/pre-commit", rawBlob(t, dir, hookScript)}}
		}},
		hostileCase{name: "duplicate file", names: "a.txt", ents: func(t testing.TB, dir string) []rawEnt {
			return []rawEnt{{"100644", "a.txt", rawBlob(t, dir, "second a\n")}}
		}},
	)
	return cases
}

// withEntries is a commit on top of parent whose root tree is parent's
// plus ents (sorted by name, as git would list them).
func withEntries(t testing.TB, dir, parent string, ents []rawEnt) string {
	t.Helper()
	all := append(lsTree(t, dir, parent+"^{tree}"), ents...)
	sort.SliceStable(all, func(i, j int) bool { return all[i].name < all[j].name })
	tree := rawTree(t, dir, all...)
	return gitStdin(t, dir, []byte("hostile\n"), "commit-tree", tree, "-p", parent)
}

// wantRefused checks a refusal: a denied error naming the entry.
func wantRefused(t *testing.T, err error, names string) {
	t.Helper()
	if err == nil {
		t.Fatal("not refused")
	}
	if shell.CodeOf(err) != shell.CodeDenied || !strings.Contains(err.Error(), names) || !strings.Contains(err.Error(), "nothing was written") {
		t.Fatalf("refusal %q (code %s) should be denied and name %q", err, shell.CodeOf(err), names)
	}
}

func TestHostilePullRefused(t *testing.T) {
	for _, tc := range hostileCases() {
		if tc.name == "empty name" {
			continue // go-git's fetch refuses to parse such a tree already
		}
		t.Run(tc.name, func(t *testing.T) {
			s := newRemoteSetup(t, func(bare string) string { return "file://" + bare })
			f := s.f
			base := strings.TrimSpace(f.gitIn(s.bare, "rev-parse", "main"))
			evil := withEntries(t, s.bare, base, tc.ents(t, s.bare))
			f.gitIn(s.bare, "update-ref", "refs/heads/main", evil)
			if res := s.sync("fetch", nil); !res.OK {
				t.Fatalf("fetch: %+v", res)
			}
			gitBefore, wtBefore := hashDir(t, f.path(".git")), worktreeHashes(t, f.dir)
			var touched []Touched
			_, err := f.open().Sync(context.Background(), SyncOptions{Action: "pull", Timeout: 20 * time.Second, OnTouch: func(x Touched) { touched = append(touched, x) }})
			if d := diffHashes(gitBefore, hashDir(t, f.path(".git"))); d != "" {
				t.Fatalf(".git changed:\n%s", d)
			}
			wantRefused(t, err, tc.names)
			if d := diffHashes(wtBefore, worktreeHashes(t, f.dir)); d != "" || len(touched) > 0 {
				t.Fatalf("the worktree changed:\n%s\n%v", d, touched)
			}
			if _, err := os.Stat(filepath.Join(filepath.Dir(f.dir), "escaped.txt")); err == nil {
				t.Fatal("a file was written beside the worktree")
			}
		})
	}
}

// A symlink to .git is a valid tree entry (git checks out links, not their
// targets); what git refuses is writing through it. A pull that brings the
// link and a later one that brings a folder of the same name write the
// folder, never .git.
func TestHostilePullSymlinkThenFolder(t *testing.T) {
	s := newRemoteSetup(t, func(bare string) string { return "file://" + bare })
	f := s.f
	base := strings.TrimSpace(f.gitIn(s.bare, "rev-parse", "main"))
	link := withEntries(t, s.bare, base, []rawEnt{{"120000", "gl", rawBlob(t, s.bare, ".git")}})
	f.gitIn(s.bare, "update-ref", "refs/heads/main", link)
	if res := s.sync("pull", nil); !res.OK {
		t.Fatalf("pull of a link: %+v", res)
	}
	if target, err := os.Readlink(f.path("gl")); err != nil || target != ".git" {
		t.Fatalf("gl: %q %v", target, err)
	}
	gitBefore := hashDir(t, f.path(".git"))
	folder := withEntries(t, s.bare, base, dotGitAs("gl")(t, s.bare))
	folder = gitStdin(t, s.bare, []byte("folder\n"), "commit-tree", folder+"^{tree}", "-p", link)
	f.gitIn(s.bare, "update-ref", "refs/heads/main", folder)
	if res := s.sync("pull", nil); !res.OK {
		t.Fatalf("pull of the folder: %+v", res)
	}
	if fi, err := os.Lstat(f.path("gl")); err != nil || !fi.IsDir() || f.read("gl/hooks/pre-commit") != hookScript {
		t.Fatalf("gl is not a folder with the hook file: %v %v", fi, err)
	}
	after := hashDir(t, f.path(".git"))
	for p := range after {
		if strings.HasPrefix(p, "hooks") && gitBefore[p] != after[p] {
			t.Fatalf(".git/%s changed", p)
		}
	}
	f.checkRepo("after the folder replaced the link")
}

// craftStash makes refs/stash point at a stash commit W (parents HEAD, an
// index commit, and with untracked entries a parentless U) whose trees are
// HEAD's plus the given entries.
func craftStash(t testing.TB, f *fixture, tracked, untracked []rawEnt) {
	t.Helper()
	head := strings.TrimSpace(f.git("rev-parse", "HEAD"))
	i := gitStdin(t, f.dir, []byte("index on main\n"), "commit-tree", head+"^{tree}", "-p", head)
	w := withEntries(t, f.dir, head, tracked)
	parents := []string{"-p", head, "-p", i}
	if untracked != nil {
		u := gitStdin(t, f.dir, []byte("untracked files on main\n"), "commit-tree", rawTree(t, f.dir, untracked...))
		parents = append(parents, "-p", u)
	}
	w = gitStdin(t, f.dir, []byte("WIP on main: hostile\n"), append([]string{"commit-tree", w + "^{tree}"}, parents...)...)
	f.git("update-ref", "--create-reflog", "-m", "WIP on main: hostile", "refs/stash", w)
}

func TestHostileStashPopRefused(t *testing.T) {
	type stashCase struct {
		name               string
		tracked, untracked func(t testing.TB, dir string) []rawEnt
		names              string
	}
	var cases []stashCase
	for _, tc := range hostileCases() {
		cases = append(cases, stashCase{name: "tracked " + tc.name, tracked: tc.ents, names: tc.names})
		if tc.name != "duplicate file" {
			cases = append(cases, stashCase{name: "untracked " + tc.name, untracked: tc.ents, names: tc.names})
		}
	}
	// Each tree valid on its own; together they write through a link.
	cases = append(cases, stashCase{name: "link in the tracked tree, hooks in the untracked one", names: "gl/hooks/pre-commit",
		tracked: func(t testing.TB, dir string) []rawEnt {
			return []rawEnt{{"120000", "gl", rawBlob(t, dir, ".git")}}
		},
		untracked: dotGitAs("gl"),
	})
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.write("a.txt", "a\n")
			f.write("dir/b.txt", "b\n")
			f.commitAll("base")
			var tracked, untracked []rawEnt
			if tc.tracked != nil {
				tracked = tc.tracked(t, f.dir)
			}
			if tc.untracked != nil {
				untracked = tc.untracked(t, f.dir)
			}
			craftStash(t, f, tracked, untracked)
			gitBefore, wtBefore := hashDir(t, f.path(".git")), worktreeHashes(t, f.dir)
			var touched []Touched
			res, err := f.open().Stash(context.Background(), StashOptions{Action: "pop", OnTouch: func(x Touched) { touched = append(touched, x) }})
			if err == nil && res != nil && !res.OK {
				t.Fatalf("refused as a result, not an error: %+v", res)
			}
			if d := diffHashes(gitBefore, hashDir(t, f.path(".git"))); d != "" {
				t.Fatalf(".git changed:\n%s", d)
			}
			wantRefused(t, err, tc.names)
			if d := diffHashes(wtBefore, worktreeHashes(t, f.dir)); d != "" || len(touched) > 0 {
				t.Fatalf("the worktree changed:\n%s\n%v", d, touched)
			}
		})
	}
}

// Stash push resets the worktree to HEAD: a hostile HEAD (made by a git
// pull outside editord) is refused before anything is stashed or written.
func TestHostileStashPushRefused(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "a\n")
	f.commitAll("base")
	head := strings.TrimSpace(f.git("rev-parse", "HEAD"))
	evil := withEntries(t, f.dir, head, dotGitAs(".GIT")(t, f.dir))
	f.git("update-ref", "HEAD", evil)
	f.write("a.txt", "local change\n")
	gitBefore, wtBefore := hashDir(t, f.path(".git")), worktreeHashes(t, f.dir)
	_, err := f.open().Stash(context.Background(), StashOptions{Action: "push"})
	if d := diffHashes(gitBefore, hashDir(t, f.path(".git"))); d != "" {
		t.Fatalf(".git changed:\n%s", d)
	}
	wantRefused(t, err, ".GIT")
	if d := diffHashes(wtBefore, worktreeHashes(t, f.dir)); d != "" {
		t.Fatalf("the worktree changed:\n%s", d)
	}
}
