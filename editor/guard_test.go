package editor

// The save guard (docs/contract.md §3) and open's refusals: every row of the
// guard matrix, truncation, binary content, byte-exact round trips, modes,
// symlinks, and the cross-process races.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/editord/editord/shell"
)

func TestSaveGuardMatrix(t *testing.T) {
	const old, sent = "line one\nline two\n", "line one\nline 2\n"
	oldV := Version([]byte(old))
	type tc struct {
		name    string
		setup   func(e *tcEnv) // the disk before the save (default: old at f.txt)
		req     func(e *tcEnv) SaveRequest
		code    shell.Code // refused with this code
		saved   bool
		created bool
		disk    string // the file afterwards ("" with gone: missing)
		gone    bool
	}
	const past = 1_000_000_000 // 2001-09-09: any mtime the test cannot have made itself
	tests := []tc{
		{
			name:  "version match, mtime moved, same bytes",
			setup: func(e *tcEnv) { e.write("f.txt", old); e.setMtime("f.txt", past) },
			req:   func(e *tcEnv) SaveRequest { return SaveRequest{ExpectedVersion: &oldV} },
			saved: true, disk: sent,
		},
		{
			name: "version match wins over a wrong mtime",
			req: func(e *tcEnv) SaveRequest {
				return SaveRequest{ExpectedVersion: &oldV, ExpectedMtime: tcPtr(int64(past))}
			},
			saved: true, disk: sent,
		},
		{
			name: "version mismatch",
			req: func(e *tcEnv) SaveRequest {
				return SaveRequest{ExpectedVersion: tcPtr(Version([]byte("something else\n")))}
			},
			saved: false, disk: old,
		},
		{
			name: "version mismatch even with force",
			req: func(e *tcEnv) SaveRequest {
				return SaveRequest{ExpectedVersion: tcPtr("1-0000000000000000"), Force: true}
			},
			saved: false, disk: old,
		},
		{
			name: "version mismatch with a matching mtime",
			req: func(e *tcEnv) SaveRequest {
				return SaveRequest{ExpectedVersion: tcPtr("0-0"), ExpectedMtime: tcPtr(e.mtime("f.txt"))}
			},
			saved: false, disk: old,
		},
		{
			name:  "empty expected_version always conflicts",
			req:   func(e *tcEnv) SaveRequest { return SaveRequest{ExpectedVersion: tcPtr("")} },
			saved: false, disk: old,
		},
		{
			name:  "empty expected_version on an empty file",
			setup: func(e *tcEnv) { e.write("f.txt", "") },
			req:   func(e *tcEnv) SaveRequest { return SaveRequest{ExpectedVersion: tcPtr("")} },
			saved: false, disk: "",
		},
		{
			name:  "mtime-only match",
			req:   func(e *tcEnv) SaveRequest { return SaveRequest{ExpectedMtime: tcPtr(e.mtime("f.txt"))} },
			saved: true, disk: sent,
		},
		{
			name:  "mtime-only mismatch",
			setup: func(e *tcEnv) { e.write("f.txt", old); e.setMtime("f.txt", past) },
			req:   func(e *tcEnv) SaveRequest { return SaveRequest{ExpectedMtime: tcPtr(int64(past + 1))} },
			saved: false, disk: old,
		},
		{
			name:  "neither guard, no force",
			req:   func(e *tcEnv) SaveRequest { return SaveRequest{} },
			saved: false, disk: old,
		},
		{
			name:  "neither guard, force",
			req:   func(e *tcEnv) SaveRequest { return SaveRequest{Force: true} },
			saved: true, disk: sent,
		},
		{
			name:  "missing file with a version guard",
			setup: func(e *tcEnv) {},
			req:   func(e *tcEnv) SaveRequest { return SaveRequest{ExpectedVersion: &oldV} },
			code:  shell.CodeNotFound, gone: true,
		},
		{
			name:  "missing file with an mtime guard",
			setup: func(e *tcEnv) {},
			req:   func(e *tcEnv) SaveRequest { return SaveRequest{ExpectedMtime: tcPtr(int64(past))} },
			code:  shell.CodeNotFound, gone: true,
		},
		{
			name:  "missing file with an empty version guard",
			setup: func(e *tcEnv) {},
			req:   func(e *tcEnv) SaveRequest { return SaveRequest{ExpectedVersion: tcPtr("")} },
			code:  shell.CodeNotFound, gone: true,
		},
		{
			name:  "missing file without a guard is created",
			setup: func(e *tcEnv) {},
			req:   func(e *tcEnv) SaveRequest { return SaveRequest{} },
			saved: true, created: true, disk: sent,
		},
		{
			name:  "missing file with force is created",
			setup: func(e *tcEnv) {},
			req:   func(e *tcEnv) SaveRequest { return SaveRequest{Force: true} },
			saved: true, created: true, disk: sent,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := tcNew(t)
			if tt.setup == nil {
				e.write("f.txt", old)
			} else {
				tt.setup(e)
			}
			var before string
			var beforeMtime int64
			if e.exists("f.txt") {
				before, beforeMtime = e.read("f.txt"), e.mtime("f.txt")
			}
			req := tt.req(e)
			req.Path, req.Content = "f.txt", sent
			r, err := e.s.Save(context.Background(), &req)
			tcWantCode(t, err, tt.code)
			if tt.gone {
				if e.exists("f.txt") {
					t.Fatalf("a refused save created the file")
				}
				return
			}
			if tt.code != "" {
				return
			}
			if got := e.read("f.txt"); got != tt.disk {
				t.Fatalf("disk holds %q, want %q", got, tt.disk)
			}
			if r.Saved != tt.saved || r.Conflict == tt.saved || r.Created != tt.created || r.Path != "f.txt" {
				t.Fatalf("response %+v: want saved %v created %v", r, tt.saved, tt.created)
			}
			if tt.saved {
				if r.Version != Version([]byte(sent)) || r.Mtime != e.mtime("f.txt") {
					t.Errorf("saved: version %s mtime %d, want %s %d", r.Version, r.Mtime, Version([]byte(sent)), e.mtime("f.txt"))
				}
				if r.DiskVersion != nil || r.DiskMtime != nil || r.ConflictPatch != nil {
					t.Errorf("a successful save carries conflict fields: %+v", r)
				}
				if !tt.created && (r.Added != 1 || r.Removed != 1) {
					t.Errorf("added %d removed %d, want 1 1", r.Added, r.Removed)
				}
				if b := e.buffers(e.s); len(b) != 1 || b[0] != "f.txt" {
					t.Errorf("the save did not record the buffer: %v", b)
				}
				return
			}
			// A conflict: the disk's version and mtime, nothing written, and a
			// patch from the disk's content to ours.
			if e.mtime("f.txt") != beforeMtime {
				t.Errorf("a conflict touched the file's mtime")
			}
			dv := Version([]byte(before))
			if r.Version != dv || r.DiskVersion == nil || *r.DiskVersion != dv {
				t.Errorf("conflict version %s disk_version %v, want %s", r.Version, r.DiskVersion, dv)
			}
			if r.Mtime != beforeMtime || r.DiskMtime == nil || *r.DiskMtime != beforeMtime {
				t.Errorf("conflict mtime %d disk_mtime %v, want %d", r.Mtime, r.DiskMtime, beforeMtime)
			}
			if r.ConflictPatch == nil || !strings.Contains(*r.ConflictPatch, "--- a/f.txt\n+++ b/f.txt\n") {
				t.Fatalf("conflict_patch %v", r.ConflictPatch)
			}
			if _, err := exec.LookPath("git"); err == nil {
				if got := tcGitApply(t, "f.txt", before, *r.ConflictPatch); got != sent {
					t.Errorf("conflict_patch applied to the disk gives %q, want what was sent %q", got, sent)
				}
			}
			if b := e.buffers(e.s); len(b) != 0 {
				t.Errorf("a conflict recorded a buffer: %v", b)
			}
		})
	}
}

