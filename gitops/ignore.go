package gitops

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"

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
// .git/info/exclude. core.excludesFile is taken from the user's and the
// system's configuration only: a repository's own config could name any
// file on the machine, outside the jail (and git reads it with the user's
// rights). A missing file has no rules; one that is there but is not a
// regular file (a FIFO would hang git) is an error naming it.
func (r *Repo) baseIgnore() (*ignoreCtx, error) {
	c := &ignoreCtx{}
	path, ok := r.cfg.user().get("core", "", "excludesfile")
	if !ok {
		if x := shell.XDGConfigHome(); x != "" {
			path = filepath.Join(x, "git", "ignore")
		}
	}
	if path != "" {
		if !filepath.IsAbs(path) && !strings.HasPrefix(path, "~/") {
			path = filepath.Join(r.top, path) // git reads it from the top
		}
		data, err := shell.ReadGitUserFile(path)
		switch {
		case err == nil:
			c.levels = c.levels.With("", shell.ParseIgnoreFile(data))
		case notRegular(err):
			return nil, gitErr(r.top, "read core.excludesFile", err)
		}
	}
	data, err := readAll(r.gfs, "info/exclude")
	switch {
	case err == nil:
		c.levels = c.levels.With("", shell.ParseIgnoreFile(data))
	case notRegular(err):
		return nil, gitErr(r.top, "read .git/info/exclude", err)
	}
	return c, nil
}

// notRegular reports an error of shell's for a path that is there but is
// not a regular file (a FIFO, a device, a folder): unlike a missing file,
// it is reported, never read as empty.
func notRegular(err error) bool {
	return errors.Is(err, fs.ErrInvalid) || shell.CodeOf(err) == shell.CodeIsADirectory
}
