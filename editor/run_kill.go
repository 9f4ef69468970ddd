package editor

import (
	"context"
	"time"

	"github.com/editord/editord/shell/sandbox"
)

type RunKillRequest struct {
	Job string `json:"job" desc:"A job id from editor::run."`
}

type RunKillResponse struct {
	Job    string `json:"job" desc:"The job id."`
	Killed bool   `json:"killed" desc:"True when the job was running and is now stopped, with everything it started; false when it had already ended."`
	State  string `json:"state" desc:"The job's state now (killed, or how it had ended)."`
}

func init() {
	define("editor::run::kill",
		"Stop an editor::run job and every process it started; what it changed until then is journaled.",
		Annotations{Destructive: true, Idempotent: true}, (*Service).RunKill)
}

// runKillWait bounds the wait for another process to record a kill.
const runKillWait = 10 * time.Second

func (s *Service) RunKill(ctx context.Context, req *RunKillRequest) (*RunKillResponse, error) {
	if j := s.runs.get(req.Job); j != nil {
		// A job whose command has ended but which is still being recorded
		// (another process's kill, say) is not killed by this call.
		j.mu.Lock()
		ended := j.rec.WindowEndNS != 0
		j.mu.Unlock()
		// Its context ends: the sandbox kills it (whether it has started
		// yet or not) and the job records that it was killed.
		j.cancel()
		select {
		case <-j.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		rec := j.record()
		return &RunKillResponse{Job: rec.ID, Killed: !ended && rec.State == "killed", State: rec.State}, nil
	}
	rec, err := s.store.ReadJob(req.Job)
	if err != nil {
		return nil, err
	}
	if rec.State != "running" {
		return &RunKillResponse{Job: rec.ID, State: rec.State}, nil
	}
	// Another process runs it: it records the end once it sees the kill
	// (or, when the job was ending anyway, once it has ended).
	killed := sandbox.KillInit(rec.Pid)
	deadline := time.Now().Add(runKillWait)
	for rec.State == "running" && time.Now().Before(deadline) {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
		if rec, err = s.store.ReadJob(req.Job); err != nil {
			return nil, err
		}
	}
	return &RunKillResponse{Job: rec.ID, Killed: killed && rec.State == "killed", State: rec.State}, nil
}
