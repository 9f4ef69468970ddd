package editor

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"maps"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/editord/editord/shell"
	"github.com/editord/editord/shell/sandbox"
	"github.com/editord/editord/workspace"
)

// The jobs of editor::run this process runs. Each is also recorded in the
// state dir (workspace.Job), which is what every other process (and the
// watcher) reads; this registry holds what only the owner has: the
// process, and the output streams being written.

type runState struct {
	mu     sync.Mutex
	jobs   map[string]*runJob
	closed bool
	// tidying: ended jobs' clean-up, done after their callers have the
	// result.
	tidying sync.WaitGroup
}

type runJob struct {
	s              *Service
	mu             sync.Mutex
	rec            workspace.Job // guarded by mu
	proc           *sandbox.Process
	stdout, stderr *sandbox.Log
	tail           int
	start          time.Time
	done           chan struct{}
	release        func() // the job's lock in the state dir
	cancel         context.CancelFunc
	before         runBefore
	input          *sandbox.InputChannel // a terminal's: editor::run::input from any process
}

// record is a copy of the job's record.
func (j *runJob) record() workspace.Job {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.rec
}

// lastLine is the last line the command printed (either stream), for
// progress notifications.
func (j *runJob) lastLine() string {
	out, _ := j.stdout.Tail()
	errOut, _ := j.stderr.Tail()
	line := lastLineOf(out)
	if l := lastLineOf(errOut); line == "" {
		line = l
	}
	return fmt.Sprintf("%s: %s", time.Since(j.start).Round(time.Second), line)
}

func lastLineOf(b []byte) string {
	b = bytes.TrimRight(b, "\r\n")
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
		b = b[i+1:]
	}
	return tailText(b, 200)
}

func (rs *runState) add(j *runJob) error {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.closed {
		return shell.Errorf(shell.CodeNotAllowed, "", "editord is shutting down; no command can start")
	}
	if rs.jobs == nil {
		rs.jobs = map[string]*runJob{}
	}
	rs.jobs[j.rec.ID] = j
	return nil
}

func (rs *runState) get(id string) *runJob {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return rs.jobs[id]
}

func (rs *runState) drop(id string) {
	rs.mu.Lock()
	delete(rs.jobs, id)
	rs.mu.Unlock()
}

// stopRuns stops every job of this process and waits for their ends to be
// recorded (Close calls it); no job starts after it.
func (s *Service) stopRuns() {
	rs := &s.runs
	rs.mu.Lock()
	rs.closed = true
	jobs := make([]*runJob, 0, len(rs.jobs))
	for _, j := range rs.jobs {
		jobs = append(jobs, j)
	}
	rs.mu.Unlock()
	for _, j := range jobs {
		j.cancel()
	}
	for _, j := range jobs {
		<-j.done
	}
	rs.tidying.Wait()
}

func newJobID() string {
	var b [5]byte
	rand.Read(b[:])
	return "run-" + hex.EncodeToString(b[:])
}

