package editor

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/editord/editord/editor/turns"
	"github.com/editord/editord/shell"
	"github.com/editord/editord/workspace"
)

type RevertRequest struct {
	Turn   string `json:"turn" desc:"The turn (t42)."`
	Path   string `json:"path,omitempty" desc:"Only this file of it."`
	Hunks  []int  `json:"hunks,omitempty" desc:"Only these hunk ids of that file."`
	DryRun bool   `json:"dry_run,omitempty" default:"false" desc:"Return the patch; write nothing."`
}

type RevertResponse struct {
	Turn    string          `json:"turn" desc:"The revert's own turn: revert it to redo what was undone. Empty on a dry run, or when nothing changed."`
	Undone  []turns.Undone  `json:"undone" desc:"What was undone (on a dry run: would be), file by file."`
	Refused []turns.Refusal `json:"refused" desc:"What was left as it is and why: a hunk later writers changed comes with its three sides (as it was, as the turn made it, as it is now). Nothing of theirs is overwritten."`
	Patch   string          `json:"patch" desc:"The revert's change to every file, as one unified diff."`
	DryRun  bool            `json:"dry_run" desc:"True when nothing was written."`
	Root    string          `json:"root" desc:"The workspace root of the turn's paths."`
}

func init() {
	define("editor::revert",
		"Undo a turn, one file of it, or hunks, three-way: hunks later writers changed are refused with their three sides, "+
			"their bytes kept as they are. Creates, deletes and moves are undone too. A revert is a turn.",
		destructive, (*Service).Revert)
}

// revertRetries is how often a file whose write met a later change is
// planned again before it is left as it is.
const revertRetries = 3

func (s *Service) Revert(ctx context.Context, req *RevertRequest) (*RevertResponse, error) {
	if req.Turn == "" {
		return nil, invalid("turn is empty; pass a turn id from editor::history (t42)")
	}
	if len(req.Hunks) > 0 && req.Path == "" {
		return nil, invalid("hunks name hunks of one file: give its path too")
	}
	sel := turns.Selection{Path: req.Path, Hunks: req.Hunks}
	if req.Path != "" {
		root, err := s.root()
		if err != nil {
			return nil, err
		}
		l, err := locateRequired(root, req.Path, "path")
		if err != nil {
			return nil, err
		}
		sel.Path = l.stored
	}
	disk := s.turnDisk()
	sum, plans, found, err := s.turns.Plan(req.Turn, sel, disk)
	if !found && err == nil {
		return nil, turnNotKept(req.Turn)
	}
	if err != nil {
		if shell.CodeOf(err) == "" {
			return nil, shell.Errorf(shell.CodeNotFound, req.Path, "%v; editor::history with turn %s shows them", err, req.Turn)
		}
		return nil, err
	}
	for _, p := range plans {
		for _, h := range req.Hunks {
			if h < 1 || h > p.Of {
				return nil, invalid("%s of turn %s has hunks 1–%d; there is no hunk %d", p.Entry, req.Turn, p.Of, h)
			}
		}
	}
	resp := &RevertResponse{Undone: []turns.Undone{}, Refused: []turns.Refusal{}, DryRun: req.DryRun, Root: sum.Root}
	if req.DryRun {
		for _, p := range plans {
			resp.add(p)
		}
		return resp, nil
	}
	who := by(ctx)
	wctx := refreshOnly(withCause(ctx, "editor::revert"))
	var done []*turns.Plan
	for _, p := range plans {
		for try := 0; ; try++ {
			if p.Kind != "" && resp.Turn == "" {
				title := "revert of " + req.Turn
				if sum.Title != "" {
					title += ": " + sum.Title
				}
				if resp.Turn, err = s.turns.BeginSide(who, title, req.Turn); err != nil {
					return nil, err
				}
				wctx = withTurn(wctx, resp.Turn)
			}
			moved, conflict, err := s.carryOut(wctx, p)
			if err != nil {
				// This file is left as it is (denied, binary, gone...);
				// the others are still undone.
				resp.Refused = append(resp.Refused, p.Refused...)
				resp.Refused = append(resp.Refused, turns.Refusal{Path: p.Path, Reason: shell.AsError(err, p.Path).Message, ChangedBy: []string{}})
				break
			}
			if !conflict {
				resp.add(p)
				done = append(done, p)
				break
			}
			if moved {
				p.Path = p.To // the move back is done; what is left is the content
			}
			next, err := s.turns.Replan(req.Turn, p, req.Hunks, disk)
			if err != nil {
				return nil, err
			}
			if next == nil || try == revertRetries {
				resp.Refused = append(resp.Refused, turns.Refusal{Path: p.Path, Reason: fmt.Sprintf("%s kept changing while it was being reverted; it is left as it is: try again", p.Path), ChangedBy: []string{}})
				break
			}
			p = next
		}
	}
	if resp.Turn != "" {
		if err := s.turns.EndTurn(resp.Turn); err != nil {
			s.warn(fmt.Sprintf("revert %s: %v", resp.Turn, err))
		}
		for _, p := range done {
			s.markUndone(req.Turn, p, who, resp.Turn)
		}
	}
	return resp, nil
}