func TestSaveChainAndCreateParents(t *testing.T) {
	e := tcNew(t)
	ctx := context.Background()
	r, err := e.s.Save(ctx, &SaveRequest{Path: "deep/er/new.md", Content: "# one\n"})
	if err != nil || !r.Saved || !r.Created || r.Added != 1 {
		t.Fatalf("create through save: %+v %v", r, err)
	}
	if fi, err := os.Stat(e.abs("deep/er/new.md")); err != nil || fi.Mode().Perm() != 0o644 {
		t.Fatalf("new file: %v %v", fi, err)
	}
	v := r.Version
	for i := range 3 {
		content := fmt.Sprintf("# %d\n", i)
		r, err := e.s.Save(ctx, &SaveRequest{Path: "deep/er/new.md", Content: content, ExpectedVersion: &v})
		if err != nil || !r.Saved || r.Created {
			t.Fatalf("save %d with the returned version: %+v %v", i, r, err)
		}
		v = r.Version
	}
	// The same bytes saved again are a success that changes nothing.
	r, err = e.s.Save(ctx, &SaveRequest{Path: "deep/er/new.md", Content: "# 2\n", ExpectedVersion: &v})
	if err != nil || !r.Saved || r.Version != v {
		t.Fatalf("no-op save: %+v %v", r, err)
	}
	// A version from two saves ago is stale.
	stale := Version([]byte("# 1\n"))
	r, err = e.s.Save(ctx, &SaveRequest{Path: "deep/er/new.md", Content: "late\n", ExpectedVersion: &stale})
	if err != nil || !r.Conflict || e.read("deep/er/new.md") != "# 2\n" {
		t.Fatalf("stale version: %+v %v", r, err)
	}
	// Through the catalog: conflict fields are present on a conflict and
	// absent on success.
	m, err := tcCallJSON(t, e.s, "editor::save", `{"path": "deep/er/new.md", "content": "x\n", "expected_version": "`+stale+`"}`)
	if err != nil || m["conflict"] != true || m["disk_version"] != v || m["conflict_patch"] == nil {
		t.Fatalf("catalog conflict: %v %v", m, err)
	}
	m, err = tcCallJSON(t, e.s, "editor::save", `{"path": "deep/er/new.md", "content": "x\n", "expected_version": "`+v+`"}`)
	if err != nil || m["saved"] != true {
		t.Fatalf("catalog save: %v %v", m, err)
	}
	for _, k := range []string{"disk_version", "disk_mtime", "conflict_patch"} {
		if _, ok := m[k]; ok {
			t.Errorf("successful save carries %s", k)
		}
	}
}

