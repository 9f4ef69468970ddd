package gitops

import (
	"context"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	format "github.com/go-git/go-git/v5/plumbing/format/config"
)

// Submodules in status. git shows a checked-out submodule as modified
// (".M") when the commit checked out in it is not the one the index
// records, or when its own worktree has changes, untracked files included
// (submodule.<name>.ignore, default "none"). One that is not checked out
// (an empty folder) is unchanged.

// submoduleCodes marks the submodules of idx that git would show as
// modified in the worktree column.
func (r *Repo) submoduleCodes(ctx context.Context, idx *Index, wt *worktreeState) {
	var modules *format.Config
	for i := range idx.Entries {
		e := &idx.Entries[i]
		if e.Mode != modeGitlink || e.Stage() != 0 || wt.codes[i] != codeUnchanged {
			continue
		}
		if modules == nil {
			data, _ := readAll(r.wfs, ".gitmodules")
			modules = parseConfig(data)
		}
		ignore := r.submoduleIgnore(modules, e.Path)
		if ignore != "all" && r.submoduleChanged(ctx, e.Path, e.Hash, ignore) {
			wt.codes[i] = codeModified
		}
	}
}

// submoduleIgnore is how much of a submodule's state status looks at:
// submodule.<name>.ignore from the repository's config, else from
// .gitmodules, else diff.ignoreSubmodules, else "none".
func (r *Repo) submoduleIgnore(modules *format.Config, path string) string {
	name := path
	for _, s := range modules.Sections {
		if !s.IsName("submodule") {
			continue
		}
		for _, ss := range s.Subsections {
			if ss.Option("path") == path {
				name = ss.Name
			}
		}
	}
	if v := r.cfg.str("submodule", name, "ignore"); v != "" {
		return strings.ToLower(v)
	}
	if v := modules.Section("submodule").Subsection(name).Option("ignore"); v != "" {
		return strings.ToLower(v)
	}
	if v := r.cfg.str("diff", "", "ignoresubmodules"); v != "" {
		return strings.ToLower(v)
	}
	return "none"
}

// submoduleChanged opens the submodule at path (when it is checked out)
// and compares it with the recorded commit.
func (r *Repo) submoduleChanged(ctx context.Context, path string, recorded plumbing.Hash, ignore string) bool {
	sub := r.openSubmodule(path)
	if sub == nil {
		return false
	}
	defer sub.Close()
	h, err := sub.head()
	if err != nil {
		return false
	}
	if h.hash != recorded {
		return true
	}
	if ignore == "dirty" {
		return false
	}
	st, err := sub.Status(ctx)
	if err != nil {
		return false
	}
	for _, e := range st.Entries {
		if ignore == "untracked" && e.X == codeUntracked {
			continue
		}
		return true
	}
	return false
}

// openSubmodule opens the submodule checked out at path, or returns nil.
func (r *Repo) openSubmodule(path string) *Repo {
	abs := r.Abs(path)
	sub, err := Open(r.jail, abs)
	if err != nil {
		return nil
	}
	if sub.top != abs {
		sub.Close() // not checked out: Open found the repository above it
		return nil
	}
	return sub
}

// submoduleHead is the commit checked out in the submodule at path.
func (r *Repo) submoduleHead(path string) (plumbing.Hash, bool) {
	sub := r.openSubmodule(path)
	if sub == nil {
		return plumbing.ZeroHash, false
	}
	defer sub.Close()
	h, err := sub.head()
	if err != nil || h.hash.IsZero() {
		return plumbing.ZeroHash, false
	}
	return h.hash, true
}
