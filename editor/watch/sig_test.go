package watch

import (
	"testing"

	"github.com/editord/editord/workspace"
)

// TestSessionSig: the watcher reloads its view of the session only when
// the open paths or the expanded folders change, not on every save (a new
// version), which with thousands of buffers cost more than the save.
func TestSessionSig(t *testing.T) {
	rec := &workspace.Record{Sessions: map[string]*workspace.Session{}}
	if sessionSig(rec, "/w") != 0 {
		t.Fatal("no session, no signature")
	}
	ses := rec.Session("/w")
	ses.Upsert(workspace.Buffer{Path: "a.go", Version: "1-a"})
	ses.Upsert(workspace.Buffer{Path: "b.go", Version: "1-b"})
	base := sessionSig(rec, "/w")
	ses.Upsert(workspace.Buffer{Path: "a.go", Version: "2-a"})
	if sessionSig(rec, "/w") != base {
		t.Error("a new version changed the signature")
	}
	// In this order: a collapse changes something only after the expand
	// (a map's random order made the test fail when collapse came first).
	for _, step := range []struct {
		name   string
		change func()
	}{
		{"open", func() { ses.Upsert(workspace.Buffer{Path: "c.go"}) }},
		{"close", func() { ses.Close("a.go") }},
		{"expand", func() { ses.Expand("src") }},
		{"collapse", func() { ses.Collapse("src") }},
	} {
		name, change := step.name, step.change
		before := sessionSig(rec, "/w")
		change()
		if sessionSig(rec, "/w") == before {
			t.Errorf("%s did not change the signature", name)
		}
	}
}
