package editor

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/editord/editord/shell"
	"github.com/editord/editord/workspace"
)

func draftCall(t *testing.T, s *Service, c *Caller, args string) (*DraftResponse, error) {
	t.Helper()
	f, _ := Lookup("editor::buffers::draft")
	out, err := f.Call(WithCaller(context.Background(), c), s, json.RawMessage(args))
	if err != nil {
		return nil, err
	}
	return out.(*DraftResponse), nil
}

func bufferAt(t *testing.T, s *Service, path string) workspace.Buffer {
	t.Helper()
	v, err := s.BuffersList(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range v.Buffers {
		if b.Path == path {
			return b
		}
	}
	t.Fatalf("no buffer %s in %+v", path, v.Buffers)
	return workspace.Buffer{}
}

func TestDraftKeepReadClear(t *testing.T) {
	e := tcNew(t)
	e.write("a.txt", "one\r\n")
	v := e.open("a.txt").Version
	page := NewCaller("page#0001")
	r, err := draftCall(t, e.s, page, `{"path":"a.txt","content":"one\r\ntwo\r\n","base_version":"`+v+`"}`)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Dirty || r.DraftBase != v || r.By != "page#0001" {
		t.Fatalf("keep: %+v", r)
	}
	// Another process on the same state dir sees the buffer dirty and can read the draft byte for byte.
	other := e.service()
	if b := bufferAt(t, other, "a.txt"); !b.Dirty || b.DraftBase != v {
		t.Fatalf("buffer after keep: %+v", b)
	}
	r, err = draftCall(t, other, NewCaller("agent#0002"), `{"path":"a.txt","read":true}`)
	if err != nil || r.Content == nil || *r.Content != "one\r\ntwo\r\n" || r.By != "page#0001" {
		t.Fatalf("read: %+v %v", r, err)
	}
	if e.read("a.txt") != "one\r\n" {
		t.Fatal("a draft touched the file")
	}
	// Re-opening keeps the marks.
	e.open("a.txt")
	if b := bufferAt(t, e.s, "a.txt"); !b.Dirty {
		t.Fatalf("open cleared the draft mark: %+v", b)
	}
	if _, err := draftCall(t, e.s, page, `{"path":"a.txt","content":null}`); err != nil {
		t.Fatal(err)
	}
	if b := bufferAt(t, e.s, "a.txt"); b.Dirty || b.DraftBase != "" {
		t.Fatalf("buffer after clear: %+v", b)
	}
	r, err = draftCall(t, e.s, page, `{"path":"a.txt","read":true}`)
	if err != nil || r.Dirty || r.Content != nil {
		t.Fatalf("read after clear: %+v %v", r, err)
	}
}

func TestDraftRefusals(t *testing.T) {
	e := tcNew(t, func(c *Config) { c.Limits.MaxFileBytes = 10 })
	e.write("a.txt", "x")
	v := e.open("a.txt").Version
	page := NewCaller("page#0001")
	for _, tc := range []struct {
		args string
		code shell.Code
	}{
		{`{"path":"b.txt","content":"x","base_version":"1-af63dc4c8601ec8c"}`, shell.CodeNotFound},
		{`{"path":"a.txt","content":"x"}`, shell.CodeInvalidArgument},
		{`{"path":"a.txt","content":"` + strings.Repeat("y", 11) + `","base_version":"` + v + `"}`, shell.CodeTooLarge},
		{`{"path":"a.txt","content":"a\u0000b","base_version":"` + v + `"}`, shell.CodeBinary},
		{`{"path":"a.txt","content":"x","read":true}`, shell.CodeInvalidArgument},
	} {
		_, err := draftCall(t, e.s, page, tc.args)
		if shell.CodeOf(err) != tc.code {
			t.Errorf("%s: got %v, want %s", tc.args, err, tc.code)
		}
	}
	if b := bufferAt(t, e.s, "a.txt"); b.Dirty {
		t.Fatalf("a refused draft marked the buffer: %+v", b)
	}
}

func TestDraftsTotalCap(t *testing.T) {
	e := tcNew(t)
	e.write("a.txt", "x")
	e.write("b.txt", "x")
	va, vb := e.open("a.txt").Version, e.open("b.txt").Version
	page := NewCaller("page#0001")
	big := strings.Repeat("z", 40<<20)
	d := &workspace.Draft{Root: e.root, Path: "a.txt", Base: va, Content: big}
	if _, err := e.s.store.Update(context.Background(), func(r *workspace.Record) (bool, error) {
		return false, e.s.store.WriteDraft(d, workspace.MaxDraftsBytes)
	}); err != nil {
		t.Fatal(err)
	}
	// b's draft would take the drafts past 64 MiB in all.
	d2 := &workspace.Draft{Root: e.root, Path: "b.txt", Base: vb, Content: big}
	_, err := e.s.store.Update(context.Background(), func(r *workspace.Record) (bool, error) {
		return false, e.s.store.WriteDraft(d2, workspace.MaxDraftsBytes)
	})
	if shell.CodeOf(err) != shell.CodeTooLarge {
		t.Fatalf("second 40 MiB draft: %v, want too_large", err)
	}
	// Replacing a's own draft does not count its old size.
	if _, err := draftCall(t, e.s, page, `{"path":"a.txt","content":"small","base_version":"`+va+`"}`); err != nil {
		t.Fatal(err)
	}
}

func TestDraftClearedOnlyByHoldersSave(t *testing.T) {
	e := tcNew(t)
	e.write("a.txt", "one\n")
	v := e.open("a.txt").Version
	page, agent := NewCaller("page#0001"), NewCaller("agent#0002")
	if _, err := draftCall(t, e.s, page, `{"path":"a.txt","content":"mine\n","base_version":"`+v+`"}`); err != nil {
		t.Fatal(err)
	}
	saved, err := e.s.Save(WithCaller(context.Background(), agent), &SaveRequest{Path: "a.txt", Content: "theirs\n", ExpectedVersion: &v})
	if err != nil || !saved.Saved {
		t.Fatalf("agent save: %+v %v", saved, err)
	}
	if b := bufferAt(t, e.s, "a.txt"); !b.Dirty || b.DraftBase != v {
		t.Fatalf("an agent's save cleared the person's draft: %+v", b)
	}
	nv := saved.Version
	saved, err = e.s.Save(WithCaller(context.Background(), page), &SaveRequest{Path: "a.txt", Content: "merged\n", ExpectedVersion: &nv})
	if err != nil || !saved.Saved {
		t.Fatalf("page save: %+v %v", saved, err)
	}
	if b := bufferAt(t, e.s, "a.txt"); b.Dirty || b.DraftBase != "" {
		t.Fatalf("the holder's save left the draft: %+v", b)
	}
	if r, _ := draftCall(t, e.s, page, `{"path":"a.txt","read":true}`); r.Content != nil {
		t.Fatal("the draft file outlived the holder's save")
	}
}

func TestDraftSurvivesRestartAndFollowsMove(t *testing.T) {
	e := tcNew(t)
	e.write("d/a.txt", "one\n")
	v := e.open("d/a.txt").Version
	page := NewCaller("page#0001")
	if _, err := draftCall(t, e.s, page, `{"path":"d/a.txt","content":"two\n","base_version":"`+v+`"}`); err != nil {
		t.Fatal(err)
	}
	e.s.Close()
	e.s = e.service() // a server restart
	if _, err := e.s.Move(context.Background(), &MoveRequest{From: "d", To: "e"}); err != nil {
		t.Fatal(err)
	}
	if b := bufferAt(t, e.s, "e/a.txt"); !b.Dirty || b.DraftBase != v {
		t.Fatalf("moved buffer: %+v", b)
	}
	r, err := draftCall(t, e.s, page, `{"path":"e/a.txt","read":true}`)
	if err != nil || r.Content == nil || *r.Content != "two\n" {
		t.Fatalf("moved draft: %+v %v", r, err)
	}
	ents, _ := os.ReadDir(filepath.Join(e.state, "drafts"))
	if len(ents) != 1 {
		t.Fatalf("drafts dir holds %d files after the move, want 1", len(ents))
	}
}

func TestDraftClearedByHoldersEdit(t *testing.T) {
	e := tcNew(t)
	e.write("a.txt", "one\n")
	v := e.open("a.txt").Version
	page, agent := NewCaller("page#0001"), NewCaller("agent#0002")
	if _, err := draftCall(t, e.s, page, `{"path":"a.txt","content":"two\n","base_version":"`+v+`"}`); err != nil {
		t.Fatal(err)
	}
	f, _ := Lookup("editor::edit")
	if _, err := f.Call(WithCaller(context.Background(), agent), e.s, json.RawMessage(`{"path":"a.txt","edits":[{"old_text":"one","new_text":"uno"}]}`)); err != nil {
		t.Fatal(err)
	}
	if b := bufferAt(t, e.s, "a.txt"); !b.Dirty {
		t.Fatal("an agent's edit cleared the person's draft")
	}
	if _, err := f.Call(WithCaller(context.Background(), page), e.s, json.RawMessage(`{"path":"a.txt","edits":[{"old_text":"uno","new_text":"two"}]}`)); err != nil {
		t.Fatal(err)
	}
	if b := bufferAt(t, e.s, "a.txt"); b.Dirty {
		t.Fatalf("the holder's edit left the draft: %+v", b)
	}
}

func detachedAt(t *testing.T, s *Service, path string) (workspace.Buffer, bool) {
	t.Helper()
	v, err := s.WorkspaceGet(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range v.Detached {
		if b.Path == path {
			return b, true
		}
	}
	return workspace.Buffer{}, false
}

// An agent closing a buffer the person holds a draft of, or deleting its
// file, closes the buffer but keeps the draft, listed as detached: the
// person's page restores it after a reload; it can still be updated,
// comes back on its buffer when the file is opened again, and goes when
// its holder discards it.
func TestDraftKeptWhenBufferClosedOrDeleted(t *testing.T) {
	e := tcNew(t)
	e.write("a.txt", "one\n")
	e.write("d/b.txt", "bee\n")
	va, vb := e.open("a.txt").Version, e.open("d/b.txt").Version
	page, agent := NewCaller("page#0001"), NewCaller("agent#0002")
	actx := WithCaller(context.Background(), agent)
	for path, v := range map[string]string{"a.txt": va, "d/b.txt": vb} {
		if _, err := draftCall(t, e.s, page, `{"path":"`+path+`","content":"mine\n","base_version":"`+v+`"}`); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e.s.BuffersClose(actx, &BuffersCloseRequest{Path: "a.txt"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.s.Delete(actx, &DeleteRequest{Path: "d", Recursive: true}); err != nil {
		t.Fatal(err)
	}
	other := e.service() // another process sees the same
	for _, p := range []string{"a.txt", "d/b.txt"} {
		if d, ok := detachedAt(t, other, p); !ok || !d.Dirty || d.DraftBase == "" {
			t.Fatalf("%s after the close: detached %+v %v", p, d, ok)
		}
		if r, err := draftCall(t, other, page, `{"path":"`+p+`","read":true}`); err != nil || r.Content == nil || *r.Content != "mine\n" {
			t.Fatalf("%s: the draft after the close: %+v %v", p, r, err)
		}
	}
	// Typing on in the detached tab keeps the newer text.
	if _, err := draftCall(t, e.s, page, `{"path":"a.txt","content":"mine, more\n","base_version":"`+va+`"}`); err != nil {
		t.Fatalf("updating a detached draft: %v", err)
	}
	// Opened again, by anyone: dirty again, over its base.
	e.open("a.txt")
	if b := bufferAt(t, e.s, "a.txt"); !b.Dirty || b.DraftBase != va {
		t.Fatalf("a.txt reopened: %+v", b)
	}
	if _, ok := detachedAt(t, e.s, "a.txt"); ok {
		t.Fatal("a.txt is both open and detached")
	}
	// The holder discards the deleted file's draft: gone, file and all.
	if _, err := draftCall(t, e.s, page, `{"path":"d/b.txt","content":null}`); err != nil {
		t.Fatal(err)
	}
	if _, ok := detachedAt(t, e.s, "d/b.txt"); ok {
		t.Fatal("a discarded draft is still listed")
	}
	ents, _ := os.ReadDir(filepath.Join(e.state, "drafts"))
	if len(ents) != 1 {
		t.Fatalf("drafts dir holds %d files, want a.txt's only", len(ents))
	}
}

// Draft files nobody holds (left by an older editord that dropped the
// draft with its buffer, or a crash) are removed when a server starts, so
// they stop counting against the 64 MiB; held ones stay.
func TestLeftoverDraftsSwept(t *testing.T) {
	e := tcNew(t)
	e.write("a.txt", "one\n")
	e.write("b.txt", "two\n")
	va, vb := e.open("a.txt").Version, e.open("b.txt").Version
	page := NewCaller("page#0001")
	for path, v := range map[string]string{"a.txt": va, "b.txt": vb} {
		if _, err := draftCall(t, e.s, page, `{"path":"`+path+`","content":"mine\n","base_version":"`+v+`"}`); err != nil {
			t.Fatal(err)
		}
	}
	// b.txt's buffer goes without its draft, as before drafts were detached.
	if _, err := e.s.store.Update(context.Background(), func(r *workspace.Record) (bool, error) {
		ses := r.Session(e.root)
		ses.Close("b.txt")
		ses.SetDraft("b.txt", "")
		return true, nil
	}); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(e.state, "drafts")
	os.WriteFile(filepath.Join(dir, "stray.json"), []byte("{}"), 0o600)
	if ents, _ := os.ReadDir(dir); len(ents) != 3 {
		t.Fatalf("before the restart: %d draft files", len(ents))
	}
	e.s.Close()
	e.s = e.service()
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Fatalf("after the restart: %d draft files, want a.txt's only", len(ents))
	}
	if r, err := draftCall(t, e.s, page, `{"path":"a.txt","read":true}`); err != nil || r.Content == nil {
		t.Fatalf("the held draft was swept: %+v %v", r, err)
	}
}
