package editor

import (
	"context"

	"github.com/editord/editord/workspace"
)

// Warm prepares, in the background of a server that just started, what
// the first calls need: the file tree, git's index and find's candidates
// (the first editor::find and editor::search), then git's status (the
// first editor::git::status). A first call that comes meanwhile shares
// the work in progress instead of repeating it. It returns when done or
// when ctx ends; errors are left for the calls themselves to report.
// treeWarm, when not nil, is called once the tree is ready and before git
// status is warmed.
func (s *Service) Warm(ctx context.Context, treeWarm func()) {
	root, err := s.root()
	if err == nil && ctx.Err() == nil {
		s.find.Warm(root, s.cfg.Limits.MaxFindCandidates)
	}
	if treeWarm != nil {
		treeWarm()
	}
	if err != nil || ctx.Err() != nil {
		return
	}
	// Git's status stats the whole tree: it stops when a call begins
	// (the call does its own), so that a first call never shares the CPU
	// with it.
	sctx, cancel := s.untilACall(ctx)
	defer cancel()
	s.GitStatus(sctx, &GitStatusRequest{})
}

// treeCache keeps search's file trees in the state dir's cache files.
type treeCache struct{ st *workspace.Store }

func (c treeCache) LoadTree(root string) []byte {
	return c.st.ReadCache(workspace.CacheName("tree", root))
}

func (c treeCache) SaveTree(root string, data []byte) {
	c.st.WriteCache(workspace.CacheName("tree", root), data)
}
