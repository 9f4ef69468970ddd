package gitops

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSyncSSHCancel: an ssh server that accepts and never speaks holds a
// sync until git_timeout_ms, however long that is: go-git's ssh does not
// watch the context once connected. A call whose context is cancelled (its
// client left, the server is ending) must end at once instead.
func TestSyncSSHCancel(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "a\n")
	f.commitAll("base")
	accepted := make(chan struct{}, 8)
	f.git("remote", "add", "origin", "ssh://git@"+silentRemoteNotify(t, accepted)+"/repo.git")
	home := t.TempDir()
	os.MkdirAll(filepath.Join(home, ".ssh"), 0o700)
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", filepath.Join(home, ".ssh", "id_ed25519")).CombinedOutput(); err != nil {
		t.Skipf("ssh-keygen: %v\n%s", err, out)
	}
	os.WriteFile(filepath.Join(home, ".ssh", "known_hosts"), []byte("example.org ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDcWAfhS1M0KkrZBbTPf2UqYOkCnO8tuOCvAUHMrpBsM\n"), 0o600)
	t.Setenv("SSH_AUTH_SOCK", "")
	t.Setenv("HOME", home)
	t.Setenv("SSH_KNOWN_HOSTS", "")
	ctx, cancel := context.WithCancel(context.Background())
	type result struct {
		res *SyncResult
		err error
	}
	done := make(chan result, 1)
	go func() {
		res, err := f.open().Sync(ctx, SyncOptions{Action: "fetch", Timeout: 10 * time.Minute})
		done <- result{res, err}
	}()
	select {
	case <-accepted:
	case <-time.After(20 * time.Second):
		t.Fatal("the sync never connected")
	}
	cancel()
	select {
	case r := <-done:
		if r.err == nil && (r.res.OK || !strings.Contains(r.res.Summary, "cancelled")) {
			t.Fatalf("a cancelled sync: %+v", r.res)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the sync went on after its context was cancelled (it would have waited for git_timeout_ms)")
	}
}

// silentRemoteNotify is silentRemote, telling accepted (when not nil) of
// each connection it has room for.
func silentRemoteNotify(t *testing.T, accepted chan<- struct{}) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		var held []net.Conn
		defer func() {
			for _, c := range held {
				c.Close()
			}
		}()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			held = append(held, c)
			select {
			case accepted <- struct{}{}:
			default:
			}
		}
	}()
	return ln.Addr().String()
}
