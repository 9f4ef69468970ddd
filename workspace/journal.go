package workspace

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"

	"github.com/editord/editord/shell"
)

// Event is one editor::changed event: a file in the workspace changed.
type Event struct {
	Seq       int64   `json:"seq" desc:"Position in the journal; increases by one per event."`
	Time      string  `json:"time" desc:"When the change was recorded, RFC 3339 with nanoseconds, UTC."`
	Root      string  `json:"root" desc:"The workspace root the path is relative to."`
	Path      string  `json:"path" desc:"Root-relative path that changed (the destination for a move)."`
	Kind      string  `json:"kind" enum:"created,modified,deleted,moved" desc:"What happened to the path."`
	From      *string `json:"from,omitempty" desc:"For a move: the path it came from."`
	Cause     string  `json:"cause" desc:"Function id that made the write (editor::save), or external for a write by another program."`
	By        string  `json:"by" desc:"Who wrote: the MCP client's name and 4 hex of its session (claude-code#3f2a), cli for editord call, or external."`
	Version   *string `json:"version,omitempty" desc:"Version of the new content, when it is known."`
	Added     int     `json:"added" desc:"Lines added."`
	Removed   int     `json:"removed" desc:"Lines removed."`
	Patch     string  `json:"patch" desc:"Unified diff of the change, capped at event_patch_bytes."`
	Truncated bool    `json:"truncated" desc:"The patch was cut at event_patch_bytes; call editor::git::hunks for the whole diff."`
}

const (
	journalFile = "changes.jsonl"
	journalLock = "changes.lock"
	tailProbe   = 256 << 10
)

// Append stores events with the next sequence numbers under the journal
// lock and returns them numbered. The journal keeps at least the last keep
// events: every keep appends it is rewritten down to keep.
func (s *Store) Append(ctx context.Context, evs []Event, keep int) ([]Event, error) {
	if len(evs) == 0 {
		return evs, nil
	}
	unlock, err := s.Lock(ctx, journalLock)
	if err != nil {
		return nil, err
	}
	defer unlock()
	tail, size, err := s.jail.ReadTail(s.path(journalFile), tailProbe)
	if err != nil && shell.CodeOf(err) != shell.CodeNotFound {
		return nil, err
	}
	last := lastSeq(tail)
	var buf bytes.Buffer
	if len(tail) > 0 && tail[len(tail)-1] != '\n' {
		buf.WriteByte('\n') // a writer died mid-line: start ours on a fresh one
	}
	for i := range evs {
		last++
		evs[i].Seq = last
		line, err := json.Marshal(evs[i])
		if err != nil {
			return nil, err
		}
		buf.Write(line)
		buf.WriteByte('\n')
	}
	if err := s.jail.AppendFile(s.path(journalFile), buf.Bytes()); err != nil {
		return nil, err
	}
	if keep > 0 && (last/int64(keep) != (last-int64(len(evs)))/int64(keep)) && size > 0 {
		s.compact(keep)
	}
	return evs, nil
}

// compact rewrites the journal to its last keep events; called with the
// journal lock held.
func (s *Store) compact(keep int) {
	res, err := s.jail.ReadFile(s.path(journalFile), 1<<40)
	if err != nil {
		return
	}
	lines := bytes.SplitAfter(res.Data, []byte("\n"))
	var good [][]byte
	for _, l := range lines {
		if len(l) > 0 && l[len(l)-1] == '\n' && json.Valid(l) {
			good = append(good, l)
		}
	}
	if len(good) > keep {
		good = good[len(good)-keep:]
	}
	s.jail.WriteFile(s.path(journalFile), bytes.Join(good, nil), shell.WriteOptions{Perm: 0o600, NoSync: true})
}

// lastSeq finds the seq of the last complete event in a journal tail.
func lastSeq(tail []byte) int64 {
	lines := bytes.Split(tail, []byte("\n"))
	for i := len(lines) - 1; i >= 0; i-- {
		var ev struct {
			Seq int64 `json:"seq"`
		}
		if json.Unmarshal(lines[i], &ev) == nil && ev.Seq > 0 {
			return ev.Seq
		}
	}
	return 0
}

// Since returns the events after cursor, oldest first, and the cursor to
// pass next time. reset is true when events after the cursor were already
// dropped from the journal (or the journal restarted), so the caller knows
// it missed some instead of silently skipping them.
func (s *Store) Since(cursor int64) (evs []Event, next int64, reset bool, err error) {
	res, err := s.jail.ReadFile(s.path(journalFile), 1<<40)
	if err != nil {
		if shell.CodeOf(err) == shell.CodeNotFound {
			return []Event{}, 0, cursor > 0, nil
		}
		return nil, cursor, false, err
	}
	evs = []Event{}
	first, last := int64(0), int64(0)
	for _, line := range bytes.Split(res.Data, []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		var ev Event
		if json.Unmarshal(line, &ev) != nil || ev.Seq <= last {
			continue // torn line, or a duplicate after a crash mid-compaction
		}
		if first == 0 {
			first = ev.Seq
		}
		last = ev.Seq
		if ev.Seq > cursor {
			evs = append(evs, ev)
		}
	}
	reset = cursor > last || (cursor > 0 && first > cursor+1)
	if cursor > last {
		// The journal restarted below the cursor: everything in it is new.
		evs = evs[:0]
		for _, line := range bytes.Split(res.Data, []byte("\n")) {
			var ev Event
			if json.Unmarshal(line, &ev) == nil && ev.Seq > 0 {
				evs = append(evs, ev)
			}
		}
	}
	return evs, last, reset, nil
}

// ParseCursor reads a cursor given as a string ("" is the beginning).
func ParseCursor(c string) (int64, bool) {
	if c == "" {
		return 0, true
	}
	n, err := strconv.ParseInt(c, 10, 64)
	return n, err == nil && n >= 0
}