// startRun checks the request against the configuration, makes the box
// and starts the command; the job finishes on its own goroutine.
func (s *Service) startRun(ctx context.Context, req *RunRequest, tail int) (*runJob, error) {
	cfg := &s.cfg.Run
	if !cfg.Enabled {
		return nil, shell.Errorf(shell.CodeNotAllowed, "", "editor::run is off: the configuration turns it on with [run] enabled = true (and lists the programs allowed in run.programs); `editord serve --allow-run` does for one server")
	}
	argv, err := runArgv(cfg, req)
	if err != nil {
		return nil, err
	}
	root, err := s.writeRoot(ctx, !strings.HasPrefix(req.Cwd, "/"))
	if err != nil {
		return nil, err
	}
	cwd, cwdAbs, err := s.runCwd(root, req.Cwd)
	if err != nil {
		return nil, err
	}
	timeout := time.Duration(cfg.TimeoutMS) * time.Millisecond
	if req.TimeoutSeconds < 0 {
		return nil, invalid("timeout_seconds must be 1 or more, not %d", req.TimeoutSeconds)
	}
	if req.TimeoutSeconds > 0 {
		timeout = min(time.Duration(req.TimeoutSeconds)*time.Second, time.Duration(cfg.MaxTimeoutMS)*time.Millisecond)
	}
	if err := sandbox.Available(); err != nil {
		return nil, err
	}
	box, err := s.runBox(cfg, argv, root)
	if err != nil {
		return nil, err
	}
	id := newJobID()
	home, tmp, err := s.store.RunDirs(id)
	if err != nil {
		return nil, err
	}
	if req.Rows < 0 || req.Cols < 0 {
		s.store.RemoveRunTmp(id)
		return nil, invalid("rows and cols must be 1 or more (or 0 for 24 and 80), not %d and %d", req.Rows, req.Cols)
	}
	add := req.Env
	if req.Terminal && add["TERM"] == "" {
		add = maps.Clone(add)
		if add == nil {
			add = map[string]string{}
		}
		add["TERM"] = "xterm-256color"
	}
	env, err := runEnv(cfg, add, home, tmp)
	if err != nil {
		s.store.RemoveRunTmp(id)
		return nil, err
	}
	caller := CallerFrom(ctx)
	j := &runJob{s: s, tail: tail, done: make(chan struct{}), start: time.Now()}
	j.rec = workspace.Job{ID: id, By: by(ctx), Root: root, Cwd: cwd, Argv: argv, Background: req.Background, Terminal: req.Terminal,
		State: "running", StartedMS: j.start.UnixMilli(), WindowStartNS: j.start.UnixNano(), Owner: os.Getpid()}
	// Recorded before anything runs: the watcher takes what changes under
	// the root from now on for this job's (editor/watch/run.go).
	if j.release, err = s.store.StartJob(&j.rec); err != nil {
		s.store.RemoveRunTmp(id)
		return nil, err
	}
	fail := func(err error) (*runJob, error) {
		for _, l := range []*sandbox.Log{j.stdout, j.stderr} {
			if l != nil {
				l.Close()
			}
		}
		if j.input != nil {
			j.input.Close()
		}
		j.rec.State, j.rec.Error, j.rec.EndedMS = "failed", shell.AsError(err, "").Message, time.Now().UnixMilli()
		s.store.WriteJob(&j.rec)
		j.release()
		s.store.RemoveRunTmp(id)
		return nil, err
	}
	dir := s.store.JobDir(id)
	if j.stdout, err = sandbox.NewLog(dir+"/stdout", cfg.MaxOutputBytes, runTailCap); err != nil {
		return fail(err)
	}
	if j.stderr, err = sandbox.NewLog(dir+"/stderr", cfg.MaxOutputBytes, runTailCap); err != nil {
		return fail(err)
	}
	if req.Terminal {
		if j.input, err = sandbox.OpenInput(dir + "/input"); err != nil {
			return fail(err)
		}
	}
	if j.before, err = s.runBefore(root); err != nil {
		return fail(err)
	}
	// The job's life: the request's for a foreground run; for a
	// background one, until the caller goes away. Either way it ends when
	// this service closes (stopRuns).
	jctx := context.WithoutCancel(ctx)
	if !req.Background {
		jctx = ctx
	}
	jctx, j.cancel = context.WithCancel(jctx)
	spec := box
	spec.Args, spec.Dir, spec.Env, spec.Timeout = argv, cwdAbs, env, timeout
	spec.Write = append(append([]string{}, box.Write...), home, tmp)
	spec.Stdout, spec.Stderr = j.stdout, j.stderr
	if req.Stdin != "" {
		spec.Stdin = strings.NewReader(req.Stdin)
	}
	if req.Terminal {
		ts := sandbox.TermSize{Rows: req.Rows, Cols: req.Cols}.WithDefaults()
		spec.Terminal = &ts
		j.rec.Rows, j.rec.Cols = ts.Rows, ts.Cols
	}
	if err := s.runs.add(j); err != nil {
		j.cancel()
		return fail(err)
	}
	if j.proc, err = sandbox.Start(jctx, spec); err != nil {
		s.runs.drop(id)
		j.cancel()
		close(j.done) // for stopRuns, which may wait for it already
		return fail(err)
	}
	j.mu.Lock()
	j.rec.Pid = j.proc.Pid()
	j.mu.Unlock()
	s.store.WriteJob(&j.rec)
	if j.input != nil {
		go j.input.Serve(j.proc, j.resized)
	}
	if caller != nil {
		go func() {
			select {
			case <-caller.Gone():
				j.cancel()
			case <-j.done:
			}
		}()
	}
	go j.finish(WithCaller(context.Background(), caller))
	return j, nil
}

// resized records a terminal's new size (the page shows the terminal at
// it). Written under the lock, and only while the job runs: a late
// resize never overwrites the record of its end.
func (j *runJob) resized(ts sandbox.TermSize) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.rec.WindowEndNS != 0 {
		return
	}
	j.rec.Rows, j.rec.Cols = ts.Rows, ts.Cols
	if err := j.s.store.WriteJob(&j.rec); err != nil {
		j.s.warn(fmt.Sprintf("recording job %s's terminal size: %v", j.rec.ID, err))
	}
}

// finish waits for the command, journals what it changed as the caller's
// writes, and records how it ended.
func (j *runJob) finish(ctx context.Context) {
	s := j.s
	res := j.proc.Wait()
	if j.input != nil {
		j.input.Close() // editor::run::input finds the job ended from now on
	}
	j.cancel()
	j.stdout.Close()
	j.stderr.Close()
	// The window closes before the last look: a change after it is not
	// the job's.
	j.mu.Lock()
	j.rec.WindowEndNS = time.Now().UnixNano()
	rec := j.rec
	j.mu.Unlock()
	if err := s.store.WriteJob(&rec); err != nil {
		s.warn(fmt.Sprintf("recording the end of job %s: %v", rec.ID, err))
	}
	changes := s.runJournal(ctx, j.rec.Root, j.before)
	j.mu.Lock()
	j.rec.EndedMS = time.Now().UnixMilli()
	j.rec.Changed = changes
	switch {
	case res.TimedOut:
		j.rec.State = "timeout"
	case res.Killed || res.Signal == "killed":
		j.rec.State = "killed"
	default:
		j.rec.State = "exited"
	}
	if res.ExitCode >= 0 {
		code := res.ExitCode
		j.rec.ExitCode = &code
	}
	j.rec.Signal = res.Signal
	if err := j.stdout.Err(); err != nil {
		j.rec.Error = "the output could no longer be kept: " + err.Error()
	}
	rec = j.rec
	j.mu.Unlock()
	if err := s.store.WriteJob(&rec); err != nil {
		s.warn(fmt.Sprintf("recording the end of job %s: %v", rec.ID, err))
	}
	j.release()
	s.runs.tidying.Add(1)
	s.runs.drop(rec.ID)
	close(j.done)
	s.store.RemoveRunTmp(rec.ID)
	s.store.SweepJobs(s.cfg.Run.JobsKept)
	s.runs.tidying.Done()
}