// add records a plan's outcome in the response.
func (r *RevertResponse) add(p *turns.Plan) {
	r.Refused = append(r.Refused, p.Refused...)
	if p.Kind == "" {
		return
	}
	u := turns.Undone{Path: p.To, Kind: p.Kind, Hunks: p.Hunks, Patch: p.Patch}
	if u.Hunks == nil {
		u.Hunks = []int{}
	}
	if p.To != p.Path && p.Now.Exists {
		from := p.Path
		u.From = &from
	}
	r.Undone = append(r.Undone, u)
	r.Patch += p.Patch
}

// markUndone records in the turn which of its hunks the revert undid.
func (s *Service) markUndone(id string, p *turns.Plan, who, in string) {
	if p.Kind == "" {
		return
	}
	hunks := p.Hunks
	if p.Of == 0 {
		hunks = nil // a move: the file in all
	}
	if err := s.turns.Mark(id, p.Root, p.Entry, hunks, p.Of, who, in); err != nil {
		s.warn(fmt.Sprintf("revert %s: %v", in, err))
	}
}

// carryOut writes a plan through the service's guarded writes: each is
// guarded by the version the plan read, so a change that lands meanwhile
// makes it a conflict (plan again), never a clobber. moved reports that
// the move back was done before a conflict.
func (s *Service) carryOut(ctx context.Context, p *turns.Plan) (moved, conflict bool, err error) {
	if p.Kind == "" {
		return false, false, nil
	}
	at := absOf(p.Root, p.Path)
	if !p.Now.Exists && p.Result.Exists {
		// Brought back where it was deleted, then moved back where it was
		// before the turn moved it, as two changes a later revert follows.
		r, err := s.Save(withPerm(ctx, fs.FileMode(p.Result.Mode)), &SaveRequest{Path: at, Content: string(p.Result.Data)})
		if err != nil || r.Conflict {
			if err == nil || shell.CodeOf(err) == shell.CodeExists {
				return false, true, nil
			}
			return false, false, err
		}
		if p.To != p.Path && !s.moveBack(ctx, p) {
			p.To = p.Path
		}
		return false, false, nil
	}
	if p.To != p.Path {
		if !s.moveBack(ctx, p) {
			p.Kind, p.Patch, p.Hunks = "", "", nil
			return false, false, nil
		}
		moved = true
		at = absOf(p.Root, p.To)
	}
	switch {
	case p.Now.Exists && !p.Result.Exists:
		conflict, err = s.removeGuarded(ctx, p.Root, at, p.Now.Version)
	case p.Result.Exists && !p.Result.Dir && !bytes.Equal(p.Now.Data, p.Result.Data):
		v := p.Now.Version
		var r *SaveResponse
		r, err = s.Save(ctx, &SaveRequest{Path: at, Content: string(p.Result.Data), ExpectedVersion: &v})
		if shell.CodeOf(err) == shell.CodeNotFound {
			return moved, true, nil
		}
		conflict = err == nil && r.Conflict
	}
	return moved, conflict, err
}

// moveBack moves the file of p from p.Path back to p.To; false, with the
// refusal noted in p, when something took its place there (or it is gone).
func (s *Service) moveBack(ctx context.Context, p *turns.Plan) bool {
	from := absOf(p.Root, p.Path)
	_, err := s.Move(ctx, &MoveRequest{From: from, To: absOf(p.Root, p.To)})
	if err == nil {
		return true
	}
	p.Refused = append(p.Refused, turns.Refusal{Path: p.Path, Reason: fmt.Sprintf("%s cannot go back to %s: %s", p.Path, p.To, shell.AsError(err, from).Message), ChangedBy: []string{}})
	return false
}

// removeGuarded deletes the file at abs if it still has version: the
// undoing of a create, under the same locks as a save.
func (s *Service) removeGuarded(ctx context.Context, root, abs, version string) (conflict bool, err error) {
	l, err := locateRequired(root, abs, "path")
	if err != nil {
		return false, err
	}
	lk, err := s.lockFile(ctx, l)
	if err != nil {
		return false, err
	}
	defer lk.unlock()
	cur, err := s.readDisk(l)
	if err != nil || !cur.exists || cur.version != version {
		return err == nil, err
	}
	if err := s.jail.Remove(l.abs, false); err != nil {
		return false, err
	}
	if _, err := s.store.Update(ctx, func(r *workspace.Record) (bool, error) {
		ses := r.Session(root)
		return len(ses.CloseBeneath(l.stored)) > 0, nil
	}); err != nil {
		s.warn(fmt.Sprintf("%s was deleted, but its buffer could not be closed: %v", display(l.stored), err))
	}
	ev := s.changeEvent(root, l, causeOf(ctx, "editor::delete"), "deleted", cur.data, nil)
	ev.Mode = modeString(cur.info.Mode)
	s.emit(ctx, ev)
	return false, nil
}

// absOf is the absolute path of a stored path under root.
func absOf(root, p string) string {
	if filepath.IsAbs(p) || strings.HasPrefix(p, "/") {
		return p
	}
	return filepath.Join(root, filepath.FromSlash(p))
}