// TestSaveSlippedIn makes another writer land between the guard check and
// the rename: the save must become a conflict, never a clobber.
func TestSaveSlippedIn(t *testing.T) {
	e := tcNew(t)
	e.write("f.txt", "v1\n")
	o := e.open("f.txt")
	l, err := locate(e.root, "f.txt", "path")
	if err != nil {
		t.Fatal(err)
	}
	cur, err := e.s.readDisk(l)
	if err != nil {
		t.Fatal(err)
	}
	// Another program writes after our read; write() re-checks before the rename.
	e.write("f.txt", "v2 from elsewhere\n")
	sv := &saving{lk: &fileLock{}}
	_, err = e.s.write(context.Background(), sv, e.root, l, cur, []byte("ours\n"), false)
	sv.done()
	if err != errSlippedIn {
		t.Fatalf("write over a changed file: %v, want errSlippedIn", err)
	}
	if got := e.read("f.txt"); got != "v2 from elsewhere\n" {
		t.Fatalf("clobbered: %q", got)
	}
	// Through Save, the retry turns it into a conflict.
	r, err := e.s.Save(context.Background(), &SaveRequest{Path: "f.txt", Content: "ours\n", ExpectedVersion: &o.Version})
	if err != nil || !r.Conflict || e.read("f.txt") != "v2 from elsewhere\n" {
		t.Fatalf("%+v %v", r, err)
	}
	if entries, _ := os.ReadDir(e.root); len(entries) != 1 {
		t.Errorf("a temp file was left behind: %v", entries)
	}
}

