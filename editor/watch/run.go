package watch

// Commands' writes: while an editor::run job runs under the watched root,
// what changes there is the job's, and the job journals it itself when it
// ends, as its caller's writes with cause editor::run (editor/run_changes.go).
// The watcher must neither report those changes as external nor twice, so
// a change seen while such a job ran is taken as ours, like the echo of a
// save. Jobs are read from the state dir, so a command run by any process
// on it is recognised. A change another program makes under the root
// while a job runs is the job's too: the job's after-the-fact stamps
// cannot tell the two apart.

import (
	"time"

	"github.com/editord/editord/workspace"
)

// runWindow is the jobs recorded in the state dir, as read at a time.
type runWindow struct {
	read time.Time
	jobs []*workspace.Job
}

// runOwns reports whether c was seen while a job ran under the root: some
// raw event of it came inside the job's window. An event is seen after
// the write that caused it, so a write before the window's end is the
// job's when seen inside it; one seen after the end may be a late echo of
// the job's write, which the journal then explains (isOwn), or a write of
// another program, which is external. A change made just before the job
// started but seen inside its window is taken for the job's (and is not
// in its journal): a window of the kernel's event latency.
func (ses *session) runOwns(c *candidate) bool {
	if c.from0.IsZero() {
		return false
	}
	// Every job recorded before the batch's first event must be known.
	if ses.runs.read.Before(c.from0) {
		ses.runs = runWindow{read: time.Now(), jobs: ses.s.Store().Jobs()}
	}
	from, until := c.from0.UnixNano(), c.until.UnixNano()
	for _, j := range ses.runs.jobs {
		if j.Root != ses.root || j.State == "failed" {
			continue
		}
		end := j.WindowEndNS
		if end == 0 {
			if j.State != "running" {
				continue // lost: nobody journals its changes
			}
			end = until
		}
		if from <= end && until >= j.WindowStartNS {
			return true
		}
	}
	return false
}

// eventTimes is when the events of rel came in batch: its own, or (a file
// found in a new folder) the nearest folder above it that had events.
func eventTimes(batch map[string]*pending, rel string) (from, until time.Time) {
	for p := rel; ; p = parent(p) {
		if pe := batch[p]; pe != nil {
			return pe.at, pe.last
		}
		if p == "" {
			return time.Time{}, time.Time{}
		}
	}
}
