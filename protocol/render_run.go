package protocol

import (
	"fmt"
	"strings"
	"time"

	"github.com/editord/editord/editor"
)

// Renderings of editor::run and its jobs: the command and how it ended,
// the end of its output as a terminal showed it, and what it changed.

func init() {
	renderers["editor::run"] = typed(renderRun)
	renderers["editor::run::status"] = typed(renderRunStatus)
	renderers["editor::run::output"] = typed(renderRunOutput)
	renderers["editor::run::kill"] = func(r *rend, v any) bool {
		k := v.(*editor.RunKillResponse)
		if k.Killed {
			r.linef("%s: killed, with everything it started", k.Job)
		} else {
			r.linef("%s had already ended (%s)", k.Job, k.State)
		}
		return true
	}
	renderers["editor::run::input"] = func(r *rend, v any) bool {
		in := v.(*editor.RunInputResponse)
		if in.State == "running" {
			r.linef("%s: typed %d bytes; its echo and reply page with %s", in.Job, in.Sent, r.name("editor::run::output"))
		} else {
			r.linef("%s has ended (%s): nothing typed", in.Job, in.State)
		}
		return true
	}
}

// runEnd says how a job ended (or that it runs).
func runEnd(state string, code *int, signal string, ms int64) string {
	d := (time.Duration(ms) * time.Millisecond).Round(time.Millisecond)
	switch {
	case state == "running":
		return "running for " + d.String()
	case state == "exited" && code != nil:
		return fmt.Sprintf("exit %d after %s", *code, d)
	case signal != "":
		return fmt.Sprintf("%s (%s) after %s", state, signal, d)
	}
	return state + " after " + d.String()
}

func renderRun(r *rend, o *editor.RunResponse) bool {
	cwd := ""
	if o.Cwd != "" {
		cwd = " (in " + o.Cwd + ")"
	}
	r.linef("$ %s%s", strings.Join(o.Argv, " "), cwd)
	if o.State == "running" {
		r.linef("%s: started in the background; follow it with %s or %s, stop it with %s", o.Job,
			r.name("editor::run::status"), r.name("editor::run::output"), r.name("editor::run::kill"))
	} else {
		r.linef("%s: %s", o.Job, runEnd(o.State, o.ExitCode, o.Signal, o.DurationMS))
	}
	runStream(r, o.Job, "stdout", o.Stdout, o.StdoutBytes)
	runStream(r, o.Job, "stderr", o.Stderr, o.StderrBytes)
	if c := o.Changed; c != nil {
		if c.Created+c.Modified+c.Deleted == 0 {
			r.line("changed nothing in the workspace")
			return true
		}
		r.linef("changed: %d created, %d modified, %d deleted (editor::changed events with cause editor::run)", c.Created, c.Modified, c.Deleted)
		for i, f := range c.Files {
			if !r.linef("  %s %s +%d -%d", f.Kind, f.Path, f.Added, f.Removed) {
				r.note("… %d more changed files not shown", len(c.Files)-i+c.More)
				return true
			}
		}
		if c.More > 0 {
			r.note("… %d more changed files; %s lists every event", c.More, r.name("editor::changes"))
		}
	}
	return true
}

// runStream shows the end of one output stream, saying what was cut.
func runStream(r *rend, job, stream, text string, total int64) {
	if total == 0 {
		return
	}
	if int64(len(text)) < total {
		r.linef("--- %s: the last %d of %d bytes (%s with job %q and stream %q pages the rest)", stream, len(text), total,
			r.name("editor::run::output"), job, stream)
	} else {
		r.linef("--- %s", stream)
	}
	for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if !r.line(l) {
			return
		}
	}
}

func renderRunStatus(r *rend, o *editor.RunStatusResponse) bool {
	if len(o.Jobs) == 0 {
		r.line("no jobs")
		return true
	}
	for i, j := range o.Jobs {
		changed := ""
		if c := j.Changed; c != nil {
			changed = fmt.Sprintf(" changed %d+%d~%d-", c.Created, c.Modified, c.Deleted)
		}
		if !r.linef("%s %s by %s: $ %s%s", j.Job, runEnd(j.State, j.ExitCode, j.Signal, j.DurationMS), j.By, strings.Join(j.Argv, " "), changed) {
			r.note("… %d more jobs not shown; the structured content has them", len(o.Jobs)-i)
			return true
		}
		if j.Error != "" {
			r.line("  " + j.Error)
		}
	}
	return true
}

func renderRunOutput(r *rend, o *editor.RunOutputResponse) bool {
	r.linef("%s %s: bytes %d-%d of %d (%s)", o.Job, o.Stream, o.Offset, o.NextOffset, o.Total, o.State)
	if o.First > 0 {
		r.linef("(the first %d bytes were dropped: more than run.max_output_bytes was written)", o.First)
	}
	if o.Content != "" {
		for _, l := range strings.Split(strings.TrimSuffix(o.Content, "\n"), "\n") {
			if !r.line(l) {
				break
			}
		}
	}
	switch {
	case o.NextOffset < o.Total:
		r.note("… %d more bytes: call %s with offset %d", o.Total-o.NextOffset, r.name("editor::run::output"), o.NextOffset)
	case !o.EOF:
		r.note("… the job runs: call %s with offset %d and wait_ms to follow it", r.name("editor::run::output"), o.NextOffset)
	}
	return true
}
