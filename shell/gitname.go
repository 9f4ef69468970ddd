package shell

import (
	"strings"
	"unicode/utf8"
)

// Names git's own data hides behind. A tree written to the worktree must
// never create, or write through, anything a file system would take for
// the repository's .git folder: on Linux that is ".git" in any case (git
// refuses every case spelling, to protect clones on case-insensitive file
// systems); on Windows (NTFS) also ".git" followed by dots and spaces,
// ".git::$INDEX_ALLOCATION" and the 8.3 short name "git~1"; on macOS (HFS+)
// also ".git" with Unicode code points HFS+ ignores (U+200C and friends).
// These predicates are git's (path.c: is_ntfs_dotgit, is_hfs_dotgit,
// is_ntfs_dotgitmodules), applied on every platform as git's fsck does.

// IsDotGit reports whether a path segment names the .git folder on some
// file system git protects: any case, NTFS and HFS+ look-alikes included.
func IsDotGit(name string) bool {
	return isNTFSDotGit(name) || isHFSDot(name, "git")
}

// IsDotGitmodules reports whether a path segment names .gitmodules on some
// file system git protects (a symlink there is refused, as git does).
func IsDotGitmodules(name string) bool {
	return isNTFSDotGeneric(name, "gitmodules", "gi7eba") || isHFSDot(name, "gitmodules")
}

// UnderDotGit reports whether a "/"-separated path is a folder named
// exactly ".git" or lies under one: where git keeps this repository's own
// files, which walks skip, the watcher ignores and the deny globs never
// match. It is not the test writes are refused by: that is HasDotGitSegment,
// every name some file system may take for .git.
func UnderDotGit(p string) bool {
	for seg := range strings.SplitSeq(p, "/") {
		if seg == ".git" {
			return true
		}
	}
	return false
}

// HasDotGitSegment reports whether any "/"-separated segment of p (or,
// within a segment, any part after a backslash, which Windows reads as a
// separator) names .git as IsDotGit does.
func HasDotGitSegment(p string) bool {
	for seg := range strings.SplitSeq(p, "/") {
		if IsDotGit(seg) {
			return true
		}
		for i := strings.IndexByte(seg, '\\'); i >= 0; i = strings.IndexByte(seg, '\\') {
			seg = seg[i+1:]
			if isNTFSDotGit(seg) {
				return true
			}
		}
	}
	return false
}

// isNTFSDotGit is git's is_ntfs_dotgit: ".git" or "git~1" in any case,
// followed only by dots and spaces (which NTFS drops), up to the end, a
// separator or an alternate data stream (":").
func isNTFSDotGit(name string) bool {
	var rest string
	switch {
	case len(name) >= 4 && name[0] == '.' && strings.EqualFold(name[1:4], "git"):
		rest = name[4:]
	case len(name) >= 5 && strings.EqualFold(name[:3], "git") && name[3:5] == "~1":
		rest = name[5:]
	default:
		return false
	}
	return onlyDotsAndSpaces(rest)
}

// onlyDotsAndSpaces reports whether s is dots and spaces up to its end, a
// separator or a ':'.
func onlyDotsAndSpaces(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '/', '\\', ':':
			return true
		case '.', ' ':
		default:
			return false
		}
	}
	return true
}

// isNTFSDotGeneric is git's is_ntfs_dot_generic: "." + want in any case,
// its NTFS short names (the first six letters + "~1".."~4", or the hashed
// fall-back shortPrefix + "~" + digits), each followed only by dots and
// spaces.
func isNTFSDotGeneric(name, want, shortPrefix string) bool {
	if len(name) > len(want) && name[0] == '.' && strings.EqualFold(name[1:1+len(want)], want) {
		return onlyDotsAndSpacesEnd(name[1+len(want):])
	}
	if len(name) >= 8 && strings.EqualFold(name[:6], want[:6]) && name[6] == '~' && name[7] >= '1' && name[7] <= '4' {
		return onlyDotsAndSpacesEnd(name[8:])
	}
	sawTilde := false
	i := 0
	for ; i < 8; i++ {
		if i >= len(name) {
			return false
		}
		c := name[i]
		switch {
		case sawTilde:
			if c < '0' || c > '9' {
				return false
			}
		case c == '~':
			i++
			if i >= len(name) || name[i] < '1' || name[i] > '9' {
				return false
			}
			sawTilde = true
		case i >= 6:
			return false
		case c&0x80 != 0:
			return false
		case lowerASCII(c) != shortPrefix[i]:
			return false
		}
	}
	return onlyDotsAndSpacesEnd(name[i:])
}

// onlyDotsAndSpacesEnd is git's only_spaces_and_periods for the generic
// names: dots and spaces up to the end or a ':'.
func onlyDotsAndSpacesEnd(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ':':
			return true
		case '.', ' ':
		default:
			return false
		}
	}
	return true
}

func lowerASCII(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// isHFSDot is git's is_hfs_dot_generic: "." + want, in any ASCII case, with
// the code points HFS+ ignores anywhere in it, up to the end or a "/".
// Like git, invalid UTF-8 reads as the end of the name: it never matches
// inside the word, and it ends it after (".git\xff" counts as .git).
func isHFSDot(name, want string) bool {
	s := name
	next := func() rune {
		for s != "" {
			r, n := utf8.DecodeRuneInString(s)
			if r == utf8.RuneError && n <= 1 {
				s = ""
				return 0
			}
			s = s[n:]
			if !hfsIgnored(r) {
				return r
			}
		}
		return 0
	}
	if next() != '.' {
		return false
	}
	for i := 0; i < len(want); i++ {
		c := next()
		if c > 127 || lowerASCII(byte(c)) != want[i] {
			return false
		}
	}
	c := next()
	return c == 0 || c == '/'
}

// hfsIgnored lists the code points HFS+ drops from names (git's
// next_hfs_char).
func hfsIgnored(r rune) bool {
	switch r {
	case 0x200c, 0x200d, 0x200e, 0x200f,
		0x202a, 0x202b, 0x202c, 0x202d, 0x202e,
		0x206a, 0x206b, 0x206c, 0x206d, 0x206e, 0x206f,
		0xfeff:
		return true
	}
	return false
}
