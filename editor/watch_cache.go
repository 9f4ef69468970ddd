package editor

// The content of open buffers, kept so that an external change to one gets
// a real patch, and the versions last reported per path, so that a change
// seen twice is reported once.

func (ses *watchSession) loadCache() {
	for p := range ses.cache {
		if !ses.buffers[p] {
			ses.dropCache(p)
		}
	}
	for p := range ses.buffers {
		if _, ok := ses.cache[p]; ok {
			continue
		}
		// A file over a quarter of the cache is not kept (its external
		// changes are reported without a patch), and not read to find
		// that out: a 50 MB buffer was read whole each time it opened.
		if in, err := ses.s.jail.Stat(ses.abs(p)); err != nil || in.Size > watchCacheBytes/4 {
			continue
		}
		res, err := ses.s.jail.ReadFile(ses.abs(p), min(ses.s.cfg.Limits.MaxFileBytes, watchCacheBytes/4))
		if err != nil || res.Truncated {
			continue
		}
		if v := Version(res.Data); ses.opened[p] == "" || ses.opened[p] == v {
			ses.setCache(p, res.Data)
			ses.recent[p] = v
		}
		// Otherwise the file changed since it was opened, and that change
		// has not been reported (its event may be in the batch waiting):
		// taken as the baseline, it would read as already seen and never
		// reach the journal (a page opening a file that a program writes
		// a moment later kept showing the old text).
	}
}

func (ses *watchSession) setCache(p string, data []byte) {
	if !ses.buffers[p] {
		return
	}
	ses.dropCache(p)
	if ses.cacheBytes+len(data) > watchCacheBytes || len(data) > watchCacheBytes/4 {
		return
	}
	ses.cache[p] = data
	ses.cacheBytes += len(data)
}

func (ses *watchSession) dropCache(p string) {
	if old, ok := ses.cache[p]; ok {
		ses.cacheBytes -= len(old)
		delete(ses.cache, p)
	}
}

func (ses *watchSession) setRecent(p, v string) {
	if len(ses.recent) >= recentCap {
		clear(ses.recent)
	}
	if v == "" {
		delete(ses.recent, p)
		return
	}
	ses.recent[p] = v
}

// account updates what the watcher knows of a path after a change to it
// was reported, by us or by the function that made it.
func (ses *watchSession) account(c *candidate) {
	switch c.kind {
	case "deleted":
		ses.dropCache(c.rel)
		ses.setRecent(c.rel, "")
	case "moved":
		if !c.isDir {
			ses.setRecent(c.from, "")
			ses.setRecent(c.rel, c.version)
			if old, ok := ses.cache[c.from]; ok {
				ses.dropCache(c.from)
				ses.setCache(c.rel, old)
			}
		}
	default:
		ses.setRecent(c.rel, c.version)
		if c.data != nil {
			ses.setCache(c.rel, c.data)
		} else {
			ses.dropCache(c.rel)
		}
	}
}
