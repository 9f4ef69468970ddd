package turns

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/editord/editord/workspace"
)

// Query selects turns for a listing.
type Query struct {
	// By keeps one writer's turns: its whole by (claude-code#3f2a), or the
	// client's name before '#' (claude-code) for all its sessions.
	By string
	// NotBy leaves out one writer's turns, the same way (a person's page
	// lists the turns of others to review).
	NotBy string
	// Root and Path keep the turns that changed Path or beneath it.
	Root, Path string
	// Since and Until keep the turns with changes in [Since, Until] (Unix
	// ms; 0: unbounded).
	Since, Until int64
	// Before is a cursor: only turns older than the turn numbered Before.
	Before int64
	// Unreviewed keeps the turns with a file neither kept nor undone.
	Unreviewed bool
	// Limit is the most turns returned.
	Limit int
}

// List returns the turns q selects, newest first, and how many more it
// selects past Limit.
func (b *Book) List(q Query) (out []Summary, more int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.catchUp()
	out = []Summary{}
	for i := len(b.turns) - 1; i >= 0; i-- {
		t := b.turns[i]
		if q.Before > 0 && t.n >= q.Before {
			continue
		}
		if !matchBy(t.by, q.By) || (q.NotBy != "" && matchBy(t.by, q.NotBy)) {
			continue
		}
		if q.Since > 0 && t.last < q.Since || q.Until > 0 && t.start > q.Until {
			continue
		}
		if len(t.writes) == 0 && (q.Path != "" || q.Unreviewed) {
			continue
		}
		if q.Path != "" && !touches(t, q.Root, q.Path) {
			continue
		}
		es := entries(t, b.moves)
		if q.Unreviewed && reviewed(t, es) {
			continue
		}
		if len(out) >= q.Limit {
			more++
			continue
		}
		out = append(out, b.summaryOf(t, es))
	}
	return out, more
}

// matchBy reports whether by is want, or a session of the client want.
func matchBy(by, want string) bool {
	if want == "" || by == want {
		return true
	}
	return !strings.Contains(want, "#") && strings.HasPrefix(by, want+"#")
}

// touches reports whether t changed path (or beneath it) under root.
func touches(t *turn, root, path string) bool {
	for i := range t.writes {
		w := &t.writes[i]
		if root != "" && w.root != root {
			continue
		}
		if workspace.Within(w.path, path) || w.from != "" && workspace.Within(w.from, path) {
			return true
		}
	}
	return false
}

// reviewed reports whether every file of t was kept or undone.
func reviewed(t *turn, es []*entry) bool {
	if len(es) == 0 {
		return len(t.writes) > 0
	}
	for _, e := range es {
		if !t.fileReviewed(e.root, e.path) {
			return false
		}
	}
	return true
}

// fileReviewed reports whether the file was kept whole, or every one of
// its hunks kept or undone.
func (t *turn) fileReviewed(root, path string) bool {
	rv := t.reviews[fileKey{root, path}]
	if rv == nil {
		return false
	}
	if rv.keptAll || rv.undoneAll != "" {
		return true
	}
	if rv.of == 0 {
		return false
	}
	for h := 1; h <= rv.of; h++ {
		if _, undone := rv.undone[h]; !rv.kept[h] && !undone {
			return false
		}
	}
	return true
}

// summary is t's Summary. Called with b.mu held or on a turn just made.
func (b *Book) summary(t *turn) Summary { return b.summaryOf(t, entries(t, b.moves)) }

func (b *Book) summaryOf(t *turn, es []*entry) Summary {
	s := Summary{Turn: t.id, By: t.by, Title: t.title, Start: stamp(t.start), End: stamp(t.last), Open: b.open(t, b.nowMS()),
		Explicit: t.explicit, Changes: len(t.writes) + t.more, Files: len(es), Paths: paths(es, 20), Reverts: t.reverts,
		RevertedIn: slices.Clone(t.revertedIn), Reviewed: reviewed(t, es)}
	if t.ended != 0 {
		s.End = stamp(t.ended)
	}
	for i := range t.writes {
		w := &t.writes[i]
		s.Added += w.added
		s.Removed += w.removed
		s.External = s.External || w.ext
		if s.Root == "" {
			s.Root = w.root
		}
	}
	return s
}

// stamp renders Unix ms as RFC 3339 UTC.
func stamp(ms int64) string {
	if ms == 0 {
		return ""
	}
	return time.UnixMilli(ms).UTC().Format(time.RFC3339Nano)
}

// ParseID reads a turn id (t42) into its number; ok is false for anything
// else.
func ParseID(id string) (int64, bool) {
	n, err := strconv.ParseInt(strings.TrimPrefix(id, "t"), 10, 64)
	return n, err == nil && n > 0 && strings.HasPrefix(id, "t")
}

// Newest is the newest turn q selects (Limit ignored), or false.
func (b *Book) Newest(q Query) (Summary, bool) {
	q.Limit = 1
	out, _ := b.List(q)
	if len(out) == 0 {
		return Summary{}, false
	}
	return out[0], true
}

// Get is turn id's summary; ok is false when it is not kept.
func (b *Book) Get(id string) (Summary, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.catchUp()
	t := b.byID[id]
	if t == nil {
		return Summary{}, false
	}
	return b.summary(t), true
}
