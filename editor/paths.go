package editor

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/editord/editord/shell"
	"github.com/editord/editord/workspace"
)

// loc is a path in its two forms: absolute for shell, stored for the record
// and responses (root-relative and "/"-separated, "" for the root itself;
// absolute when outside the root).
type loc struct {
	abs    string
	stored string
	// dir: the path was written with a trailing slash ("a/", "a/."),
	// which POSIX reads as naming a folder (checkSlash).
	dir bool
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
	dir := strings.HasSuffix(p, "/") || strings.HasSuffix(p, "/.") || strings.HasSuffix(p, "/..") || p == "." || p == ".."
	return loc{abs: abs, stored: stored(root, abs), dir: dir}, nil
}

// checkSlash applies POSIX's reading of a trailing slash: "a.txt/" names
// a folder, so when a.txt is a file (or a link to one, or a FIFO) the call
// is not_a_directory rather than an operation on the file.
func (s *Service) checkSlash(l loc) error {
	if !l.dir {
		return nil
	}
	if in, err := s.jail.Stat(l.abs); err == nil && in.Kind != shell.KindDir {
		return shell.Errorf(shell.CodeNotADirectory, l.stored, "%s/ ends with a slash, which names a folder, but %s is not one; drop the slash to name it", display(l.stored), display(l.stored))
	}
	return nil
}

// fileOnly refuses a path written as a folder (a trailing slash) where a
// file is written: saving to "new/" must not create a file "new".
func fileOnly(l loc) error {
	if l.dir {
		return shell.Errorf(shell.CodeIsADirectory, l.stored, "%s/ ends with a slash, which names a folder; pass a file path without it", display(l.stored))
	}
	return nil
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
	if l, err = locateRequired(root, p, field); err != nil {
		return "", loc{}, err
	}
	return root, l, s.checkSlash(l)
}

// writeTarget is target for a call that writes through p: when p is
// relative and the shared active root is no longer the one this caller last
// saw, the call is refused with root_changed before anything is touched
// (docs/contract.md §5), instead of writing in a folder the caller never looked
// at. Every function that writes with a path argument calls it (or
// writeRoot) in place of target.
func (s *Service) writeTarget(ctx context.Context, p, field string) (root string, l loc, err error) {
	if root, err = s.writeRoot(ctx, !filepath.IsAbs(p)); err != nil {
		return "", loc{}, err
	}
	if l, err = locateRequired(root, p, field); err != nil {
		return "", loc{}, err
	}
	return root, l, s.checkSlash(l)
}

// writeRoot is the active root for a call that writes; relative says that
// something it writes depends on the root (a relative path, or a git write,
// which finds its repository from the root). Then the root must be the one
// the caller last saw, or the call is refused with root_changed.
//
// A caller that has seen no root yet is not refused: there is nothing it
// could have been surprised by. Its first response naming the root (every
// function that uses the root names it) becomes what it has seen.
func (s *Service) writeRoot(ctx context.Context, relative bool) (string, error) {
	rec := s.store.Load()
	root, err := s.rootOf(rec)
	if err != nil {
		return "", err
	}
	if !relative {
		return root, nil
	}
	seen := CallerFrom(ctx).SeenRoot()
	if seen == "" || seen == root {
		return root, nil
	}
	return "", rootChanged(rec, seen, root)
}

// rootChanged is the refusal of a write whose caller last saw the root
// seen while the active root is now root.
func rootChanged(rec *workspace.Record, seen, root string) error {
	who := "another caller"
	if rec.ActiveRoot == root && rec.RootBy != "" {
		who = rec.RootBy
		if rec.RootAt > 0 {
			who += " at " + time.Unix(rec.RootAt, 0).UTC().Format(time.RFC3339)
		}
	}
	return &shell.Error{Code: shell.CodeRootChanged, Path: root, Message: fmt.Sprintf(
		"the workspace root changed from %s to %s (switched by %s) since you last saw it, so nothing was done: "+
			"a relative path would now land in another folder. Call editor::workspace::get to see the new root and its buffers, "+
			"then repeat the call with paths relative to it (or with absolute paths)", seen, root, who)}
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
