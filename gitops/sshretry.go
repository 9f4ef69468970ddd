package gitops

import (
	"context"
	"errors"
	"io"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp"
	"github.com/go-git/go-git/v5/plumbing/transport"
	"github.com/go-git/go-git/v5/plumbing/transport/client"
	gitssh "github.com/go-git/go-git/v5/plumbing/transport/ssh"
)

// go-git's ssh transport loses a race with a quick server. After sending
// its request it closes its side of the channel; when the remote has
// already answered in full and closed the channel (a small fetch, a small
// push, on a loaded machine), that close fails with io.EOF and go-git
// fails the whole call: a fetch says "closing input: EOF" before reading
// the pack the server sent, a push says "EOF" after the server applied it
// (go-git issue 1685, fixed in v6 only). closeRace wraps the ssh transport:
// a fetch that lost the race is asked again on a new connection, and a push
// that did is checked against what the remote now advertises.

func init() {
	client.InstallProtocol("ssh", closeRace{gitssh.DefaultClient})
}

// closeRaceTries bounds the fetches asked again.
const closeRaceTries = 3

type closeRace struct{ transport.Transport }

func (t closeRace) NewUploadPackSession(ep *transport.Endpoint, auth transport.AuthMethod) (transport.UploadPackSession, error) {
	s, err := t.Transport.NewUploadPackSession(ep, auth)
	if err != nil {
		return nil, err
	}
	return &raceUpload{UploadPackSession: s, redial: redial{t.Transport, ep, auth}}, nil
}

func (t closeRace) NewReceivePackSession(ep *transport.Endpoint, auth transport.AuthMethod) (transport.ReceivePackSession, error) {
	s, err := t.Transport.NewReceivePackSession(ep, auth)
	if err != nil {
		return nil, err
	}
	return &raceReceive{ReceivePackSession: s, redial: redial{t.Transport, ep, auth}}, nil
}

// redial is what a session that lost the race needs to open a new one.
type redial struct {
	t    transport.Transport
	ep   *transport.Endpoint
	auth transport.AuthMethod
}

type raceUpload struct {
	transport.UploadPackSession
	redial
}

// UploadPack asks again, on a new session, when the request was sent but
// closing the channel lost the race: nothing was read or stored yet.
func (s *raceUpload) UploadPack(ctx context.Context, req *packp.UploadPackRequest) (*packp.UploadPackResponse, error) {
	resp, err := s.UploadPackSession.UploadPack(ctx, req)
	for try := 1; lostCloseRace(err) && ctx.Err() == nil && try < closeRaceTries; try++ {
		again, nerr := s.t.NewUploadPackSession(s.ep, s.auth)
		if nerr != nil {
			return nil, err
		}
		s.UploadPackSession.Close()
		s.UploadPackSession = again
		resp, err = again.UploadPack(ctx, req)
	}
	return resp, err
}

// lostCloseRace recognizes the error of go-git's upload-pack whose close
// of its input found the channel closed by the server.
func lostCloseRace(err error) bool {
	return err != nil && err.Error() == "closing input: EOF"
}

type raceReceive struct {
	transport.ReceivePackSession
	redial
}

// ReceivePack, when closing the channel lost the race, reads the remote's
// references on a new session: if every update of the request is there,
// the push happened and its report is that each ref is ok.
func (s *raceReceive) ReceivePack(ctx context.Context, req *packp.ReferenceUpdateRequest) (*packp.ReportStatus, error) {
	rs, err := s.ReceivePackSession.ReceivePack(ctx, req)
	if !errors.Is(err, io.EOF) || ctx.Err() != nil || len(req.Commands) == 0 {
		return rs, err
	}
	again, nerr := s.t.NewReceivePackSession(s.ep, s.auth)
	if nerr != nil {
		return rs, err
	}
	defer again.Close()
	adv, aerr := again.AdvertisedReferencesContext(ctx)
	if aerr != nil {
		return rs, err
	}
	refs, aerr := adv.AllReferences()
	if aerr != nil {
		return rs, err
	}
	report := packp.NewReportStatus()
	report.UnpackStatus = "ok"
	for _, c := range req.Commands {
		ref, ok := refs[c.Name]
		switch {
		case c.New.IsZero() && !ok:
		case ok && ref.Type() == plumbing.HashReference && ref.Hash() == c.New:
		default:
			return rs, err // the remote does not have it: the push failed
		}
		report.CommandStatuses = append(report.CommandStatuses, &packp.CommandStatus{ReferenceName: c.Name, Status: "ok"})
	}
	return report, nil
}