func TestTruncatedOpen(t *testing.T) {
	// 10 bytes allowed: "abcdefgh" then "€" (3 bytes) straddles the cut.
	const content = "abcdefgh€tail\n"
	e := tcNew(t, func(c *Config) { c.Limits.MaxFileBytes = 10 })
	e.write("big.txt", content)
	e.write("small.txt", "tiny\n")
	r := e.open("big.txt")
	if !r.Truncated || r.Content != "abcdefgh" || r.Size != int64(len(content)) {
		t.Fatalf("truncated open: %+v", r)
	}
	if r.Version != Version([]byte("abcdefgh")) || r.Version == Version([]byte(content)) {
		t.Errorf("version %s is not the version of the returned prefix", r.Version)
	}
	if r.Mtime != e.mtime("big.txt") {
		t.Errorf("mtime %d", r.Mtime)
	}
	if b := e.buffers(e.s); len(b) != 0 {
		t.Fatalf("a truncated open recorded a buffer: %v", b)
	}
	// A small file is recorded; the truncated one still is not.
	e.open("small.txt")
	e.open("big.txt")
	if b := e.buffers(e.s); len(b) != 1 || b[0] != "small.txt" {
		t.Fatalf("buffers %v", b)
	}
	// Saving with the prefix's version is a conflict, and nothing is written.
	s, err := e.s.Save(context.Background(), &SaveRequest{Path: "big.txt", Content: r.Content, ExpectedVersion: &r.Version})
	if err != nil || !s.Conflict || s.Saved || *s.DiskVersion != Version([]byte(content)) {
		t.Fatalf("save of a truncated open: %+v %v", s, err)
	}
	if got := e.read("big.txt"); got != content {
		t.Fatalf("the truncated content was written: %q", got)
	}
	// Exactly at the limit is not truncated.
	e.write("ten.txt", "0123456789")
	if r := e.open("ten.txt"); r.Truncated || r.Content != "0123456789" {
		t.Errorf("a file of exactly max_file_bytes: %+v", r)
	}
	// A 4-byte character cut after its first byte.
	e.write("emoji.txt", "123456789😀")
	if r := e.open("emoji.txt"); !r.Truncated || r.Content != "123456789" || r.EOL != "none" {
		t.Errorf("cut inside an emoji: %+v", r)
	}
}

func TestBinaryRefused(t *testing.T) {
	e := tcNew(t)
	ctx := context.Background()
	e.write("nul.bin", "abc\x00def\n")
	e.write("latin1.txt", "caf\xe9\n")
	e.write("late-nul.txt", strings.Repeat("a", 9000)+"\x00")
	e.write("text.txt", "text\n")
	for _, p := range []string{"nul.bin", "latin1.txt"} {
		_, err := e.s.Open(ctx, &OpenRequest{Path: p})
		tcWantCode(t, err, shell.CodeBinary)
	}
	if b := e.buffers(e.s); len(b) != 0 {
		t.Errorf("binary files recorded: %v", b)
	}
	// A NUL past the first 8 KiB is refused too: open hands out only what
	// save would take back.
	_, err := e.s.Open(ctx, &OpenRequest{Path: "late-nul.txt"})
	tcWantCode(t, err, shell.CodeBinary)
	tv := Version([]byte("text\n"))
	lateNul := strings.Repeat("b", 9000) + "\x00\n"
	for _, content := range []string{"a\x00b", "\xff\xfe", "ok then \xc3", lateNul} {
		_, err := e.s.Save(ctx, &SaveRequest{Path: "text.txt", Content: content, ExpectedVersion: &tv})
		tcWantCode(t, err, shell.CodeBinary)
		_, err = e.s.Save(ctx, &SaveRequest{Path: "new.txt", Content: content})
		tcWantCode(t, err, shell.CodeBinary)
		_, err = e.s.Create(ctx, &CreateRequest{Path: "new2.txt", Kind: "file", Content: content})
		tcWantCode(t, err, shell.CodeBinary)
	}
	if e.read("text.txt") != "text\n" || e.exists("new.txt") || e.exists("new2.txt") {
		t.Fatal("binary content was written")
	}
	// Overwriting a binary file on disk is refused, whatever the guard.
	for _, p := range []string{"nul.bin", "latin1.txt"} {
		was := e.read(p)
		v := Version([]byte(was))
		for _, req := range []SaveRequest{{ExpectedVersion: &v}, {Force: true}, {}} {
			req.Path, req.Content = p, "text now\n"
			_, err := e.s.Save(ctx, &req)
			tcWantCode(t, err, shell.CodeBinary)
		}
		if e.read(p) != was {
			t.Fatalf("%s was overwritten", p)
		}
	}
}

