// Package workspace is the shared record: which folder is the workspace,
// the buffers (tabs) open against it and the folders expanded in its tree.
// It lives in a state dir that every editord process on a project shares;
// each read-modify-write holds an exclusive flock and replaces the file
// atomically, so no update is lost to a concurrent one.
//
// Paths here are already in stored form (root-relative, "/"-separated,
// cleaned; absolute when outside the root), so comparisons are plain
// segment-wise string checks.
package workspace

import (
	"slices"
	"strings"
)

// Buffer is one open file.
type Buffer struct {
	Path     string `json:"path" desc:"Root-relative path of the open file (absolute when outside the root)."`
	Version  string `json:"version" desc:"Content version at the last open or save: hex byte length, '-', 16 hex digits of FNV-1a 64. Compare for equality only."`
	Mtime    int64  `json:"mtime" desc:"Modification time at the last open or save, Unix seconds."`
	Language string `json:"language" desc:"Monaco language id, e.g. go, typescript, plaintext."`
	// Dirty and DraftBase describe a draft (drafts.go): they change only
	// through SetDraft, never through Upsert.
	Dirty     bool   `json:"dirty" desc:"True when an editor holds unsaved edits of this file (a draft): the person's view may differ from the disk."`
	DraftBase string `json:"draft_base,omitempty" desc:"The version the draft's edits were made over, when dirty."`
	DraftBy   string `json:"draft_by,omitempty" desc:"Who holds the draft (the editor that last kept it), when dirty."`
	// DraftLines is a string, not a list, so that a Buffer stays
	// comparable (Upsert compares buffers whole).
	DraftLines string `json:"draft_lines,omitempty" desc:"The lines being edited: lines of the draft that differ from draft_base, as 1-based ranges (\"12-14,30\"); a deletion shows as the line after it."`
}

// DraftMark is what a buffer says of its draft.
type DraftMark struct{ Base, By, Lines string }

// mark is b's draft mark.
func (b *Buffer) mark() DraftMark { return DraftMark{b.DraftBase, b.DraftBy, b.DraftLines} }

// setMark makes b dirty with m, or clean when m.Base is "".
func (b *Buffer) setMark(m DraftMark) {
	if m.Base == "" {
		m = DraftMark{}
	}
	b.Dirty, b.DraftBase, b.DraftBy, b.DraftLines = m.Base != "", m.Base, m.By, m.Lines
}

// Session is what one root remembers.
//
// Copies of a record share their sessions' lists until one is changed
// (copy on write: a copy per call of 5,000 buffers would cost more than
// the call), so every method that changes a list calls own first, and
// nothing outside this file changes the lists in place.
type Session struct {
	Buffers  []Buffer `json:"buffers,omitempty"` // in buffer files on disk (layout.go)
	Expanded []string `json:"expanded"`
	Focus    *Focus   `json:"focus,omitempty"`
	// Detached are drafts whose buffer was closed, by another surface or
	// with its file deleted: nothing typed is lost, so the draft (and its
	// file) stays until its holder saves or discards it, and goes back on
	// its buffer when the file is opened again.
	Detached []Buffer `json:"detached,omitempty"`

	owned bool // the lists are this session's own, not shared with a copy
	// idx finds a buffer by path without a scan (bufindex.go): shared,
	// read-only, by copies; dropped by every change that moves buffers.
	idx *bufIndex
}

// own makes the session's lists its own before a change.
func (s *Session) own() {
	if s.owned {
		return
	}
	s.Buffers = append(make([]Buffer, 0, len(s.Buffers)+1), s.Buffers...)
	s.Expanded = append(make([]string, 0, len(s.Expanded)+1), s.Expanded...)
	if s.Detached != nil {
		s.Detached = append(make([]Buffer, 0, len(s.Detached)+1), s.Detached...)
	}
	s.owned = true
}

// Focus is where the person is: the active tab and the cursor in it.
type Focus struct {
	Path      string     `json:"path" desc:"File of the active tab, root-relative."`
	Line      int        `json:"line" desc:"Cursor line, 1-based."`
	Column    int        `json:"column" desc:"Cursor column, 1-based, in characters."`
	Selection *Selection `json:"selection,omitempty" desc:"The selected range, when something is selected."`
	By        string     `json:"by" desc:"Who reported it (the page's client name and session)."`
	Time      string     `json:"time" desc:"When it was reported, RFC 3339."`
}

