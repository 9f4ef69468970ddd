package editor

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/editord/editord/shell"
)

func replaceCall(t *testing.T, s *Service, c *Caller, args string) *ReplaceResponse {
	t.Helper()
	f, _ := Lookup("editor::replace")
	out, err := f.Call(WithCaller(context.Background(), c), s, json.RawMessage(args))
	if err != nil {
		t.Fatalf("editor::replace %s: %v", args, err)
	}
	return out.(*ReplaceResponse)
}

// A dry run previews exactly editor::search's matches, RE2 syntax that a
// JavaScript regexp reads otherwise included; the write is guarded per
// file: the one changed since its preview is a conflict and keeps its
// text; the others are written, opening no tab, refreshing an open one,
// and leaving the person's draft for them to merge.
func TestReplaceDryRunThenGuardedWrite(t *testing.T) {
	e := tcNew(t)
	e.write("a.txt", "id 12\nid 7\n")
	e.write("b.txt", "x 3\r\n")
	e.write("c.txt", "c 45\n")
	e.write("d.txt", "no digits [:]\n")
	page, agent := NewCaller("page#0001"), NewCaller("agent#0002")
	vb := e.open("b.txt").Version // open: its buffer is refreshed, not reopened
	if _, err := draftCall(t, e.s, page, `{"path":"b.txt","content":"x 3 mine\r\n","base_version":"`+vb+`"}`); err != nil {
		t.Fatal(err)
	}
	// [[:digit:]] is a POSIX class in RE2; a JS regexp reads a set of ":[digt" then "]".
	const pat = `"pattern":"id ([[:digit:]]+)|[[:digit:]]+","with":"<${1}>"`
	dry := replaceCall(t, e.s, page, `{`+pat+`,"paths":["a.txt","b.txt","c.txt","d.txt"]}`)
	got := map[string]ReplaceFile{}
	for _, f := range dry.Files {
		got[f.Path] = f
	}
	if got["a.txt"].Replaced != 2 || !strings.Contains(got["a.txt"].Patch, "+<12>\n+<7>\n") || got["d.txt"].Replaced != 0 || got["d.txt"].Patch != "" {
		t.Fatalf("dry run: %+v", dry.Files)
	}
	if got["b.txt"].Replaced != 1 || !strings.Contains(got["b.txt"].Patch, "+x <>\r\n") {
		t.Fatalf("b.txt's preview: %+v", got["b.txt"])
	}
	if e.read("a.txt") != "id 12\nid 7\n" || dry.Written != 0 {
		t.Fatal("a dry run wrote")
	}
	// The search finds what the preview changes.
	sr, err := e.s.Search(context.Background(), &SearchRequest{Pattern: "id ([[:digit:]]+)|[[:digit:]]+"})
	if err != nil || sr.Total != 4 {
		t.Fatalf("search: %+v %v", sr, err)
	}
	// An agent changes c.txt after the preview.
	vc := got["c.txt"].Version
	if r, err := e.s.Save(WithCaller(context.Background(), agent), &SaveRequest{Path: "c.txt", Content: "c 46\n", ExpectedVersion: &vc}); err != nil || !r.Saved {
		t.Fatalf("agent save: %+v %v", r, err)
	}
	w := map[string]string{}
	for p, f := range got {
		w[p] = f.Version
	}
	args, _ := json.Marshal(w)
	res := replaceCall(t, e.s, page, `{`+pat+`,"write":`+string(args)+`}`)
	for _, f := range res.Files {
		got[f.Path] = f
	}
	if res.Written != 2 || !got["a.txt"].Written || !got["b.txt"].Written || got["c.txt"].Written || !got["c.txt"].Conflict {
		t.Fatalf("write: %+v", res)
	}
	for p, want := range map[string]string{"a.txt": "<12>\n<7>\n", "b.txt": "x <>\r\n", "c.txt": "c 46\n", "d.txt": "no digits [:]\n"} {
		if g := e.read(p); g != want {
			t.Errorf("%s: %q, want %q", p, g, want)
		}
	}
	if bufs := e.buffers(e.s); strings.Join(bufs, ",") != "b.txt,c.txt" { // c.txt: the agent's save
		t.Fatalf("buffers after the replace: %v (it opens none)", bufs)
	}
	if b := bufferAt(t, e.s, "b.txt"); b.Version != got["b.txt"].Version || !b.Dirty {
		t.Fatalf("b.txt's buffer after the replace: %+v (refreshed, draft kept)", b)
	}
	ch, err := e.s.Changes(context.Background(), &ChangesRequest{Path: "a.txt"})
	if err != nil || len(ch.Changes) == 0 {
		t.Fatalf("changes: %+v %v", ch, err)
	}
	if last := ch.Changes[len(ch.Changes)-1]; last.Cause != "editor::replace" || last.By != "page#0001" {
		t.Fatalf("a.txt's event: %+v", last)
	}
}

