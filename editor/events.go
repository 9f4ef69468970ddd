package editor

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/editord/editord/diff"
	"github.com/editord/editord/workspace"
)

type ChangesRequest struct {
	Since string `json:"since,omitempty" desc:"Cursor from a previous call; omit for the oldest event kept."`
	Limit int    `json:"limit,omitempty" default:"100" desc:"Events at most (up to 10,000); more counts the rest."`
	Path  string `json:"path,omitempty" desc:"Only events at or under this path (moves from or to it too)."`
}

type ChangesResponse struct {
	Changes []workspace.Event `json:"changes" desc:"editor::changed events after the cursor, oldest first."`
	Cursor  string            `json:"cursor" desc:"Pass as since next time to get only newer events (after the last one returned)."`
	Reset   bool              `json:"reset" desc:"True when events after your cursor were already dropped from the journal (or it restarted): you missed some, so re-read the files you care about."`
	More    int               `json:"more" desc:"Events after cursor that limit left out; call again with since set to cursor for them."`
	You     string            `json:"you" desc:"Your by: the events you wrote carry it."`
}

// changesLimitCap bounds one response.
const changesLimitCap = 10_000

func init() {
	define("editor::changes",
		"What changed in the workspace, by anyone: events after a cursor (who, kind, path, +/- and the patch). "+
			"Pass the returned cursor as since next time; the journal keeps the last 1000 events.",
		readOnly, (*Service).Changes)
}

func (s *Service) Changes(ctx context.Context, req *ChangesRequest) (*ChangesResponse, error) {
	cursor, ok := workspace.ParseCursor(req.Since)
	if !ok {
		return nil, invalid("since %q is not a cursor; pass the cursor a previous editor::changes returned", req.Since)
	}
	limit, err := countArg("limit", req.Limit, changesDefaultLimit, changesLimitCap)
	if err != nil {
		return nil, err
	}
	q := workspace.Query{Since: cursor, Limit: limit}
	if req.Path != "" {
		root, l, err := s.target(req.Path, "path")
		if err != nil {
			return nil, err
		}
		q.Root, q.Path = root, l.stored
	}
	p, err := s.store.Read(q)
	if err != nil {
		return nil, err
	}
	return &ChangesResponse{Changes: p.Events, Cursor: fmt.Sprint(p.Next), Reset: p.Reset, More: p.More, You: by(ctx)}, nil
}

// changesDefaultLimit is editor::changes' limit when none is given.
const changesDefaultLimit = 100

// changeEvent describes a write of this service (kind created, modified or
// deleted), with its real patch. afterVersion, when given, is
// Version(after), which a caller that has it passes to save hashing after
// again (a megabyte costs a millisecond).
func (s *Service) changeEvent(root string, l loc, cause, kind string, before, after []byte, afterVersion ...string) workspace.Event {
	return s.changeEventOf(root, l, cause, kind, before, after, s.changeDiff(l, kind, before, after), afterVersion...)
}

// changeDiff is the diff an event of kind carries for before -> after.
func (s *Service) changeDiff(l loc, kind string, before, after []byte) diff.Result {
	// Viewed, not copied: Unified reads them only during the call, and its
	// patch is built anew.
	return diff.Unified(stringView(before), stringView(after), diff.Options{
		// max_diff_bytes bounds what changed, not the file: an edit of one
		// line of a big file still has its patch.
		Path: diffPath(l), Context: s.cfg.Limits.DiffContextLines, MaxChangedBytes: s.cfg.Limits.MaxDiffBytes,
		OldMissing: kind == "created", NewMissing: kind == "deleted",
	})
}

// changeEventOf is changeEvent for a diff already computed by changeDiff.
// The event carries the contents before and after to the journal's stamp,
// which keeps them for the change's turn (review and revert, editor/turns):
// every write that makes its event here is revertible.
func (s *Service) changeEventOf(root string, l loc, cause, kind string, before, after []byte, d diff.Result, afterVersion ...string) workspace.Event {
	ev := workspace.Event{Root: root, Path: l.stored, Kind: kind, Cause: cause, Added: d.Added, Removed: d.Removed}
	if kind != "deleted" {
		var v string
		if len(afterVersion) > 0 {
			v = afterVersion[0]
		} else {
			v = Version(after)
		}
		ev.Version = &v
		ev.After = after
	}
	if kind != "created" {
		p := s.versions.peek(l.abs, before)
		ev.Prev = &p
		ev.Before = before
	}
	ev.Patch, ev.Truncated = capPatch(d.Patch, s.cfg.Limits.EventPatchBytes)
	if d.Truncated {
		if d.Added == 0 && d.Removed == 0 { // not counted by the caller yet
			ev.Added, ev.Removed = diff.Counts(stringView(before), stringView(after))
		}
		ev.Truncated = true
	}
	return ev
}

// capPatch cuts a patch to at most n bytes on a line boundary.
func capPatch(p string, n int) (string, bool) {
	if n <= 0 || len(p) <= n {
		return p, false
	}
	cut := p[:n]
	if i := strings.LastIndexByte(cut, '\n'); i >= 0 {
		cut = cut[:i+1]
	}
	return cut, true
}

// emit records events in the journal. It never fails the write that caused
// them: the file is already on disk, so trouble here is only reported.
func (s *Service) emit(ctx context.Context, evs ...workspace.Event) {
	now := time.Now().UTC().Format(time.RFC3339Nano)
	who := by(ctx)
	turn := turnOf(ctx)
	for i := range evs {
		evs[i].Time = now
		if evs[i].By == "" {
			evs[i].By = who
		}
		if evs[i].Turn == "" {
			evs[i].Turn = turn // a revert's own turn; the journal's stamp gives the rest theirs
		}
	}
	// Concurrent writes of this process share one append (workspace's
	// group commit); each caller still returns only once its events are in.
	if err := s.store.AppendGrouped(context.WithoutCancel(ctx), evs, s.cfg.Limits.ChangesKept); err != nil {
		s.warn(fmt.Sprintf("change journal: %v", err))
	}
	s.settleDrafts(ctx, evs)
}
