package lsp

import (
	"io"
	"testing"
)

// offline is a Server with no process behind it: what it sends goes
// nowhere, and publications are handed to it by the test, in the order a
// server's could arrive.
func offline(t *testing.T) *Server {
	r, w := io.Pipe()
	t.Cleanup(func() { w.Close() })
	s := &Server{Name: "test", docs: map[string]*doc{}, diags: map[string]*fileDiags{}, changed: make(chan struct{}),
		progress: map[string]bool{}, cursor: -1}
	s.conn = newConn(r, io.Discard, s.handle)
	return s
}

func (s *Server) published(abs string, version *int, n int) {
	s.publish(publishDiagnosticsParams{URI: URI(abs), Version: version, Diagnostics: make([]Diagnostic, n)})
}

func fresh(s *Server, abs string) (int, bool) {
	list, ok := s.FileDiagnostics(abs)
	return len(list), ok
}

// A document closed and opened again (an agent's write announced, then the
// file asked about) never reuses a version: the publication about its old
// text that is still on its way is not taken for one about the new, nor is
// one about the disk, from a server that names versions.
func TestDiagnosticsOfAReopenedDocument(t *testing.T) {
	s := offline(t)
	const abs = "/ws/main.go"
	v1, _, err := s.Sync(abs, "go", "package main // old\n", false)
	if err != nil {
		t.Fatal(err)
	}
	s.published(abs, &v1, 0)
	if n, ok := fresh(s, abs); !ok || n != 0 {
		t.Fatalf("after its own publication: %d, %v", n, ok)
	}
	if err := s.Close(abs); err != nil {
		t.Fatal(err)
	}
	v2, _, err := s.Sync(abs, "go", "package main // new, broken\n", false)
	if err != nil {
		t.Fatal(err)
	}
	if v2 <= v1 {
		t.Fatalf("reopened as version %d after %d", v2, v1)
	}
	// Late: about the old text, then about the disk.
	s.published(abs, &v1, 0)
	if _, ok := fresh(s, abs); ok {
		t.Fatal("a publication about the old text was taken as one about the new")
	}
	s.published(abs, nil, 0)
	if _, ok := fresh(s, abs); ok {
		t.Fatal("a publication without a version was taken as one about the text held open")
	}
	s.published(abs, &v2, 1)
	if n, ok := fresh(s, abs); !ok || n != 1 {
		t.Fatalf("after the publication about the new text: %d, %v", n, ok)
	}
	// A change numbers on.
	v3, _, _ := s.Sync(abs, "go", "package main // newer\n", false)
	if v3 <= v2 {
		t.Fatalf("changed to version %d after %d", v3, v2)
	}
}

// A server that never names versions: its publications after the text was
// sent are the answer.
func TestDiagnosticsWithoutVersions(t *testing.T) {
	s := offline(t)
	const abs = "/ws/a.py"
	if _, _, err := s.Sync(abs, "python", "x = 1\n", false); err != nil {
		t.Fatal(err)
	}
	if _, ok := fresh(s, abs); ok {
		t.Fatal("fresh before any publication")
	}
	s.published(abs, nil, 2)
	if n, ok := fresh(s, abs); !ok || n != 2 {
		t.Fatalf("%d, %v", n, ok)
	}
}
