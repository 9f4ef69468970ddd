package workspace

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/editord/editord/shell"
)

// Jobs: every editor::run command is recorded in the state dir, under
// runs/ID/: job.json (what runs, for whom, how it ended), its output
// streams (written by the sandbox) and a lock its owner holds while it
// runs. So every process on the state dir sees every command (the page
// watches what an agent's process runs), and the watcher of any process
// knows which writes a running command makes.

const runsDir = "runs"

// Job is one command as the state dir records it.
type Job struct {
	ID         string   `json:"id"`
	By         string   `json:"by"`
	Root       string   `json:"root"`
	Cwd        string   `json:"cwd"`
	Argv       []string `json:"argv"`
	Background bool     `json:"background"`
	// Terminal: it runs on a pty (editor::run::input types on it).
	Terminal bool `json:"terminal,omitempty"`
	// Rows and Cols: the terminal's size, as last set.
	Rows int `json:"rows,omitempty"`
	Cols int `json:"cols,omitempty"`
	// State: running, exited, timeout, killed, failed (the box could not
	// be made), lost (its process ended without recording how).
	State     string `json:"state"`
	ExitCode  *int   `json:"exit_code,omitempty"`
	Signal    string `json:"signal,omitempty"`
	StartedMS int64  `json:"started_ms"`
	EndedMS   int64  `json:"ended_ms,omitempty"`
	// The window, in Unix nanoseconds: from before the job's first look at
	// the root to just before its last, taken once the command has ended.
	// What the watcher sees change under the root inside it is the job's
	// to journal (0 for the end while the command runs).
	WindowStartNS int64 `json:"window_start_ns"`
	WindowEndNS   int64 `json:"window_end_ns,omitempty"`
	// Pid is the sandbox init's process id on the host (kill from any
	// process), Owner the editord process that runs it.
	Pid   int    `json:"pid,omitempty"`
	Owner int    `json:"owner,omitempty"`
	Error string `json:"error,omitempty"`
	// Changed is filled when the command has ended and its changes are
	// journaled: counts, and the first paths.
	Changed *JobChanges `json:"changed,omitempty"`
}

// JobChanges sums up what a command changed in the workspace.
type JobChanges struct {
	Created  int         `json:"created"`
	Modified int         `json:"modified"`
	Deleted  int         `json:"deleted"`
	Files    []JobChange `json:"files"`
	More     int         `json:"more"`
}

// JobChange is one file a command changed.
type JobChange struct {
	Path    string `json:"path"`
	Kind    string `json:"kind"`
	Added   int    `json:"added"`
	Removed int    `json:"removed"`
}

// JobDir is the folder of job id's files.
func (s *Store) JobDir(id string) string { return s.path(runsDir + "/" + id) }

// validJobID keeps an id to one path segment of our own making.
func validJobID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// StartJob records a new job and takes its lock, which the caller holds
// until the job's end is recorded (the kernel drops it if this process
// dies, which tells others the job is lost).
func (s *Store) StartJob(j *Job) (release func(), err error) {
	if !validJobID(j.ID) {
		return nil, fmt.Errorf("job id %q", j.ID)
	}
	if _, err := s.jail.Mkdir(s.JobDir(j.ID), true); err != nil {
		return nil, err
	}
	release, ok, err := s.jail.TryLock(s.JobDir(j.ID) + "/lock")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("job %s is already running", j.ID)
	}
	if err := s.WriteJob(j); err != nil {
		release()
		return nil, err
	}
	return release, nil
}

// WriteJob replaces the job's record.
func (s *Store) WriteJob(j *Job) error {
	data, err := json.Marshal(j)
	if err != nil {
		return err
	}
	_, err = s.jail.ReplaceFile(s.JobDir(j.ID)+"/job.json", data, false)
	return err
}

