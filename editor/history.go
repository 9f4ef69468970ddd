package editor

import (
	"context"
	"strings"
	"time"

	"github.com/editord/editord/editor/turns"
	"github.com/editord/editord/shell"
)

type HistoryRequest struct {
	Turn       string `json:"turn,omitempty" desc:"One turn in detail (t42)."`
	By         string `json:"by,omitempty" desc:"Only this writer (claude-code#3f2a, or claude-code for all its sessions)."`
	NotBy      string `json:"not_by,omitempty" desc:"Leave out this writer."`
	Path       string `json:"path,omitempty" desc:"Only turns that changed this path."`
	Since      string `json:"since,omitempty" desc:"Only turns active since: RFC 3339 or a span (5m)."`
	Until      string `json:"until,omitempty" desc:"Only turns begun by then (same forms)."`
	Unreviewed bool   `json:"unreviewed,omitempty" default:"false" desc:"Only turns not wholly kept or undone."`
	Before     string `json:"before,omitempty" desc:"Page on: turns older than this (next)."`
	Limit      int    `json:"limit,omitempty" default:"20" desc:"At most this many (up to 1000)."`
}

type HistoryResponse struct {
	Turns []turns.Summary `json:"turns" desc:"The turns selected, newest first (with turn: that one)."`
	Files []turns.File    `json:"files" desc:"With turn: its files in detail; empty otherwise."`
	More  int             `json:"more" desc:"Turns selected past limit; pass next as before for them."`
	Next  string          `json:"next" desc:"The before of the next page; empty when there is none."`
	Root  string          `json:"root" desc:"The workspace root; a turn under another root names its own."`
}

// historyLimitCap bounds one listing.
const historyLimitCap = 1000

func init() {
	define("editor::history",
		"Turns (each writer's changes between boundaries), newest first; with turn, its files and hunks, "+
			"each hunk's status (stands, changed since, undone) and the patch. Undo an agent's last turn: history {by, limit: 1}, then editor::revert.",
		readOnly, (*Service).History)
}

func (s *Service) History(ctx context.Context, req *HistoryRequest) (*HistoryResponse, error) {
	if req.Turn != "" {
		return s.turnDetail(req)
	}
	limit, err := countArg("limit", req.Limit, 20, historyLimitCap)
	if err != nil {
		return nil, err
	}
	q := turns.Query{By: req.By, NotBy: req.NotBy, Unreviewed: req.Unreviewed, Limit: limit}
	if req.Path != "" {
		root, l, err := s.target(req.Path, "path")
		if err != nil {
			return nil, err
		}
		q.Root, q.Path = root, l.stored
	}
	// A span is back from the turns' own clock, the one their times are
	// stamped with.
	now := s.turns.Now()
	if q.Since, err = timeArg("since", req.Since, now); err != nil {
		return nil, err
	}
	if q.Until, err = timeArg("until", req.Until, now); err != nil {
		return nil, err
	}
	if req.Before != "" {
		n, ok := turns.ParseID(req.Before)
		if !ok {
			return nil, invalid("before %q is not a turn id; pass the next a previous editor::history returned (t42)", req.Before)
		}
		q.Before = n
	}
	list, more := s.turns.List(q)
	resp := &HistoryResponse{Turns: list, Files: []turns.File{}, More: more}
	if more > 0 && len(list) > 0 {
		resp.Next = list[len(list)-1].Turn
	}
	return resp, s.ownRoot(resp)
}

// turnDetail is editor::history for one turn.
func (s *Service) turnDetail(req *HistoryRequest) (*HistoryResponse, error) {
	if req.By != "" || req.NotBy != "" || req.Path != "" || req.Since != "" || req.Until != "" || req.Before != "" || req.Unreviewed {
		return nil, invalid("turn shows one turn in detail and takes no filter; leave out by, not_by, path, since, until, before and unreviewed")
	}
	sum, files, found, err := s.turns.Detail(req.Turn, s.turnDisk())
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, turnNotKept(req.Turn)
	}
	for i := range files {
		files[i].Language = Language(files[i].Path)
	}
	resp := &HistoryResponse{Turns: []turns.Summary{sum}, Files: files}
	return resp, s.ownRoot(resp)
}

// ownRoot names the active root in resp, leaving it out of the turns
// under it (a page of a thousand turns need not say it a thousand times).
func (s *Service) ownRoot(resp *HistoryResponse) error {
	root, err := s.root()
	if err != nil {
		return err
	}
	resp.Root = root
	for i := range resp.Turns {
		if resp.Turns[i].Root == root {
			resp.Turns[i].Root = ""
		}
	}
	return nil
}

// timeArg reads a time given as RFC 3339 or as a span back from now (5m),
// in Unix ms; "" is 0 (unbounded).
func timeArg(field, v string, now time.Time) (int64, error) {
	if v == "" {
		return 0, nil
	}
	if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
		return t.UnixMilli(), nil
	}
	if d, err := time.ParseDuration(strings.TrimPrefix(v, "-")); err == nil && d >= 0 {
		return now.Add(-d).UnixMilli(), nil
	}
	return 0, invalid("%s %q is neither an RFC 3339 time (2026-01-02T15:04:05Z) nor a span back from now (5m, 2h)", field, v)
}

// turnDisk reads the workspace for the turns book, through the jail.
func (s *Service) turnDisk() turns.Disk { return turnReader{s} }

type turnReader struct{ s *Service }

func (r turnReader) Read(root, path string) (turns.Side, error) {
	l, err := locate(root, path, "path")
	if err != nil {
		return turns.Side{}, err
	}
	in, err := r.s.jail.Stat(l.abs)
	if err != nil {
		if shell.CodeOf(err) == shell.CodeNotFound {
			return turns.Side{}, nil
		}
		return turns.Side{}, err
	}
	if in.Kind == shell.KindDir {
		return turns.Side{Exists: true, Dir: true}, nil
	}
	d, err := r.s.readDisk(l)
	if err != nil || !d.exists {
		return turns.Side{}, err
	}
	return turns.Side{Exists: true, Data: d.data, Version: d.version, Mode: uint32(d.info.Mode.Perm())}, nil
}
