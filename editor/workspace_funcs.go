package editor

import (
	"context"

	"github.com/editord/editord/shell"
	"github.com/editord/editord/workspace"
)

// WorkspaceView is the shared record of one root, as every surface sees it.
type WorkspaceView struct {
	Root     string             `json:"root" desc:"Absolute path of the workspace root."`
	Buffers  []workspace.Buffer `json:"buffers" desc:"Open files (the tab set), in the order they were opened."`
	Expanded []string           `json:"expanded" desc:"Folders expanded in the tree, root-relative."`
	Focus    *workspace.Focus   `json:"focus" desc:"Where the person is (active tab and cursor), as their editor last reported; null when unknown."`
}

type WorkspaceOpenRequest struct {
	Root string `json:"root" desc:"Folder to make the workspace root: absolute, or relative to the current root. Must be inside the jail."`
}

type WorkspaceGetRequest struct{}

type BuffersListRequest struct{}

type BuffersListResponse struct {
	Root    string             `json:"root" desc:"Absolute path of the workspace root."`
	Buffers []workspace.Buffer `json:"buffers" desc:"Open files, in the order they were opened."`
}

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

func (s *Service) view(rec *workspace.Record, root string) *WorkspaceView {
	ses := rec.Session(root)
	return &WorkspaceView{Root: root, Buffers: ses.Buffers, Expanded: ses.Expanded, Focus: ses.Focus}
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
	return s.view(rec, root), nil
}

func (s *Service) WorkspaceGet(ctx context.Context, _ *WorkspaceGetRequest) (*WorkspaceView, error) {
	root, err := s.root()
	if err != nil {
		return nil, err
	}
	return s.view(s.store.Load(), root), nil
}

func (s *Service) BuffersList(ctx context.Context, _ *BuffersListRequest) (*BuffersListResponse, error) {
	v, err := s.WorkspaceGet(ctx, nil)
	if err != nil {
		return nil, err
	}
	return &BuffersListResponse{Root: v.Root, Buffers: v.Buffers}, nil
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
	for _, have := range s.store.Load().Session(root).Buffers {
		if have.Path == b.Path {
			b.Dirty, b.DraftBase = have.Dirty, have.DraftBase
		}
		if have == b {
			return nil
		}
	}
	_, err := s.store.Update(ctx, func(r *workspace.Record) (bool, error) {
		return r.Session(root).Upsert(b), nil
	})
	return err
}
