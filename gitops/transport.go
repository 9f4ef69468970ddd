package gitops

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/editord/editord/shell"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/plumbing/transport"
	"github.com/go-git/go-git/v5/plumbing/transport/client"
	"github.com/go-git/go-git/v5/plumbing/transport/http"
	"github.com/go-git/go-git/v5/plumbing/transport/server"
	gitssh "github.com/go-git/go-git/v5/plumbing/transport/ssh"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"golang.org/x/net/proxy"
)

// Transports. http(s) and ssh are go-git's own, in process. go-git's file://
// transport runs git-upload-pack and git-receive-pack as child processes;
// editord replaces it with go-git's in-process server over the remote
// repository's folder (opened through shell), so a local remote needs no
// git binary either.

func init() {
	client.InstallProtocol("file", localTransport{})
}

// localTransport is go-git's in-process server over a local repository,
// with one repair: go-git's upload-pack fails when the client says it has
// commits the server lacks (a local commit not pushed yet), so those are
// dropped from the request first.
type localTransport struct{}

func (localTransport) NewUploadPackSession(ep *transport.Endpoint, auth transport.AuthMethod) (transport.UploadPackSession, error) {
	st, err := localLoader{}.Load(ep)
	if err != nil {
		return nil, err
	}
	sess, err := server.NewClient(fixedLoader{st}).NewUploadPackSession(ep, auth)
	if err != nil {
		if c, ok := st.(io.Closer); ok {
			c.Close()
		}
		return nil, err
	}
	u := &localUpload{UploadPackSession: &knownHaves{UploadPackSession: sess, st: st}, st: st}
	if c, ok := st.(io.Closer); ok {
		u.cl = c
	}
	if fst, ok := st.(*filesystem.Storage); ok {
		// editord's own object reader over the remote's packs: commits and
		// trees of the walk without go-git's per-object overhead.
		u.raw = &Repo{gfs: fst.Filesystem(), st: fst, top: ep.Path}
	}
	return u, nil
}

func (localTransport) NewReceivePackSession(ep *transport.Endpoint, auth transport.AuthMethod) (transport.ReceivePackSession, error) {
	return server.NewClient(localLoader{}).NewReceivePackSession(ep, auth)
}

type fixedLoader struct{ st storer.Storer }

func (l fixedLoader) Load(*transport.Endpoint) (storer.Storer, error) { return l.st, nil }

type knownHaves struct {
	transport.UploadPackSession
	st storer.Storer
}

func (k *knownHaves) UploadPack(ctx context.Context, req *packp.UploadPackRequest) (*packp.UploadPackResponse, error) {
	kept := req.Haves[:0]
	for _, h := range req.Haves {
		if k.st.HasEncodedObject(h) == nil {
			kept = append(kept, h)
		}
	}
	req.Haves = kept
	return k.UploadPackSession.UploadPack(ctx, req)
}

// localLoader opens the repository a file:// URL names, bare or not.
type localLoader struct{}

func (localLoader) Load(ep *transport.Endpoint) (storer.Storer, error) {
	p := ep.Path
	if !filepath.IsAbs(p) {
		return nil, transport.ErrRepositoryNotFound
	}
	fsys, err := shell.RemoteRepoFS(filepath.Clean(p))
	if err != nil {
		return nil, transport.ErrRepositoryNotFound
	}
	// Pack files stay open for the session (the storage is closed with
	// it); go-git would reopen a pack for every object read otherwise.
	opts := filesystem.Options{KeepDescriptors: true}
	if _, err := fsys.Stat("objects"); err == nil {
		if _, err := fsys.Stat("HEAD"); err == nil {
			return filesystem.NewStorageWithOptions(fsys, cache.NewObjectLRUDefault(), opts), nil
		}
	}
	if fi, err := fsys.Lstat(".git"); err == nil && fi.IsDir() {
		dot, err := fsys.Chroot(".git")
		if err == nil {
			return filesystem.NewStorageWithOptions(dot, cache.NewObjectLRUDefault(), opts), nil
		}
	}
	fsys.Close()
	return nil, transport.ErrRepositoryNotFound
}

// remoteURL is the URL a remote fetches from (pushURL: pushes to, falling
// back to url), with a relative local path made absolute against the
// worktree, as git does.
func (r *Repo) remoteURL(remote string, push bool) string {
	u := ""
	if push {
		u = r.cfg.str("remote", remote, "pushurl")
	}
	if u == "" {
		u = r.cfg.str("remote", remote, "url")
	}
	if u != "" && !strings.Contains(u, "://") && !strings.Contains(u, ":") && !filepath.IsAbs(u) {
		u = filepath.Join(r.top, u)
	}
	return u
}

