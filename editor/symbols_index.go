package editor

// A workspace symbol query for Go is answered from editord's own index of
// declarations (editor/gosym), not asked of gopls: gopls decodes and
// matches every package's symbols per query (~110 ms on kubernetes), the
// index answers in milliseconds and needs no server running. It sees what
// the language servers see, fed from the same places (intel.go):
//
//   - built from the Go files editor::find lists, read through the jail;
//   - before each query, what the change journal gained since it last
//     looked (a workspace.Follower: a stat when nothing did), a write by
//     anyone, a move, a deletion, a folder's too; and the person's drafts
//     of Go files (their unsaved text, as the servers get it);
//   - rebuilt when the journal lost events before they were read, or the
//     root changed; dropped when unused as long as the Go server would be
//     kept (idle_seconds), its memory (~50 MB for kubernetes) given back.

import (
	"context"
	"hash/maphash"
	"path"
	"strings"
	"sync"
	"time"

	"github.com/editord/editord/editor/gosym"
	"github.com/editord/editord/shell"
	"github.com/editord/editord/workspace"
)

// goIndex is the index of one root, with where it is in the journal.
type goIndex struct {
	mu     sync.Mutex // one catch-up at a time; queries run outside it
	root   string
	x      *gosym.Index
	follow *workspace.Follower
	// drafts are the Go files indexed from a draft: their content's hash.
	drafts map[string]uint64
	idle   *time.Timer // drops the index when it fires
}

var draftSeed = maphash.MakeSeed()

// goSymbols answers a workspace symbol query from root's Go index, brought
// up to date first.
func (s *Service) goSymbols(ctx context.Context, root, query string, limit int) (symbolAnswer, int, error) {
	x, err := s.goIndex(ctx, root)
	if err != nil {
		return symbolAnswer{}, 0, err
	}
	ms, total := x.Query(query, limit)
	a := symbolAnswer{symbols: make([]Symbol, len(ms))}
	for i, m := range ms {
		a.symbols[i] = Symbol{Name: m.Name, Kind: m.Kind, Container: m.Package, Path: m.Path,
			Line: m.Line, Column: m.Column, EndLine: m.EndLine}
	}
	return a, total, nil
}

// goIndex is root's index, current with the journal and the drafts.
func (s *Service) goIndex(ctx context.Context, root string) (*gosym.Index, error) {
	s.gosym.Lock()
	g := s.gosymIdx
	if g == nil || g.root != root {
		g = &goIndex{root: root}
		s.gosymIdx = g
	}
	name, _ := s.lsp.For("go")
	if idle := s.cfg.LSP[name].Idle(); g.idle == nil {
		g.idle = time.AfterFunc(idle, func() {
			s.gosym.Lock()
			defer s.gosym.Unlock()
			if s.gosymIdx == g {
				s.gosymIdx = nil
			}
		})
	} else {
		g.idle.Reset(idle)
	}
	s.gosym.Unlock()

	g.mu.Lock()
	defer g.mu.Unlock()
	if g.x != nil {
		evs, lost, err := g.follow.Poll()
		if err != nil {
			return nil, err
		}
		if lost {
			g.x = nil
		}
		for _, ev := range evs {
			if g.x != nil && ev.Root == root && !path.IsAbs(ev.Path) {
				s.goApply(g, ev)
			}
		}
	}
	if g.x == nil {
		if err := s.goBuild(ctx, g); err != nil {
			return nil, err
		}
	}
	s.goDrafts(g)
	return g.x, nil
}

// goBuild indexes every Go file and go.mod of the root, following the
// journal from before it lists them, so that a change made during the
// build is read again.
func (s *Service) goBuild(ctx context.Context, g *goIndex) error {
	follow := s.store.NewFollower()
	files, err := s.find.Files(ctx, g.root, s.cfg.Limits.MaxFindCandidates)
	if err != nil {
		return err
	}
	x := gosym.New()
	var gofiles []string
	for _, rel := range files {
		switch {
		case gosym.Indexed(rel):
			gofiles = append(gofiles, rel)
		case path.Base(rel) == "go.mod":
			s.goModule(x, g.root, rel)
		}
	}
	x.SetAll(gofiles, func(rel string) ([]byte, bool) { return s.goRead(g.root, rel) })
	g.x, g.follow, g.drafts = x, follow, map[string]uint64{}
	return ctx.Err()
}