func TestByteExactRoundTrip(t *testing.T) {
	tests := []struct{ name, content, edited string }{
		{"crlf", "one\r\ntwo\r\n", "one\r\ntwo\r\nthree\r\n"},
		{"bom", "\ufeffhello\n", "\ufeffhello world\n"},
		{"no final newline", "a\nb", "a\nbc"},
		{"mixed", "a\r\nb\nc\r", "a\r\nB\nc\r"},
		{"bom crlf no final newline", "\ufeffx\r\ny", "\ufeffx\r\nyz"},
		{"trailing spaces and tabs", "a \t\n\t\n", "a \t\n\t\n\n"},
		{"empty", "", ""},
		{"multibyte", "ünïcödé 😀\n", "ünïcödé 😀😀\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := tcNew(t)
			e.write("f.txt", tt.content)
			o := e.open("f.txt")
			if o.Content != tt.content || o.Version != Version([]byte(tt.content)) {
				t.Fatalf("open transformed the content: %q", o.Content)
			}
			// Save back unchanged, then edited: the disk holds exactly what was sent.
			r, err := e.s.Save(context.Background(), &SaveRequest{Path: "f.txt", Content: o.Content, ExpectedVersion: &o.Version})
			if err != nil || !r.Saved || e.read("f.txt") != tt.content {
				t.Fatalf("unchanged save: %+v %v %q", r, err, e.read("f.txt"))
			}
			r, err = e.s.Save(context.Background(), &SaveRequest{Path: "f.txt", Content: tt.edited, ExpectedVersion: &r.Version})
			if err != nil || !r.Saved {
				t.Fatalf("edited save: %+v %v", r, err)
			}
			if got := e.read("f.txt"); got != tt.edited {
				t.Fatalf("disk %q, want %q", got, tt.edited)
			}
			if o2 := e.open("f.txt"); o2.Content != tt.edited || o2.Version != r.Version {
				t.Fatalf("re-open %q %s", o2.Content, o2.Version)
			}
		})
	}
}

func TestSaveKeepsModeAndSymlinks(t *testing.T) {
	e := tcNew(t)
	ctx := context.Background()
	modes := map[string]fs.FileMode{"run.sh": 0o755, "private.txt": 0o600, "shared.txt": 0o664}
	for name, mode := range modes {
		e.writeMode(name, "#!/bin/sh\n", mode)
		v := Version([]byte("#!/bin/sh\n"))
		if r, err := e.s.Save(ctx, &SaveRequest{Path: name, Content: "#!/bin/sh\necho hi\n", ExpectedVersion: &v}); err != nil || !r.Saved {
			t.Fatalf("%s: %+v %v", name, r, err)
		}
		fi, err := os.Stat(e.abs(name))
		if err != nil || fi.Mode().Perm() != mode {
			t.Errorf("%s: mode %v after save, want %v", name, fi.Mode().Perm(), mode)
		}
	}

	// A symlink inside the jail is written through: the link survives.
	e.write("real/target.txt", "target\n")
	e.symlink("real/target.txt", "link.txt")
	e.symlink(e.abs("real"), "dirlink") // absolute, still inside the jail
	o := e.open("link.txt")
	if o.Content != "target\n" || o.Path != "link.txt" {
		t.Fatalf("open through a link: %+v", o)
	}
	r, err := e.s.Save(ctx, &SaveRequest{Path: "link.txt", Content: "through the link\n", ExpectedVersion: &o.Version})
	if err != nil || !r.Saved {
		t.Fatalf("save through a link: %+v %v", r, err)
	}
	r, err = e.s.Save(ctx, &SaveRequest{Path: "dirlink/target.txt", Content: "through the folder link\n", ExpectedVersion: &r.Version})
	if err != nil || !r.Saved {
		t.Fatalf("save through a folder link: %+v %v", r, err)
	}
	if fi, err := os.Lstat(e.abs("link.txt")); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Fatalf("the link was replaced by a file: %v %v", fi, err)
	}
	if got, _ := os.Readlink(e.abs("link.txt")); got != "real/target.txt" {
		t.Errorf("link now points at %q", got)
	}
	if e.read("real/target.txt") != "through the folder link\n" {
		t.Errorf("target holds %q", e.read("real/target.txt"))
	}
	// A dangling link inside the jail: guarded save is not_found, open too.
	e.symlink("real/missing.txt", "dangling.txt")
	_, err = e.s.Open(ctx, &OpenRequest{Path: "dangling.txt"})
	tcWantCode(t, err, shell.CodeNotFound)
}

// TestSaveLockFollowsLinks: saves to one file under two names (a link and
// its target) must serialize on one lock, or two processes could both pass
// the guard and the second rename would clobber the first.
func TestSaveLockFollowsLinks(t *testing.T) {
	e := tcNew(t)
	e.write("real/target.txt", "x\n")
	e.symlink("real/target.txt", "link.txt")
	e.symlink("real", "dirlink")
	var names []string
	for _, p := range []string{"real/target.txt", "link.txt", "dirlink/target.txt", "./real//target.txt"} {
		l, err := locate(e.root, p, "path")
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, e.s.saveLock(l))
	}
	for i := range names {
		if names[i] != names[0] {
			t.Errorf("lock for name %d is %s, for the target %s", i, names[i], names[0])
		}
	}
}

