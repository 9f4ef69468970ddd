package watch

// Coalescing: raw filesystem events are gathered per path into one batch
// (a burst of writes, an editor's write-temp-and-rename, a git checkout)
// until the tree is quiet; editord's own temp files are left out.

import (
	"path"
	"strings"
	"time"

	"github.com/editord/editord/shell"
)

type pending struct {
	first shell.WatchOp // op of the first event of the batch
	ops   shell.WatchOp // union of the batch's ops
	from  string        // root-relative source of a rename onto this path
	// at and last: when the first and the last event of the batch for
	// this path came (run.go).
	at, last time.Time
}

func (ses *session) onEvent(ev shell.WatchEvent) {
	rel, ok := ses.rel(ev.Path)
	if !ok {
		return
	}
	if rel == "" {
		if ev.Op.Has(shell.WatchRemove) || ev.Op.Has(shell.WatchRename) {
			ses.rootGone = true
		}
		return
	}
	if ses.skip(rel) {
		return
	}
	if shell.IsTempName(path.Base(rel)) {
		// An editord temp file: only the rename that ends its write
		// changes a file of the workspace.
		ses.fenceHit = ses.fenceHit || ses.isFence(rel)
		return
	}
	now := time.Now()
	p := ses.pend[rel]
	if p == nil {
		p = &pending{first: ev.Op, at: now}
		ses.pend[rel] = p
	}
	p.ops |= ev.Op
	p.last = now
	if ev.From != "" {
		if from, ok := ses.rel(ev.From); ok && from != "" {
			p.from = from
		}
	}
	if ses.firstPend.IsZero() {
		ses.firstPend = now
	}
	ses.lastPend = now
}

// parent is the root-relative folder of rel: "" for a name in the root.
func parent(rel string) string {
	dir, _ := splitRel(rel)
	return dir
}

// splitRel cuts rel into its folder (as parent) and name.
func splitRel(rel string) (dir, name string) {
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		return rel[:i], rel[i+1:]
	}
	return "", rel
}
