package editor

import (
	"context"
	"time"

	"github.com/editord/editord/shell/sandbox"
	"github.com/editord/editord/workspace"
)

type RunStatusRequest struct {
	Job string `json:"job,omitempty" desc:"A job id from editor::run; omit to list every job kept, oldest first."`
}

type RunStatusResponse struct {
	Jobs []RunJob `json:"jobs" desc:"The job asked for, or every job kept."`
}

// RunJob is one editor::run command as any process sees it.
type RunJob struct {
	Job         string      `json:"job" desc:"The job id."`
	By          string      `json:"by" desc:"Who ran it (the caller's name and session, as in editor::changed events)."`
	Root        string      `json:"root" desc:"The workspace root it ran under."`
	Cwd         string      `json:"cwd" desc:"Its folder, root-relative."`
	Argv        []string    `json:"argv" desc:"What ran."`
	Background  bool        `json:"background" desc:"Started with background: true."`
	Terminal    bool        `json:"terminal,omitempty" desc:"It runs on a terminal (editor::run::input types on it while it runs)."`
	Rows        int         `json:"rows,omitempty" desc:"A terminal's rows, as last set."`
	Cols        int         `json:"cols,omitempty" desc:"A terminal's columns, as last set."`
	State       string      `json:"state" enum:"running,exited,timeout,killed,failed,lost" desc:"running; exited (see exit_code); timeout; killed (editor::run::kill, or its caller went away); failed (the sandbox could not start it: see error); lost (the editord process running it ended first)."`
	ExitCode    *int        `json:"exit_code" desc:"The exit status once exited; null otherwise."`
	Signal      string      `json:"signal,omitempty" desc:"The signal that ended it, if one did."`
	StartedMS   int64       `json:"started_ms" desc:"When it started, Unix milliseconds."`
	DurationMS  int64       `json:"duration_ms" desc:"How long it ran (so far, while running), in milliseconds."`
	StdoutBytes int64       `json:"stdout_bytes" desc:"Bytes written to standard output so far; page them with editor::run::output."`
	StderrBytes int64       `json:"stderr_bytes" desc:"Bytes written to standard error so far."`
	Changed     *RunChanges `json:"changed" desc:"What it changed in the workspace, once it has ended; null before."`
	Error       string      `json:"error,omitempty" desc:"Why it failed to start, or trouble keeping its output."`
}

func init() {
	define("editor::run::status",
		"editor::run jobs, any process's: one by id, or all kept, with state, exit code, duration, output sizes and, once ended, the files changed.",
		readOnly, (*Service).RunStatus)
}

func (s *Service) RunStatus(ctx context.Context, req *RunStatusRequest) (*RunStatusResponse, error) {
	var recs []*workspace.Job
	if req.Job != "" {
		rec, err := s.store.ReadJob(req.Job)
		if err != nil {
			return nil, err
		}
		recs = []*workspace.Job{rec}
	} else {
		recs = s.store.Jobs()
	}
	out := &RunStatusResponse{Jobs: make([]RunJob, 0, len(recs))}
	for _, rec := range recs {
		out.Jobs = append(out.Jobs, s.runJobView(rec))
	}
	return out, nil
}

// runJobView is the view of a job's record, with its output's sizes.
func (s *Service) runJobView(rec *workspace.Job) RunJob {
	v := RunJob{Job: rec.ID, By: rec.By, Root: rec.Root, Cwd: rec.Cwd, Argv: rec.Argv, Background: rec.Background, Terminal: rec.Terminal, Rows: rec.Rows, Cols: rec.Cols,
		State: rec.State, ExitCode: rec.ExitCode, Signal: rec.Signal, StartedMS: rec.StartedMS,
		Changed: runChangesOf(rec.Changed), Error: rec.Error}
	if v.Argv == nil {
		v.Argv = []string{}
	}
	end := rec.EndedMS
	if end == 0 {
		end = time.Now().UnixMilli()
	}
	v.DurationMS = end - rec.StartedMS
	dir := s.store.JobDir(rec.ID)
	_, _, v.StdoutBytes, _ = sandbox.ReadLog(dir+"/stdout", 0, 0)
	_, _, v.StderrBytes, _ = sandbox.ReadLog(dir+"/stderr", 0, 0)
	return v
}