func TestFolderIsADirectory(t *testing.T) {
	e := tcNew(t)
	e.mkdir("dir/sub")
	ctx := context.Background()
	for _, p := range []string{"dir", "dir/sub", ".", e.root} {
		_, err := e.s.Open(ctx, &OpenRequest{Path: p})
		tcWantCode(t, err, shell.CodeIsADirectory)
		for _, req := range []SaveRequest{{}, {Force: true}, {ExpectedVersion: tcPtr("0-cbf29ce484222325")}} {
			req.Path, req.Content = p, "x"
			_, err := e.s.Save(ctx, &req)
			tcWantCode(t, err, shell.CodeIsADirectory)
		}
	}
	if fi, err := os.Stat(e.abs("dir")); err != nil || !fi.IsDir() {
		t.Fatal("the folder was replaced")
	}
}

// ---- many processes on one state dir ----

const tcHelperEnv = "EDITORD_TC_HELPER"

// TestTCHelperProcess is not a test: it is the body of a child process
// started by the multi-process tests (the test binary re-executed with
// tcHelperEnv set). It prints one JSON line per result.
func TestTCHelperProcess(t *testing.T) {
	job := os.Getenv(tcHelperEnv)
	if job == "" {
		t.Skip("helper process only")
	}
	root, state := os.Getenv("TC_ROOT"), os.Getenv("TC_STATE")
	s, err := New(DefaultConfig(), Options{Root: root, StateDir: state})
	if err != nil {
		fmt.Fprintln(os.Stdout, "ERR", err)
		os.Exit(2)
	}
	defer s.Close()
	ctx := context.Background()
	// Say it is ready, then wait for the go signal so that every process
	// races at once.
	tcWriteFile(t, filepath.Join(state, "ready-"+os.Getenv("TC_ID")), "", 0o600)
	deadline := time.Now().Add(20 * time.Second)
	for {
		if _, err := os.Stat(filepath.Join(state, "go")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			fmt.Fprintln(os.Stdout, "ERR no go signal")
			os.Exit(2)
		}
		time.Sleep(2 * time.Millisecond)
	}
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	switch job {
	case "open":
		id := os.Getenv("TC_ID")
		for i := range 50 {
			if _, err := s.Open(ctx, &OpenRequest{Path: fmt.Sprintf("p%s/f%02d.txt", id, i)}); err != nil {
				fmt.Fprintln(out, "ERR", err)
			}
		}
		fmt.Fprintln(out, "DONE")
	case "save":
		v := os.Getenv("TC_VERSION")
		r, err := s.Save(ctx, &SaveRequest{Path: "race.txt", Content: "winner " + os.Getenv("TC_ID") + "\n", ExpectedVersion: &v})
		if err != nil {
			fmt.Fprintln(out, "ERR", err)
			return
		}
		b, _ := json.Marshal(r)
		fmt.Fprintln(out, string(b))
	}
}

