package watch

import (
	"path"
	"slices"
	"strings"

	"github.com/editord/editord/workspace"
)

// fileSet is the set of files the watcher knows to exist, held as each
// folder's sorted names: at 240,000 files a set of whole paths took 35 MB
// (a path string and a map slot each), these names and slices about 10.
// Dropping or moving a folder touches the folders beneath it, not every
// file of the root.
type fileSet struct {
	dirs map[string][]string // folder (root-relative, "" for the root) -> names
}

func newFileSet() *fileSet { return &fileSet{dirs: map[string][]string{}} }

func (s *fileSet) has(rel string) bool {
	dir, name := splitRel(rel)
	_, ok := slices.BinarySearch(s.dirs[dir], name)
	return ok
}

// add notes rel. The set keeps copies of the folder and name, not rel,
// whose other bytes would stay alive with them.
func (s *fileSet) add(rel string) {
	dir, name := splitRel(rel)
	names, ok := s.dirs[dir]
	i, found := slices.BinarySearch(names, name)
	if found {
		return
	}
	if !ok {
		dir = strings.Clone(dir)
	}
	// A walk lists a folder's names in order: appending is the usual case.
	s.dirs[dir] = slices.Insert(names, i, strings.Clone(name))
}

func (s *fileSet) remove(rel string) {
	dir, name := splitRel(rel)
	names := s.dirs[dir]
	if i, found := slices.BinarySearch(names, name); found {
		if len(names) == 1 {
			delete(s.dirs, dir)
			return
		}
		s.dirs[dir] = slices.Delete(names, i, i+1)
	}
}

// dropUnder forgets every file within r (r itself, when a file).
func (s *fileSet) dropUnder(r string) {
	s.remove(r)
	for d := range s.dirs {
		if workspace.Within(d, r) {
			delete(s.dirs, d)
		}
	}
}

// move renames every file within the folder from to the same place
// within to.
func (s *fileSet) move(from, to string) {
	moved := map[string][]string{}
	for d, names := range s.dirs {
		if n, ok := workspace.Remap(d, from, to); ok {
			moved[n] = names
			delete(s.dirs, d)
		}
	}
	for d, names := range moved {
		for _, name := range names {
			s.add(path.Join(d, name))
		}
	}
}

// keepDirs forgets the files of every folder keep refuses.
func (s *fileSet) keepDirs(keep func(dir string) bool) {
	for d := range s.dirs {
		if !keep(d) {
			delete(s.dirs, d)
		}
	}
}

// each calls fn with every file's root-relative path.
func (s *fileSet) each(fn func(rel string)) {
	for d, names := range s.dirs {
		for _, name := range names {
			fn(path.Join(d, name))
		}
	}
}
