package editor

import (
	"sync"
	"time"

	"github.com/editord/editord/editor/lsp"
	"github.com/editord/editord/shell"
)

// A workspace query's answer points into up to a hundred files, and
// the next query's mostly into others of the same few thousand; reading
// and indexing them was half of editord's share of a new query on
// kubernetes. The line index of a file is kept with the file's identity
// (shell.FileID, from one fstat of the handle the jail opens for the
// read), so a file is read again only when it changed.
//
// An index is never stale: a change after it was kept changes the size,
// the inode (a rename over it) or ctime, which nobody can set back. One
// racy case remains, as for git's index: a write in the same clock tick
// as the one that made the content kept, same size, in place. So a file
// whose ctime is less than lineCacheRacy old is not kept: any later write
// is then in a later tick.
const (
	lineCacheBytes = 64 << 20 // the files' bytes the cache holds at most
	lineCacheRacy  = time.Second
)

type lineCache struct {
	mu    sync.Mutex
	m     map[string]lineEntry
	bytes int
	racy  time.Duration // lineCacheRacy; tests shorten it
}

type lineEntry struct {
	id shell.FileID
	tx *lsp.Text
}

// text is abs's content on disk as a line index, or nil when it cannot be
// read or is not text; dirs holds the folders of the answer's files.
func (c *lineCache) text(j *shell.Jail, dirs *shell.Folders, abs string, limit int64) *lsp.Text {
	c.mu.Lock()
	known := c.m[abs]
	c.mu.Unlock()
	res, id, same, err := j.ReadFileUnless(dirs, abs, limit, known.id)
	switch {
	case err != nil:
		return nil
	case same:
		return known.tx
	case !isText(res.Data):
		return nil
	}
	// The buffer is this read's own: viewed, not copied (megabytes of
	// generated code among the files an answer points into).
	tx := lsp.NewText(stringView(res.Data))
	racy := c.racy
	if racy == 0 {
		racy = lineCacheRacy
	}
	if id == (shell.FileID{}) || time.Now().UnixNano()-id.CTime < racy.Nanoseconds() || len(res.Data) > lineCacheBytes/4 {
		return tx
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.m[abs]; ok {
		delete(c.m, abs)
		c.bytes -= len(old.tx.String())
	}
	// Over budget: forget the others (map order), the new one stays.
	for k, e := range c.m {
		if c.bytes+len(res.Data) <= lineCacheBytes {
			break
		}
		delete(c.m, k)
		c.bytes -= len(e.tx.String())
	}
	if c.m == nil {
		c.m = map[string]lineEntry{}
	}
	c.m[abs] = lineEntry{id, tx}
	c.bytes += len(res.Data)
	return tx
}
