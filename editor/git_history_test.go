package editor

import (
	"strings"
	"testing"
)

// TestGitBranchSwitchRefreshesBuffers: a switch rewrites an open clean
// buffer's file; the buffer follows the new content and a change event
// carries the patch, caused by editor::git::branch.
func TestGitBranchSwitchRefreshesBuffers(t *testing.T) {
	e := gtNew(t, "")
	e.write("a.txt", "main\n")
	e.write("b.txt", "b\n")
	e.commitAll("base")
	e.git("branch", "topic")
	e.git("switch", "-q", "topic")
	e.write("a.txt", "topic\n")
	e.commitAll("topic")
	e.git("switch", "-q", "main")
	open := gtMust[OpenResponse](e, "editor::open", `{"path": "a.txt"}`)
	before := gtMust[ChangesResponse](e, "editor::changes", `{}`)
	res := gtMust[GitBranchResponse](e, "editor::git::branch", `{"action": "switch", "name": "topic"}`)
	if !res.OK || e.read("a.txt") != "topic\n" {
		t.Fatalf("switch: %+v", res)
	}
	var ver string
	for _, b := range e.s.store.Load().Session(e.root).Buffers {
		if b.Path == "a.txt" {
			ver = b.Version
		}
	}
	if ver != Version([]byte("topic\n")) || ver == open.Version {
		t.Fatalf("buffer version %q after the switch", ver)
	}
	after := gtMust[ChangesResponse](e, "editor::changes", `{"since": "`+before.Cursor+`"}`)
	if len(after.Changes) != 1 || after.Changes[0].Cause != "editor::git::branch" || !strings.Contains(after.Changes[0].Patch, "+topic") {
		t.Fatalf("events: %+v", after.Changes)
	}
	if head := strings.TrimSpace(e.git("symbolic-ref", "HEAD")); head != "refs/heads/topic" {
		t.Fatalf("HEAD is %s", head)
	}
	list := gtMust[GitBranchResponse](e, "editor::git::branch", `{}`)
	if len(list.Branches) != 2 || !list.Branches[1].Current || list.Branches[1].Name != "topic" {
		t.Fatalf("list: %+v", list.Branches)
	}
}

// TestGitRestoreGuarded restores a file from a revision only with the
// version of the file on disk, like a save.
func TestGitRestoreGuarded(t *testing.T) {
	e := gtNew(t, "")
	e.write("a.txt", "one\n")
	e.commitAll("one")
	e.write("a.txt", "two\n")
	e.commitAll("two")
	e.write("a.txt", "local\n")
	res := gtMust[GitRestoreResponse](e, "editor::git::restore", `{"path": "a.txt", "rev": "HEAD~1"}`)
	if !res.Conflict || res.Restored || e.read("a.txt") != "local\n" || res.ConflictPatch == nil {
		t.Fatalf("unguarded restore: %+v", res)
	}
	v := Version([]byte("local\n"))
	res = gtMust[GitRestoreResponse](e, "editor::git::restore", `{"path": "a.txt", "rev": "HEAD~1", "expected_version": "`+v+`"}`)
	if !res.Restored || e.read("a.txt") != "one\n" {
		t.Fatalf("restore: %+v", res)
	}
	if st := e.git("status", "--porcelain"); st != " M a.txt\n" {
		t.Fatalf("status after restore: %q", st)
	}
	// From the index (the default): back to the staged "two".
	res = gtMust[GitRestoreResponse](e, "editor::git::restore", `{"path": "a.txt", "expected_version": "`+Version([]byte("one\n"))+`"}`)
	if !res.Restored || e.read("a.txt") != "two\n" {
		t.Fatalf("restore from the index: %+v", res)
	}
	if _, err := gtCall[GitRestoreResponse](e, "editor::git::restore", `{"path": "nope.txt", "rev": "HEAD"}`); tcCode(err) != "not_found" {
		t.Fatalf("missing at rev: %v", err)
	}
}

// TestGitLogBlameThroughCatalog pages history and blames a range.
func TestGitLogBlameThroughCatalog(t *testing.T) {
	e := gtNew(t, "")
	for i, c := range []string{"a\n", "a\nb\n", "a\nB\nc\n"} {
		e.write("f.txt", c)
		e.commitAll("c" + string(rune('1'+i)))
	}
	page := gtMust[GitLogResponse](e, "editor::git::log", `{"limit": 2}`)
	if len(page.Entries) != 2 || page.NextCursor == nil || *page.NextCursor != 2 || page.Entries[0].Subject != "c3" || page.Entries[0].Added != 2 || page.Entries[0].Removed != 1 {
		t.Fatalf("page 1: %+v", page)
	}
	rest := gtMust[GitLogResponse](e, "editor::git::log", `{"limit": 2, "cursor": 2, "path": "f.txt"}`)
	if len(rest.Entries) != 1 || rest.NextCursor != nil || rest.Entries[0].Subject != "c1" {
		t.Fatalf("page 2: %+v", rest)
	}
	bl := gtMust[GitBlameResponse](e, "editor::git::blame", `{"path": "f.txt", "start": 2}`)
	if bl.TotalLines != 3 || len(bl.Lines) != 2 || bl.Lines[0].Text != "B" || bl.Lines[0].Summary != "c3" || bl.Lines[1].Line != 3 {
		t.Fatalf("blame: %+v", bl)
	}
}
