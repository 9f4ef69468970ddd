package editor

import (
	"github.com/editord/editord/workspace"
)

// The contents of the versions this service hands out (editor::open,
// save, edit, and the disk's version in a conflict) are kept in the state
// dir's version store (workspace/versions.go), so that a later save or
// edit guarded by one of them, stale by then, can be merged three ways
// with the disk (merge.go) rather than refused.

func (s *Service) versionLimits() workspace.VersionLimits {
	return workspace.VersionLimits{Count: s.cfg.Limits.VersionsKept, Bytes: s.cfg.Limits.VersionsBytes}
}

// handOut keeps data, whose version is v, in the version store.
func (s *Service) handOut(v string, data []byte) {
	s.store.KeepVersion(v, data, s.versionLimits())
}

// handOutRead keeps the content of l as version v, for a reply that
// handed v out without holding the whole file (a ranged open): the file is
// read again only when the store does not hold v yet and v is small
// enough to keep, and kept only if it still has that version.
func (s *Service) handOutRead(l loc, v string, size int64) {
	lim := s.versionLimits()
	if lim.Count <= 0 || size > lim.Bytes/8 || s.store.TouchVersion(v) {
		return
	}
	res, err := s.jail.ReadFile(l.abs, size+1)
	if err != nil || res.Truncated || Version(res.Data) != v {
		return
	}
	s.store.KeepVersion(v, res.Data, lim)
}

// versionContent is the content of version v when the store holds it
// (checked: the bytes have that version, so a file damaged by a crash or
// by hand is never taken for it).
func (s *Service) versionContent(v string) ([]byte, bool) {
	data, ok := s.store.VersionContent(v)
	if !ok || Version(data) != v {
		return nil, false
	}
	return data, true
}
