package editor

import (
	"context"
	"errors"

	"github.com/editord/editord/shell"
	"github.com/editord/editord/shell/sandbox"
)

// editor::run::input: typing on the terminal of a job started with
// terminal: true, from any process on the state dir (the page's server
// types what the person types; an agent answers a prompt). The process
// running the job reads a FIFO in its folder (shell/sandbox's input.go).

type RunInputRequest struct {
	Job  string `json:"job" desc:"A running job started with terminal: true."`
	Text string `json:"text,omitempty" desc:"What to type, as on a keyboard: \"\\r\" is Enter, \"\\u0003\" ^C (interrupt), \"\\u0004\" ^D (end of input at a line's start)."`
	Rows int    `json:"rows,omitempty" desc:"Resize the terminal first: its rows (with cols)."`
	Cols int    `json:"cols,omitempty" desc:"Resize the terminal first: its columns (with rows)."`
}

type RunInputResponse struct {
	Job   string `json:"job" desc:"The job id."`
	Sent  int    `json:"sent" desc:"Bytes typed: all of text, or 0 when the job had ended (state says how)."`
	State string `json:"state" desc:"The job's state: running, or how it ended as in editor::run::status (ending: it ended as this was typed and is being recorded)."`
}

func init() {
	define("editor::run::input",
		"Type on the terminal of an editor::run job started with terminal: true (a prompt's answer, Enter as \\r, ^C as \\u0003), "+
			"or resize it; its output, echo included, pages with editor::run::output.",
		destructive, (*Service).RunInput)
}

func (s *Service) RunInput(ctx context.Context, req *RunInputRequest) (*RunInputResponse, error) {
	if !s.cfg.Run.Enabled {
		// Typing on a shell's terminal runs commands as surely as editor::run.
		return nil, shell.Errorf(shell.CodeNotAllowed, "", "editor::run::input is off: the configuration turns it on with [run] enabled = true; `editord serve --allow-run` does for one server")
	}
	if (req.Rows > 0) != (req.Cols > 0) || req.Rows < 0 || req.Cols < 0 {
		return nil, invalid("rows and cols go together, each 1 or more (not %d and %d)", req.Rows, req.Cols)
	}
	if req.Text == "" && req.Rows == 0 {
		return nil, invalid("nothing to do: pass text to type, or rows and cols to resize the terminal")
	}
	rec, err := s.store.ReadJob(req.Job)
	if err != nil {
		return nil, err
	}
	if !rec.Terminal {
		return nil, shell.Errorf(shell.CodeInvalidArgument, "", "job %s does not run on a terminal: it takes no input once started (start one with terminal: true)", rec.ID)
	}
	resp := &RunInputResponse{Job: rec.ID, State: rec.State}
	if rec.State != "running" {
		return resp, nil
	}
	var size *sandbox.TermSize
	if req.Rows > 0 {
		size = &sandbox.TermSize{Rows: req.Rows, Cols: req.Cols}
	}
	resp.Sent, err = sandbox.SendInput(s.store.JobDir(rec.ID)+"/input", []byte(req.Text), size)
	if errors.Is(err, sandbox.ErrNotRunning) {
		// It ended meanwhile.
		if rec, err = s.store.ReadJob(req.Job); err != nil {
			return nil, err
		}
		resp.State = rec.State
		if resp.State == "running" {
			resp.State = "ending"
		}
		return resp, nil
	}
	if err != nil {
		return nil, err
	}
	return resp, nil
}
