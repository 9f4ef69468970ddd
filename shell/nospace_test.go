package shell

// Issue 15 item 9: a full disk is no_space with the next step, not
// internal with a raw syscall text; and the file is intact.

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestWriteOnAFullDisk writes on a real 64 KiB tmpfs (mounting needs
// root; skipped otherwise).
func TestWriteOnAFullDisk(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	mnt := filepath.Join(dir, "small")
	os.Mkdir(mnt, 0o755)
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", mnt).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a small tmpfs here: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", mnt).Run() })
	j, err := Open(Config{Roots: []string{mnt}, MaxWriteBytes: 16 << 20, MaxReadBytes: 16 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	p := filepath.Join(mnt, "a.txt")
	if _, err := j.WriteFile(p, []byte("small and intact\n"), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	big := []byte(strings.Repeat("x", 200<<10))
	for _, tc := range []struct {
		path string
		opt  WriteOptions
	}{{p, WriteOptions{}}, {filepath.Join(mnt, "new.txt"), WriteOptions{Exclusive: true}}, {filepath.Join(mnt, "sub", "new.txt"), WriteOptions{Exclusive: true, Parents: true}}} {
		_, err := j.WriteFile(tc.path, big, tc.opt)
		wantCode(t, err, CodeNoSpace)
		for _, want := range []string{"no space is left", "intact", "Free space on the file system holding " + filepath.Dir(tc.path)} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: the message does not say %q: %v", tc.path, want, err)
			}
		}
	}
	if got, _ := os.ReadFile(p); string(got) != "small and intact\n" {
		t.Errorf("the file is %q", got)
	}
	var left []string
	filepath.WalkDir(mnt, func(p string, d fs.DirEntry, err error) error {
		if err == nil && IsTempName(d.Name()) {
			left = append(left, p)
		}
		return nil
	})
	if len(left) > 0 {
		t.Errorf("temp files left on the full disk: %v", left)
	}
}

// TestNoSpaceCodes: ENOSPC and EDQUOT from any operation are no_space.
func TestNoSpaceCodes(t *testing.T) {
	for _, errno := range []syscall.Errno{syscall.ENOSPC, syscall.EDQUOT} {
		err := AsError(&fs.PathError{Op: "mkdirat", Path: "x", Err: errno}, "/ws/x")
		if err.Code != CodeNoSpace || !strings.Contains(err.Message, "nothing was changed") {
			t.Errorf("%v: %s %q", errno, err.Code, err.Message)
		}
		werr := writeError(fmt.Errorf("write: %w", errno), "/ws/a.txt")
		if CodeOf(werr) != CodeNoSpace || !strings.Contains(werr.Error(), "intact") || !strings.Contains(werr.Error(), "/ws") {
			t.Errorf("%v in a save: %v", errno, werr)
		}
	}
}
