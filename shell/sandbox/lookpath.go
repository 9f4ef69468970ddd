package sandbox

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/editord/editord/shell"
)

// LookPath finds the program name in the folders of pathList (a PATH
// value), as a shell would for the command: a name with a slash is taken
// as it is (and must be absolute). The result is an absolute path to an
// executable regular file.
func LookPath(name, pathList string) (string, error) {
	if strings.Contains(name, "/") {
		if !filepath.IsAbs(name) {
			return "", shell.Errorf(shell.CodeInvalidArgument, name, "program %s is a relative path; give its absolute path or a name found on the PATH", name)
		}
		if err := executable(name); err != nil {
			return "", err
		}
		return name, nil
	}
	for _, dir := range filepath.SplitList(pathList) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue // a relative PATH entry would depend on the folder
		}
		p := filepath.Join(dir, name)
		if executable(p) == nil {
			return p, nil
		}
	}
	return "", shell.Errorf(shell.CodeNotFound, name, "program %s is not on the command's PATH (%s)", name, pathList)
}

func executable(p string) error {
	fi, err := os.Stat(p)
	if err != nil {
		return shell.AsError(err, p)
	}
	if !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 {
		return shell.Errorf(shell.CodeInvalidArgument, p, "%s is not an executable file", p)
	}
	return nil
}