// goRead is a Go file's content on disk, when it is a whole text file.
func (s *Service) goRead(root, rel string) ([]byte, bool) {
	data, err := s.wholeText(path.Join(root, rel), rel)
	return data, err == nil
}

// goModule records (or forgets, when gone) the module of go.mod rel.
func (s *Service) goModule(x *gosym.Index, root, rel string) {
	mod := ""
	if data, ok := s.goRead(root, rel); ok {
		mod = gosym.ModulePath(data)
	}
	x.SetModule(path.Dir(rel), mod)
}

// goApply brings the index past one change of the journal. A move is the
// old path gone and the new one made: a file read again, a folder walked
// (its files may enter the index or leave it, a testdata renamed).
func (s *Service) goApply(g *goIndex, ev workspace.Event) {
	x, rel := g.x, ev.Path
	if ev.Kind == "moved" && ev.From != nil && !path.IsAbs(*ev.From) {
		goForget(x, *ev.From)
	}
	switch {
	case ev.Kind == "deleted":
		goForget(x, rel)
	case path.Base(rel) == "go.mod":
		s.goModule(x, g.root, rel)
	case gosym.Indexed(rel):
		if _, draft := g.drafts[rel]; draft {
			return // the draft stays what is indexed until it goes
		}
		if data, ok := s.goRead(g.root, rel); ok {
			x.Set(rel, data)
		} else {
			x.Remove(rel)
		}
	case ev.Kind == "created" || ev.Kind == "moved":
		// A folder, perhaps, brought in whole: its Go files.
		s.goFolder(g, rel)
	}
}

// goForget takes file or folder rel out of the index, with the module
// its go.mod (or the folder) held.
func goForget(x *gosym.Index, rel string) {
	x.Remove(rel)
	if path.Base(rel) == "go.mod" {
		x.SetModule(path.Dir(rel), "")
	}
}

// goFolder indexes the Go files (and go.mod files) of folder rel, honouring
// .gitignore as editor::find's list does.
func (s *Service) goFolder(g *goIndex, rel string) {
	base := path.Join(g.root, rel)
	if info, err := s.jail.Stat(base); err != nil || info.Kind != "dir" {
		return
	}
	var gofiles []string
	_ = s.jail.Walk(base, shell.WalkOptions{Gitignore: true, Noise: true}, func(e shell.WalkEntry) error {
		if e.Kind != "file" {
			return nil
		}
		r := path.Join(rel, e.Rel)
		switch {
		case gosym.Indexed(r):
			gofiles = append(gofiles, r)
		case e.Name == "go.mod":
			s.goModule(g.x, g.root, r)
		}
		return nil
	})
	g.x.SetAll(gofiles, func(r string) ([]byte, bool) { return s.goRead(g.root, r) })
}

// goDrafts indexes the person's drafts of Go files, and the disk again for
// a file whose draft is gone (saved or discarded).
func (s *Service) goDrafts(g *goIndex) {
	held := map[string]bool{}
	if ses := s.store.Load().Sessions[g.root]; ses != nil {
		for _, b := range ses.Buffers {
			if !b.Dirty || !gosym.Indexed(b.Path) || strings.HasPrefix(b.Path, "/") {
				continue
			}
			d, err := s.store.ReadDraft(g.root, b.Path)
			if err != nil || d == nil {
				continue
			}
			held[b.Path] = true
			h := maphash.String(draftSeed, d.Content)
			if old, ok := g.drafts[b.Path]; ok && old == h {
				continue
			}
			g.drafts[b.Path] = h
			g.x.Set(b.Path, []byte(d.Content))
		}
	}
	for rel := range g.drafts {
		if held[rel] {
			continue
		}
		delete(g.drafts, rel)
		if data, ok := s.goRead(g.root, rel); ok {
			g.x.Set(rel, data)
		} else {
			g.x.Remove(rel)
		}
	}
}