// authFor returns the credentials git would use for an endpoint before any
// prompt: the URL's own user and password for http(s), the ssh agent (or an
// unencrypted default key) for ssh. nil means try without.
func (r *Repo) authFor(ep *transport.Endpoint) transport.AuthMethod {
	switch ep.Protocol {
	case "http", "https":
		if ep.User != "" || ep.Password != "" {
			return &http.BasicAuth{Username: ep.User, Password: ep.Password}
		}
	case "ssh":
		user := ep.User
		if user == "" {
			user = "git"
		}
		if shell.Getenv("SSH_AUTH_SOCK") != "" {
			if a, err := gitssh.NewSSHAgentAuth(user); err == nil {
				return a
			}
		}
		home := shell.HomeDir()
		for _, k := range []string{"id_ed25519", "id_ecdsa", "id_rsa"} {
			pem, err := shell.ReadGitUserFile(filepath.Join(home, ".ssh", k))
			if err != nil {
				continue
			}
			if a, err := gitssh.NewPublicKeys(user, pem, ""); err == nil {
				return a
			}
		}
	}
	return nil
}

// credential asks git's credential helper for an https username and
// password (git credential fill), the one git subprocess editord runs: the
// helpers (osxkeychain, libsecret, store, a token manager) are git's. It
// never prompts (GIT_TERMINAL_PROMPT=0). The helpers come from the user's
// and the system's configuration only, unless the user trusts the
// repository (credentialEnv).
func (r *Repo) credential(ctx context.Context, ep *transport.Endpoint, timeout time.Duration) (*http.BasicAuth, error) {
	out, err := r.credentialRun(ctx, "fill", ep, "", "", timeout)
	if err != nil {
		return nil, err
	}
	a := &http.BasicAuth{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		k, v, _ := strings.Cut(sc.Text(), "=")
		switch k {
		case "username":
			a.Username = v
		case "password":
			a.Password = v
		}
	}
	if a.Password == "" {
		return nil, errors.New("the credential helper gave no password")
	}
	return a, nil
}

// credentialReport tells the helper whether the credentials worked
// (approve) or not (reject), so it stores or forgets them as git would.
func (r *Repo) credentialReport(ctx context.Context, ep *transport.Endpoint, a *http.BasicAuth, ok bool, timeout time.Duration) {
	verb := "reject"
	if ok {
		verb = "approve"
	}
	r.credentialRun(ctx, verb, ep, a.Username, a.Password, timeout)
}

func (r *Repo) credentialRun(ctx context.Context, verb string, ep *transport.Endpoint, user, pass string, timeout time.Duration) ([]byte, error) {
	var in strings.Builder
	fmt.Fprintf(&in, "protocol=%s\nhost=%s", ep.Protocol, ep.Host)
	if ep.Port != 0 && !(ep.Protocol == "https" && ep.Port == 443) && !(ep.Protocol == "http" && ep.Port == 80) {
		fmt.Fprintf(&in, ":%d", ep.Port)
	}
	in.WriteString("\n")
	if p := strings.TrimPrefix(ep.Path, "/"); p != "" {
		fmt.Fprintf(&in, "path=%s\n", p)
	}
	if user != "" {
		fmt.Fprintf(&in, "username=%s\n", user)
	}
	if pass != "" {
		fmt.Fprintf(&in, "password=%s\n", pass)
	}
	in.WriteString("\n")
	if timeout <= 0 || timeout > 30*time.Second {
		timeout = 30 * time.Second
	}
	stdout, stderr, err := r.jail.Run(ctx, "git", []string{"credential", verb}, shell.RunOptions{
		Dir:     r.top,
		Stdin:   []byte(in.String()),
		Env:     append([]string{"GIT_TERMINAL_PROMPT=0", "GIT_ASKPASS=", "SSH_ASKPASS="}, r.credentialEnv()...),
		Timeout: timeout,
		MaxOut:  64 << 10,
	})
	if err != nil {
		return nil, fmt.Errorf("git credential %s: %v %s", verb, err, strings.TrimSpace(string(stderr)))
	}
	return stdout, nil
}

// credentialEnv keeps the repository's own configuration away from git
// credential. A repository's .git/config can name any program as a
// credential helper (credential.helper = !cmd), and a workspace is often a
// stranger's clone: running it when a remote answers 401 would run the
// stranger's program. So git credential runs outside any repository
// (GIT_DIR names no repository, which git reads as "not in a repository")
// and sees only the system and global configuration, where helpers are
// the user's own choice.
//
// The user can trust a repository's configuration, helpers included, the
// way git trusts a repository owned by someone else: safe.directory in the
// global or system configuration naming the repository's worktree or git
// folder (or a "dir/*" entry covering it). safe.directory = "*" does not
// count: it is commonly set wholesale to silence git's ownership check in
// containers and CI, and says nothing about trusting programs a
// repository names. A repository cannot trust itself: its own
// safe.directory is not read.
func (r *Repo) credentialEnv() []string {
	if r.trustsRepoConfig() {
		return nil
	}
	return []string{"GIT_DIR=" + noRepository}
}