// tcRunProcs starts n helper processes on e's root and state dir, releases
// them at once, and returns each one's output.
func tcRunProcs(t *testing.T, e *tcEnv, n int, job string, env func(i int) []string) []string {
	t.Helper()
	if testing.Short() {
		t.Skip("multi-process test")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	outs := make([]strings.Builder, n)
	cmds := make([]*exec.Cmd, n)
	for i := range n {
		cmd := exec.Command(exe, "-test.run=^TestTCHelperProcess$", "-test.count=1")
		cmd.Env = append(os.Environ(), tcHelperEnv+"="+job, "TC_ROOT="+e.root, "TC_STATE="+e.state, fmt.Sprintf("TC_ID=%d", i))
		cmd.Env = append(cmd.Env, env(i)...)
		cmd.Stdout = &outs[i]
		cmd.Stderr = &outs[i]
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds[i] = cmd
	}
	// Released once all are started and waiting.
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(2 * time.Millisecond) {
		ready, _ := filepath.Glob(filepath.Join(e.state, "ready-*"))
		if len(ready) == n {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d helper processes ready after 30s", len(ready), n)
		}
	}
	tcWriteFile(t, filepath.Join(e.state, "go"), "", 0o600)
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i, cmd := range cmds {
		wg.Go(func() { errs[i] = cmd.Wait() })
	}
	wg.Wait()
	res := make([]string, n)
	for i := range n {
		res[i] = outs[i].String()
		if errs[i] != nil {
			t.Errorf("process %d: %v\n%s", i, errs[i], res[i])
		}
	}
	return res
}

func TestManyProcessesOpen(t *testing.T) {
	e := tcNew(t)
	const procs, each = 8, 50
	for p := range procs {
		for i := range each {
			e.write(fmt.Sprintf("p%d/f%02d.txt", p, i), fmt.Sprintf("%d %d\n", p, i))
		}
	}
	outs := tcRunProcs(t, e, procs, "open", func(int) []string { return nil })
	for i, o := range outs {
		if strings.Contains(o, "ERR") || !strings.Contains(o, "DONE") {
			t.Errorf("process %d: %s", i, o)
		}
	}
	got := e.buffers(e.service())
	if len(got) != procs*each {
		t.Fatalf("%d buffers listed, want %d", len(got), procs*each)
	}
	seen := map[string]bool{}
	for _, p := range got {
		seen[p] = true
	}
	for p := range procs {
		for i := range each {
			if name := fmt.Sprintf("p%d/f%02d.txt", p, i); !seen[name] {
				t.Errorf("lost %s", name)
			}
		}
	}
}

func TestManyProcessesSaveRace(t *testing.T) {
	e := tcNew(t)
	e.write("race.txt", "start\n")
	v := Version([]byte("start\n"))
	outs := tcRunProcs(t, e, 8, "save", func(int) []string { return []string{"TC_VERSION=" + v} })
	saved, conflicts, winner := 0, 0, -1
	for i, o := range outs {
		var line string
		for _, l := range strings.Split(o, "\n") {
			if strings.HasPrefix(l, "{") {
				line = l
			}
		}
		var r SaveResponse
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("process %d printed %q", i, o)
		}
		switch {
		case r.Saved && !r.Conflict:
			saved++
			winner = i
		case r.Conflict && !r.Saved:
			conflicts++
			if r.ConflictPatch == nil || r.DiskVersion == nil {
				t.Errorf("process %d: conflict without disk_version/patch: %+v", i, r)
			}
		default:
			t.Errorf("process %d: %+v", i, r)
		}
	}
	if saved != 1 || conflicts != 7 {
		t.Fatalf("%d saved, %d conflicts; want exactly 1 and 7", saved, conflicts)
	}
	if got, want := e.read("race.txt"), fmt.Sprintf("winner %d\n", winner); got != want {
		t.Fatalf("file holds %q, the winner wrote %q", got, want)
	}
}

// TestParallelCallsInOneProcess: MCP clients call tools in parallel; the
// guard and the record hold within one process as across processes.
func TestParallelCallsInOneProcess(t *testing.T) {
	e := tcNew(t)
	ctx := context.Background()
	e.write("same.txt", "base\n")
	for i := range 30 {
		e.write(fmt.Sprintf("d/f%02d.txt", i), "x\n")
	}
	v := Version([]byte("base\n"))
	var wg sync.WaitGroup
	results := make([]*SaveResponse, 20)
	errs := make([]error, 20)
	for i := range 20 {
		wg.Go(func() {
			results[i], errs[i] = e.s.Save(ctx, &SaveRequest{Path: "same.txt", Content: fmt.Sprintf("writer %d\n", i), ExpectedVersion: &v})
		})
	}
	for i := range 30 {
		wg.Go(func() {
			if _, err := e.s.Open(ctx, &OpenRequest{Path: fmt.Sprintf("d/f%02d.txt", i)}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	saved := -1
	for i, r := range results {
		if errs[i] != nil {
			t.Fatalf("save %d: %v", i, errs[i])
		}
		if r.Saved {
			if saved >= 0 {
				t.Fatalf("two saves from one version both succeeded: %d and %d", saved, i)
			}
			saved = i
		} else if !r.Conflict {
			t.Fatalf("save %d neither saved nor conflicted: %+v", i, r)
		}
	}
	if saved < 0 || e.read("same.txt") != fmt.Sprintf("writer %d\n", saved) {
		t.Fatalf("winner %d, file %q", saved, e.read("same.txt"))
	}
	if b := e.buffers(e.s); len(b) != 31 {
		t.Fatalf("%d buffers, want 31", len(b))
	}
}
