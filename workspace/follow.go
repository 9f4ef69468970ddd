package workspace

import (
	"context"
	"encoding/json"
	"time"

	"github.com/editord/editord/shell"
)

// followPoll is how often Follow looks at the journal. A stat every few
// milliseconds is negligible work and keeps delivery latency low without
// depending on inotify in the state dir.
const followPoll = 10 * time.Millisecond

// Follower reads the journal as it grows: each Poll returns the events
// appended since the last one, reading only the bytes appended since (it
// keeps the byte offset where it stopped). A journal replaced by a
// compaction, or deleted and started again, is found again by seq.
type Follower struct {
	s      *Store
	ino    uint64 // the journal file being followed (0: none yet)
	off    int64  // just after the last complete line read
	cursor int64  // the last seq read
}

// NewFollower returns a follower positioned at the journal's current end:
// its first Poll returns only events appended after this call.
func (s *Store) NewFollower() *Follower {
	f := &Follower{s: s}
	h, err := s.jail.OpenAt(s.path(journalFile))
	if err != nil {
		return f
	}
	defer h.Close()
	last, end, err := (&jfile{r: h, size: h.Info.Size}).lastEvent()
	if err != nil {
		return f
	}
	f.ino, f.off, f.cursor = h.Info.Ino, end, last
	return f
}

// Cursor is the seq of the last event the follower has read.
func (f *Follower) Cursor() int64 { return f.cursor }

// Poll returns the events appended since the last call, oldest first.
// lost is true when events were dropped from the journal (changes_kept)
// before they could be read; a journal that restarted below the cursor
// comes back whole instead.
func (f *Follower) Poll() (evs []Event, lost bool, err error) {
	k, err := f.s.keyOf(journalFile)
	if err != nil {
		if shell.CodeOf(err) == shell.CodeNotFound {
			f.ino, f.off = 0, 0 // deleted: a journal that starts again is read from its start
			return nil, false, nil
		}
		return nil, false, err
	}
	if k.ino == f.ino && k.size == f.off {
		return nil, false, nil
	}
	h, err := f.s.jail.OpenAt(f.s.path(journalFile))
	if err != nil {
		if shell.CodeOf(err) == shell.CodeNotFound {
			return nil, false, nil
		}
		return nil, false, err
	}
	defer h.Close()
	j := &jfile{r: h, size: h.Info.Size}
	if h.Info.Ino == f.ino && j.size >= f.off {
		if evs, ok := f.readOn(j); ok {
			return evs, false, nil
		}
	}
	p, err := f.s.readFrom(j, h.Info.Ino, Query{Since: f.cursor})
	if err != nil {
		return nil, false, err
	}
	// A follower begun on no journal (cursor 0) expects seq 1 first: a
	// journal that starts later was compacted past events it never read
	// (Read's Reset says nothing at cursor 0, which means "from the start").
	lost = (p.Reset && p.Next >= f.cursor) || (f.cursor == 0 && len(p.Events) > 0 && p.Events[0].Seq > 1)
	f.ino, f.off, f.cursor = h.Info.Ino, p.end, p.Next
	return p.Events, lost, nil
}

// readOn reads the events after f.off in the journal f last read. Its
// answer is trusted only while the sequence runs on from f.cursor: a
// compaction replaces the journal with a new file that may reuse the old
// one's inode number, and then f.off is a place in another file (ok false:
// read it from the start instead, which also tells what was lost).
func (f *Follower) readOn(j *jfile) (evs []Event, ok bool) {
	sc := j.scanner(f.off, 64<<10)
	cursor := f.cursor
	for {
		line, _, more := sc.next()
		if !more {
			break
		}
		seq, good := seqOf(line)
		if !good || seq <= cursor {
			continue
		}
		if cursor > 0 && seq != cursor+1 {
			return nil, false
		}
		var ev Event
		if json.Unmarshal(line, &ev) != nil {
			continue
		}
		evs = append(evs, ev)
		cursor = seq
	}
	f.cursor, f.off = cursor, sc.pos
	return evs, true
}

// Follow calls fn with every batch of events appended to the journal after
// it started, by this process or any other on the same state dir, until ctx
// ends. fn runs on Follow's goroutine, one batch at a time, oldest first.
func (s *Store) Follow(ctx context.Context, fn func([]Event)) {
	f := s.NewFollower()
	t := time.NewTicker(followPoll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if evs, _, err := f.Poll(); err == nil && len(evs) > 0 {
			fn(evs)
		}
	}
}

// RecordChanged reports a token that differs whenever the record file was
// replaced, so followers of the workspace view can notice changes cheaply.
func (s *Store) RecordChanged() int64 {
	in, err := s.jail.Stat(s.path(recordFile))
	if err != nil {
		return 0
	}
	return in.ModNano ^ int64(in.Ino)
}

// JournalChanged reports a token that differs whenever the journal was
// appended to (its size grows) or rewritten (a new inode), so a reader can
// skip parsing an unchanged one. The zero token means it could not be read.
func (s *Store) JournalChanged() JournalToken {
	k, _ := s.keyOf(journalFile)
	return JournalToken{k}
}

// JournalToken identifies one state of the journal file.
type JournalToken struct{ key fileKey }
