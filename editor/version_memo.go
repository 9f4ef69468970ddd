package editor

import (
	"bytes"
	"sync"
)

// versionMemo remembers the versions of the large contents this process
// read or wrote last, by file, so that finding the version of a file it
// knows costs a comparison of bytes (tens of microseconds a MiB) instead
// of the hash (FNV-1a multiplies once per byte: about 1.3 ms a MiB). A
// 1 MiB save hashed the disk's content for its guard and its own content
// for the reply; opening the file it just saved hashed it again.
//
// It is exact: a version is a function of the bytes alone, and an entry is
// used only for bytes equal to the ones it was computed from (never
// changed after: the contents read and the requests' are not reused).
type versionMemo struct {
	mu    sync.Mutex
	m     map[string]memoEntry
	order []string // keys, oldest first
	size  int
}

type memoEntry struct {
	data    []byte
	version string
}

const (
	memoMin = 64 << 10 // smaller contents hash faster than they compare
	memoMax = 32 << 20 // bytes held at most
)

// of is Version(data) for the content of the file key.
func (m *versionMemo) of(key string, data []byte) string {
	if len(data) < memoMin {
		return Version(data)
	}
	m.mu.Lock()
	e, ok := m.m[key]
	m.mu.Unlock()
	if ok && bytes.Equal(e.data, data) {
		return e.version
	}
	v := Version(data)
	m.put(key, data, v)
	return v
}

// peek is of without remembering: for contents that are not the file's
// latest (the "before" of a change).
func (m *versionMemo) peek(key string, data []byte) string {
	if len(data) >= memoMin {
		m.mu.Lock()
		e, ok := m.m[key]
		m.mu.Unlock()
		if ok && bytes.Equal(e.data, data) {
			return e.version
		}
	}
	return Version(data)
}

// known returns the last content of the file key this process read or
// wrote, when it is remembered.
func (m *versionMemo) known(key string) ([]byte, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.m[key]
	return e.data, ok
}

// put records that data, the content of the file key, has version v.
func (m *versionMemo) put(key string, data []byte, v string) {
	if len(data) < memoMin || len(data) > memoMax/4 {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.m == nil {
		m.m = map[string]memoEntry{}
	}
	if old, ok := m.m[key]; ok {
		m.size -= len(old.data)
	} else {
		m.order = append(m.order, key)
	}
	m.m[key] = memoEntry{data, v}
	m.size += len(data)
	for m.size > memoMax && len(m.order) > 0 {
		k := m.order[0]
		m.order = m.order[1:]
		if e, ok := m.m[k]; ok {
			m.size -= len(e.data)
			delete(m.m, k)
		}
	}
}
