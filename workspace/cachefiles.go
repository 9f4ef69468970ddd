package workspace

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/editord/editord/shell"
)

// Cache files: what a process keeps in the state dir only to spare the
// next one work (the file tree of a root, for its first editor::find and
// editor::search), under cache/. Whoever reads one validates it; a cache
// file missing, old or broken costs only that work. They are replaced
// atomically and never fsynced (shell.Jail.ReplaceFile).

const cacheDir = "cache"

// cacheMax bounds a cache file read back (a 240,000-file tree's is ~5 MB).
const cacheMax = 256 << 20

// CacheName is the file name of kind's cache for key (a root, say).
func CacheName(kind, key string) string {
	h := sha256.Sum256([]byte(key))
	return kind + "-" + hex.EncodeToString(h[:8]) + ".bin"
}

// ReadCache returns the cache file name, or nil when there is none (or it
// cannot be read).
func (s *Store) ReadCache(name string) []byte {
	h, err := s.jail.OpenAt(s.path(cacheDir + "/" + name))
	if err != nil {
		return nil
	}
	defer h.Close()
	if h.Info.Size <= 0 || h.Info.Size > cacheMax {
		return nil
	}
	data := make([]byte, h.Info.Size)
	if n, err := h.ReadAt(data, 0); n != len(data) && err != nil {
		return nil
	}
	return data
}

// WriteCache replaces the cache file name with data; failures are only
// reported to warn (a cache).
func (s *Store) WriteCache(name string, data []byte) {
	if _, err := s.jail.ReplaceFile(s.path(cacheDir+"/"+name), data, true); err != nil && shell.CodeOf(err) != shell.CodeNotFound {
		s.warn("could not keep the cache file " + s.path(cacheDir+"/"+name) + ": " + err.Error())
	}
}
