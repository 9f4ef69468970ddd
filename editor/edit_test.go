package editor

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/editord/editord/shell"
)

// edit runs editor::edit the way every surface does: JSON arguments through
// the catalog, so decoding is part of what is tested.
func tcEdit(t *testing.T, s *Service, args string) (*EditResponse, error) {
	t.Helper()
	out, err := tcCall(t, s, "editor::edit", args)
	if err != nil {
		return nil, err
	}
	return out.(*EditResponse), nil
}

func tcEditArgs(path string, edits ...TextEdit) string {
	b, _ := json.Marshal(map[string]any{"path": path, "edits": edits})
	return string(b)
}

func te(old, new string) TextEdit { return TextEdit{OldText: old, NewText: &new} }

// checkPatch makes the real git apply turn before into after with the
// returned patch.
func checkPatch(t *testing.T, path, before, after, patch string) {
	t.Helper()
	if patch == "" {
		t.Fatalf("no patch for %q -> %q", before, after)
	}
	if got := tcGitApply(t, path, before, patch); got != after {
		t.Fatalf("git apply gave %q, want %q", got, after)
	}
}

func TestEditReplacesInPlace(t *testing.T) {
	e := tcNew(t)
	before := "package main\n\n// one\n// two\n// three\n// four\n\nfunc a() int {\n\treturn 1\n}\n\nfunc b() int {\n\treturn 2\n}\n"
	e.write("m.go", before)
	r, err := tcEdit(t, e.s, tcEditArgs("m.go", te("\treturn 1\n", "\treturn 10\n"), te("return 10\n}\n\nfunc b", "return 10\n}\n\nfunc bb")))
	tcWantCode(t, err, "")
	after := strings.Replace(strings.Replace(before, "return 1\n", "return 10\n", 1), "func b", "func bb", 1)
	if got := e.read("m.go"); got != after {
		t.Fatalf("file is %q, want %q", got, after)
	}
	if !r.Applied || r.Conflict || r.Version != Version([]byte(after)) || r.Replaced != 2 || r.Added != 2 || r.Removed != 2 {
		t.Fatalf("response %+v", r)
	}
	if strings.Contains(r.Patch, "package main") {
		t.Fatalf("the patch carries more than the change's context:\n%s", r.Patch)
	}
	checkPatch(t, "m.go", before, after, r.Patch)
	// The buffer is recorded with the new version, and an event names the cause.
	if b := e.buffers(e.s); len(b) != 1 || b[0] != "m.go" {
		t.Fatalf("buffers %v", b)
	}
	ch, err := e.s.Changes(context.Background(), &ChangesRequest{})
	tcWantCode(t, err, "")
	last := ch.Changes[len(ch.Changes)-1]
	if last.Cause != "editor::edit" || last.Kind != "modified" || last.Path != "m.go" || *last.Version != r.Version || last.Patch != r.Patch {
		t.Fatalf("event %+v", last)
	}
	// The returned version guards the next edit.
	r2, err := tcEdit(t, e.s, `{"path":"m.go","expected_version":"`+r.Version+`","edits":[{"old_text":"return 2","new_text":"return 20"}]}`)
	tcWantCode(t, err, "")
	if !r2.Applied {
		t.Fatalf("%+v", r2)
	}
}

func TestEditAllOrNothing(t *testing.T) {
	e := tcNew(t)
	const before = "one\ntwo\nthree\n"
	e.write("f.txt", before)
	_, err := tcEdit(t, e.s, tcEditArgs("f.txt", te("one", "ONE"), te("four", "FOUR")))
	tcWantCode(t, err, shell.CodeNoMatch)
	if !strings.Contains(err.Error(), "edits[1].old_text") {
		t.Errorf("the message does not name the edit: %v", err)
	}
	if e.read("f.txt") != before {
		t.Fatal("a failed edit list wrote its first edit")
	}
	// Edits see the result of the ones before: the second finds what the first wrote.
	r, err := tcEdit(t, e.s, tcEditArgs("f.txt", te("one", "uno"), te("uno\ntwo", "uno\ndos")))
	tcWantCode(t, err, "")
	if got := e.read("f.txt"); got != "uno\ndos\nthree\n" {
		t.Fatalf("%q", got)
	}
	checkPatch(t, "f.txt", before, "uno\ndos\nthree\n", r.Patch)
}

