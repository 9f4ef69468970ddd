package gitops

import (
	"path/filepath"

	"github.com/editord/editord/shell"
)

// Ignore rules as git applies them to untracked files: core.excludesFile,
// then .git/info/exclude, then each folder's .gitignore, deeper files
// overriding shallower ones. A path inside an excluded folder is excluded
// whatever deeper rules say (git does not even read their .gitignore).

type ignoreLevel struct {
	dir string // the folder the rules are relative to; "" for the top
	p   *shell.Patterns
}

// ignoreCtx is the state a folder visit inherits from its parent.
type ignoreCtx struct {
	levels   []ignoreLevel
	excluded bool // the folder itself (or a parent) is excluded
}

// excluded reports whether rel (a path under the top) is excluded by the
// levels, the deepest level with an opinion deciding.
func (c *ignoreCtx) match(rel string, isDir bool) bool {
	for i := len(c.levels) - 1; i >= 0; i-- {
		l := c.levels[i]
		sub := rel
		if l.dir != "" {
			sub = rel[len(l.dir)+1:]
		}
		if m, ex := l.p.Decide(sub, isDir); m {
			return ex
		}
	}
	return false
}

// child is the context of subfolder rel, with its .gitignore (if any)
// added by the caller.
func (c *ignoreCtx) child(rel string, gitignore []byte) *ignoreCtx {
	if gitignore == nil {
		return c
	}
	p := shell.ParseIgnoreFile(gitignore)
	if p.Len() == 0 {
		return c
	}
	levels := append(c.levels[:len(c.levels):len(c.levels)], ignoreLevel{dir: rel, p: p})
	return &ignoreCtx{levels: levels, excluded: c.excluded}
}

// baseIgnore is the context at the top: the global excludes file and
// .git/info/exclude.
func (r *Repo) baseIgnore() *ignoreCtx {
	c := &ignoreCtx{}
	path, ok := r.cfg.get("core", "", "excludesfile")
	if !ok {
		if x := shell.XDGConfigHome(); x != "" {
			path = filepath.Join(x, "git", "ignore")
		}
	}
	if path != "" {
		if data, err := shell.ReadGitUserFile(path); err == nil {
			c.levels = append(c.levels, ignoreLevel{p: shell.ParseIgnoreFile(data)})
		}
	}
	if data, err := readAll(r.gfs, "info/exclude"); err == nil {
		c.levels = append(c.levels, ignoreLevel{p: shell.ParseIgnoreFile(data)})
	}
	return c
}
