package editor

import (
	"context"
	"fmt"
	"testing"
)

// TestChangesPaged: editor::changes returns at most limit events (100 by
// default), says how many it left out, and its cursor gets the rest; path
// keeps the events at or beneath a path (issue 12: one answer held the
// whole journal).
func TestChangesPaged(t *testing.T) {
	e := tcNew(t)
	ctx := context.Background()
	for i := range 130 {
		dir := "lib"
		if i%10 == 0 {
			dir = "src"
		}
		if _, err := e.s.Save(ctx, &SaveRequest{Path: fmt.Sprintf("%s/f%d.txt", dir, i), Content: "x\n"}); err != nil {
			t.Fatal(err)
		}
	}
	first, err := e.s.Changes(ctx, &ChangesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Changes) != 100 || first.More != 30 || first.Cursor != "100" || first.Changes[99].Seq != 100 {
		t.Fatalf("first page: %d events, more %d, cursor %s", len(first.Changes), first.More, first.Cursor)
	}
	rest, err := e.s.Changes(ctx, &ChangesRequest{Since: first.Cursor})
	if err != nil {
		t.Fatal(err)
	}
	if len(rest.Changes) != 30 || rest.More != 0 || rest.Cursor != "130" || rest.Changes[0].Seq != 101 {
		t.Fatalf("second page: %d events, more %d, cursor %s", len(rest.Changes), rest.More, rest.Cursor)
	}
	small, err := e.s.Changes(ctx, &ChangesRequest{Since: "120", Limit: 4})
	if err != nil || len(small.Changes) != 4 || small.More != 6 || small.Cursor != "124" {
		t.Fatalf("limit 4 from 120: %+v %v", small, err)
	}
	src, err := e.s.Changes(ctx, &ChangesRequest{Path: "src", Limit: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(src.Changes) != 5 || src.More != 8 || src.Changes[0].Path != "src/f0.txt" || src.Changes[4].Path != "src/f40.txt" {
		t.Fatalf("path src: %d events, more %d, %+v", len(src.Changes), src.More, src.Changes)
	}
	src2, err := e.s.Changes(ctx, &ChangesRequest{Path: "src/", Since: src.Cursor, Limit: 100})
	if err != nil || len(src2.Changes) != 8 || src2.More != 0 || src2.Cursor != "130" {
		t.Fatalf("path src, the rest: %+v %v", src2, err)
	}
	if _, err := e.s.Changes(ctx, &ChangesRequest{Limit: -1}); tcCode(err) != "invalid_argument" {
		t.Fatalf("limit -1: %v", err)
	}
}