// Selection is a range of lines and columns, 1-based, end exclusive.
type Selection struct {
	StartLine   int `json:"start_line" desc:"First line, 1-based."`
	StartColumn int `json:"start_column" desc:"First column, 1-based."`
	EndLine     int `json:"end_line" desc:"Last line, 1-based."`
	EndColumn   int `json:"end_column" desc:"Column just after the selection, 1-based."`
}

// Record is the whole state file.
type Record struct {
	Format     int    `json:"format"`
	ActiveRoot string `json:"active_root"`
	// RootBy and RootAt say who last set ActiveRoot (a caller's by, as
	// change events name it) and when (Unix seconds): a writer refused
	// because the root changed under it is told who switched.
	RootBy   string              `json:"root_by,omitempty"`
	RootAt   int64               `json:"root_at,omitempty"`
	Sessions map[string]*Session `json:"sessions"`
}

const recordFormat = 2

func newRecord() *Record {
	return &Record{Format: recordFormat, Sessions: map[string]*Session{}}
}

// Session returns the session of root, creating an empty one.
func (r *Record) Session(root string) *Session {
	if r.Sessions == nil {
		r.Sessions = map[string]*Session{}
	}
	s := r.Sessions[root]
	if s == nil {
		s = &Session{owned: true}
		r.Sessions[root] = s
	}
	if s.Buffers == nil {
		s.Buffers = []Buffer{}
	}
	if s.Expanded == nil {
		s.Expanded = []string{}
	}
	return s
}

// Within reports whether p is base or lies beneath it, segment-wise:
// "src/app" is within "src" but not within "sr", and "src/application.rs"
// is not within "src/app". The root ("") contains every relative path.
func Within(p, base string) bool {
	if base == "" {
		return !strings.HasPrefix(p, "/")
	}
	if p == base {
		return true
	}
	if base == "/" {
		return strings.HasPrefix(p, "/")
	}
	return strings.HasPrefix(p, base+"/")
}

// Remap rewrites p from beneath from to beneath to; ok is false when p is
// not within from.
func Remap(p, from, to string) (string, bool) {
	if !Within(p, from) {
		return p, false
	}
	rest := p[len(from):]
	if from == "" && rest != "" {
		rest = "/" + rest
	}
	if to == "" {
		return strings.TrimPrefix(rest, "/"), true
	}
	return to + rest, true
}

// Upsert records or refreshes a buffer; a re-opened buffer keeps its place
// in the tab order and its draft marks. It reports whether anything changed.
func (s *Session) Upsert(b Buffer) bool {
	if i := s.find(b.Path); i >= 0 {
		b.setMark(s.Buffers[i].mark())
		if s.Buffers[i] == b {
			return false
		}
		s.own()
		s.Buffers[i] = b
		return true
	}
	s.own()
	if i := s.detachedAt(b.Path); i >= 0 {
		b.setMark(s.Detached[i].mark())
		s.Detached = append(s.Detached[:i], s.Detached[i+1:]...)
	}
	s.Buffers = append(s.Buffers, b)
	return true
}

// detachedAt is the index of the detached draft at path, or -1.
func (s *Session) detachedAt(path string) int {
	for i := range s.Detached {
		if s.Detached[i].Path == path {
			return i
		}
	}
	return -1
}

// detach keeps a closed buffer's draft. Call it after own.
func (s *Session) detach(b Buffer) {
	if !b.Dirty {
		return
	}
	if i := s.detachedAt(b.Path); i >= 0 {
		s.Detached[i] = b
		return
	}
	s.Detached = append(s.Detached, b)
}

// HoldsDraft reports whether a draft may be kept for path: it is an open
// buffer, or a detached draft.
func (s *Session) HoldsDraft(path string) bool {
	return s.Find(path) >= 0 || s.detachedAt(path) >= 0
}

// SetDraft marks the buffer at path dirty over base, or clean when base
// is "". A detached draft at path is updated, or forgotten when base is "".
// It reports whether the buffer or detached draft exists.
func (s *Session) SetDraft(path, base string) (found, changed bool) {
	return s.MarkDraft(path, DraftMark{Base: base})
}