func TestEditAmbiguousAndReplaceAll(t *testing.T) {
	e := tcNew(t)
	var lines []string
	for i := range 30 {
		if i%1 == 0 {
			lines = append(lines, "x := old()", "y")
		}
	}
	before := strings.Join(lines, "\n") + "\n"
	e.write("f.go", before)
	_, err := tcEdit(t, e.s, tcEditArgs("f.go", te("old()", "new()")))
	tcWantCode(t, err, shell.CodeAmbiguous)
	msg := err.Error()
	for _, want := range []string{"30 times", "lines 1, 3, 5,", ", 39 and 10 more", "replace_all"} {
		if !strings.Contains(msg, want) {
			t.Errorf("ambiguous message lacks %q: %s", want, msg)
		}
	}
	if e.read("f.go") != before {
		t.Fatal("an ambiguous edit wrote")
	}
	r, err := tcEdit(t, e.s, `{"path":"f.go","edits":[{"old_text":"old()","new_text":"new()","replace_all":true}]}`)
	tcWantCode(t, err, "")
	after := strings.ReplaceAll(before, "old()", "new()")
	if e.read("f.go") != after || r.Replaced != 30 || r.Added != 30 || r.Removed != 30 {
		t.Fatalf("%+v", r)
	}
	checkPatch(t, "f.go", before, after, r.Patch)
	// replace_all still needs one occurrence.
	_, err = tcEdit(t, e.s, `{"path":"f.go","edits":[{"old_text":"old()","new_text":"x","replace_all":true}]}`)
	tcWantCode(t, err, shell.CodeNoMatch)
}

func TestEditCRLF(t *testing.T) {
	e := tcNew(t)
	const before = "\ufeffline one\r\nline two\r\nline three\r\n"
	e.write("w.txt", before)
	// "\n" stands for "\r\n" in old_text and new_text; an explicit "\r\n" is kept.
	r, err := tcEdit(t, e.s, tcEditArgs("w.txt", te("one\nline two\n", "one\nline 2\r\nline 2b\n")))
	tcWantCode(t, err, "")
	const after = "\ufeffline one\r\nline 2\r\nline 2b\r\nline three\r\n"
	if got := e.read("w.txt"); got != after {
		t.Fatalf("%q", got)
	}
	checkPatch(t, "w.txt", before, after, r.Patch)
	// The BOM stays when the first line is edited.
	r, err = tcEdit(t, e.s, tcEditArgs("w.txt", te("line one\n", "first\n")))
	tcWantCode(t, err, "")
	const after2 = "\ufefffirst\r\nline 2\r\nline 2b\r\nline three\r\n"
	if got := e.read("w.txt"); got != after2 {
		t.Fatalf("%q", got)
	}
	checkPatch(t, "w.txt", after, after2, r.Patch)
	// A mixed file is matched byte for byte: a bare "\n" does not match "\r\n".
	e.write("m.txt", "a\r\nb\nc\r\n")
	_, err = tcEdit(t, e.s, tcEditArgs("m.txt", te("a\nb", "A\nB")))
	tcWantCode(t, err, shell.CodeNoMatch)
	if !strings.Contains(err.Error(), "line endings") {
		t.Errorf("the no_match message does not say line endings: %v", err)
	}
	_, err = tcEdit(t, e.s, tcEditArgs("m.txt", te("a\r\nb", "A\r\nB")))
	tcWantCode(t, err, "")
	if got := e.read("m.txt"); got != "A\r\nB\nc\r\n" {
		t.Fatalf("%q", got)
	}
	// An LF file is never given "\r".
	e.write("l.txt", "a\nb\n")
	_, err = tcEdit(t, e.s, tcEditArgs("l.txt", te("a\n", "x\ny\n")))
	tcWantCode(t, err, "")
	if got := e.read("l.txt"); got != "x\ny\nb\n" {
		t.Fatalf("%q", got)
	}
}

func TestEditRefusals(t *testing.T) {
	e := tcNew(t, func(c *Config) { c.Jail.MaxReadBytes = 1000 })
	e.write("f.txt", "text\n")
	e.write("bin.dat", "a\x00b\n")
	e.write("big.txt", strings.Repeat("x", 2000))
	e.write(".env", "SECRET=1\n")
	e.mkdir("dir")
	for _, c := range []struct {
		args string
		code shell.Code
	}{
		{`{"path":"f.txt","edits":[{"old_text":"text","new_text":"a\u0000b"}]}`, shell.CodeBinary},
		{`{"path":"bin.dat","edits":[{"old_text":"a","new_text":"b"}]}`, shell.CodeBinary},
		{`{"path":"big.txt","edits":[{"old_text":"x","new_text":"y"}]}`, shell.CodeTooLarge},
		{`{"path":".env","edits":[{"old_text":"1","new_text":"2"}]}`, shell.CodeDenied},
		{`{"path":"../canary/secret.txt","edits":[{"old_text":"canary","new_text":"x"}]}`, shell.CodeOutsideJail},
		{`{"path":"missing.txt","edits":[{"old_text":"a","new_text":"b"}]}`, shell.CodeNotFound},
		{`{"path":"dir","edits":[{"old_text":"a","new_text":"b"}]}`, shell.CodeIsADirectory},
		{`{"path":"f.txt","edits":[]}`, shell.CodeInvalidArgument},
		{`{"path":"f.txt","edits":[{"old_text":"","new_text":"b"}]}`, shell.CodeInvalidArgument},
		{`{"path":"f.txt","edits":[{"old_text":"text"}]}`, shell.CodeInvalidArgument},
		{`{"path":"f.txt","edits":[{"old_string":"text","new_text":"b"}]}`, shell.CodeInvalidArgument},
		{`{"path":"f.txt"}`, shell.CodeInvalidArgument},
	} {
		_, err := tcEdit(t, e.s, c.args)
		if tcCode(err) != c.code {
			t.Errorf("%s: got %q (%v), want %s", c.args, tcCode(err), err, c.code)
		}
	}
	if e.read("f.txt") != "text\n" || e.read("bin.dat") != "a\x00b\n" || e.read(".env") != "SECRET=1\n" {
		t.Fatal("a refused edit wrote")
	}
	e.checkCanary()
}

