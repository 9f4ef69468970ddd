package editor

import (
	"context"
	"path/filepath"
	"time"

	"github.com/editord/editord/shell"
	"github.com/editord/editord/workspace"
)

// WorkspaceView is the shared record of one root, as every surface sees it.
type WorkspaceView struct {
	Root          string             `json:"root" desc:"Absolute path of the workspace root."`
	Buffers       []workspace.Buffer `json:"buffers" desc:"Open files (the tab set), in the order they were opened; one page of them (offset, limit)."`
	Expanded      []string           `json:"expanded" desc:"Folders expanded in the tree, root-relative; one page of them (offset, limit)."`
	Focus         *workspace.Focus   `json:"focus" desc:"Where the person is (active tab and cursor), as their editor last reported; null when unknown."`
	Detached      []workspace.Buffer `json:"detached" desc:"Unsaved drafts of files no longer open (closed elsewhere, or deleted), kept until their holder saves or discards them; open the file to see it dirty again."`
	BuffersTotal  int                `json:"buffers_total" desc:"How many buffers are open in all."`
	ExpandedTotal int                `json:"expanded_total" desc:"How many folders are expanded in all."`
	More          int                `json:"more" desc:"Buffers or expanded folders past this page (the larger count); call again with offset raised by limit for them."`
	You           string             `json:"you" desc:"Your name as by in change events (editor::changes), to tell your writes from others'."`
}

type WorkspaceOpenRequest struct {
	Root string `json:"root" desc:"Folder to make the root: absolute, or relative to the current root."`
}

type WorkspaceGetRequest struct {
	Offset int `json:"offset,omitempty" default:"0" desc:"Paging: skip this many of each."`
	Limit  int `json:"limit,omitempty" default:"100" desc:"Buffers and expanded folders at most (up to 10,000)."`
}

type BuffersListRequest struct {
	Offset int `json:"offset,omitempty" default:"0" desc:"Skip this many buffers (paging)."`
	Limit  int `json:"limit,omitempty" default:"100" desc:"Buffers at most (default 100, up to 10,000)."`
}

type BuffersListResponse struct {
	Root         string             `json:"root" desc:"Absolute path of the workspace root."`
	Buffers      []workspace.Buffer `json:"buffers" desc:"Open files, in the order they were opened; one page of them (offset, limit)."`
	BuffersTotal int                `json:"buffers_total" desc:"How many buffers are open in all."`
	More         int                `json:"more" desc:"Buffers past this page; call again with offset raised by limit for them."`
}

const (
	// viewLimit and viewLimitCap bound one page of buffers and expanded
	// folders: a default page stays well under 32 KiB of text.
	viewLimit    = 100
	viewLimitCap = 10_000
)

type BuffersCloseRequest struct {
	Path string `json:"path" desc:"Buffer to close."`
}

type BuffersCloseResponse struct {
	Closed  bool               `json:"closed" desc:"True when a buffer was open at the path; false when there was none (not an error)."`
	Root    string             `json:"root" desc:"Absolute path of the workspace root."`
	Buffers []workspace.Buffer `json:"buffers" desc:"The tab set after closing."`
}

func init() {
	define("editor::workspace::open",
		"Make a folder inside the jail the shared workspace root; returns what is remembered for it. "+
			"Every surface follows, the user's editor included: do not call it casually.",
		additive, (*Service).WorkspaceOpen)
	define("editor::workspace::get",
		"The active root, the open buffers (the user's tabs) and the expanded folders. "+
			"Call it first, and after a root_changed error.",
		readOnly, (*Service).WorkspaceGet)
	define("editor::buffers::list",
		"List the open buffers (the user's tabs), in open order.",
		readOnly, (*Service).BuffersList)
	define("editor::buffers::close",
		"Close a buffer (the user's tab) for every surface; the file is untouched. A path not open gives closed: false.",
		idempotent, (*Service).BuffersClose)
}

// view is one page of root's session in rec: offset and limit as given
// (0: the default limit).
func (s *Service) view(ctx context.Context, rec *workspace.Record, root string, offset, limit int) (*WorkspaceView, error) {
	if offset < 0 {
		return nil, invalid("offset must be 0 or more, not %d", offset)
	}
	limit, err := countArg("limit", limit, viewLimit, viewLimitCap)
	if err != nil {
		return nil, err
	}
	ses := rec.Sessions[root] // not Session(root): rec may be shared (Store.View)
	if ses == nil {
		ses = &workspace.Session{}
	}
	v := &WorkspaceView{Root: root, Focus: ses.Focus, BuffersTotal: len(ses.Buffers), ExpandedTotal: len(ses.Expanded),
		Detached: append([]workspace.Buffer{}, ses.Detached...), You: by(ctx)}
	v.Buffers = page(ses.Buffers, offset, limit)
	v.Expanded = page(ses.Expanded, offset, limit)
	v.More = max(len(ses.Buffers), len(ses.Expanded)) - min(offset+limit, max(len(ses.Buffers), len(ses.Expanded)))
	return v, nil
}

