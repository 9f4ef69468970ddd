package workspace

import (
	"crypto/rand"
	"encoding/hex"
	"strings"
	"time"

	"github.com/editord/editord/shell"
)

// Launch pages: `serve --http --open` must not put the token in a command
// line (the opener's and the browser's argv are readable by every user of
// the machine in /proc). It writes a page into the state dir, mode 0600 in
// a folder of mode 0700, that sends the browser on to the editor with a
// one-time code, and opens that file: only its path is in argv. (The
// state dir itself is 0700, so its launch folder is as private.)
const (
	launchDir = "launch"
	// LaunchTTL is how long a launch page (and its code) lives.
	LaunchTTL = 2 * time.Minute
)

// WriteLaunch writes a launch page into the state dir and returns its path
// and a func that removes it. Pages left by a server that died before they
// were used are removed first.
func (s *Store) WriteLaunch(html []byte) (path string, remove func(), err error) {
	dir := s.path(launchDir)
	if _, err := s.jail.Mkdir(dir, false); err != nil {
		return "", nil, err
	}
	if ents, err := s.jail.ReadDir(dir); err == nil {
		for _, e := range ents {
			if strings.HasPrefix(e.Name, "launch-") && time.Since(time.Unix(e.ModTime, 0)) > LaunchTTL {
				s.jail.Remove(dir+"/"+e.Name, false)
			}
		}
	}
	var b [12]byte
	rand.Read(b[:])
	path = dir + "/launch-" + hex.EncodeToString(b[:]) + ".html"
	if _, err := s.jail.WriteFile(path, html, shell.WriteOptions{Perm: 0o600, Exclusive: true}); err != nil {
		return "", nil, err
	}
	return path, func() { s.jail.Remove(path, false) }, nil
}
