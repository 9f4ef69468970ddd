package shell

// Issue 15 item 11: a save in an append-only folder (chattr +a) made its
// temp file, failed to rename it, and could not remove it either: an
// undeletable .a.txt.editord-*.tmp stayed. Now such a folder is refused
// before anything is made.

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

func TestWriteInAnAppendOnlyFolder(t *testing.T) {
	f := newFixture(t)
	f.file("log/a.txt", "old\n")
	t.Cleanup(func() { exec.Command("chattr", "-a", "-i", f.abs("log")).Run() })
	for _, flag := range []string{"+a", "+i"} {
		if out, err := exec.Command("chattr", flag, f.abs("log")).CombinedOutput(); err != nil {
			t.Skipf("chattr %s: %v %s", flag, err, out)
		}
		for _, tc := range []struct {
			rel string
			opt WriteOptions
		}{{"log/a.txt", WriteOptions{}}, {"log/new.txt", WriteOptions{Exclusive: true}}} {
			_, err := f.j.WriteFile(f.abs(tc.rel), []byte("new\n"), tc.opt)
			wantCode(t, err, CodeDenied)
			if !strings.Contains(err.Error(), "chattr "+flag[1:2]) && !strings.Contains(err.Error(), "chattr "+flag) {
				t.Errorf("%s %s: the refusal does not name the flag: %v", flag, tc.rel, err)
			}
		}
		exec.Command("chattr", "-"+flag[1:], f.abs("log")).Run()
		if tmp := tempFiles(t, f.abs("log")); len(tmp) > 0 {
			t.Errorf("%s: temp files left: %v", flag, tmp)
		}
		if got := f.read("log/a.txt"); got != "old\n" {
			t.Errorf("%s: a.txt is %q", flag, got)
		}
		if _, err := os.Stat(f.abs("log/new.txt")); err == nil {
			t.Errorf("%s: new.txt was made", flag)
		}
	}
	// Without the flag the folder is written as usual.
	if _, err := f.j.WriteFile(f.abs("log/a.txt"), []byte("new\n"), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
}
