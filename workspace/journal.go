package workspace

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"sync"

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
	Turn      string  `json:"turn" desc:"The turn the change belongs to (t42): the writer's changes between boundaries; an external change joins the turn of whoever was at work. editor::history shows a turn, editor::revert undoes it."`
	Prev      *string `json:"prev,omitempty" desc:"Version of the content before the change, when it is known."`
	Mode      string  `json:"mode,omitempty" desc:"For a deleted file: its permission bits in octal (0644), which a revert brings back."`
	Version   *string `json:"version,omitempty" desc:"Version of the new content, when it is known."`
	Added     int     `json:"added" desc:"Lines added."`
	Removed   int     `json:"removed" desc:"Lines removed."`
	Patch     string  `json:"patch" desc:"Unified diff of the change, capped at event_patch_bytes."`
	Truncated bool    `json:"truncated" desc:"The patch was cut at event_patch_bytes; call editor::git::hunks for the whole diff."`
	// Step and Steps place a write among the files one call writes one at
	// a time (editor::replace): a call killed midway leaves no event for
	// the files after the last step journaled.
	Step  int `json:"step,omitempty" desc:"For a call that writes several files one at a time (editor::replace): this file's place among them, from 1, in path order."`
	Steps int `json:"steps,omitempty" desc:"With step: how many files the call was asked to write; a call stopped midway (killed) has no event past its last step."`

	// Before and After are the whole contents around the change, when the
	// writer has them in hand, and Gone the files a deleted folder held:
	// the Stamper keeps them for the change's turn (editor/turns). They are
	// never journaled or sent.
	Before, After []byte     `json:"-"`
	Gone          []GoneFile `json:"-"`
}

// GoneFile is a file a deleted folder held: its path (stored form), its
// content when it was kept (nil: too large to keep), version and mode. One
// without a path says that the folder held more than was kept.
type GoneFile struct {
	Path, Version, Mode string
	Data                []byte
}

// The journal is one append-only file of JSON lines, each starting with
// {"seq":N, (Seq is the first field, so a reader finds the seq of a line
// from its first bytes). Nothing reads it whole on a hot path:
//
//   - Append learns the last seq from the file's tail (or from what it
//     wrote last, when the file has not changed since);
//   - readers find the first event after a cursor by a binary search over
//     byte offsets (the seqs increase along the file), helped by a small
//     seq→offset index of where earlier reads ended (journal_read.go);
//   - followers (Follower) keep the byte offset where they stopped and read
//     only what was appended since;
//   - compaction (every changes_kept appends) copies the last changes_kept
//     lines, found by reading the file backwards, into a new file that
//     replaces the old atomically; readers notice the new inode and find
//     their place in it again by seq.
const (
	journalFile = "changes.jsonl"
	journalLock = "changes.lock"
	// tailProbe is the first tail read when looking for the last event;
	// it doubles up to tailProbeMax while no complete event is found.
	tailProbe    = 16 << 10
	tailProbeMax = 64 << 20
)

// appendState is what this process knows of the journal after its last
// append: when the file is still that one (same inode and size), the last
// seq is known without reading.
type appendState struct {
	mu   sync.Mutex
	key  fileKey
	last int64
}

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
	last, size, torn, err := s.journalEnd()
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if torn {
		buf.WriteByte('\n') // a writer died mid-line: start ours on a fresh one
	}
	first := last
	for i := range evs {
		evs[i].Seq = first + int64(i) + 1
	}
	if stamp := s.stamp.Load(); stamp != nil {
		(*stamp)(evs)
	}
	for i := range evs {
		last++
		line, err := json.Marshal(evs[i])
		if err != nil {
			return nil, err
		}
		buf.Write(line)
		buf.WriteByte('\n')
	}
	if err := s.jail.AppendFile(s.path(journalFile), buf.Bytes()); err != nil {
		s.appended.mu.Lock()
		s.appended.key = fileKey{}
		s.appended.mu.Unlock()
		return nil, err
	}
	compacted := false
	if keep > 0 && last/int64(keep) != first/int64(keep) && size > 0 {
		compacted = s.compact(keep)
	}
	s.appended.mu.Lock()
	s.appended.key, s.appended.last = fileKey{}, 0
	if !compacted {
		if k, err := s.keyOf(journalFile); err == nil && k.size == size+int64(buf.Len()) {
			s.appended.key, s.appended.last = k, last
		}
	}
	s.appended.mu.Unlock()
	return evs, nil
}

// journalEnd returns the last seq in the journal, its size, and whether it
// ends in a torn line; called with the journal lock held.
func (s *Store) journalEnd() (last, size int64, torn bool, err error) {
	k, err := s.keyOf(journalFile)
	if err != nil {
		if shell.CodeOf(err) == shell.CodeNotFound {
			return 0, 0, false, nil
		}
		return 0, 0, false, err
	}
	s.appended.mu.Lock()
	if s.appended.key == k && k.size > 0 {
		last := s.appended.last
		s.appended.mu.Unlock()
		return last, k.size, false, nil
	}
	s.appended.mu.Unlock()
	h, err := s.jail.OpenAt(s.path(journalFile))
	if err != nil {
		if shell.CodeOf(err) == shell.CodeNotFound {
			return 0, 0, false, nil
		}
		return 0, 0, false, err
	}
	defer h.Close()
	j := &jfile{r: h, size: h.Info.Size}
	last, _, err = j.lastEvent()
	if err != nil {
		return 0, 0, false, err
	}
	if j.size > 0 {
		var b [1]byte
		if _, err := h.ReadAt(b[:], j.size-1); err == nil && b[0] != '\n' {
			torn = true
		}
	}
	return last, j.size, torn, nil
}

// compact rewrites the journal to its last keep events; called with the
// journal lock held. It reads only those events' lines (backwards from the
// end) and drops lines that are not events (garbage, torn lines). It
// reports whether the file was replaced.
func (s *Store) compact(keep int) bool {
	h, err := s.jail.OpenAt(s.path(journalFile))
	if err != nil {
		return false
	}
	j := &jfile{r: h, size: h.Info.Size}
	lines, err := j.lastLines(keep)
	h.Close()
	if err != nil {
		return false
	}
	_, err = s.jail.WriteFile(s.path(journalFile), lines, shell.WriteOptions{Perm: 0o600, NoSync: true})
	return err == nil
}

// Stamper gives each event of an append its turn (Event.Turn), numbered
// and under the journal lock: turns are assigned in the journal's order,
// by whichever process appends, from state every process shares. It
// reports its own trouble; an event it cannot stamp is journaled anyway.
type Stamper func(evs []Event)

// LockJournal takes the journal lock, as Append does: what a Stamper keeps
// beside the journal is changed under it by other callers too.
func (s *Store) LockJournal(ctx context.Context) (func(), error) { return s.Lock(ctx, journalLock) }

// SetStamper makes f stamp every append of this Store from now on.
func (s *Store) SetStamper(f Stamper) { s.stamp.Store(&f) }

// ParseCursor reads a cursor given as a string ("" is the beginning).
func ParseCursor(c string) (int64, bool) {
	if c == "" {
		return 0, true
	}
	n, err := strconv.ParseInt(c, 10, 64)
	return n, err == nil && n >= 0
}
