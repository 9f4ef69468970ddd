package editor

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/editord/editord/shell/sandbox"
	"github.com/editord/editord/workspace"
)

// What a command changed: the root is stamped before it starts and after
// it ends (every file the watcher follows: not ignored, no noise folder,
// no deny match), and each file created, modified or deleted becomes an
// editor::changed event with cause editor::run and the caller's by, with
// its patch when the content before is known (the files open in tabs are
// read before the command starts) and its version otherwise, as the
// watcher reports a change by another program. While the job is recorded
// as running, the watcher leaves what it sees under the root to the job
// (editor/watch/run.go), so nothing is reported twice or as external.

// runBeforeBytes bounds the content read before a command for patches.
const runBeforeBytes = 64 << 20

type runBefore struct {
	snap    sandbox.Snapshot
	content map[string][]byte // open buffers' files, by root-relative path
}

func (s *Service) runBefore(root string) (runBefore, error) {
	snap, err := sandbox.TakeSnapshot(s.jail, root)
	if err != nil {
		return runBefore{}, err
	}
	b := runBefore{snap: snap, content: map[string][]byte{}}
	rec := s.store.Load()
	se := rec.Sessions[root]
	if se == nil {
		return b, nil
	}
	total := 0
	for _, buf := range se.Buffers {
		if strings.HasPrefix(buf.Path, "/") {
			continue // outside the root: not stamped either
		}
		if _, ok := snap[buf.Path]; !ok {
			continue
		}
		res, err := s.jail.ReadFile(root+"/"+buf.Path, s.cfg.Limits.MaxFileBytes)
		if err != nil || res.Truncated || !isText(res.Data) || total+len(res.Data) > runBeforeBytes {
			continue
		}
		total += len(res.Data)
		b.content[buf.Path] = res.Data
	}
	return b, nil
}

// runJournal journals what changed under root since before and sums it up.
func (s *Service) runJournal(ctx context.Context, root string, before runBefore) *workspace.JobChanges {
	after, err := sandbox.TakeSnapshot(s.jail, root)
	if err != nil {
		s.warn(fmt.Sprintf("editor::run: could not look at what the command changed under %s: %v", root, err))
		return &workspace.JobChanges{Files: []workspace.JobChange{}}
	}
	created, modified, deleted := before.snap.Diff(after)
	var evs []workspace.Event
	for _, p := range created {
		evs = append(evs, s.runEvent(root, p, "created", nil, false, after[p]))
	}
	for _, p := range modified {
		a, b := before.snap[p], after[p]
		old, known := before.content[p]
		if a.Size == b.Size && a.MTime == b.MTime && !known {
			continue // attributes only (chmod, a touch to the same time)
		}
		if t := b.Mode & 0o170000; t != 0o100000 && t != 0o120000 {
			continue // a FIFO or socket used: it has no content to change
		}
		ev := s.runEvent(root, p, "modified", old, known, b)
		if known && ev.Version != nil && *ev.Version == Version(old) {
			continue // rewritten with the same bytes
		}
		evs = append(evs, ev)
	}
	for _, p := range deleted {
		old, known := before.content[p]
		evs = append(evs, s.runEvent(root, p, "deleted", old, known, sandbox.Stamp{}))
	}
	sort.Slice(evs, func(i, j int) bool { return evs[i].Path < evs[j].Path })
	if len(evs) > 0 {
		s.emit(ctx, evs...)
	}
	sum := &workspace.JobChanges{Files: []workspace.JobChange{}}
	for _, ev := range evs {
		switch ev.Kind {
		case "created":
			sum.Created++
		case "modified":
			sum.Modified++
		case "deleted":
			sum.Deleted++
		}
		if len(sum.Files) < runFilesShown {
			sum.Files = append(sum.Files, workspace.JobChange{Path: ev.Path, Kind: ev.Kind, Added: ev.Added, Removed: ev.Removed})
		} else {
			sum.More++
		}
	}
	return sum
}

// runEvent is the event of one change a command made: with its patch when
// both sides are known text, else with the new version alone.
func (s *Service) runEvent(root, rel, kind string, old []byte, known bool, st sandbox.Stamp) workspace.Event {
	l := loc{abs: root + "/" + rel, stored: rel}
	bare := workspace.Event{Root: root, Path: rel, Kind: kind, Cause: "editor::run"}
	if kind == "deleted" {
		if known {
			return s.changeEvent(root, l, "editor::run", kind, old, nil)
		}
		return bare
	}
	if st.Mode&0o170000 != 0o100000 {
		return bare // a symlink (never followed) or a special file
	}
	res, err := s.jail.ReadFile(l.abs, s.cfg.Limits.MaxFileBytes)
	if err != nil || res.Truncated {
		return bare
	}
	data := res.Data
	if isText(data) && (kind == "created" || (known && isText(old))) {
		if kind == "created" {
			old = nil
		}
		return s.changeEvent(root, l, "editor::run", kind, old, data)
	}
	v := Version(data)
	bare.Version = &v
	return bare
}
