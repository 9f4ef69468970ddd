package editor

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// TestEveryFunctionHasToolset: the toolset table (toolsets.go) assigns every
// function the catalog defines, and names only toolsets that exist. A
// function added without a toolset would be listed to nobody.
func TestEveryFunctionHasToolset(t *testing.T) {
	for _, f := range Catalog() {
		if ToolsetOf(f.ID) == "" {
			t.Errorf("%s has no toolset: add it to toolsetOf in editor/toolsets.go", f.ID)
		}
	}
	if err := checkToolsetTable(); err != nil {
		t.Error(err)
	}
	if got, err := ParseToolsets([]string{"git", "all", "core"}); err != nil || len(got) != len(Toolsets) || got[0] != "core" {
		t.Errorf("all: %v %v", got, err)
	}
	if _, err := ParseToolsets([]string{"gti"}); err == nil || !strings.Contains(err.Error(), "git") {
		t.Errorf("an unknown toolset: %v", err)
	}
}

// TestToolsEnable: editor::tools lists the toolsets and adds to a caller's
// list, telling its front end once; a caller without a list to add to is
// told so.
func TestToolsEnable(t *testing.T) {
	e := tcNew(t)
	moved := 0
	c := NewCaller("agent#0001")
	c.ListsToolsets(func() { moved++ })
	ctx := WithCaller(context.Background(), c)
	f, _ := Lookup("editor::tools")
	call := func(ctx context.Context, args string) *ToolsResponse {
		resp, err := f.Call(ctx, e.s, json.RawMessage(args))
		if err != nil {
			t.Fatal(err)
		}
		return resp.(*ToolsResponse)
	}
	listed := func(r *ToolsResponse) map[string]bool {
		m := map[string]bool{}
		for _, ts := range r.Toolsets {
			m[ts.Name] = ts.Listed
		}
		return m
	}
	r := call(ctx, `{}`)
	if l := listed(r); !l["core"] || l["git"] || r.Note != "" {
		t.Fatalf("before: %+v", r)
	}
	r = call(ctx, `{"enable":["git"]}`)
	if l := listed(r); !l["core"] || !l["git"] || moved != 1 || c.Toolsets()[0] != "git" {
		t.Fatalf("after enable git: %+v, moved %d", r, moved)
	}
	call(ctx, `{"enable":["git"]}`)
	if moved != 1 {
		t.Fatalf("enabling git again told the client %d times", moved)
	}
	if r := call(WithCaller(context.Background(), NewCaller("cli")), `{"enable":["git"]}`); r.Note == "" {
		t.Fatalf("a caller without a tool list was not told: %+v", r)
	}
}
