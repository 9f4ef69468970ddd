package lsp

import "context"

// goplsDiagnose makes gopls diagnose the workspace as it now holds it and
// publish what changed before it answers. A file's problems can change
// with another file (a function renamed that it still calls) while its
// own publication looks current; gopls republishes it only after its
// diagnosticsDelay and a reload, later than any fixed wait can promise,
// so editord asks instead of guessing.
const goplsDiagnose = "gopls.diagnose_files"

// diagnose asks the server to diagnose uri with everything sent so far;
// when it answers, every publication that follows from what was sent has
// arrived (a reader takes the server's messages in order).
func (s *Server) diagnose(ctx context.Context, uri string) error {
	s.mu.Lock()
	gen := s.gen
	s.mu.Unlock()
	err := s.Call(ctx, "workspace/executeCommand", map[string]any{
		"command":   goplsDiagnose,
		"arguments": []any{map[string]any{"Files": []string{uri}}},
	}, nil)
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.diagnosedGen = max(s.diagnosedGen, gen)
	s.mu.Unlock()
	return nil
}
