package editor

import (
	"context"
	"time"
	"unicode/utf8"

	"github.com/editord/editord/shell"
	"github.com/editord/editord/shell/sandbox"
)

type RunOutputRequest struct {
	Job    string `json:"job" desc:"A job id from editor::run."`
	Stream string `json:"stream,omitempty" enum:"stdout,stderr" default:"stdout" desc:"Which output (default stdout)."`
	Offset *int64 `json:"offset,omitempty" desc:"Byte offset to read from; omit for the end (the last limit bytes)."`
	Limit  int    `json:"limit,omitempty" default:"16384" desc:"Bytes at most (default 16384, at most 24576)."`
	WaitMS int    `json:"wait_ms,omitempty" desc:"While the job runs and nothing is past offset yet, wait up to this many ms (at most 30000) for more."`
}

type RunOutputResponse struct {
	Job        string `json:"job" desc:"The job id."`
	Stream     string `json:"stream" desc:"stdout or stderr."`
	Offset     int64  `json:"offset" desc:"Where content starts in the stream."`
	NextOffset int64  `json:"next_offset" desc:"Where content ends: pass it as offset to read on."`
	First      int64  `json:"first_offset" desc:"The oldest byte still kept: the output before it was dropped (more than run.max_output_bytes was written)."`
	Total      int64  `json:"total" desc:"Bytes written to the stream so far."`
	Content    string `json:"content" desc:"The bytes from offset to next_offset (invalid UTF-8 shown as U+FFFD)."`
	State      string `json:"state" desc:"The job's state (running, exited, timeout, killed, failed, lost), as in editor::run::status."`
	EOF        bool   `json:"eof" desc:"True when the job has ended and nothing is left past next_offset."`
}

const (
	runOutputDefault = 16384
	runOutputCap     = 24576
	runOutputWaitCap = 30_000
)

func init() {
	define("editor::run::output",
		"Page an editor::run job's stdout or stderr by byte offset (kept whole up to run.max_output_bytes, then its newest part); "+
			"follow a running job by passing next_offset back with wait_ms.",
		readOnly, (*Service).RunOutput)
}

func (s *Service) RunOutput(ctx context.Context, req *RunOutputRequest) (*RunOutputResponse, error) {
	stream := req.Stream
	switch stream {
	case "":
		stream = "stdout"
	case "stdout", "stderr":
	default:
		return nil, invalid("stream is stdout or stderr, not %q", stream)
	}
	limit, err := countArg("limit", req.Limit, runOutputDefault, runOutputCap)
	if err != nil {
		return nil, err
	}
	if req.WaitMS < 0 {
		return nil, invalid("wait_ms must be 0 or more, not %d", req.WaitMS)
	}
	if req.Offset != nil && *req.Offset < 0 {
		return nil, invalid("offset must be 0 or more, not %d", *req.Offset)
	}
	rec, err := s.store.ReadJob(req.Job)
	if err != nil {
		return nil, err
	}
	base := s.store.JobDir(rec.ID) + "/" + stream
	deadline := time.Now().Add(time.Duration(min(req.WaitMS, runOutputWaitCap)) * time.Millisecond)
	pause, maxPause := 20*time.Millisecond, 200*time.Millisecond
	if rec.Terminal {
		// Someone may be typing on it: their echo should come back
		// within a keystroke's time even from another process.
		maxPause = 40 * time.Millisecond
	}
	// A job this process runs wakes the wait as soon as it writes (a
	// terminal's echo comes back at once); another process's is polled.
	var grew func() <-chan struct{}
	if j := s.runs.get(rec.ID); j != nil {
		grew = j.stdout.Changed
		if stream == "stderr" {
			grew = j.stderr.Changed
		}
	}
	for {
		var wake <-chan struct{}
		if grew != nil {
			wake = grew() // before the read: a write after it closes this
		}
		_, first, total, err := sandbox.ReadLog(base, 0, 0)
		if err != nil && shell.CodeOf(err) != shell.CodeNotFound {
			return nil, err
		}
		off := total - int64(limit)
		if req.Offset != nil {
			off = *req.Offset
		}
		off = max(off, first)
		if off < total || rec.State != "running" || !time.Now().Before(deadline) {
			return s.runOutputPage(rec.ID, stream, base, off, limit, rec.State)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-wake:
		case <-time.After(pause):
		}
		pause = min(2*pause, maxPause)
		if rec, err = s.store.ReadJob(req.Job); err != nil {
			return nil, err
		}
	}
}

// runOutputPage reads one page: its end is moved back off a rune cut in
// two, unless the rune is the stream's last bytes (a writer may finish it).
func (s *Service) runOutputPage(id, stream, base string, off int64, limit int, state string) (*RunOutputResponse, error) {
	data, first, total, err := sandbox.ReadLog(base, off, limit)
	if err != nil && shell.CodeOf(err) != shell.CodeNotFound {
		return nil, err
	}
	off = max(off, first)
	if n := len(data); n > 0 && off+int64(n) < total {
		for cut := 1; cut <= utf8.UTFMax && cut <= n; cut++ {
			if utf8.RuneStart(data[n-cut]) {
				if !utf8.FullRune(data[n-cut:]) {
					data = data[:n-cut]
				}
				break
			}
		}
	}
	next := off + int64(len(data))
	return &RunOutputResponse{Job: id, Stream: stream, Offset: off, NextOffset: next, First: first, Total: total,
		Content: toValidUTF8(data), State: state, EOF: state != "running" && next >= total}, nil
}

func toValidUTF8(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return string([]rune(string(b)))
}
