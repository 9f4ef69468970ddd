package editor

import (
	"context"
	"fmt"
	"time"

	"github.com/editord/editord/shell"
	"github.com/editord/editord/workspace"
)

type DraftRequest struct {
	Path        string  `json:"path" desc:"Open buffer whose draft to keep, clear or read."`
	Content     *string `json:"content,omitempty" desc:"The unsaved text to keep; null or absent clears the draft."`
	BaseVersion string  `json:"base_version,omitempty" desc:"Version of the file the edits were made over; required with content."`
	Read        bool    `json:"read,omitempty" default:"false" desc:"Return the draft's content and change nothing."`
}

type DraftResponse struct {
	Path      string  `json:"path" desc:"The buffer, in stored form (root-relative)."`
	Dirty     bool    `json:"dirty" desc:"True when a draft is kept for it now."`
	DraftBase string  `json:"draft_base,omitempty" desc:"The version the draft was made over."`
	By        string  `json:"by,omitempty" desc:"Who holds the draft (the surface that last kept it)."`
	Time      string  `json:"time,omitempty" desc:"When it was last kept, RFC 3339."`
	Content   *string `json:"content,omitempty" desc:"With read: the draft's text."`
	// BaseContent lets the holder merge a draft made over an older version
	// with the disk (its editor rebases it, as for a change that comes
	// while it types), after a reload that lost the text it was made over.
	BaseContent *string `json:"base_content,omitempty" desc:"With read: the content of draft_base, when the server still holds it (to merge the draft with the disk)."`
}

func init() {
	define("editor::buffers::draft",
		"Keep, clear or read an editor's unsaved edits (draft) of an open buffer, which then shows dirty: true; "+
			"a save or edit by the holder clears it. Agents: read with read: true, never clear the person's draft.",
		idempotent, (*Service).Draft)
}

func (s *Service) Draft(ctx context.Context, req *DraftRequest) (*DraftResponse, error) {
	// Keeping or clearing a draft writes the shared record under a path
	// resolved against the root: after another caller's root switch it
	// would land on another root's buffer, so it is guarded like a save.
	find := s.target
	if !req.Read {
		find = func(p, field string) (string, loc, error) { return s.writeTarget(ctx, p, field) }
	}
	root, l, err := find(req.Path, "path")
	if err != nil {
		return nil, err
	}
	if err := s.visible(l, ""); err != nil {
		return nil, err
	}
	out := &DraftResponse{Path: l.stored}
	switch {
	case req.Read:
		if req.Content != nil {
			return nil, invalid("read and content exclude each other: read returns the draft, content keeps one")
		}
		d, err := s.store.ReadDraft(root, l.stored)
		if err != nil || d == nil {
			return out, err
		}
		out.Dirty, out.DraftBase, out.By, out.Time, out.Content = true, d.Base, d.By, d.Time, &d.Content
		if base, ok := s.versionContent(d.Base); ok {
			b := string(base)
			out.BaseContent = &b
		}
		return out, nil
	case req.Content == nil:
		_, err := s.store.Update(ctx, func(r *workspace.Record) (bool, error) {
			if err := s.store.RemoveDraft(root, l.stored); err != nil {
				return false, err
			}
			_, changed := r.Session(root).SetDraft(l.stored, "")
			return changed, nil
		})
		return out, err
	}
	if req.BaseVersion == "" {
		return nil, invalid("base_version is required with content: pass the version editor::open returned for the text the edits were made over")
	}
	content := []byte(*req.Content)
	if !isText(content) {
		return nil, shell.Errorf(shell.CodeBinary, l.stored, "the draft for %s has a NUL byte or invalid UTF-8; drafts are text", display(l.stored))
	}
	if max := s.cfg.Limits.MaxFileBytes; int64(len(content)) > max {
		return nil, shell.Errorf(shell.CodeTooLarge, l.stored, "the draft for %s is %d bytes, over max_file_bytes (%d)", display(l.stored), len(content), max)
	}
	d := &workspace.Draft{Root: root, Path: l.stored, Base: req.BaseVersion, By: by(ctx),
		Time: time.Now().UTC().Format(time.RFC3339Nano), Content: *req.Content}
	// Which lines are being edited, for agents (draft_notice.go): found
	// before the record is locked.
	lines := s.draftLines(l, d.Base, content)
	_, err = s.store.Update(ctx, func(r *workspace.Record) (bool, error) {
		ses := r.Session(root)
		if !ses.HoldsDraft(l.stored) {
			return false, shell.Errorf(shell.CodeNotFound, l.stored, "%s is not an open buffer; open it with editor::open before keeping a draft of it", display(l.stored))
		}
		if err := s.store.WriteDraft(d, workspace.MaxDraftsBytes); err != nil {
			return false, err
		}
		ses.MarkDraft(l.stored, workspace.DraftMark{Base: d.Base, By: d.By, Lines: lines})
		return true, nil
	})
	if err != nil {
		return nil, err
	}
	out.Dirty, out.DraftBase, out.By, out.Time = true, d.Base, d.By, d.Time
	return out, nil
}

// settleDrafts clears the drafts that a save or edit just made by their
// holder has written out (CONTRACT §9); a write by anyone else leaves them,
// so the holder can merge. It runs after the write, so trouble is reported,
// never returned.
func (s *Service) settleDrafts(ctx context.Context, evs []workspace.Event) {
	who := by(ctx)
	rec := s.store.Load()
	for _, ev := range evs {
		if ev.Cause != "editor::save" && ev.Cause != "editor::edit" {
			continue
		}
		ses := rec.Sessions[ev.Root]
		if ses == nil || !dirtyAt(ses, ev.Path) {
			continue
		}
		_, err := s.store.Update(context.WithoutCancel(ctx), func(r *workspace.Record) (bool, error) {
			d, err := s.store.ReadDraft(ev.Root, ev.Path)
			if err != nil || d == nil || d.By != who {
				return false, err
			}
			if err := s.store.RemoveDraft(ev.Root, ev.Path); err != nil {
				return false, err
			}
			_, changed := r.Session(ev.Root).SetDraft(ev.Path, "")
			return changed, nil
		})
		if err != nil {
			s.warn(fmt.Sprintf("%s was saved, but its draft could not be cleared: %v", display(ev.Path), err))
		}
	}
}

func dirtyAt(ses *workspace.Session, path string) bool {
	i := ses.Find(path)
	return i >= 0 && ses.Buffers[i].Dirty
}
