package gitops

import (
	"fmt"
	"strings"

	"github.com/editord/editord/shell"
)

// Tree entry names that must never reach the worktree, as git's fsck and
// verify_path (read-cache.c) refuse them: a remote controls every byte of
// the trees it serves (git accepts such pushes, receive.fsckObjects being
// off by default), and an entry named ".git" would write into the
// repository's own folder: hooks run by the next commit, a config that
// starts programs. checkout.go uses these checks on every tree an
// operation writes.

// UnsafePathError is a tree entry, or a path made of entries, that git
// refuses to check out. Path is the repository path of the entry.
type UnsafePathError struct {
	Path string
	Why  string
}

func (e *UnsafePathError) Error() string {
	return fmt.Sprintf("%q: %s", e.Path, e.Why)
}

// VerifyEntryName checks one tree entry's name (mode is its git mode). It
// refuses what git refuses: an empty name, "." and "..", a name holding a
// "/" or a NUL byte, a name any file system git protects would read as
// .git (".git" in any case, ".git." and ".git " and "git~1" on NTFS,
// ".g\u200cit" and the other ignorable code points on HFS+, also after a
// backslash, which Windows reads as a separator), and a .gitmodules that
// is a symbolic link (git would read it through the link).
func VerifyEntryName(name string, mode uint32) error {
	if why := entryNameProblem(name, mode); why != "" {
		return &UnsafePathError{Path: name, Why: why}
	}
	return nil
}

// VerifyPath checks a whole "/"-separated repository path as git's
// verify_path does: every segment must pass VerifyEntryName (the folders
// as trees, the last one with mode).
func VerifyPath(p string, mode uint32) error {
	if p == "" {
		return &UnsafePathError{Path: p, Why: "an empty path"}
	}
	rest := p
	for {
		seg, tail, more := strings.Cut(rest, "/")
		m := mode
		if more {
			m = modeTree
		}
		if why := entryNameProblem(seg, m); why != "" {
			return &UnsafePathError{Path: p, Why: why}
		}
		if !more {
			return nil
		}
		rest = tail
	}
}

// entryNameProblem says why name cannot be written, or "".
func entryNameProblem(name string, mode uint32) string {
	switch {
	case name == "":
		return "an entry with an empty name"
	case name == ".", name == "..":
		return fmt.Sprintf("an entry named %q", name)
	case strings.IndexByte(name, 0) >= 0:
		return "a NUL byte in an entry's name"
	case strings.IndexByte(name, '/') >= 0:
		return "a \"/\" inside an entry's name"
	case shell.HasDotGitSegment(name):
		return fmt.Sprintf("the entry %q names the repository's .git folder (in a spelling some file system reads as .git)", name)
	case mode == modeSymlink && shell.IsDotGitmodules(name):
		return fmt.Sprintf("the entry %q is a .gitmodules that is a symbolic link", name)
	}
	return ""
}

// verifyTreeEntries checks the entries of one tree object: every name,
// and no name twice (a file and a folder of one name included: checked
// out, one would be written through the other).
func verifyTreeEntries(prefix string, ents []treeEntry) error {
	seen := make(map[string]struct{}, len(ents))
	for _, e := range ents {
		p := joinPath(prefix, e.name)
		if why := entryNameProblem(e.name, e.mode); why != "" {
			return &UnsafePathError{Path: p, Why: why}
		}
		if _, dup := seen[e.name]; dup {
			return &UnsafePathError{Path: p, Why: fmt.Sprintf("the name %q appears twice in one tree", e.name)}
		}
		seen[e.name] = struct{}{}
	}
	return nil
}
