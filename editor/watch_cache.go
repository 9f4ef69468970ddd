package editor

// The content of open buffers, kept so that an external change to one gets
// a real patch, and the versions last reported per path, so that a change
// seen twice is reported once.

import (
	"github.com/editord/editord/diff"
	"github.com/editord/editord/workspace"
)

func (ses *watchSession) loadCache() {
	for p := range ses.cache {
		if !ses.buffers[p] {
			ses.dropCache(p)
		}
	}
	var journaled map[string]string // read once, when first needed
	var stale []*candidate
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
		seen := ses.own.seen()
		res, err := ses.s.jail.ReadFile(ses.abs(p), min(ses.s.cfg.Limits.MaxFileBytes, watchCacheBytes/4))
		if err != nil || res.Truncated {
			continue
		}
		v := Version(res.Data)
		if ses.opened[p] != "" && ses.opened[p] != v {
			// The file is not what it was opened at. When the journal's
			// last word on it is this content (an external change reported
			// while the buffer stayed open: the record keeps the version
			// it was opened at), it is the baseline all the same: a watcher
			// that started after that change (another process, a root
			// switched back) reported the next change without a patch.
			if journaled == nil {
				journaled = ses.journaledVersions()
			}
			if journaled[p] != v {
				// A change nobody has reported. Taken as the baseline, it
				// would read as already seen and never reach the journal
				// (a page opening a file that a program writes a moment
				// later kept showing the old text): it is decided as any
				// change is, reported (without a patch: the content before
				// it is gone) unless it is ours, and kept from then on.
				stale = append(stale, &candidate{rel: p, kind: "modified", data: res.Data, version: v, seen: seen})
				continue
			}
		}
		ses.setCache(p, res.Data)
		ses.recent[p] = v
	}
	if len(stale) > 0 {
		ses.decide(stale)
	}
}

// journaledVersions is, per path of the root, the version the journal's
// last event for it gives (none after a delete or a move away).
func (ses *watchSession) journaledVersions() map[string]string {
	out := map[string]string{}
	page, err := ses.s.store.Read(workspace.Query{})
	if err != nil {
		return out
	}
	for _, ev := range page.Events {
		if ev.Root != ses.root {
			continue
		}
		if ev.From != nil {
			delete(out, *ev.From)
		}
		if ev.Version != nil && ev.Kind != "deleted" {
			out[ev.Path] = *ev.Version
		} else {
			delete(out, ev.Path)
		}
	}
	return out
}

// follow keeps the content held for an open buffer equal to what the
// journal says the file is after each write of ours, whether or not the
// watcher saw the write's own filesystem events: a write of ours and an
// external change a moment later come as one batch, and the external
// change's patch must start where our event ended. Our event's patch
// turns the content held into the content written; when it cannot (the
// patch was cut, or was made against other content), the file is held as
// it is if it is still what the write wrote, else nothing is held until
// the next change (whose event then has no patch).
func (ses *watchSession) follow(ev workspace.Event) {
	if ev.Root != ses.root {
		return
	}
	switch ev.Kind {
	case "deleted":
		ses.dropCacheUnder(ev.Path)
		return
	case "moved":
		if ev.From == nil {
			return
		}
		moved := map[string][]byte{}
		for p, data := range ses.cache {
			if to, ok := workspace.Remap(p, *ev.From, ev.Path); ok {
				moved[to] = data
				ses.dropCache(p)
			}
		}
		for to, data := range moved {
			ses.setCache(to, data)
		}
		return
	}
	if ev.Version == nil {
		ses.dropCache(ev.Path)
		return
	}
	before, held := ses.cache[ev.Path]
	if held && Version(before) == *ev.Version {
		return // read from disk after the write (loadCache)
	}
	if (held || ev.Kind == "created") && !ev.Truncated {
		if ev.Kind == "created" {
			before = nil
		}
		if after, err := diff.Apply(string(before), ev.Patch); err == nil && Version([]byte(after)) == *ev.Version {
			ses.setCache(ev.Path, []byte(after))
			return
		}
	}
	// Nothing held, or content the write did not start from (read from
	// disk after a later write of ours, say): the file itself, if it is
	// still what the write wrote.
	ses.dropCache(ev.Path)
	if ses.buffers[ev.Path] {
		if res, err := ses.s.jail.ReadFile(ses.abs(ev.Path), min(ses.s.cfg.Limits.MaxFileBytes, watchCacheBytes/4)); err == nil && !res.Truncated && Version(res.Data) == *ev.Version {
			ses.setCache(ev.Path, res.Data)
		}
	}
}

// dropCacheUnder forgets what is held at or beneath r.
func (ses *watchSession) dropCacheUnder(r string) {
	for p := range ses.cache {
		if workspace.Within(p, r) {
			ses.dropCache(p)
		}
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
	ses.ws.noteHeld(p, true)
}

func (ses *watchSession) dropCache(p string) {
	if old, ok := ses.cache[p]; ok {
		ses.cacheBytes -= len(old)
		delete(ses.cache, p)
		ses.ws.noteHeld(p, false)
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
