package workspace

// A session's buffers are a list in tab order, and a change to one of
// them (an open, a save) first finds it by path. With thousands open a
// scan per change cost more than the change, so a session keeps an index
// from path to position, built once and shared, read-only, by every copy
// of the session (copies share their lists until one changes them, see
// Session). A refresh keeps every position and a new buffer goes at the
// end, so the index stays good for the buffers it covers, and the few
// added since it was built are scanned; a change that moves buffers
// (close, move) drops it, and the next change of the session builds it
// again. Sessions of a record handed out for reading (View, Load) are
// never indexed in place: the store indexes a record before it keeps it
// (Record.index), so that readers only ever read an index.

const (
	// indexMin: smaller sessions are scanned.
	indexMin = 32
	// indexSlack: buffers added past an index before it is rebuilt.
	indexSlack = 64
)

// bufIndex maps the paths of a session's first n buffers to their
// positions. Never changed once built.
type bufIndex struct {
	pos map[string]int
	n   int
}

func newBufIndex(bufs []Buffer) *bufIndex {
	ix := &bufIndex{pos: make(map[string]int, len(bufs)), n: len(bufs)}
	for i, b := range bufs {
		ix.pos[b.Path] = i
	}
	return ix
}

// Find returns the position of the buffer at path, or -1. It only reads,
// so it may run on a record others read at the same time.
func (s *Session) Find(path string) int {
	if ix := s.idx; ix != nil && ix.n <= len(s.Buffers) {
		if p, ok := ix.pos[path]; ok && s.Buffers[p].Path == path {
			return p
		} else if !ok {
			for i := ix.n; i < len(s.Buffers); i++ {
				if s.Buffers[i].Path == path {
					return i
				}
			}
			return -1
		}
	}
	for i := range s.Buffers {
		if s.Buffers[i].Path == path {
			return i
		}
	}
	return -1
}

// find is Find for a session this goroutine owns (one being changed):
// it first builds or renews the index when that pays.
func (s *Session) find(path string) int {
	s.indexed()
	return s.Find(path)
}

// indexed builds the index of a large session that has none, or whose
// buffers past it grew to indexSlack.
func (s *Session) indexed() {
	if len(s.Buffers) < indexMin {
		return
	}
	if s.idx == nil || s.idx.n > len(s.Buffers) || len(s.Buffers)-s.idx.n >= indexSlack {
		s.idx = newBufIndex(s.Buffers)
	}
}

// index builds the indexes the record's sessions need before the record
// is kept as the store's snapshot, which readers share.
func (r *Record) index() {
	for _, s := range r.Sessions {
		if s != nil {
			s.indexed()
		}
	}
}
