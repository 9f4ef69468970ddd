package gitops

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/go-git/go-git/v5/plumbing/protocol/packp"
	"github.com/go-git/go-git/v5/plumbing/transport"
	"github.com/go-git/go-git/v5/plumbing/transport/client"
)

// loseRace is a transport that loses go-git's close race (sshretry.go) on
// demand: a fetch fails as go-git's ssh does when the server closed first,
// before anything is read; a push is applied and then fails with EOF.
type loseRace struct {
	inner           transport.Transport
	uploads, pushes atomic.Int32 // how many more to fail
	dropPushes      atomic.Bool  // fail pushes before applying them
}

func (l *loseRace) NewUploadPackSession(ep *transport.Endpoint, auth transport.AuthMethod) (transport.UploadPackSession, error) {
	s, err := l.inner.NewUploadPackSession(ep, auth)
	if err != nil {
		return nil, err
	}
	return &lostUpload{UploadPackSession: s, l: l}, nil
}

func (l *loseRace) NewReceivePackSession(ep *transport.Endpoint, auth transport.AuthMethod) (transport.ReceivePackSession, error) {
	s, err := l.inner.NewReceivePackSession(ep, auth)
	if err != nil {
		return nil, err
	}
	return &lostReceive{ReceivePackSession: s, l: l}, nil
}

type lostUpload struct {
	transport.UploadPackSession
	l *loseRace
}

func (s *lostUpload) UploadPack(ctx context.Context, req *packp.UploadPackRequest) (*packp.UploadPackResponse, error) {
	if s.l.uploads.Add(-1) >= 0 {
		s.Close()
		return nil, errors.New("closing input: EOF")
	}
	return s.UploadPackSession.UploadPack(ctx, req)
}

type lostReceive struct {
	transport.ReceivePackSession
	l *loseRace
}

func (s *lostReceive) ReceivePack(ctx context.Context, req *packp.ReferenceUpdateRequest) (*packp.ReportStatus, error) {
	if s.l.dropPushes.Load() {
		return nil, io.EOF
	}
	rs, err := s.ReceivePackSession.ReceivePack(ctx, req)
	if err == nil && s.l.pushes.Add(-1) >= 0 {
		return nil, io.EOF
	}
	return rs, err
}

// A fetch, a pull and a push that lose the close race still succeed, as
// the same calls do when the race goes the other way. Before the fix they
// failed with "closing input: EOF" (fetch, pull) and "EOF" (a push the
// remote had applied); TestSyncSSHAgent failed so once in a CI run.
func TestSyncCloseRace(t *testing.T) {
	lose := &loseRace{inner: localTransport{}}
	client.InstallProtocol("loserace", closeRace{lose})
	s := newRemoteSetup(t, func(bare string) string { return bare })
	s.f.git("remote", "set-url", "origin", "loserace://"+s.bare)

	s.colleague("a.txt", "from the colleague\n", "colleague")
	lose.uploads.Store(1)
	if res := s.sync("fetch", nil); !res.OK || res.Behind != 1 {
		t.Fatalf("fetch that lost the race: %+v", res)
	}
	s.colleague("b.txt", "b\n", "colleague 2")
	lose.uploads.Store(2)
	if res := s.sync("pull", nil); !res.OK || res.Behind != 0 || s.f.read("b.txt") != "b\n" {
		t.Fatalf("pull that lost the race twice: %+v", res)
	}
	// Losing it every time is still an error, not a loop.
	s.colleague("c.txt", "c\n", "colleague 3")
	lose.uploads.Store(100)
	if res := s.sync("fetch", nil); res.OK || !strings.Contains(res.Summary, "closing input: EOF") {
		t.Fatalf("fetch that always loses: %+v", res)
	}
	if n := lose.uploads.Load(); n != 100-closeRaceTries {
		t.Fatalf("%d fetches asked, want %d", 100-n, closeRaceTries)
	}
	lose.uploads.Store(0)
	if res := s.sync("pull", nil); !res.OK || res.Behind != 0 {
		t.Fatalf("pull: %+v", res)
	}

	s.f.write("mine.txt", "m\n")
	s.f.commitAll("mine")
	lose.pushes.Store(1)
	if res := s.sync("push", nil); !res.OK || res.Ahead != 0 {
		t.Fatalf("push that lost the race: %+v", res)
	}
	if got, want := strings.TrimSpace(s.f.gitIn(s.bare, "rev-parse", "main")), strings.TrimSpace(s.f.git("rev-parse", "HEAD")); got != want {
		t.Fatalf("remote main %s, ours %s", got, want)
	}
	// A push the remote did not apply stays a failure.
	before := strings.TrimSpace(s.f.gitIn(s.bare, "rev-parse", "main"))
	s.f.write("mine2.txt", "m2\n")
	s.f.commitAll("mine 2")
	lose.dropPushes.Store(true)
	if res := s.sync("push", nil); res.OK || res.Ahead != 1 {
		t.Fatalf("push that was not applied: %+v", res)
	}
	if now := strings.TrimSpace(s.f.gitIn(s.bare, "rev-parse", "main")); now != before {
		t.Fatalf("remote main moved to %s", now)
	}
}
