package shell

import (
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/go-git/go-billy/v5/util"
)

// A FIFO where the billy filesystems expect a file or a folder answers at
// once with an error naming it; nothing blocks in open(2).
func TestGitFSFIFO(t *testing.T) {
	f := newFixture(t)
	f.dir("repo/.git/refs")
	for _, p := range []string{"repo/.git/config", "repo/.git/refs/heads", "repo/a.txt", "repo/dirfifo"} {
		if err := syscall.Mkfifo(f.abs(p), 0o644); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		g, err := f.j.GitFS(f.abs("repo/.git"))
		if err != nil {
			t.Error(err)
			return
		}
		defer g.Close()
		w, err := f.j.WorktreeFS(f.abs("repo"))
		if err != nil {
			t.Error(err)
			return
		}
		defer w.Close()
		check := func(what, p string, err error) {
			if err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "named pipe") {
				t.Errorf("%s: %v; want an error naming %s as a named pipe", what, err, p)
			}
		}
		_, err = util.ReadFile(g, "config")
		check("read config", f.abs("repo/.git/config"), err)
		_, err = g.OpenFile("config", os.O_WRONLY, 0)
		check("write config", f.abs("repo/.git/config"), err)
		_, err = util.ReadFile(w, "a.txt")
		check("read a worktree file", f.abs("repo/a.txt"), err)
		if _, err := g.ReadDir("refs/heads"); err == nil {
			t.Error("ReadDir of a FIFO")
		}
		if _, err := f.j.GitFS(f.abs("repo/dirfifo")); err == nil {
			t.Error("GitFS over a FIFO")
		}
		if _, err := RemoteRepoFS(f.abs("repo/dirfifo")); err == nil {
			t.Error("RemoteRepoFS over a FIFO")
		}
		_, err = ReadGitUserFile(f.abs("repo/.git/config"))
		check("ReadGitUserFile", f.abs("repo/.git/config"), err)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("a FIFO blocked the billy filesystem")
	}
}
