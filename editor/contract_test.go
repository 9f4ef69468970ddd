package editor

// Contract tests for the pure parts of the service (docs/contract.md §3 versions,
// §4 open's eol and diff) and for what every function shares: strict
// argument decoding and the change journal (§5).

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/editord/editord/shell"
)

func TestVersionVectors(t *testing.T) {
	tests := []struct {
		in   string
		want string
	}{
		{"", "0-cbf29ce484222325"},
		{"a", "1-af63dc4c8601ec8c"},
		{"hello\n", "6-a9bc80cca21f28b3"},
	}
	for _, tt := range tests {
		if got := Version([]byte(tt.in)); got != tt.want {
			t.Errorf("Version(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
	// The length is hex and the hash always 16 digits.
	v := Version([]byte(strings.Repeat("x", 300)))
	if !strings.HasPrefix(v, "12c-") || len(v) != len("12c-")+16 {
		t.Errorf("Version of 300 bytes = %s, want 12c- and 16 hex digits", v)
	}
	if Version([]byte("ab")) == Version([]byte("ba")) {
		t.Error("same-length edits must change the version")
	}
}

func TestEOL(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"", "none"},
		{"no newline at all", "none"},
		{"a\rb\r", "none"}, // a lone CR is not a line ending we classify
		{"a\n", "lf"},
		{"a\nb\nc", "lf"},
		{"\n", "lf"},
		{"a\r\n", "crlf"},
		{"a\r\nb\r\n", "crlf"},
		{"\r\n", "crlf"},
		{"a\r\nb\n", "mixed"},
		{"a\nb\r\n", "mixed"},
	}
	for _, tt := range tests {
		if got := EOL([]byte(tt.in)); got != tt.want {
			t.Errorf("EOL(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestOpenReportsEOL(t *testing.T) {
	e := tcNew(t)
	files := map[string]string{
		"empty.txt": "", "lf.txt": "a\nb\n", "crlf.txt": "a\r\nb\r\n", "mixed.txt": "a\r\nb\n", "none.txt": "abc",
	}
	want := map[string]string{"empty.txt": "none", "lf.txt": "lf", "crlf.txt": "crlf", "mixed.txt": "mixed", "none.txt": "none"}
	for name, content := range files {
		e.write(name, content)
	}
	for name := range files {
		r := e.open(name)
		if r.EOL != want[name] {
			t.Errorf("open %s: eol %s, want %s", name, r.EOL, want[name])
		}
		if r.Content != files[name] || r.Version != Version([]byte(files[name])) || r.Size != int64(len(files[name])) {
			t.Errorf("open %s: content %q version %s size %d", name, r.Content, r.Version, r.Size)
		}
	}
}

func TestCutUTF8(t *testing.T) {
	// "é" is 2 bytes, "€" 3, "😀" 4.
	s := []byte("ab€😀é")
	for n := 0; n <= len(s); n++ {
		got := cutUTF8(s, n)
		if len(got) > n || !utf8.Valid(got) || !strings.HasPrefix(string(s), string(got)) {
			t.Errorf("cutUTF8(%d) = %q: not a valid prefix of at most %d bytes", n, got, n)
		}
		if n-len(got) > 3 {
			t.Errorf("cutUTF8(%d) dropped %d bytes, more than one character", n, n-len(got))
		}
	}
	if got := string(cutUTF8(s, 4)); got != "ab" {
		t.Errorf("cut inside € = %q, want ab", got)
	}
	if got := string(cutUTF8(s, 5)); got != "ab€" {
		t.Errorf("cut right after € = %q, want ab€", got)
	}
}

func TestDecodeErrors(t *testing.T) {
	e := tcNew(t)
	e.write("a.txt", "a\n")
	tests := []struct {
		name, id, args string
		field          string // the message must name it
	}{
		{"unknown field", "editor::save", `{"path": "a.txt", "content": "x", "expected_verison": "1-2"}`, "expected_verison"},
		{"unknown field on a no-argument function", "editor::buffers::list", `{"verbose": true}`, "verbose"},
		{"missing required field", "editor::save", `{"path": "a.txt"}`, "content"},
		{"missing required field (null)", "editor::open", `{"path": null}`, "path"},
		{"missing every required field", "editor::move", `{}`, "from"},
		{"wrong type string", "editor::open", `{"path": 42}`, "path"},
		{"wrong type bool", "editor::save", `{"path": "a.txt", "content": "x", "force": "yes"}`, "force"},
		{"wrong type integer", "editor::tree", `{"max_depth": "deep"}`, "max_depth"},
		{"fraction for an integer", "editor::tree", `{"max_depth": 1.5}`, "max_depth"},
		{"wrong type mtime", "editor::save", `{"path": "a.txt", "content": "x", "expected_mtime": "yesterday"}`, "expected_mtime"},
		{"wrong type array", "editor::tree", `{"expand": "src"}`, "expand"},
		{"not an object", "editor::open", `["a.txt"]`, "object"},
		{"bad kind", "editor::create", `{"path": "n", "kind": "symlink"}`, "kind"},
		{"bad cursor", "editor::changes", `{"since": "yesterday"}`, "since"},
		{"negative max_depth", "editor::tree", `{"max_depth": -1}`, "max_depth"},
		{"negative context", "editor::diff", `{"before": "", "after": "", "context_lines": -2}`, "context_lines"},
		{"empty path", "editor::open", `{"path": ""}`, "path"},
		{"empty from", "editor::move", `{"from": " ", "to": "b"}`, "from"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tcCall(t, e.s, tt.id, tt.args)
			tcWantCode(t, err, shell.CodeInvalidArgument)
			if !strings.Contains(err.Error(), tt.field) {
				t.Errorf("message %q does not name %q", err.Error(), tt.field)
			}
		})
	}
	if got := e.read("a.txt"); got != "a\n" {
		t.Errorf("a refused call wrote the file: %q", got)
	}
	// Absent optional fields and null arguments decode fine.
	for _, args := range []string{``, `null`, `{}`} {
		if _, err := tcCall(t, e.s, "editor::buffers::list", args); err != nil {
			t.Errorf("buffers::list %q: %v", args, err)
		}
	}
}

func TestCatalogCoversTheIssue(t *testing.T) {
	ann := map[string]Annotations{
		"editor::workspace::open": {},
		"editor::workspace::get":  {ReadOnly: true},
		"editor::tree":            {ReadOnly: true},
		"editor::open":            {ReadOnly: true},
		"editor::save":            {Destructive: true},
		"editor::buffers::list":   {ReadOnly: true},
		"editor::buffers::close":  {},
		"editor::move":            {Destructive: true},
		"editor::create":          {},
		"editor::delete":          {Destructive: true},
		"editor::diff":            {ReadOnly: true},
		"editor::changes":         {ReadOnly: true},
	}
	for id, want := range ann {
		f, ok := Lookup(id)
		if !ok {
			t.Errorf("%s is not in the catalog", id)
			continue
		}
		if f.Annotations.ReadOnly != want.ReadOnly || f.Annotations.Destructive != want.Destructive || f.Annotations.OpenWorld {
			t.Errorf("%s annotations %+v, want read-only %v destructive %v, closed world", id, f.Annotations, want.ReadOnly, want.Destructive)
		}
		if f.Description == "" {
			t.Errorf("%s has no description", id)
		}
		for name, p := range f.InputSchema()["properties"].(map[string]any) {
			if d, _ := p.(map[string]any)["description"].(string); d == "" {
				t.Errorf("%s: input field %s has no description", id, name)
			}
		}
	}
}

func TestDiff(t *testing.T) {
	e := tcNew(t, func(c *Config) { c.Limits.MaxDiffBytes = 64 })
	big := strings.Repeat("x", 65)
	tests := []struct {
		name          string
		args          string
		identical     bool
		truncated     bool
		patchHas      []string
		hunks         string // JSON of the hunks
		added, remove int
	}{
		{name: "identical", args: `{"before": "a\nb\n", "after": "a\nb\n"}`, identical: true, hunks: `[]`},
		{name: "identical empty", args: `{"before": "", "after": ""}`, identical: true, hunks: `[]`},
		{name: "truncated before", args: `{"before": "` + big + `", "after": "a\n"}`, truncated: true, hunks: `[]`},
		{name: "truncated after", args: `{"before": "a\n", "after": "` + big + `"}`, truncated: true, hunks: `[]`},
		{
			name: "default path file", args: `{"before": "a\nb\nc\n", "after": "a\nB\nc\n"}`,
			patchHas: []string{"--- a/file\n+++ b/file\n", "@@ -1,3 +1,3 @@\n", "-b\n+B\n"},
			hunks:    `[{"old_start":1,"old_lines":3,"new_start":1,"new_lines":3,"added":1,"removed":1}]`,
			added:    1, remove: 1,
		},
		{
			name: "named path, no context", args: `{"before": "a\nb\nc\n", "after": "a\nB\nc\n", "path": "src/x.go", "context_lines": 0}`,
			patchHas: []string{"--- a/src/x.go\n+++ b/src/x.go\n", "@@ -2,1 +2,1 @@\n"},
			hunks:    `[{"old_start":2,"old_lines":1,"new_start":2,"new_lines":1,"added":1,"removed":1}]`,
			added:    1, remove: 1,
		},
		{
			name: "empty before", args: `{"before": "", "after": "x\ny\n"}`,
			patchHas: []string{"@@ -0,0 +1,2 @@\n"},
			hunks:    `[{"old_start":0,"old_lines":0,"new_start":1,"new_lines":2,"added":2,"removed":0}]`,
			added:    2,
		},
		{
			name: "missing final newline", args: `{"before": "a\n", "after": "a"}`,
			patchHas: []string{"\\ No newline at end of file\n"},
			hunks:    `[{"old_start":1,"old_lines":1,"new_start":1,"new_lines":1,"added":1,"removed":1}]`,
			added:    1, remove: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := tcCall(t, e.s, "editor::diff", tt.args)
			if err != nil {
				t.Fatal(err)
			}
			r := out.(*DiffResponse)
			if r.Identical != tt.identical || r.Truncated != tt.truncated || r.Added != tt.added || r.Removed != tt.remove {
				t.Errorf("got identical %v truncated %v +%d -%d", r.Identical, r.Truncated, r.Added, r.Removed)
			}
			if (tt.identical || tt.truncated) && r.Patch != "" {
				t.Errorf("patch should be empty, got %q", r.Patch)
			}
			for _, s := range tt.patchHas {
				if !strings.Contains(r.Patch, s) {
					t.Errorf("patch lacks %q:\n%s", s, r.Patch)
				}
			}
			if h, _ := json.Marshal(r.Hunks); string(h) != tt.hunks {
				t.Errorf("hunks %s, want %s", h, tt.hunks)
			}
		})
	}
}

func TestDiffAppliesWithGit(t *testing.T) {
	tcGit(t)
	e := tcNew(t)
	pairs := [][2]string{
		{"a\nb\nc\n", "a\nB\nc\nd\n"},
		{"", "new\n"},
		{"one\r\ntwo\r\n", "one\r\n2\r\n"},
		{"\ufefftitle\nbody", "\ufefftitle\nbody changed"},
		{"x\n", "x"},
	}
	for i, p := range pairs {
		r, err := e.s.Diff(context.Background(), &DiffRequest{Before: p[0], After: p[1], Path: "d/f.txt"})
		if err != nil {
			t.Fatal(err)
		}
		if got := tcGitApply(t, "d/f.txt", p[0], r.Patch); got != p[1] {
			t.Errorf("pair %d: git apply gave %q, want %q", i, got, p[1])
		}
	}
}

// TestChanges drives one write of each kind through the service and reads
// the journal back through editor::changes.
func TestChanges(t *testing.T) {
	e := tcNew(t)
	ctx := context.Background()
	e.write("a.txt", "one\n")
	o := e.open("a.txt")

	start, err := e.s.Changes(ctx, &ChangesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(start.Changes) != 0 || start.Reset {
		t.Fatalf("fresh journal: %+v", start)
	}

	if _, err := e.s.Save(ctx, &SaveRequest{Path: "a.txt", Content: "one\ntwo\n", ExpectedVersion: &o.Version}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.s.Create(ctx, &CreateRequest{Path: "n/new.txt", Kind: "file", Content: "hi\n"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.s.Move(ctx, &MoveRequest{From: "n/new.txt", To: "n/moved.txt"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.s.Delete(ctx, &DeleteRequest{Path: "a.txt"}); err != nil {
		t.Fatal(err)
	}
	// A conflict and a refused call write nothing and emit nothing.
	e.write("b.txt", "b\n")
	if r, err := e.s.Save(ctx, &SaveRequest{Path: "b.txt", Content: "x\n", ExpectedVersion: tcPtr("0-0")}); err != nil || !r.Conflict {
		t.Fatalf("want a conflict: %+v %v", r, err)
	}

	all, err := e.s.Changes(ctx, &ChangesRequest{Since: start.Cursor})
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		kind, path, cause, from, version string
		patchHas                         []string
		added, removed                   int
	}
	wants := []want{
		{kind: "modified", path: "a.txt", cause: "editor::save", version: Version([]byte("one\ntwo\n")),
			patchHas: []string{"--- a/a.txt", "+++ b/a.txt", "+two\n"}, added: 1},
		{kind: "created", path: "n/new.txt", cause: "editor::create", version: Version([]byte("hi\n")),
			patchHas: []string{"--- /dev/null", "+++ b/n/new.txt", "+hi\n"}, added: 1},
		{kind: "moved", path: "n/moved.txt", from: "n/new.txt", cause: "editor::move", version: Version([]byte("hi\n"))},
		{kind: "deleted", path: "a.txt", cause: "editor::delete",
			patchHas: []string{"--- a/a.txt", "+++ /dev/null", "-one\n", "-two\n"}, removed: 2},
	}
	if len(all.Changes) != len(wants) {
		t.Fatalf("got %d events, want %d: %+v", len(all.Changes), len(wants), all.Changes)
	}
	var prev int64
	for i, w := range wants {
		ev := all.Changes[i]
		if ev.Seq <= prev {
			t.Errorf("event %d: seq %d not increasing after %d", i, ev.Seq, prev)
		}
		prev = ev.Seq
		if ev.Kind != w.kind || ev.Path != w.path || ev.Cause != w.cause || ev.Root != e.root || ev.Time == "" {
			t.Errorf("event %d: %+v, want %+v", i, ev, w)
		}
		if w.from != "" && (ev.From == nil || *ev.From != w.from) {
			t.Errorf("event %d: from %v, want %s", i, ev.From, w.from)
		}
		if w.version != "" && (ev.Version == nil || *ev.Version != w.version) {
			t.Errorf("event %d: version %v, want %s", i, ev.Version, w.version)
		}
		if w.version == "" && ev.Version != nil {
			t.Errorf("event %d: a deletion carries version %s", i, *ev.Version)
		}
		for _, s := range w.patchHas {
			if !strings.Contains(ev.Patch, s) {
				t.Errorf("event %d: patch lacks %q:\n%s", i, s, ev.Patch)
			}
		}
		if ev.Added != w.added || ev.Removed != w.removed {
			t.Errorf("event %d: +%d -%d, want +%d -%d", i, ev.Added, ev.Removed, w.added, w.removed)
		}
	}
	if all.Cursor != fmt.Sprint(prev) {
		t.Errorf("cursor %s, want the last seq %d", all.Cursor, prev)
	}
	// The cursor returns only what is newer; another process sees the same.
	again, err := e.service().Changes(ctx, &ChangesRequest{Since: all.Cursor})
	if err != nil || len(again.Changes) != 0 || again.Reset || again.Cursor != all.Cursor {
		t.Fatalf("after the cursor: %+v %v", again, err)
	}
	mid, err := e.s.Changes(ctx, &ChangesRequest{Since: fmt.Sprint(all.Changes[1].Seq)})
	if err != nil || len(mid.Changes) != 2 || mid.Changes[0].Kind != "moved" {
		t.Fatalf("since the second event: %+v %v", mid, err)
	}
	// Through the catalog, the events are plain JSON objects.
	m, err := tcCallJSON(t, e.s, "editor::changes", `{"since": "`+start.Cursor+`"}`)
	if err != nil {
		t.Fatal(err)
	}
	if evs, _ := m["changes"].([]any); len(evs) != 4 {
		t.Errorf("catalog call returned %v", m)
	}
}

func TestChangesPatchCapped(t *testing.T) {
	e := tcNew(t, func(c *Config) { c.Limits.EventPatchBytes = 200 })
	ctx := context.Background()
	body := strings.Repeat("a line of text\n", 100)
	if _, err := e.s.Create(ctx, &CreateRequest{Path: "big.txt", Kind: "file", Content: body}); err != nil {
		t.Fatal(err)
	}
	r, err := e.s.Changes(ctx, &ChangesRequest{})
	if err != nil || len(r.Changes) != 1 {
		t.Fatalf("%+v %v", r, err)
	}
	ev := r.Changes[0]
	if !ev.Truncated || len(ev.Patch) > 200 || ev.Added != 100 || !strings.HasSuffix(ev.Patch, "\n") {
		t.Errorf("capped event: truncated %v, %d patch bytes, +%d", ev.Truncated, len(ev.Patch), ev.Added)
	}
}

func TestChangesReset(t *testing.T) {
	e := tcNew(t, func(c *Config) { c.Limits.ChangesKept = 3 })
	ctx := context.Background()
	for i := range 10 {
		if _, err := e.s.Create(ctx, &CreateRequest{Path: fmt.Sprintf("f%d.txt", i), Kind: "file"}); err != nil {
			t.Fatal(err)
		}
	}
	all, err := e.s.Changes(ctx, &ChangesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if all.Reset || all.Cursor != "10" {
		t.Fatalf("since the beginning: reset %v cursor %s", all.Reset, all.Cursor)
	}
	if n := len(all.Changes); n < 3 || n > 6 || all.Changes[n-1].Seq != 10 {
		t.Fatalf("journal holds %d events ending at %d; want the last 3 to 6 ending at 10", n, all.Changes[n-1].Seq)
	}
	first := all.Changes[0].Seq
	tests := []struct {
		name   string
		since  int64
		reset  bool
		events int
	}{
		{"older than the journal", 1, true, len(all.Changes)},
		{"right before the oldest kept", first - 1, false, len(all.Changes)},
		{"at the newest", 10, false, 0},
		{"ahead of the journal (it restarted)", 99, true, len(all.Changes)},
	}
	for _, tt := range tests {
		r, err := e.s.Changes(ctx, &ChangesRequest{Since: fmt.Sprint(tt.since)})
		if err != nil {
			t.Fatal(err)
		}
		if r.Reset != tt.reset || len(r.Changes) != tt.events || r.Cursor != "10" {
			t.Errorf("%s (since %d): reset %v, %d events, cursor %s; want reset %v, %d events, cursor 10",
				tt.name, tt.since, r.Reset, len(r.Changes), r.Cursor, tt.reset, tt.events)
		}
	}

	// The journal deleted: a cursor from before is reset, and the events
	// written since are all returned.
	if err := tcRemoveJournal(e); err != nil {
		t.Fatal(err)
	}
	r, err := e.s.Changes(ctx, &ChangesRequest{Since: "10"})
	if err != nil || !r.Reset || len(r.Changes) != 0 || r.Cursor != "0" {
		t.Fatalf("journal gone: %+v %v", r, err)
	}
	if _, err := e.s.Create(ctx, &CreateRequest{Path: "after.txt", Kind: "file"}); err != nil {
		t.Fatal(err)
	}
	r, err = e.s.Changes(ctx, &ChangesRequest{Since: "10"})
	if err != nil || !r.Reset || len(r.Changes) != 1 || r.Changes[0].Path != "after.txt" {
		t.Fatalf("journal restarted: %+v %v", r, err)
	}
}
