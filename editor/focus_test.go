package editor

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/editord/editord/shell"
)

func TestFocusRecordedForEverySurface(t *testing.T) {
	e := tcNew(t)
	e.write("src/a.go", "package a\n")
	e.open("src/a.go")
	if v, _ := e.s.WorkspaceGet(context.Background(), nil); v.Focus != nil {
		t.Fatalf("focus before any report: %+v", v.Focus)
	}
	f, _ := Lookup("editor::workspace::focus")
	ctx := WithCaller(context.Background(), NewCaller("page#0001"))
	if _, err := f.Call(ctx, e.s, json.RawMessage(`{"path":"src/a.go","line":1,"column":3,"selection":{"start_line":1,"start_column":1,"end_line":1,"end_column":8}}`)); err != nil {
		t.Fatal(err)
	}
	v, err := e.service().WorkspaceGet(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := v.Focus
	if got == nil || got.Path != "src/a.go" || got.Line != 1 || got.Column != 3 || got.By != "page#0001" || got.Time == "" ||
		got.Selection == nil || got.Selection.EndColumn != 8 {
		t.Fatalf("focus seen by another process: %+v", got)
	}
	// It follows a move, like the buffer it points at.
	if _, err := e.s.Move(context.Background(), &MoveRequest{From: "src", To: "lib"}); err != nil {
		t.Fatal(err)
	}
	if v, _ := e.s.WorkspaceGet(context.Background(), nil); v.Focus == nil || v.Focus.Path != "lib/a.go" {
		t.Fatalf("focus after move: %+v", v.Focus)
	}
	for _, bad := range []string{`{"path":"a.go","line":0,"column":1}`, `{"path":"a.go","line":1,"column":1,"selection":{"start_line":0,"start_column":1,"end_line":1,"end_column":1}}`} {
		if _, err := f.Call(ctx, e.s, json.RawMessage(bad)); shell.CodeOf(err) != shell.CodeInvalidArgument {
			t.Errorf("%s: %v, want invalid_argument", bad, err)
		}
	}
}
