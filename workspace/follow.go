package workspace

import (
	"context"
	"time"
)

// followPoll is how often Follow looks at the journal. A stat every few
// milliseconds is negligible work and keeps delivery latency low without
// depending on inotify in the state dir.
const followPoll = 10 * time.Millisecond

// Follow calls fn with every batch of events appended to the journal after
// it started, by this process or any other on the same state dir, until ctx
// ends. fn runs on Follow's goroutine, one batch at a time, oldest first.
func (s *Store) Follow(ctx context.Context, fn func([]Event)) {
	_, cursor, _, _ := s.Since(1 << 62) // the current end: only new events
	var lastSize, lastMod int64 = -1, -1
	t := time.NewTicker(followPoll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		in, err := s.jail.Stat(s.path(journalFile))
		if err != nil {
			continue
		}
		if in.Size == lastSize && in.ModNano == lastMod {
			continue
		}
		lastSize, lastMod = in.Size, in.ModNano
		// A journal that restarted below the cursor comes back whole
		// (Since's reset case), so nothing is skipped.
		evs, next, _, err := s.Since(cursor)
		if err != nil {
			continue
		}
		cursor = next
		if len(evs) > 0 {
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