// page is list[offset:offset+limit], clipped, copied, never nil.
func page[T any](list []T, offset, limit int) []T {
	lo := min(offset, len(list))
	hi := min(lo+limit, len(list))
	return append(make([]T, 0, hi-lo), list[lo:hi]...)
}

func (s *Service) WorkspaceOpen(ctx context.Context, req *WorkspaceOpenRequest) (*WorkspaceView, error) {
	// A relative root is resolved against the active root, so it must be
	// the one this caller saw; an absolute one may always be opened.
	cur, err := s.writeRoot(ctx, !filepath.IsAbs(req.Root))
	if err != nil {
		return nil, err
	}
	l, err := locateRequired(cur, req.Root, "root")
	if err != nil {
		return nil, err
	}
	in, err := s.jail.Stat(l.abs)
	if err != nil {
		return nil, err
	}
	if in.Kind != shell.KindDir {
		return nil, shell.Errorf(shell.CodeNotADirectory, l.abs, "%s is a file; a workspace root is a folder", l.abs)
	}
	root, err := s.jail.Realpath(l.abs)
	if err != nil {
		return nil, err
	}
	if err := checkNotGitDir(s.jail, l.abs); err != nil {
		return nil, err
	}
	if err := checkNotGitDir(s.jail, root); err != nil {
		return nil, err
	}
	rec, err := s.store.Update(ctx, func(r *workspace.Record) (bool, error) {
		_, existed := r.Sessions[root]
		r.Session(root)
		changed := r.ActiveRoot != root || !existed
		if r.ActiveRoot != root {
			r.ActiveRoot, r.RootBy, r.RootAt = root, by(ctx), time.Now().Unix()
		}
		return changed, nil
	})
	if err != nil {
		return nil, err
	}
	CallerFrom(ctx).SawRoot(root) // re-synced: the caller asked for this root
	return s.view(ctx, rec, root, 0, 0)
}

func (s *Service) WorkspaceGet(ctx context.Context, req *WorkspaceGetRequest) (*WorkspaceView, error) {
	if req == nil {
		req = &WorkspaceGetRequest{}
	}
	return s.activeView(ctx, req.Offset, req.Limit, true) // re-synced: the caller has read the root
}

// activeView is the record's view of the active root, one page of its
// buffers; resync marks that root as seen by the caller.
func (s *Service) activeView(ctx context.Context, offset, limit int, resync bool) (*WorkspaceView, error) {
	var v *WorkspaceView
	var err error
	s.store.View(func(rec *workspace.Record) {
		var root string
		if root, err = s.rootOf(rec); err != nil {
			return
		}
		if resync {
			CallerFrom(ctx).SawRoot(root)
		}
		v, err = s.view(ctx, rec, root, offset, limit)
	})
	return v, err
}

func (s *Service) BuffersList(ctx context.Context, req *BuffersListRequest) (*BuffersListResponse, error) {
	if req == nil {
		req = &BuffersListRequest{}
	}
	v, err := s.activeView(ctx, req.Offset, req.Limit, false)
	if err != nil {
		return nil, err
	}
	more := max(v.BuffersTotal-req.Offset-len(v.Buffers), 0)
	return &BuffersListResponse{Root: v.Root, Buffers: v.Buffers, BuffersTotal: v.BuffersTotal, More: more}, nil
}

func (s *Service) BuffersClose(ctx context.Context, req *BuffersCloseRequest) (*BuffersCloseResponse, error) {
	// Checked as a write: closing "a.txt" after another caller's root
	// switch would close the person's tab of a different file (and drop
	// its unsaved draft).
	root, l, err := s.writeTarget(ctx, req.Path, "path")
	if err != nil {
		return nil, err
	}
	closed := false
	rec, err := s.store.Update(ctx, func(r *workspace.Record) (bool, error) {
		closed = r.Session(root).Close(l.stored)
		return closed, nil
	})
	if err != nil {
		return nil, err
	}
	return &BuffersCloseResponse{Closed: closed, Root: root, Buffers: rec.Session(root).Buffers}, nil
}

// remember records or refreshes a buffer in the active root's session. A
// buffer already recorded as it is costs a stat of the record, no lock.
// Upsert cannot fail, so a change queued behind others' is applied with
// theirs whatever ctx does meanwhile.
func (s *Service) remember(ctx context.Context, root string, b workspace.Buffer) error {
	same := false
	s.store.View(func(r *workspace.Record) {
		if ses := r.Sessions[root]; ses != nil {
			if i := ses.Find(b.Path); i >= 0 {
				have := ses.Buffers[i]
				b.Dirty, b.DraftBase, b.DraftBy, b.DraftLines = have.Dirty, have.DraftBase, have.DraftBy, have.DraftLines
				same = have == b
			}
		}
	})
	if same {
		return nil
	}
	// Concurrent saves and opens of this process share one record write
	// (workspace's group commit).
	open := opensBuffers(ctx)
	return s.store.Apply(ctx, func(r *workspace.Record) bool {
		ses := r.Session(root)
		if !open && ses.Find(b.Path) < 0 {
			return false // a write that opens no buffer (editor::replace)
		}
		return ses.Upsert(b)
	})
}
