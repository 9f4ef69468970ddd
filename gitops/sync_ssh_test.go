package gitops

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// sshServer is OpenSSH's sshd on a loopback port, letting in one key of
// the current user, with git on the other end as for any ssh remote.
type sshServer struct {
	port     int
	user     string
	key      string // the client's private key file
	hostKey  string // the server's public host key line
	knownLog string // a known_hosts file naming this server
}

// startSSHD starts sshd (skipping when OpenSSH's server is not installed;
// .ci/run installs it).
func startSSHD(t *testing.T) *sshServer {
	t.Helper()
	sshd, err := exec.LookPath("sshd")
	if err != nil {
		if sshd = "/usr/sbin/sshd"; !fileExists(sshd) {
			t.Skip("sshd (openssh-server) is not installed")
		}
	}
	for _, tool := range []string{"ssh", "ssh-keygen", "ssh-agent", "ssh-add"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s (openssh-client) is not installed", tool)
		}
	}
	u, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	if u.Uid == "0" {
		// sshd started by root wants its privilege separation folder.
		os.MkdirAll("/run/sshd", 0o755)
	}
	dir := t.TempDir()
	keygen := func(name string) {
		out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", filepath.Join(dir, name)).CombinedOutput()
		if err != nil {
			t.Fatalf("ssh-keygen: %v\n%s", err, out)
		}
	}
	keygen("host")
	keygen("client")
	pub, _ := os.ReadFile(filepath.Join(dir, "client.pub"))
	os.WriteFile(filepath.Join(dir, "authorized_keys"), pub, 0o600)
	hostPub, _ := os.ReadFile(filepath.Join(dir, "host.pub"))

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	cfg := filepath.Join(dir, "sshd_config")
	os.WriteFile(cfg, []byte(fmt.Sprintf(`Port %d
ListenAddress 127.0.0.1
HostKey %s
PidFile %s
AuthorizedKeysFile %s
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
StrictModes no
UsePAM no
LogLevel ERROR
`, port, filepath.Join(dir, "host"), filepath.Join(dir, "sshd.pid"), filepath.Join(dir, "authorized_keys"))), 0o600)
	cmd := exec.Command(sshd, "-D", "-e", "-f", cfg)
	var logs strings.Builder
	cmd.Stderr = &logs
	if err := cmd.Start(); err != nil {
		t.Fatalf("sshd: %v", err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		if t.Failed() {
			t.Logf("sshd log:\n%s", logs.String())
		}
	})
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("sshd did not listen on %d: %s", port, logs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	s := &sshServer{port: port, user: u.Username, key: filepath.Join(dir, "client"),
		hostKey: strings.TrimSpace(string(hostPub)), knownLog: filepath.Join(dir, "known_hosts")}
	os.WriteFile(s.knownLog, []byte(fmt.Sprintf("[127.0.0.1]:%d %s\n", port, s.hostKey)), 0o600)
	// The real git (the fixture's and the colleague's) reaches it with the
	// key and the known_hosts file given on its command line; editord finds
	// them the way go-git does (agent or ~/.ssh key, SSH_KNOWN_HOSTS).
	t.Setenv("GIT_SSH_COMMAND", fmt.Sprintf("ssh -i %s -o IdentitiesOnly=yes -o BatchMode=yes -o StrictHostKeyChecking=yes -o UserKnownHostsFile=%s", s.key, s.knownLog))
	t.Setenv("SSH_KNOWN_HOSTS", s.knownLog)
	t.Setenv("SSH_AUTH_SOCK", "")
	return s
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

func (s *sshServer) url(bare string) string {
	return fmt.Sprintf("ssh://%s@127.0.0.1:%d%s", s.user, s.port, bare)
}

// agent starts ssh-agent holding the client key and points SSH_AUTH_SOCK
// at it.
func (s *sshServer) agent(t *testing.T) {
	t.Helper()
	sock := filepath.Join(t.TempDir(), "agent.sock")
	cmd := exec.Command("ssh-agent", "-D", "-a", sock)
	if err := cmd.Start(); err != nil {
		t.Fatalf("ssh-agent: %v", err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	// Its socket file exists from bind(), a moment before listen(): wait
	// until it accepts (ssh-add failed with "Connection refused" between).
	for i := 0; ; i++ {
		if c, err := net.Dial("unix", sock); err == nil {
			c.Close()
			break
		}
		if i > 500 {
			t.Fatal("ssh-agent did not listen on its socket")
		}
		time.Sleep(10 * time.Millisecond)
	}
	add := exec.Command("ssh-add", s.key)
	add.Env = append(os.Environ(), "SSH_AUTH_SOCK="+sock)
	if out, err := add.CombinedOutput(); err != nil {
		t.Fatalf("ssh-add: %v\n%s", err, out)
	}
	t.Setenv("SSH_AUTH_SOCK", sock)
}

// TestSyncSSHAgent: fetch, ff-only pull, a refused diverged pull and push
// over ssh, authenticated by the ssh agent as git would be.
func TestSyncSSHAgent(t *testing.T) {
	srv := startSSHD(t)
	srv.agent(t)
	exerciseRemote(t, newRemoteSetup(t, srv.url))
}

// TestSyncSSHKeyFile: with no agent, the unencrypted default key in
// ~/.ssh.
func TestSyncSSHKeyFile(t *testing.T) {
	srv := startSSHD(t)
	home := t.TempDir()
	os.MkdirAll(filepath.Join(home, ".ssh"), 0o700)
	key, _ := os.ReadFile(srv.key)
	os.WriteFile(filepath.Join(home, ".ssh", "id_ed25519"), key, 0o600)
	s := newRemoteSetup(t, srv.url)
	t.Setenv("HOME", home)
	s.colleague("a.txt", "from the colleague\n", "colleague")
	if res := s.sync("pull", nil); !res.OK || res.Behind != 0 || s.f.read("a.txt") != "from the colleague\n" {
		t.Fatalf("pull with ~/.ssh/id_ed25519: %+v", res)
	}
	s.f.write("mine.txt", "m\n")
	s.f.commitAll("mine")
	if res := s.sync("push", nil); !res.OK || res.Ahead != 0 {
		t.Fatalf("push with ~/.ssh/id_ed25519: %+v", res)
	}
	if got, want := strings.TrimSpace(s.f.gitIn(s.bare, "rev-parse", "main")), strings.TrimSpace(s.f.git("rev-parse", "HEAD")); got != want {
		t.Fatalf("remote main %s, ours %s", got, want)
	}
}

// TestSyncSSHRefusals: a host key we do not know, and a key the server
// does not accept, each fail with a message saying so and change nothing.
func TestSyncSSHRefusals(t *testing.T) {
	srv := startSSHD(t)
	srv.agent(t)
	s := newRemoteSetup(t, srv.url)
	s.colleague("a.txt", "new\n", "colleague")
	head := strings.TrimSpace(s.f.git("rev-parse", "HEAD"))

	other := filepath.Join(t.TempDir(), "known_hosts")
	os.WriteFile(other, []byte(fmt.Sprintf("[127.0.0.1]:%d ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDcWAfhS1M0KkrZBbTPf2UqYOkCnO8tuOCvAUHMrpBsM\n", srv.port)), 0o600)
	t.Setenv("SSH_KNOWN_HOSTS", other)
	res, err := s.f.open().Sync(context.Background(), SyncOptions{Action: "pull", Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if res.OK || !strings.Contains(res.Summary, "host key") || !strings.Contains(res.Summary, "does not match") {
		t.Fatalf("changed host key: %+v", res)
	}
	os.WriteFile(other, []byte(fmt.Sprintf("[127.0.0.1]:%d %s\n", srv.port+1, srv.hostKey)), 0o600)
	res, err = s.f.open().Sync(context.Background(), SyncOptions{Action: "pull", Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if res.OK || !strings.Contains(res.Summary, "not in known_hosts") {
		t.Fatalf("unknown host: %+v", res)
	}
	t.Setenv("SSH_KNOWN_HOSTS", srv.knownLog)

	// No agent and no key at all.
	t.Setenv("SSH_AUTH_SOCK", "")
	t.Setenv("HOME", t.TempDir())
	res, err = s.f.open().Sync(context.Background(), SyncOptions{Action: "fetch", Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if res.OK || !strings.Contains(res.Summary, "no ssh credentials") {
		t.Fatalf("no key: %+v", res)
	}

	// An agent holding a key the server does not know.
	stranger := filepath.Join(t.TempDir(), "stranger")
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", stranger).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen: %v\n%s", err, out)
	}
	srv.key = stranger
	srv.agent(t)
	res, err = s.f.open().Sync(context.Background(), SyncOptions{Action: "pull", Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if res.OK || !strings.Contains(res.Summary, "credentials") {
		t.Fatalf("unknown key: %+v", res)
	}
	if now := strings.TrimSpace(s.f.git("rev-parse", "HEAD")); now != head || s.f.read("a.txt") != "a\n" {
		t.Fatal("a refused pull changed something")
	}
}

// TestSyncSSHTimeout: a server that accepts the connection and never
// speaks ends at git_timeout_ms.
func TestSyncSSHTimeout(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "a\n")
	f.commitAll("base")
	f.git("remote", "add", "origin", "ssh://git@"+silentRemote(t)+"/repo.git")
	// A key to offer, so that the connection is attempted.
	home := t.TempDir()
	os.MkdirAll(filepath.Join(home, ".ssh"), 0o700)
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", filepath.Join(home, ".ssh", "id_ed25519")).CombinedOutput(); err != nil {
		t.Skipf("ssh-keygen: %v\n%s", err, out)
	}
	t.Setenv("SSH_AUTH_SOCK", "")
	t.Setenv("HOME", home)
	t.Setenv("SSH_KNOWN_HOSTS", "")
	res, err := f.open().Sync(context.Background(), SyncOptions{Action: "fetch", Timeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if res.OK || !strings.Contains(res.Summary, "no known_hosts file") {
		t.Fatalf("no known_hosts: %+v", res)
	}
	os.WriteFile(filepath.Join(home, ".ssh", "known_hosts"), []byte("example.org ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDcWAfhS1M0KkrZBbTPf2UqYOkCnO8tuOCvAUHMrpBsM\n"), 0o600)
	wantTimeout(t, f)
}