// ReadJob reads job id's record; a job whose record says running but whose
// owner is gone reads as lost. An unknown id is not_found.
func (s *Store) ReadJob(id string) (*Job, error) {
	if !validJobID(id) {
		return nil, shell.Errorf(shell.CodeNotFound, "", "there is no job %q; editor::run returns a job id, and editor::run::status lists the jobs", id)
	}
	res, err := s.jail.ReadFile(s.JobDir(id)+"/job.json", 1<<20)
	if err != nil {
		if shell.CodeOf(err) == shell.CodeNotFound {
			return nil, shell.Errorf(shell.CodeNotFound, "", "there is no job %q (jobs are kept for a while after they end); editor::run::status lists the jobs", id)
		}
		return nil, err
	}
	j := &Job{}
	if err := json.Unmarshal(res.Data, j); err != nil {
		return nil, fmt.Errorf("job %s: %v", id, err)
	}
	if j.State == "running" && !s.jobHeld(id) {
		j.State = "lost"
	}
	return j, nil
}

// jobHeld reports whether the job's owner still holds its lock.
func (s *Store) jobHeld(id string) bool { return s.held(s.JobDir(id) + "/lock") }

// Jobs lists the recorded jobs, oldest first.
func (s *Store) Jobs() []*Job {
	ents, err := s.jail.ReadDir(s.path(runsDir))
	if err != nil {
		return nil
	}
	var out []*Job
	for _, e := range ents {
		if e.Kind != shell.KindDir || !validJobID(e.Name) {
			continue
		}
		if j, err := s.ReadJob(e.Name); err == nil {
			out = append(out, j)
		}
	}
	sort.Slice(out, func(a, b int) bool {
		if out[a].StartedMS != out[b].StartedMS {
			return out[a].StartedMS < out[b].StartedMS
		}
		return out[a].ID < out[b].ID
	})
	return out
}

// SweepJobs removes the oldest ended jobs (and their output) beyond keep.
func (s *Store) SweepJobs(keep int) {
	var ended []*Job
	for _, j := range s.Jobs() {
		if j.State != "running" {
			ended = append(ended, j)
		}
	}
	for len(ended) > keep {
		j := ended[0]
		ended = ended[1:]
		if err := s.jail.Remove(s.JobDir(j.ID), true); err != nil && shell.CodeOf(err) != shell.CodeNotFound {
			s.warn(fmt.Sprintf("could not remove the ended job %s: %v", j.ID, err))
		}
	}
}

// Command is argv as one line, for messages.
func (j *Job) Command() string { return strings.Join(j.Argv, " ") }

// RunDirs makes the folders a command writes besides the jail: a home of
// its own, kept across runs (tools keep their caches there: Go's build
// cache makes a second go test as quick as outside), and a temp folder
// for this job alone (RemoveRunTmp removes it).
func (s *Store) RunDirs(id string) (home, tmp string, err error) {
	if !validJobID(id) {
		return "", "", fmt.Errorf("job id %q", id)
	}
	home, tmp = s.path("run/home"), s.path("run/tmp/"+id)
	for _, d := range []string{home, tmp} {
		if _, err := s.jail.Mkdir(d, true); err != nil {
			return "", "", err
		}
	}
	return home, tmp, nil
}

// BoxDir makes the sandbox's own folder (shell/sandbox's Scratch: the
// voids that cover denied paths and the sanitized repository configs),
// kept and shared by every command: outside everything a command reads or
// writes (beside run/, hidden with the rest of the state dir when that
// lies in the jail), and none of a command's metadata traffic.
func (s *Store) BoxDir() (string, error) {
	dir := s.path("box")
	if _, err := s.jail.Mkdir(dir, true); err != nil {
		return "", err
	}
	return dir, nil
}

// RemoveRunTmp removes job id's temp folder.
func (s *Store) RemoveRunTmp(id string) {
	if validJobID(id) {
		s.jail.Remove(s.path("run/tmp/"+id), true)
	}
}

// EntriesBut lists the state dir's top-level entries (absolute), but
// those named in but.
func (s *Store) EntriesBut(but ...string) []string {
	ents, err := s.jail.ReadDir(s.dir)
	if err != nil {
		return nil
	}
	var out []string
next:
	for _, e := range ents {
		for _, b := range but {
			if e.Name == b {
				continue next
			}
		}
		out = append(out, s.path(e.Name))
	}
	return out
}
