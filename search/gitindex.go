package search

import (
	"path"
	"sort"
	"strings"
	"time"

	"github.com/editord/editord/gitops"
	"github.com/editord/editord/shell"
)

// repo is the git repository holding a root, found through the jail.
type repo struct {
	top     string // absolute work tree top
	gitDir  string // absolute .git folder (or a linked worktree's git dir)
	common  string // the common dir (info/exclude lives there); gitDir unless linked
	rootRel string // the root relative to top; "" when the root is the top
}

// findRepo looks for .git at the root and upwards, staying inside the jail.
// A .git file ("gitdir: ...", a worktree or submodule) is followed when its
// target is inside the jail. No repository is nil, not an error.
func findRepo(j *shell.Jail, root string) *repo {
	dir := root
	for j.Contains(dir) {
		dotgit := dir + "/.git"
		if dir == "/" {
			dotgit = "/.git"
		}
		if in, err := j.Lstat(dotgit); err == nil {
			r := &repo{top: dir}
			switch in.Kind {
			case shell.KindDir:
				r.gitDir = dotgit
			case shell.KindFile:
				res, err := j.ReadFile(dotgit, 4096)
				if err != nil {
					return nil
				}
				line := strings.TrimSpace(string(res.Data))
				target, ok := strings.CutPrefix(line, "gitdir:")
				if !ok {
					return nil
				}
				target = strings.TrimSpace(target)
				if !path.IsAbs(target) {
					target = path.Join(dir, target)
				}
				if !j.Contains(target) {
					return nil
				}
				r.gitDir = path.Clean(target)
			default:
				return nil
			}
			r.common = r.gitDir
			if res, err := j.ReadFile(r.gitDir+"/commondir", 4096); err == nil {
				c := strings.TrimSpace(string(res.Data))
				if !path.IsAbs(c) {
					c = path.Join(r.gitDir, c)
				}
				if j.Contains(c) {
					r.common = path.Clean(c)
				}
			}
			if root != dir {
				r.rootRel = root[len(dir)+1:]
				if dir == "/" {
					r.rootRel = root[1:]
				}
			}
			return r
		}
		if dir == "/" {
			break
		}
		dir = path.Dir(dir)
	}
	return nil
}

// stamp identifies one state of a file we read (an index, an ignore file).
type stamp struct {
	exists bool
	mtime  int64
	size   int64
	ino    uint64
}

func stampOf(j *shell.Jail, abs string) stamp {
	in, err := j.Stat(abs)
	if err != nil {
		return stamp{}
	}
	return stamp{exists: true, mtime: in.ModNano, size: in.Size, ino: in.Ino}
}

// racy reports whether a stamp read at now is too young to vouch for the
// content (a rewrite within the same clock tick keeps the mtime).
func (s stamp) racy(now time.Time) bool {
	return s.exists && s.mtime > now.Add(-racyWindow).UnixNano()
}

const racyWindow = 2 * time.Second

// indexPaths reads git's index and returns the tracked files under the
// root, root-relative, in byte order, without deny-glob matches,
// submodules or sparse folders. The index is read whatever its size: it is
// git's own data, not a user file under max_read_bytes (a 240,000-file
// repository has a 30 MB index). It is gitops' parse, shared with
// git::status and the other git functions (one copy of every name);
// go-git's decoder, which reads each field through encoding/binary's
// reflection and hashes with sha1cd, took a third of a first editor::find
// at 240,000 files.
func indexPaths(j *shell.Jail, r *repo, root string) ([]string, error) {
	idx, err := gitops.SharedIndex(j, r.top)
	if err != nil {
		return nil, err
	}
	prefix := ""
	if r.rootRel != "" {
		prefix = r.rootRel + "/"
	}
	out := make([]string, 0, len(idx.Entries))
	deny := j.NewDenyChecker(root)
	last := ""
	for i := range idx.Entries {
		e := &idx.Entries[i]
		if e.Gitlink() || e.Tree() {
			continue
		}
		name := e.Path
		if !strings.HasPrefix(name, prefix) {
			continue
		}
		name = name[len(prefix):]
		if name == "" || name == last {
			continue // conflict stages repeat a path
		}
		last = name
		if deny.Denied(name, false) {
			continue
		}
		out = append(out, name)
	}
	if !sort.StringsAreSorted(out) {
		sort.Strings(out)
		out = dedupSorted(out)
	}
	return out, nil
}

func dedupSorted(s []string) []string {
	if len(s) < 2 {
		return s
	}
	w := 1
	for i := 1; i < len(s); i++ {
		if s[i] != s[w-1] {
			s[w] = s[i]
			w++
		}
	}
	return s[:w]
}

// parentFile is an ignore file that applies to the root from above it.
type parentFile struct {
	abs   string
	below string // path from the file's folder down to the root
}

// parentFiles lists, lowest precedence first, the ignore files that apply
// to the root from above it: the repository's info/exclude, then each
// .gitignore from the top down to the root's parent (the root's own
// .gitignore belongs to the tree).
func parentFiles(r *repo) []parentFile {
	if r == nil {
		return nil
	}
	out := []parentFile{{abs: r.common + "/info/exclude", below: r.rootRel}}
	if r.rootRel != "" {
		segs := strings.Split(r.rootRel, "/")
		dir := r.top
		for i := range segs {
			out = append(out, parentFile{abs: dir + "/.gitignore", below: strings.Join(segs[i:], "/")})
			dir = dir + "/" + segs[i]
		}
	}
	return out
}
