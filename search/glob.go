package search

import (
	"strings"

	"github.com/editord/editord/shell"
)

// globFilter applies include_glob and exclude_glob to root-relative paths.
//
// Globs use .gitignore syntax through shell's matcher: a glob without "/"
// matches a name at any depth ("*.go", "vendor"), one with "/" matches the
// path from the root ("src/**/*.ts"; a leading "/" changes nothing), "**"
// spans any number of folders, and a trailing "/" matches folders only. A
// glob that matches a folder covers everything in it: include_glob ["src"]
// searches under every folder named src, exclude_glob ["testdata"] skips
// them. An include glob starting with "!" excludes, as in ripgrep's -g.
type globFilter struct {
	include, exclude *shell.Patterns

	// The decision for the last folder seen, since paths arrive sorted and
	// a folder's files come together.
	lastDir       string
	lastDirSet    bool
	dirIn, dirOut bool
}

func newGlobFilter(include, exclude []string) (*globFilter, error) {
	var in, out []string
	for _, g := range include {
		if strings.HasPrefix(g, "!") {
			g = g[1:]
			if err := checkGlob(g, "include_glob"); err != nil {
				return nil, err
			}
			out = append(out, escapeGlob(g))
			continue
		}
		if err := checkGlob(g, "include_glob"); err != nil {
			return nil, err
		}
		in = append(in, escapeGlob(g))
	}
	for _, g := range exclude {
		if strings.HasPrefix(g, "!") {
			return nil, invalidf("exclude_glob %q starts with \"!\"; to search only some paths use include_glob instead", g)
		}
		if err := checkGlob(g, "exclude_glob"); err != nil {
			return nil, err
		}
		out = append(out, escapeGlob(g))
	}
	f := &globFilter{}
	if len(in) > 0 {
		f.include = shell.ParsePatterns(in)
	}
	if len(out) > 0 {
		f.exclude = shell.ParsePatterns(out)
	}
	return f, nil
}

func checkGlob(g, field string) error {
	switch {
	case strings.TrimSpace(strings.Trim(g, "/")) == "":
		return invalidf("%s has an empty glob; pass a pattern such as \"*.go\" or \"src/**\"", field)
	case strings.IndexByte(g, 0) >= 0:
		return invalidf("%s glob contains a NUL byte", field)
	}
	return nil
}

// escapeGlob keeps a glob from being read as a .gitignore comment, and
// drops a "./" prefix.
func escapeGlob(g string) string {
	g = strings.TrimPrefix(g, "./")
	if strings.HasPrefix(g, "#") {
		g = `\` + g
	}
	return g
}

// active reports whether any glob was given.
func (f *globFilter) active() bool { return f.include != nil || f.exclude != nil }

// match reports whether the file rel is searched.
func (f *globFilter) match(rel string) bool {
	if !f.active() {
		return true
	}
	dir := ""
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		dir = rel[:i]
	}
	if !f.lastDirSet || dir != f.lastDir {
		f.lastDir, f.lastDirSet = dir, true
		f.dirIn = f.include == nil || (dir != "" && f.include.Excludes(dir, true))
		f.dirOut = f.exclude != nil && dir != "" && f.exclude.Excludes(dir, true)
	}
	if f.dirOut {
		return false
	}
	if f.exclude != nil {
		if m, ex := f.exclude.Decide(rel, false); m && ex {
			return false
		}
	}
	if f.dirIn {
		return true
	}
	m, in := f.include.Decide(rel, false)
	return m && in
}
