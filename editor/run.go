package editor

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/editord/editord/workspace"
)

// editor::run: a command (a build, the tests, a formatter, a generator)
// run in the jail's sandbox (shell/sandbox), its output kept for paging,
// and every file it changed journaled as the caller's write. Off unless
// the configuration's [run] enabled = true.

type RunRequest struct {
	Argv           []string          `json:"argv,omitempty" desc:"Program and arguments; no shell (no globs, pipes, variables). The program must be in the config's run.programs."`
	Command        string            `json:"command,omitempty" desc:"A shell line for /bin/sh -c instead of argv, if the config allows (run.shell)."`
	Cwd            string            `json:"cwd,omitempty" desc:"Folder to run in, root-relative (default the root)."`
	Env            map[string]string `json:"env,omitempty" desc:"Variables to add; PATH, HOME, LD_*, GIT_*, GOFLAGS and the like are refused."`
	Stdin          string            `json:"stdin,omitempty" desc:"Text for standard input."`
	TimeoutSeconds int               `json:"timeout_seconds,omitempty" desc:"Stop it (and all it started) after this many seconds (default 600)."`
	Background     bool              `json:"background,omitempty" desc:"Return a job id at once; follow it with editor::run::status and editor::run::output. It ends with your session."`
	Terminal       bool              `json:"terminal,omitempty" desc:"Run it on a terminal (colours, prompts, line editing): both streams come out as stdout, stdin is typed, editor::run::input types more. TERM is xterm-256color unless env sets it."`
	Rows           int               `json:"rows,omitempty" desc:"The terminal's rows (default 24)."`
	Cols           int               `json:"cols,omitempty" desc:"The terminal's columns (default 80)."`
	TailBytes      int               `json:"tail_bytes,omitempty" default:"8192" desc:"Bytes of the end of stdout and of stderr in the reply (default 8192, at most 12288)."`
}

type RunResponse struct {
	Job         string      `json:"job" desc:"The job id, for editor::run::output (the whole output), editor::run::status and editor::run::kill."`
	Root        string      `json:"root" desc:"The workspace root the command ran under."`
	Cwd         string      `json:"cwd" desc:"The folder it ran in, root-relative (\"\" for the root)."`
	Argv        []string    `json:"argv" desc:"What ran."`
	Terminal    bool        `json:"terminal,omitempty" desc:"It runs on a terminal: stdout holds all it printed, escape sequences included."`
	State       string      `json:"state" enum:"running,exited,timeout,killed,lost" desc:"running (a background job), exited (exit_code says how), timeout (stopped at timeout_seconds), killed (by editor::run::kill or because the caller went away), lost (the editord process running it ended first)."`
	ExitCode    *int        `json:"exit_code" desc:"The exit status; null while running, and when it ended by a signal."`
	Signal      string      `json:"signal,omitempty" desc:"The signal that ended it (\"killed\", \"segmentation fault\"), if one did."`
	DurationMS  int64       `json:"duration_ms" desc:"Wall time so far, in milliseconds."`
	Stdout      string      `json:"stdout" desc:"The end of standard output (tail_bytes at most; invalid UTF-8 shown as U+FFFD)."`
	Stderr      string      `json:"stderr" desc:"The end of standard error."`
	StdoutBytes int64       `json:"stdout_bytes" desc:"All the bytes written to standard output; more than stdout holds when it was cut."`
	StderrBytes int64       `json:"stderr_bytes" desc:"All the bytes written to standard error."`
	Changed     *RunChanges `json:"changed" desc:"What the command changed in the workspace (each change is also an editor::changed event with cause editor::run); null while it runs."`
}

// RunChanges sums up the files a command created, modified and deleted.
type RunChanges struct {
	Created  int          `json:"created" desc:"Files created."`
	Modified int          `json:"modified" desc:"Files modified."`
	Deleted  int          `json:"deleted" desc:"Files deleted."`
	Files    []RunChanged `json:"files" desc:"The changed files, in path order (the first 100)."`
	More     int          `json:"more" desc:"Changed files left out of files; editor::changes lists every event."`
}

