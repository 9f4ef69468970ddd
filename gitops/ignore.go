package gitops

import (
	"path/filepath"

	"github.com/editord/editord/shell"
)

// Ignore rules as git applies them to untracked files: core.excludesFile,
// then .git/info/exclude, then each folder's .gitignore, deeper files
// overriding shallower ones. A path inside an excluded folder is excluded
// whatever deeper rules say (git does not even read their .gitignore).

// ignoreCtx is the state a folder visit inherits from its parent.
type ignoreCtx struct {
	levels   shell.IgnoreStack
	excluded bool // the folder itself (or a parent) is excluded
}

// match reports whether rel (a path under the top) is excluded by the
// levels, the deepest level with an opinion deciding.
func (c *ignoreCtx) match(rel string, isDir bool) bool {
	return c.levels.Ignored(rel, isDir)
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
	return &ignoreCtx{levels: c.levels.With(rel, p), excluded: c.excluded}
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
			c.levels = c.levels.With("", shell.ParseIgnoreFile(data))
		}
	}
	if data, err := readAll(r.gfs, "info/exclude"); err == nil {
		c.levels = c.levels.With("", shell.ParseIgnoreFile(data))
	}
	return c
}