// TestReplaceEverywhere: without paths, the dry run previews every file
// the pattern is in (a rename is then two calls: this and the write).
func TestReplaceEverywhere(t *testing.T) {
	e := tcNew(t)
	e.write("a.txt", "old\n")
	e.write("sub/b.txt", "x old y old\n")
	e.write("c.txt", "nothing\n")
	r := replaceCall(t, e.s, NewCaller("x"), `{"pattern":"old","with":"new","literal":true}`)
	if len(r.Files) != 2 || r.Files[0].Path != "a.txt" || r.Files[1].Path != "sub/b.txt" || r.Files[1].Replaced != 2 || r.Written != 0 {
		t.Fatalf("dry run everywhere: %+v", r)
	}
	if e.read("a.txt") != "old\n" {
		t.Fatal("the dry run wrote")
	}
	if r := replaceCall(t, e.s, NewCaller("x"), `{"pattern":"absent","with":"new"}`); len(r.Files) != 0 {
		t.Fatalf("nothing to replace: %+v", r)
	}
}

func TestReplaceRefusals(t *testing.T) {
	e := tcNew(t)
	e.write("a.txt", "a\n")
	f, _ := Lookup("editor::replace")
	for _, args := range []string{
		`{"pattern":"a","with":"b","paths":["a.txt"],"write":{"a.txt":"x"}}`,
		`{"pattern":"(","with":"b","paths":["a.txt"]}`,
		`{"pattern":"a\n","with":"b","literal":true,"paths":["a.txt"]}`,
	} {
		if _, err := f.Call(context.Background(), e.s, json.RawMessage(args)); err == nil {
			t.Errorf("%s: no refusal", args)
		}
	}
	r := replaceCall(t, e.s, NewCaller("x"), `{"pattern":"a","with":"\u0000","paths":["a.txt","gone.txt"]}`)
	if r.Files[0].Skipped != "binary" || r.Files[1].Skipped != "not_found" {
		t.Fatalf("skips: %+v", r.Files)
	}
}

// TestReplaceWriteWithAPathOutsideWritesNothing: a write call naming a
// path outside the jail is refused whole before any file is written (the
// files sort before it or after it alike).
func TestReplaceWriteWithAPathOutsideWritesNothing(t *testing.T) {
	e := tcNew(t)
	e.write("!a.txt", "old\n")
	ctx := context.Background()
	pre, err := e.s.Replace(ctx, &ReplaceRequest{Pattern: "old", With: "new", Paths: []string{"!a.txt"}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.s.Replace(ctx, &ReplaceRequest{Pattern: "old", With: "new", Write: map[string]string{"!a.txt": pre.Files[0].Version, "../canary/x": "0-0"}})
	if shell.CodeOf(err) != shell.CodeOutsideJail {
		t.Fatalf("write with a path outside: %v", err)
	}
	if got := e.read("!a.txt"); got != "old\n" {
		t.Fatalf("!a.txt was written: %q", got)
	}
	e.checkCanary()
}

// preserve_case: each match keeps its own case, in the preview and in
// what is written.
func TestReplacePreserveCase(t *testing.T) {
	e := tcNew(t)
	e.write("a.txt", "user User USER userName\n")
	c := NewCaller("page#0001")
	dry := replaceCall(t, e.s, c, `{"pattern":"user","literal":true,"ignore_case":true,"with":"account","preserve_case":true,"paths":["a.txt"]}`)
	if len(dry.Files) != 1 || dry.Files[0].Replaced != 4 || !strings.Contains(dry.Files[0].Patch, "+account Account ACCOUNT accountName") {
		t.Fatalf("dry run: %+v", dry)
	}
	done := replaceCall(t, e.s, c, `{"pattern":"user","literal":true,"ignore_case":true,"with":"account","preserve_case":true,"write":{"a.txt":"`+dry.Files[0].Version+`"}}`)
	if done.Written != 1 || e.read("a.txt") != "account Account ACCOUNT accountName\n" {
		t.Fatalf("write: %+v, file %q", done, e.read("a.txt"))
	}
}
