package editor

// Issue 15 item 11, the editor side: editor::tree reports a FIFO, a
// socket or a device as kind other (on main: file), and a path written with
// a trailing slash names a folder, as POSIX says: editor::open "a.txt/" is
// not_a_directory (on main it opened the file).

import (
	"net"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/editord/editord/shell"
)

func TestTreeReportsSpecialFilesAsOther(t *testing.T) {
	e := tcNew(t)
	e.write("a.txt", "a\n")
	if err := syscall.Mkfifo(e.abs("pipe"), 0o644); err != nil {
		t.Skip(err)
	}
	l, err := net.Listen("unix", e.abs("sock"))
	if err != nil {
		t.Skip(err)
	}
	defer l.Close()
	tr, err := e.s.Tree(t.Context(), &TreeRequest{})
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]string{}
	for _, en := range tr.Entries {
		kinds[en.Name] = en.Kind
	}
	if kinds["pipe"] != "other" || kinds["sock"] != "other" || kinds["a.txt"] != "file" {
		t.Errorf("kinds: %v", kinds)
	}
	// Opening one is still refused at once (not blocked).
	_, err = e.s.Open(t.Context(), &OpenRequest{Path: "pipe"})
	tcWantCode(t, err, shell.CodeInvalidArgument)
}

func TestTrailingSlashNamesAFolder(t *testing.T) {
	e := tcNew(t)
	e.write("a.txt", "a\n")
	e.write("dir/b.txt", "b\n")
	e.symlink("a.txt", "link")
	for _, tc := range []struct {
		id, args string
		code     shell.Code
	}{
		{"editor::open", `{"path": "a.txt/"}`, shell.CodeNotADirectory},
		{"editor::open", `{"path": "a.txt/."}`, shell.CodeNotADirectory},
		{"editor::open", `{"path": "link/"}`, shell.CodeNotADirectory},
		{"editor::open", `{"path": "` + e.abs("a.txt") + `/"}`, shell.CodeNotADirectory},
		{"editor::open", `{"path": "dir/"}`, shell.CodeIsADirectory},
		{"editor::save", `{"path": "a.txt/", "content": "x", "force": true}`, shell.CodeNotADirectory},
		{"editor::save", `{"path": "new/", "content": "x"}`, shell.CodeIsADirectory},
		{"editor::create", `{"path": "new2/", "kind": "file"}`, shell.CodeIsADirectory},
		{"editor::delete", `{"path": "a.txt/"}`, shell.CodeNotADirectory},
		{"editor::move", `{"from": "a.txt/", "to": "c.txt"}`, shell.CodeNotADirectory},
		{"editor::move", `{"from": "a.txt", "to": "c/"}`, shell.CodeNotADirectory},
		{"editor::buffers::close", `{"path": "a.txt/"}`, shell.CodeNotADirectory},
		{"editor::edit", `{"path": "a.txt/", "edits": [{"old_text": "a", "new_text": "b"}]}`, shell.CodeNotADirectory},
	} {
		_, err := tcCall(t, e.s, tc.id, tc.args)
		if tcCode(err) != tc.code {
			t.Errorf("%s %s: want %s, got %v", tc.id, tc.args, tc.code, err)
		}
	}
	if e.read("a.txt") != "a\n" || e.exists("new") || e.exists("new2") || e.exists("c") || e.exists("c.txt") {
		t.Error("a refused call changed the workspace")
	}
	// A folder with its slash is fine.
	if _, err := tcCall(t, e.s, "editor::create", `{"path": "made/", "kind": "folder"}`); err != nil {
		t.Fatal(err)
	}
	if _, err := tcCall(t, e.s, "editor::move", `{"from": "dir/", "to": "dir2/"}`); err != nil {
		t.Fatal(err)
	}
	if !e.exists(filepath.Join("dir2", "b.txt")) {
		t.Error("dir/ was not moved to dir2/")
	}
}