// RunChanged is one file a command changed.
type RunChanged struct {
	Path    string `json:"path" desc:"Root-relative path."`
	Kind    string `json:"kind" enum:"created,modified,deleted" desc:"What happened to it."`
	Added   int    `json:"added" desc:"Lines added (0 when the content before is unknown: a file not open in a tab, or binary)."`
	Removed int    `json:"removed" desc:"Lines removed (as added)."`
}

func init() {
	define("editor::run",
		"Run a command (build, tests, formatter, generator) sandboxed in the workspace: writes only inside it (not .git), "+
			"no denied files, no network, stopped at its timeout with all it started. Returns the exit code, the end of stdout/stderr "+
			"(all of it pageable with editor::run::output) and the files it changed, journaled as your writes. "+
			"Example: {\"argv\": [\"go\", \"test\", \"./...\"]}; background: true returns a job id at once.",
		destructive, (*Service).Run)
}

const (
	runTailDefault = 8192
	runTailCap     = 12288
	// runFilesShown bounds the changed files listed in a reply.
	runFilesShown = 100
)

func (s *Service) Run(ctx context.Context, req *RunRequest) (*RunResponse, error) {
	tail, err := countArg("tail_bytes", req.TailBytes, runTailDefault, runTailCap)
	if err != nil {
		return nil, err
	}
	j, err := s.startRun(ctx, req, tail)
	if err != nil {
		return nil, err
	}
	if req.Background {
		return j.response(), nil
	}
	// Progress while it runs: the seconds so far and its last line.
	progress := ProgressFrom(ctx)
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-j.done:
			return j.response(), nil
		case <-tick.C:
			progress(time.Since(j.start).Seconds(), 0, j.lastLine())
		}
	}
}

// response is the reply for the job as it is now.
func (j *runJob) response() *RunResponse {
	resp := &RunResponse{Job: j.rec.ID, Root: j.rec.Root, Cwd: j.rec.Cwd, Argv: j.rec.Argv, Terminal: j.rec.Terminal}
	out, outN := j.stdout.Tail()
	errOut, errN := j.stderr.Tail()
	resp.Stdout, resp.Stderr = tailText(out, j.tail), tailText(errOut, j.tail)
	resp.StdoutBytes, resp.StderrBytes = outN, errN
	select {
	case <-j.done:
		rec := j.record()
		resp.State, resp.ExitCode, resp.Signal = rec.State, rec.ExitCode, rec.Signal
		resp.DurationMS = rec.EndedMS - rec.StartedMS
		resp.Changed = runChangesOf(rec.Changed)
	default:
		resp.State = "running"
		resp.DurationMS = time.Since(j.start).Milliseconds()
	}
	return resp
}

// tailText is the last n bytes of b as text: cut forward to a rune start,
// invalid UTF-8 replaced.
func tailText(b []byte, n int) string {
	if len(b) > n {
		b = b[len(b)-n:]
	}
	for i := 0; i < len(b) && i < utf8.UTFMax && !utf8.RuneStart(b[0]); i++ {
		b = b[1:]
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

func runChangesOf(c *workspace.JobChanges) *RunChanges {
	if c == nil {
		return nil
	}
	out := &RunChanges{Created: c.Created, Modified: c.Modified, Deleted: c.Deleted, More: c.More, Files: make([]RunChanged, 0, len(c.Files))}
	for _, f := range c.Files {
		out.Files = append(out.Files, RunChanged(f))
	}
	return out
}

// runCommand is argv as one line, for messages.
func runCommand(argv []string) string {
	line := strings.Join(argv, " ")
	if len(line) > 200 {
		line = line[:200] + "…"
	}
	return fmt.Sprintf("%q", line)
}
