package editor

import (
	"path/filepath"
	"strings"

	"github.com/editord/editord/shell"
)

// loc is a path in its two forms: absolute for shell, stored for the record
// and responses (root-relative and "/"-separated, "" for the root itself;
// absolute when outside the root).
type loc struct {
	abs    string
	stored string
}

// locate normalizes a request path once, at the edge of the service.
// Everything below compares stored forms.
func locate(root, p, field string) (loc, error) {
	if strings.IndexByte(p, 0) >= 0 {
		return loc{}, &shell.Error{Code: shell.CodeInvalidArgument, Path: strings.ReplaceAll(p, "\x00", `\0`),
			Message: field + " contains a NUL byte; pass a plain path"}
	}
	abs := p
	if !filepath.IsAbs(p) {
		abs = filepath.Join(root, p)
	}
	abs = filepath.Clean(abs)
	return loc{abs: abs, stored: stored(root, abs)}, nil
}

// locateRequired is locate for a field that must not be empty.
func locateRequired(root, p, field string) (loc, error) {
	if strings.TrimSpace(p) == "" {
		return loc{}, invalid("%s is empty; pass a root-relative path such as \"src/main.go\"", field)
	}
	return locate(root, p, field)
}

// target is the active root and the required path argument p located in
// it: the preamble of every function that takes one path.
func (s *Service) target(p, field string) (root string, l loc, err error) {
	if root, err = s.root(); err != nil {
		return "", loc{}, err
	}
	l, err = locateRequired(root, p, field)
	return root, l, err
}

// stored is the stored form of an absolute, clean path.
func stored(root, abs string) string {
	if abs == root {
		return ""
	}
	if strings.HasPrefix(abs, root+"/") {
		return abs[len(root)+1:]
	}
	if root == "/" {
		return strings.TrimPrefix(abs, "/")
	}
	return abs
}

// display is how a stored path reads in a message: "." for the root.
func display(stored string) string {
	if stored == "" {
		return "."
	}
	return stored
}
