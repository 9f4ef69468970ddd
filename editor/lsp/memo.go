package lsp

// Answers to a question asked again with nothing changed in between: a
// workspace symbol search on a large workspace costs gopls 100-200 ms of
// CPU whose answer is the same until editord tells it of a change (it
// learns of every one from editord: a write in the journal, a draft, a
// document opened or closed). An answer is remembered with the number of
// notifications sent before the question (gen) and recalled only while
// that number is unchanged; one given while the server reports work in
// progress (the workspace still loading) is not remembered.

// memoMax bounds the answers a server remembers.
const memoMax = 64

type memoEntry struct {
	gen uint64
	v   any
}

// Generation is the count of notifications sent so far: take it before
// asking a question whose answer is to be remembered.
func (s *Server) Generation() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.gen
}

// Remember keeps v as the answer to key asked at generation gen, unless
// something was sent since or the server is busy.
func (s *Server) Remember(key string, gen uint64, v any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if gen != s.gen || len(s.progress) > 0 {
		return
	}
	if s.memo == nil || len(s.memo) >= memoMax {
		s.memo = map[string]memoEntry{}
	}
	s.memo[key] = memoEntry{gen, v}
}

// Recall is the answer remembered for key, when nothing was sent since it
// was asked.
func (s *Server) Recall(key string) (any, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.memo[key]
	if !ok || e.gen != s.gen {
		return nil, false
	}
	return e.v, true
}
