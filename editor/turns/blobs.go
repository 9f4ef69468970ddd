package turns

import (
	"fmt"
	"sync"
	"time"

	"github.com/editord/editord/shell"
)

// The contents of changes, one file per version under turns/blobs/. A
// version names its bytes, so a file is written once and never changed;
// a reader checks the bytes against the name all the same (a torn write
// after a power loss reads as "not kept").

// Keep stores data, whose version is version, unless it is stored already,
// too large to keep, or empty (the empty content needs no file). It is
// called before the change is journaled, outside every lock; trouble is
// only reported: the write it describes has happened or is happening.
func (b *Book) Keep(data []byte, version string) {
	if len(data) == 0 || version == "" || int64(len(data)) > b.cfg.KeepFileBytes {
		return
	}
	if b.memo.has(version) {
		return
	}
	p := b.blobPath(version)
	if _, err := b.jail.StatFile(p); err == nil {
		b.memo.add(version)
		return
	}
	if _, err := b.jail.ReplaceFile(p, data, true); err != nil {
		b.memo.warnOnce(b.warn, fmt.Sprintf("turns: could not keep a content for review and revert (%v); turns that need it will say so", err))
		return
	}
	b.memo.add(version)
}

// load returns the content named version: ok is false when it is not kept
// (never stored, trimmed, or damaged).
func (b *Book) load(version string) ([]byte, bool) {
	if version == emptyVersion {
		return []byte{}, true
	}
	if version == "" {
		return nil, false
	}
	res, err := b.jail.ReadFile(b.blobPath(version), 0)
	if err != nil || res.Truncated || b.version(res.Data) != version {
		return nil, false
	}
	return res.Data, true
}

// emptyVersion is the version of the empty content (CONTRACT.md §3).
const emptyVersion = "0-cbf29ce484222325"

func (b *Book) blobPath(version string) string { return b.dir + "/" + blobsDir + "/" + version }

// blobMemo remembers the versions this process stored or found lately, so
// a save does not look for its "before" again (it was the last save's
// "after"). An entry is trusted for less than the trim's grace, after which
// the trim may have removed the file.
type blobMemo struct {
	mu     sync.Mutex
	at     map[string]time.Time
	warned bool
}

const (
	memoMax   = 4096
	memoTrust = gcGrace / 2
)

func (m *blobMemo) has(v string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	at, ok := m.at[v]
	return ok && time.Since(at) < memoTrust
}

func (m *blobMemo) add(v string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.at == nil || len(m.at) >= memoMax {
		m.at = map[string]time.Time{}
	}
	m.at[v] = time.Now()
}

func (m *blobMemo) warnOnce(warn func(string), msg string) {
	m.mu.Lock()
	first := !m.warned
	m.warned = true
	m.mu.Unlock()
	if first {
		warn(msg)
	}
}

// isNotFound reports a missing file.
func isNotFound(err error) bool { return shell.CodeOf(err) == shell.CodeNotFound }
