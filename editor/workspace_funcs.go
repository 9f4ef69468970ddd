package editor

import (
	"context"
	"slices"

	"github.com/editord/editord/shell"
	"github.com/editord/editord/workspace"
)

// WorkspaceView is the shared record of one root, as every surface sees it.
type WorkspaceView struct {
	Root          string             `json:"root" desc:"Absolute path of the workspace root."`
	Buffers       []workspace.Buffer `json:"buffers" desc:"Open files (the tab set), in the order they were opened; one page of them (offset, limit)."`
	Expanded      []string           `json:"expanded" desc:"Folders expanded in the tree, root-relative; one page of them (offset, limit)."`
	BuffersTotal  int                `json:"buffers_total" desc:"How many buffers are open in all."`
	ExpandedTotal int                `json:"expanded_total" desc:"How many folders are expanded in all."`
	More          int                `json:"more" desc:"Buffers or expanded folders past this page (the larger count); call again with offset raised by limit for them."`
}

type WorkspaceOpenRequest struct {
	Root string `json:"root" desc:"Folder to make the workspace root: absolute, or relative to the current root. Must be inside the jail."`
}

type WorkspaceGetRequest struct {
	Offset int `json:"offset,omitempty" default:"0" desc:"Skip this many buffers and expanded folders (paging)."`
	Limit  int `json:"limit,omitempty" default:"100" desc:"At most this many buffers and this many expanded folders (default 100, at most 10,000)."`
}

type BuffersListRequest struct {
	Offset int `json:"offset,omitempty" default:"0" desc:"Skip this many buffers (paging)."`
	Limit  int `json:"limit,omitempty" default:"100" desc:"At most this many buffers (default 100, at most 10,000)."`
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
	Path string `json:"path" desc:"Path of the buffer to close, root-relative or absolute. The file on disk is untouched."`
}

type BuffersCloseResponse struct {
	Closed  bool               `json:"closed" desc:"True when a buffer was open at the path; false when there was none (not an error)."`
	Root    string             `json:"root" desc:"Absolute path of the workspace root."`
	Buffers []workspace.Buffer `json:"buffers" desc:"The tab set after closing."`
}

func init() {
	define("editor::workspace::open",
		"Point the shared workspace at a folder and return the buffers and expanded folders remembered for it. "+
			"This changes what every surface sees, including the user's editor, so do not call it casually mid-task. "+
			`Example: {"root": "/home/me/project"}.`,
		additive, (*Service).WorkspaceOpen)
	define("editor::workspace::get",
		"Return the active workspace root, its open buffers (the user's tabs) and expanded folders. "+
			"Read it before assuming anything about where you are.",
		readOnly, (*Service).WorkspaceGet)
	define("editor::buffers::list",
		"List the open buffers (the tab set shared with the user's editor), in open order.",
		readOnly, (*Service).BuffersList)
	define("editor::buffers::close",
		"Close one buffer for every surface, the user's editor included. The file on disk is untouched. "+
			"Closing a path that is not open returns closed: false.",
		idempotent, (*Service).BuffersClose)
}

// view is one page of root's session in rec: offset and limit as given
// (0: the default limit).
func (s *Service) view(rec *workspace.Record, root string, offset, limit int) (*WorkspaceView, error) {
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
	v := &WorkspaceView{Root: root, BuffersTotal: len(ses.Buffers), ExpandedTotal: len(ses.Expanded)}
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
	cur, err := s.root()
	if err != nil {
		cur = s.start
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
	rec, err := s.store.Update(ctx, func(r *workspace.Record) (bool, error) {
		_, existed := r.Sessions[root]
		r.Session(root)
		changed := r.ActiveRoot != root || !existed
		r.ActiveRoot = root
		return changed, nil
	})
	if err != nil {
		return nil, err
	}
	return s.view(rec, root, 0, 0)
}

func (s *Service) WorkspaceGet(ctx context.Context, req *WorkspaceGetRequest) (*WorkspaceView, error) {
	if req == nil {
		req = &WorkspaceGetRequest{}
	}
	root, err := s.root()
	if err != nil {
		return nil, err
	}
	var v *WorkspaceView
	s.store.View(func(rec *workspace.Record) { v, err = s.view(rec, root, req.Offset, req.Limit) })
	return v, err
}

func (s *Service) BuffersList(ctx context.Context, req *BuffersListRequest) (*BuffersListResponse, error) {
	if req == nil {
		req = &BuffersListRequest{}
	}
	v, err := s.WorkspaceGet(ctx, &WorkspaceGetRequest{Offset: req.Offset, Limit: req.Limit})
	if err != nil {
		return nil, err
	}
	more := max(v.BuffersTotal-req.Offset-len(v.Buffers), 0)
	return &BuffersListResponse{Root: v.Root, Buffers: v.Buffers, BuffersTotal: v.BuffersTotal, More: more}, nil
}

func (s *Service) BuffersClose(ctx context.Context, req *BuffersCloseRequest) (*BuffersCloseResponse, error) {
	root, l, err := s.target(req.Path, "path")
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
func (s *Service) remember(ctx context.Context, root string, b workspace.Buffer) error {
	same := false
	s.store.View(func(r *workspace.Record) {
		if ses := r.Sessions[root]; ses != nil {
			same = slices.Contains(ses.Buffers, b)
		}
	})
	if same {
		return nil
	}
	_, err := s.store.Update(ctx, func(r *workspace.Record) (bool, error) {
		return r.Session(root).Upsert(b), nil
	})
	return err
}
