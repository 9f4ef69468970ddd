package shell

import (
	"os"
	"path/filepath"
)

// RepositoryAbove finds the folder holding a .git (a folder or a gitdir
// file) in dir or above it, outside the jail: the repository a jail root
// sits inside when the jail ends below the repository's top. It only
// looks whether that name exists, reads nothing, and is used to say why
// git functions are off rather than to open anything there.
func RepositoryAbove(dir string) (string, bool) {
	dir = filepath.Clean(dir)
	for {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return dir, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}