func TestEditGuardAndDryRun(t *testing.T) {
	e := tcNew(t)
	const before = "alpha\nbeta\n"
	e.write("f.txt", before)
	v := Version([]byte(before))
	// A stale expected_version is a conflict result, and nothing is written.
	r, err := tcEdit(t, e.s, `{"path":"f.txt","expected_version":"1-0000000000000000","edits":[{"old_text":"beta","new_text":"gamma"}]}`)
	tcWantCode(t, err, "")
	if !r.Conflict || r.Applied || r.DiskVersion == nil || *r.DiskVersion != v || r.Version != v || e.read("f.txt") != before {
		t.Fatalf("%+v", r)
	}
	// dry_run returns the patch, writes nothing, records nothing.
	r, err = tcEdit(t, e.s, `{"path":"f.txt","dry_run":true,"edits":[{"old_text":"beta","new_text":"gamma"}]}`)
	tcWantCode(t, err, "")
	if r.Applied || r.Version != v || r.Added != 1 || r.Removed != 1 || e.read("f.txt") != before || len(e.buffers(e.s)) != 0 {
		t.Fatalf("%+v", r)
	}
	checkPatch(t, "f.txt", before, "alpha\ngamma\n", r.Patch)
	// An edit that changes nothing succeeds without a write.
	mt := e.mtime("f.txt")
	r, err = tcEdit(t, e.s, `{"path":"f.txt","edits":[{"old_text":"beta","new_text":"beta"}]}`)
	tcWantCode(t, err, "")
	if !r.Applied || r.Patch != "" || r.Version != v || r.Mtime != mt {
		t.Fatalf("%+v", r)
	}
}

func TestEditThroughSymlinkKeepsMode(t *testing.T) {
	e := tcNew(t)
	e.writeMode("real.sh", "echo hi\n", 0o755)
	e.symlink("real.sh", "link.sh")
	_, err := tcEdit(t, e.s, tcEditArgs("link.sh", te("hi", "there")))
	tcWantCode(t, err, "")
	if e.read("real.sh") != "echo there\n" {
		t.Fatal("not written through")
	}
	if fi, _ := os.Lstat(e.abs("link.sh")); fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the link was replaced")
	}
	if fi, _ := os.Stat(e.abs("real.sh")); fi.Mode().Perm() != 0o755 {
		t.Fatalf("mode %v", fi.Mode())
	}
}

func TestEditNoMatchSaysWhatDiffers(t *testing.T) {
	e := tcNew(t)
	src := "package p\n\nfunc F(a int) error {\n\tif a > 0 {\n\t\treturn nil\n\t}\n\treturn Err\n}\n"
	e.write("p.go", src)
	for _, c := range []struct {
		old  string
		want []string
	}{
		// Spaces where the file has tabs.
		{"    if a > 0 {\n        return nil", []string{"lines 4–5", "Line 4 differs in indentation: the file has 1 tab, old_text 4 spaces", "     4\t\tif a > 0 {"}},
		// Letter case.
		{"func f(a int) error {", []string{"line 3", "letter case", "     3\tfunc F(a int) error {"}},
		// A line ending the file does not have.
		{"return Err\r\n}", []string{"line endings"}},
		// One line of several changed.
		{"\tif a > 0 {\n\t\treturn false\n\t}", []string{"lines 4–6", "Line 5 differs in text", "     5\t\t\treturn nil"}},
		// Spacing inside the line.
		{"func F(a  int) error", []string{"line 3", "whitespace"}},
		// Nothing like it.
		{"zzzz qqqq", []string{"Nothing in the file resembles it"}},
		// Similar but not the same line.
		{"func G(b int) error {", []string{"most similar line is 3:"}},
	} {
		_, err := tcEdit(t, e.s, tcEditArgs("p.go", te(c.old, "x")))
		tcWantCode(t, err, shell.CodeNoMatch)
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("old_text %q: message lacks %q:\n%s", c.old, w, err)
			}
		}
	}
	if e.read("p.go") != src {
		t.Fatal("wrote")
	}
}

// An edit names the root it used, so a caller that has seen none has now.
func TestEditNamesItsRoot(t *testing.T) {
	e := tcNew(t)
	e.write("f.txt", "a\n")
	c := NewCaller("t")
	out, err := func() (any, error) {
		f, _ := Lookup("editor::edit")
		return f.Call(WithCaller(context.Background(), c), e.s, []byte(`{"path":"f.txt","edits":[{"old_text":"a","new_text":"b"}]}`))
	}()
	tcWantCode(t, err, "")
	if r := out.(*EditResponse); r.Root != e.root || c.SeenRoot() != e.root {
		t.Fatalf("root %q, seen %q, want %q", r.Root, c.SeenRoot(), e.root)
	}
}
