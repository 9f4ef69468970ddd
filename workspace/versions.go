package workspace

// The version store: the content of versions recently handed out (by
// editor::open, save and edit), so that a stale save or edit whose
// expected_version is one of them can be merged three ways with the disk
// instead of refused (docs/contract.md §10). It is content-addressed (a file
// per version under versions/, named by the version), shared by every
// process on the state dir, and bounded in entries and bytes: eviction
// goes by modification time, which handing a version out again refreshes.
//
// Every file is written whole and renamed into place (ReplaceFile), so a
// reader sees a complete content or none; readers still check that the
// bytes have the version they are filed under (the editor does, it owns
// versions), so a file damaged by a crash is never merged with.

import (
	"slices"
	"strings"
	"sync"

	"github.com/editord/editord/shell"
)

const (
	versionsDir  = "versions"
	versionsLock = "versions.lock"
)

// VersionLimits bound the version store of one state dir.
type VersionLimits struct {
	Count int   // entries kept at most
	Bytes int64 // bytes kept at most; one content over Bytes/8 is not kept
}

// versionKeeping is what this process wrote since it last pruned.
type versionKeeping struct {
	mu    sync.Mutex
	count int
	bytes int64
}

// validVersionName reports whether v may name a file of the store: the
// form of a version (hex length, "-", 16 hex digits). A version comes from
// a caller (expected_version), so nothing else ever reaches a path.
func validVersionName(v string) bool {
	size, hash, ok := strings.Cut(v, "-")
	return ok && len(size) >= 1 && len(size) <= 16 && len(hash) == 16 && lowerHex(size) && lowerHex(hash)
}

func lowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

func (s *Store) versionPath(v string) string { return s.path(versionsDir + "/" + v) }

// KeepVersion keeps data as the content of version v (which the caller
// computed from data), or marks it recently used when it is kept already.
// It is a cache: trouble is reported to warn, never returned.
func (s *Store) KeepVersion(v string, data []byte, lim VersionLimits) {
	if !validVersionName(v) || lim.Count <= 0 || int64(len(data)) > lim.Bytes/8 {
		return
	}
	name := s.versionPath(v)
	if in, err := s.jail.StatFile(name); err == nil && in.Size == int64(len(data)) && s.jail.TouchFile(name) == nil {
		return
	}
	if _, err := s.jail.ReplaceFile(name, data, true); err != nil {
		if shell.CodeOf(err) != shell.CodeNotFound { // the state dir itself is gone: said elsewhere
			s.warn("could not keep the content of version " + v + " (a stale save against it will not be merged): " + err.Error())
		}
		return
	}
	// Pruning lists the folder: do it once a sixteenth of either bound has
	// been written by this process, so a process's writes overshoot the
	// bounds by at most that much between prunes.
	k := &s.versionsKept
	k.mu.Lock()
	k.count++
	k.bytes += int64(len(data))
	due := k.count >= max(1, lim.Count/16) || k.bytes >= max(1, lim.Bytes/16)
	if due {
		k.count, k.bytes = 0, 0
	}
	k.mu.Unlock()
	if due {
		s.pruneVersions(lim)
	}
}

// TouchVersion marks version v recently used and reports whether the
// store holds it.
func (s *Store) TouchVersion(v string) bool {
	return validVersionName(v) && s.jail.TouchFile(s.versionPath(v)) == nil
}

// VersionContent is the content kept for version v, or false when the
// store does not hold it (never kept, or evicted).
func (s *Store) VersionContent(v string) ([]byte, bool) {
	if !validVersionName(v) {
		return nil, false
	}
	res, err := s.jail.ReadFile(s.versionPath(v), 0)
	if err != nil || res.Truncated {
		return nil, false
	}
	return res.Data, true
}

// pruneVersions evicts the least recently used contents until the store is
// within lim. One process prunes at a time (versions.lock); a content
// another process keeps meanwhile is at worst evicted early, which costs a
// merge, never a wrong one.
func (s *Store) pruneVersions(lim VersionLimits) {
	if _, err := s.jail.Mkdir(s.path("locks"), false); err != nil {
		return
	}
	unlock, ok, err := s.jail.TryLock(s.path("locks/" + versionsLock))
	if err != nil || !ok {
		return // another process is pruning
	}
	defer unlock()
	ents, err := s.jail.ReadDir(s.path(versionsDir))
	if err != nil {
		return
	}
	ents = slices.DeleteFunc(ents, func(e shell.DirEntry) bool { return e.Kind != shell.KindFile })
	var total int64
	for _, e := range ents {
		total += e.Size
	}
	// Oldest first; ties by name so every process evicts alike.
	slices.SortFunc(ents, func(a, b shell.DirEntry) int {
		if a.ModNano != b.ModNano {
			if a.ModNano < b.ModNano {
				return -1
			}
			return 1
		}
		if a.Name < b.Name {
			return -1
		}
		return 1
	})
	for i := 0; i < len(ents) && (len(ents)-i > lim.Count || total > lim.Bytes); i++ {
		if err := s.jail.Remove(s.versionPath(ents[i].Name), false); err == nil || shell.CodeOf(err) == shell.CodeNotFound {
			total -= ents[i].Size
		}
	}
}