// MarkDraft is SetDraft with who holds the draft and which lines it
// changes.
func (s *Session) MarkDraft(path string, m DraftMark) (found, changed bool) {
	if m.Base == "" {
		m = DraftMark{}
	}
	if i := s.find(path); i >= 0 {
		if b := &s.Buffers[i]; b.Path == path {
			changed = b.Dirty != (m.Base != "") || b.mark() != m
			if changed {
				s.own()
				s.Buffers[i].setMark(m)
			}
			return true, changed
		}
	}
	i := s.detachedAt(path)
	if i < 0 {
		return false, false
	}
	if m.Base == "" {
		s.own()
		s.Detached = append(s.Detached[:i], s.Detached[i+1:]...)
		return true, true
	}
	if s.Detached[i].mark() == m {
		return true, false
	}
	s.own()
	s.Detached[i].setMark(m)
	return true, true
}

// Close drops the buffer at exactly path; its draft, if any, is detached.
func (s *Session) Close(path string) bool {
	for i := range s.Buffers {
		if s.Buffers[i].Path == path {
			s.own()
			s.detach(s.Buffers[i])
			s.Buffers = append(s.Buffers[:i], s.Buffers[i+1:]...)
			s.idx = nil
			return true
		}
	}
	return false
}

// CloseBeneath drops every buffer at or under path and collapses every
// expanded folder there, returning the closed buffers' paths.
func (s *Session) CloseBeneath(path string) []string {
	s.own()
	closed := []string{}
	kept := s.Buffers[:0]
	for _, b := range s.Buffers {
		if Within(b.Path, path) {
			closed = append(closed, b.Path)
			s.detach(b)
			continue
		}
		kept = append(kept, b)
	}
	s.Buffers = kept
	s.idx = nil
	s.Collapse(path)
	return closed
}

// Move rewrites every buffer and expanded folder at or under from to sit
// under to, returning how many it rewrote. A buffer already at a rewritten
// path is replaced, so the tab set never holds one path twice.
func (s *Session) Move(from, to string) int {
	s.own()
	n := 0
	moved := make([]bool, len(s.Buffers))
	for i := range s.Buffers {
		if p, ok := Remap(s.Buffers[i].Path, from, to); ok {
			s.Buffers[i].Path = p
			moved[i] = true
			n++
		}
	}
	for i := range s.Detached {
		if p, ok := Remap(s.Detached[i].Path, from, to); ok {
			s.Detached[i].Path = p
			n++
		}
	}
	if n > 0 && len(s.Detached) > 1 {
		// One draft file per path: the last one moved there is the one kept.
		seen := map[string]bool{}
		kept := s.Detached[:0]
		for i := len(s.Detached) - 1; i >= 0; i-- {
			if d := s.Detached[i]; !seen[d.Path] {
				seen[d.Path] = true
				kept = append(kept, d)
			}
		}
		slices.Reverse(kept)
		s.Detached = kept
	}
	for i := range s.Expanded {
		if p, ok := Remap(s.Expanded[i], from, to); ok {
			s.Expanded[i] = p
			n++
		}
	}
	if s.Focus != nil {
		if p, ok := Remap(s.Focus.Path, from, to); ok {
			f := *s.Focus
			f.Path = p
			s.Focus = &f
		}
	}
	s.Buffers = dedupBuffers(s.Buffers, moved)
	s.idx = nil
	s.Expanded = dedupStrings(s.Expanded)
	return n
}

// Expand marks a folder expanded.
func (s *Session) Expand(path string) bool {
	for _, e := range s.Expanded {
		if e == path {
			return false
		}
	}
	s.own()
	s.Expanded = append(s.Expanded, path)
	return true
}

// Collapse unmarks a folder and every folder beneath it.
func (s *Session) Collapse(path string) bool {
	s.own()
	kept := s.Expanded[:0]
	for _, e := range s.Expanded {
		if !Within(e, path) {
			kept = append(kept, e)
		}
	}
	changed := len(kept) != len(s.Expanded)
	s.Expanded = kept
	return changed
}

// dedupBuffers keeps one buffer per path, in first-seen order. Where two
// share a path, a moved one (moved[i]) wins over one that stood at the
// destination: the file there now is the moved one, whichever tab was
// opened first.
func dedupBuffers(bs []Buffer, moved []bool) []Buffer {
	win := map[string]int{}
	for i, b := range bs {
		if j, ok := win[b.Path]; !ok || moved[i] || !moved[j] {
			win[b.Path] = i
		}
	}
	out := make([]Buffer, 0, len(bs))
	seen := map[string]bool{}
	for _, b := range bs {
		if seen[b.Path] {
			continue
		}
		seen[b.Path] = true
		out = append(out, bs[win[b.Path]])
	}
	return out
}

func dedupStrings(ss []string) []string {
	seen := map[string]bool{}
	out := ss[:0]
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
