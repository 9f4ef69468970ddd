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
	Root     string             `json:"root" desc:"Absolute path of the workspace root."`
	Buffers  []workspace.Buffer `json:"buffers" desc:"Open files (the tab set), in the order they were opened."`
	Expanded []string           `json:"expanded" desc:"Folders expanded in the tree, root-relative."`
	Focus    *workspace.Focus   `json:"focus" desc:"Where the person is (active tab and cursor), as their editor last reported; null when unknown."`
}

type WorkspaceOpenRequest struct {
	Root string `json:"root" desc:"Folder to make the root: absolute, or relative to the current root."`
}

type WorkspaceGetRequest struct{}

type BuffersListRequest struct{}

type BuffersListResponse struct {
	Root    string             `json:"root" desc:"Absolute path of the workspace root."`
	Buffers []workspace.Buffer `json:"buffers" desc:"Open files, in the order they were opened."`
}

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

func (s *Service) view(rec *workspace.Record, root string) *WorkspaceView {
	ses := rec.Session(root)
	return &WorkspaceView{Root: root, Buffers: ses.Buffers, Expanded: ses.Expanded, Focus: ses.Focus}
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
	return s.view(rec, root), nil
}

func (s *Service) WorkspaceGet(ctx context.Context, _ *WorkspaceGetRequest) (*WorkspaceView, error) {
	rec := s.store.Load()
	root, err := s.rootOf(rec)
	if err != nil {
		return nil, err
	}
	CallerFrom(ctx).SawRoot(root) // re-synced: the caller has read the root
	return s.view(rec, root), nil
}

func (s *Service) BuffersList(ctx context.Context, _ *BuffersListRequest) (*BuffersListResponse, error) {
	rec := s.store.Load()
	root, err := s.rootOf(rec)
	if err != nil {
		return nil, err
	}
	return &BuffersListResponse{Root: root, Buffers: rec.Session(root).Buffers}, nil
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
