package editor

// Issue 15 item 1b: one caller's root switch never redirects another
// caller's writes. Caller A saw the root ws; caller B switches the shared
// record to ws/sub; then every write A makes with a relative path is
// refused with root_changed and touches nothing, until A reads the
// workspace again.

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/editord/editord/shell"
)

func TestRootSwitchRefusesEveryRelativeWrite(t *testing.T) {
	e := gtNew(t, "")
	ws := e.repo
	for _, rel := range []string{"docs/a.md", "sub/docs/a.md", "a.txt", "sub/a.txt", "x.txt", "sub/x.txt"} {
		e.write(rel, "hello "+rel+"\n")
	}
	e.commitAll("first")
	e.write("a.txt", "changed\n")
	e.write("sub/a.txt", "changed too\n")

	a := WithCaller(context.Background(), NewCaller("agent-a#0001"))
	b := WithCaller(context.Background(), NewCaller("agent-b#0002"))
	call := func(ctx context.Context, id, args string) (any, error) {
		t.Helper()
		f, _ := Lookup(id)
		return f.Call(ctx, e.s, json.RawMessage(args))
	}
	if _, err := call(a, "editor::workspace::get", `{}`); err != nil {
		t.Fatal(err)
	}
	if _, err := call(a, "editor::open", `{"path": "sub/a.txt"}`); err != nil {
		t.Fatal(err)
	}
	if got := CallerFrom(a).SeenRoot(); got != ws {
		t.Fatalf("A saw %q, want %q", got, ws)
	}
	if _, err := call(b, "editor::workspace::open", `{"root": "sub"}`); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(ws, "sub")

	writes := []struct{ id, args string }{
		{"editor::save", `{"path": "a.txt", "content": "clobbered\n", "force": true}`},
		{"editor::save", `{"path": "new.txt", "content": "new\n"}`},
		{"editor::edit", `{"path": "a.txt", "edits": [{"old_text": "a", "new_text": "b"}]}`},
		{"editor::create", `{"path": "made.txt", "kind": "file"}`},
		{"editor::create", `{"path": "made", "kind": "folder"}`},
		{"editor::delete", `{"path": "docs", "recursive": true}`},
		{"editor::delete", `{"path": "x.txt"}`},
		{"editor::move", `{"from": "x.txt", "to": "y.txt"}`},
		{"editor::move", `{"from": "` + filepath.Join(sub, "x.txt") + `", "to": "y.txt"}`},
		{"editor::move", `{"from": "x.txt", "to": "` + filepath.Join(sub, "y.txt") + `"}`},
		{"editor::buffers::close", `{"path": "a.txt"}`},
		{"editor::buffers::draft", `{"path": "a.txt", "content": "draft\n", "base_version": "1-2"}`},
		{"editor::workspace::open", `{"root": "docs"}`},
		{"editor::git::commit", `{"message": "by A"}`},
		{"editor::git::commit", `{"message": "by A", "paths": ["a.txt"]}`},
		{"editor::git::stash", `{"action": "push"}`},
		{"editor::git::sync", `{"action": "pull"}`},
		{"editor::git::undo-commit", `{}`},
	}
	before := tcSnapshot(t, ws)
	rec := func() string {
		b, _ := os.ReadFile(filepath.Join(e.s.StateDir(), "workspace.json"))
		return string(b)
	}
	recBefore := rec()
	for _, w := range writes {
		_, err := call(a, w.id, w.args)
		if tcCode(err) != shell.CodeRootChanged {
			t.Errorf("%s %s: want root_changed, got %v", w.id, w.args, err)
			continue
		}
		msg := err.Error()
		for _, want := range []string{ws + " to " + sub, "agent-b#0002", "editor::workspace::get", "nothing was done"} {
			if !strings.Contains(msg, want) {
				t.Errorf("%s: the message does not say %q: %s", w.id, want, msg)
			}
		}
	}
	if after := tcSnapshot(t, ws); !reflect.DeepEqual(before, after) {
		t.Errorf("a refused write changed the workspace or the repository")
	}
	if recBefore != rec() {
		t.Errorf("a refused write changed the shared record")
	}

	// Reads go on, answer with the root they used, and do not re-sync.
	o, err := call(a, "editor::open", `{"path": "a.txt"}`)
	if err != nil {
		t.Fatal(err)
	}
	if o.(*OpenResponse).Root != sub || o.(*OpenResponse).Content != "changed too\n" {
		t.Errorf("a read answered %+v, want root %s", o, sub)
	}
	if _, err := call(a, "editor::delete", `{"path": "docs", "recursive": true}`); tcCode(err) != shell.CodeRootChanged {
		t.Fatalf("after a read: want root_changed, got %v", err)
	}
	// Absolute paths do not depend on the root: not refused.
	if _, err := call(a, "editor::save", `{"path": "`+filepath.Join(ws, "abs.txt")+`", "content": "abs\n"}`); err != nil {
		t.Fatalf("absolute save: %v", err)
	}
	// B, which switched, writes in its root; so does a caller that never
	// saw a root (nothing could surprise it).
	if _, err := call(b, "editor::save", `{"path": "b.txt", "content": "b\n"}`); err != nil {
		t.Fatal(err)
	}
	fresh := WithCaller(context.Background(), NewCaller("fresh#0003"))
	if _, err := call(fresh, "editor::save", `{"path": "fresh.txt", "content": "f\n"}`); err != nil {
		t.Fatal(err)
	}
	if got := CallerFrom(fresh).SeenRoot(); got != sub {
		t.Errorf("a caller's first response named %s but it saw %q", sub, got)
	}

	// workspace::get re-syncs A: the delete now runs in the new root.
	if _, err := call(a, "editor::workspace::get", `{}`); err != nil {
		t.Fatal(err)
	}
	if _, err := call(a, "editor::delete", `{"path": "docs", "recursive": true}`); err != nil {
		t.Fatal(err)
	}
	if !exists(filepath.Join(ws, "docs", "a.md")) || exists(filepath.Join(sub, "docs")) {
		t.Errorf("after re-syncing, the delete should remove sub/docs and leave docs")
	}
}

// TestRootSwitchRecordsWho: the record says who set the active root and
// when, for the refusal's message.
func TestRootSwitchRecordsWho(t *testing.T) {
	e := tcNew(t)
	e.mkdir("sub")
	rec := e.s.store.Load()
	if rec.RootBy != "editord --root" || rec.RootAt == 0 {
		t.Errorf("the start root is recorded as set by %q at %d", rec.RootBy, rec.RootAt)
	}
	ctx := WithCaller(context.Background(), NewCaller("page#beef"))
	if _, err := e.s.WorkspaceOpen(ctx, &WorkspaceOpenRequest{Root: "sub"}); err != nil {
		t.Fatal(err)
	}
	rec = e.s.store.Load()
	if rec.ActiveRoot != e.abs("sub") || rec.RootBy != "page#beef" || rec.RootAt == 0 {
		t.Errorf("record after the switch: %s by %q at %d", rec.ActiveRoot, rec.RootBy, rec.RootAt)
	}
	// Re-opening the active root is no switch: who stays.
	other := WithCaller(context.Background(), NewCaller("other#0000"))
	if _, err := e.s.WorkspaceOpen(other, &WorkspaceOpenRequest{Root: e.abs("sub")}); err != nil {
		t.Fatal(err)
	}
	if rec = e.s.store.Load(); rec.RootBy != "page#beef" {
		t.Errorf("re-opening the active root changed who to %q", rec.RootBy)
	}
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}