// noRepository is a path that holds no repository.
const noRepository = "/nonexistent/editord: the repository's own config is not trusted"

// trustsRepoConfig reports whether the user's own configuration lists this
// repository in safe.directory (see credentialEnv).
func (r *Repo) trustsRepoConfig() bool {
	var dirs []string
	for _, v := range r.cfg.user().all("safe", "", "directory") {
		if v = strings.TrimSpace(v); v == "" {
			dirs = nil // an empty value resets the list, as in git
			continue
		}
		dirs = append(dirs, v)
	}
	for _, v := range dirs {
		if v == "*" || strings.HasPrefix(v, "%(prefix)") {
			continue
		}
		if strings.HasPrefix(v, "~/") {
			v = filepath.Join(shell.HomeDir(), v[2:])
		}
		if prefix, ok := strings.CutSuffix(v, "/*"); ok {
			prefix = filepath.Clean(prefix) + "/"
			if strings.HasPrefix(r.top+"/", prefix) || strings.HasPrefix(r.gitDir+"/", prefix) {
				return true
			}
			continue
		}
		if v = filepath.Clean(v); v == r.top || v == r.gitDir {
			return true
		}
	}
	return false
}

// redactURL hides a password in a URL shown to the caller.
func redactURL(u string) string {
	p, err := url.Parse(u)
	if err != nil || p.User == nil {
		return u
	}
	if _, has := p.User.Password(); has {
		p.User = url.UserPassword(p.User.Username(), "***")
	}
	return p.String()
}

// sshDeadline bounds an ssh connection by the call's deadline and ends it
// when the call's context is cancelled (a client gone, SIGTERM). go-git's
// ssh transport gives the handshake no deadline and does not watch the
// context once connected, so a server that accepts and never speaks would
// hold a sync far past git_timeout_ms, and past the end of the server. What
// go-git does take is a proxy dialer per call: ssh connections go through
// one that dials as go-git would (honouring ALL_PROXY), sets the deadline
// on the connection and closes it when the call's context ends. The
// context is found through the URL (contexts cannot travel in one); call
// the returned function when the call is over.
func sshDeadline(ctx context.Context, ep *transport.Endpoint) (transport.ProxyOptions, func()) {
	deadline, ok := ctx.Deadline()
	if ep.Protocol != "ssh" || !ok {
		return transport.ProxyOptions{}, func() {}
	}
	registerDeadlineDialer.Do(func() {
		proxy.RegisterDialerType(deadlineScheme, func(u *url.URL, _ proxy.Dialer) (proxy.Dialer, error) {
			ns, err := strconv.ParseInt(u.Query().Get("until"), 10, 64)
			if err != nil {
				return nil, fmt.Errorf("deadline dialer: %w", err)
			}
			d := deadlineDialer{until: time.Unix(0, ns), ctx: context.Background()}
			if c, ok := sshCalls.Load(u.Query().Get("call")); ok {
				d.ctx = c.(context.Context)
			}
			return d, nil
		})
	})
	id := strconv.FormatUint(sshCallSeq.Add(1), 10)
	sshCalls.Store(id, ctx)
	return transport.ProxyOptions{URL: deadlineScheme + "://deadline/?until=" + strconv.FormatInt(deadline.UnixNano(), 10) + "&call=" + id},
		func() { sshCalls.Delete(id) }
}

const deadlineScheme = "editord-deadline"

var (
	registerDeadlineDialer sync.Once
	sshCalls               sync.Map // call id -> its context
	sshCallSeq             atomic.Uint64
)

type deadlineDialer struct {
	until time.Time
	ctx   context.Context // the call's
}

func (d deadlineDialer) Dial(network, addr string) (net.Conn, error) {
	return d.DialContext(context.Background(), network, addr)
}

func (d deadlineDialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	ctx, cancel := context.WithDeadline(ctx, d.until)
	defer cancel()
	stop := context.AfterFunc(d.ctx, cancel)
	defer stop()
	c, err := proxy.Dial(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	if err := c.SetDeadline(d.until); err != nil {
		c.Close()
		return nil, err
	}
	context.AfterFunc(d.ctx, func() { c.Close() })
	return c, nil
}
