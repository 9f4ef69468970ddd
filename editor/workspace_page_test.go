package editor

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
)

// TestWorkspacePaged: with thousands of buffers open, workspace::get and
// buffers::list answer one page (100 by default), say how many there are
// and how many the page left out, and offset gets the rest (issue 12:
// workspace::get returned 1.6 MB).
func TestWorkspacePaged(t *testing.T) {
	e := tcNew(t)
	ctx := context.Background()
	for i := range 1200 {
		e.write(fmt.Sprintf("d/f%04d.txt", i), "x\n")
	}
	for i := range 1200 {
		if _, err := e.s.Open(ctx, &OpenRequest{Path: fmt.Sprintf("d/f%04d.txt", i)}); err != nil {
			t.Fatal(err)
		}
	}
	v, err := e.s.WorkspaceGet(ctx, &WorkspaceGetRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Buffers) != 100 || v.BuffersTotal != 1200 || v.More != 1100 || v.Buffers[0].Path != "d/f0000.txt" {
		t.Fatalf("default page: %d buffers, total %d, more %d", len(v.Buffers), v.BuffersTotal, v.More)
	}
	if b, _ := json.Marshal(v); len(b) > 32<<10 {
		t.Errorf("a default workspace::get is %d bytes of JSON", len(b))
	}
	l, err := e.s.BuffersList(ctx, &BuffersListRequest{Offset: 1150, Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Buffers) != 50 || l.More != 0 || l.BuffersTotal != 1200 || l.Buffers[0].Path != "d/f1150.txt" {
		t.Fatalf("last page: %d buffers from %s, more %d", len(l.Buffers), l.Buffers[0].Path, l.More)
	}
	l, _ = e.s.BuffersList(ctx, &BuffersListRequest{Offset: 100, Limit: 10})
	if len(l.Buffers) != 10 || l.More != 1090 || l.Buffers[0].Path != "d/f0100.txt" {
		t.Fatalf("a middle page: %d from %s, more %d", len(l.Buffers), l.Buffers[0].Path, l.More)
	}
	if _, err := e.s.WorkspaceGet(ctx, &WorkspaceGetRequest{Offset: -1}); tcCode(err) != "invalid_argument" {
		t.Fatalf("offset -1: %v", err)
	}
}
