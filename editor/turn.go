package editor

import (
	"context"
	"fmt"
	"io/fs"

	"github.com/editord/editord/editor/turns"
	"github.com/editord/editord/shell"
)

// Turns: a caller's changes between boundaries (editor/turns). The journal
// stamps every change with its turn; these functions draw boundaries by
// hand and mark what a person reviewed.

type TurnRequest struct {
	Action string `json:"action" enum:"begin,end,keep" desc:"begin, end, or keep (mark reviewed)."`
	Title  string `json:"title,omitempty" desc:"begin: what the turn is for."`
	Turn   string `json:"turn,omitempty" desc:"keep: the turn (t42)."`
	Path   string `json:"path,omitempty" desc:"keep: one file of it."`
	Hunks  []int  `json:"hunks,omitempty" desc:"keep: hunk ids of that file."`
}

type TurnResponse struct {
	Turn *turns.Summary `json:"turn" desc:"The turn begun, ended or kept; null when end found no open turn."`
}

func init() {
	define("editor::turn",
		"Begin (title: the user's prompt) or end your turn: the changes a person reviews and undoes together; "+
			"without it a turn ends after 2 min idle. keep marks a turn, file or hunks reviewed.",
		additive, (*Service).Turn)
}

func (s *Service) Turn(ctx context.Context, req *TurnRequest) (*TurnResponse, error) {
	who := by(ctx)
	switch req.Action {
	case "begin":
		if req.Turn != "" || req.Path != "" || len(req.Hunks) > 0 {
			return nil, invalid("begin takes only title; turn, path and hunks are for keep")
		}
		sum, err := s.turns.Begin(who, req.Title)
		if err != nil {
			return nil, err
		}
		return &TurnResponse{Turn: &sum}, nil
	case "end":
		if req.Title != "" || req.Turn != "" || req.Path != "" || len(req.Hunks) > 0 {
			return nil, invalid("end takes no other field: it ends your own open turn")
		}
		sum, ok, err := s.turns.End(who)
		if err != nil || !ok {
			return &TurnResponse{}, err
		}
		return &TurnResponse{Turn: &sum}, nil
	case "keep":
		return s.keepTurn(ctx, req)
	}
	return nil, invalid("action must be begin, end or keep, not %q", req.Action)
}

// keepTurn marks files or hunks of a turn reviewed and kept.
func (s *Service) keepTurn(ctx context.Context, req *TurnRequest) (*TurnResponse, error) {
	if req.Turn == "" {
		return nil, invalid("keep needs turn: the id editor::history gives (t42)")
	}
	if len(req.Hunks) > 0 && req.Path == "" {
		return nil, invalid("hunks name hunks of one file: give its path too")
	}
	sum, files, found, err := s.turns.Detail(req.Turn, s.turnDisk())
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, turnNotKept(req.Turn)
	}
	marked := false
	for _, f := range files {
		if req.Path != "" && f.Path != req.Path && (f.Now == nil || *f.Now != req.Path) {
			continue
		}
		for _, h := range req.Hunks {
			if h < 1 || h > len(f.Hunks) {
				return nil, invalid("%s of turn %s has hunks 1–%d; there is no hunk %d", f.Path, req.Turn, len(f.Hunks), h)
			}
		}
		if err := s.turns.Mark(req.Turn, sum.Root, f.Path, req.Hunks, len(f.Hunks), by(ctx), ""); err != nil {
			return nil, err
		}
		marked = true
	}
	if !marked && req.Path != "" {
		return nil, shell.Errorf(shell.CodeNotFound, req.Path, "turn %s did not change %s; editor::history with turn %s lists its files", req.Turn, req.Path, req.Turn)
	}
	if now, ok := s.turns.Get(req.Turn); ok {
		sum = now
	}
	return &TurnResponse{Turn: &sum}, nil
}

// turnNotKept is the error for a turn the book does not hold.
func turnNotKept(id string) error {
	if _, ok := turns.ParseID(id); !ok {
		return invalid("%q is not a turn id; turn ids look like t42 (editor::history lists them)", id)
	}
	return shell.Errorf(shell.CodeNotFound, id, "turn %s is not kept (turns.kept keeps the last 1000); editor::history lists the turns there are", id)
}

type turnKey struct{}

// withTurn makes the changes of a call belong to the turn id (a revert's
// own) instead of the one the journal's stamp would pick.
func withTurn(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, turnKey{}, id)
}

func turnOf(ctx context.Context) string {
	id, _ := ctx.Value(turnKey{}).(string)
	return id
}

type permKey struct{}

// withPerm gives a file a write creates the mode perm (a deleted file a
// revert brings back).
func withPerm(ctx context.Context, perm fs.FileMode) context.Context {
	return context.WithValue(ctx, permKey{}, perm)
}

// permOf is the mode a write in ctx gives a file it creates (0: the default).
func permOf(ctx context.Context) fs.FileMode {
	p, _ := ctx.Value(permKey{}).(fs.FileMode)
	return p
}

// modeString is a file's permission bits in octal, as events carry them.
func modeString(m fs.FileMode) string { return fmt.Sprintf("%04o", m.Perm()) }
