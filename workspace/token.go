package workspace

import (
	"crypto/rand"
	"encoding/hex"
	"strings"

	"github.com/editord/editord/shell"
)

const tokenFile = "http.token"

// Token returns the HTTP bearer token kept in the state dir, creating it
// (mode 0600, exclusively, so two servers starting at once agree) when
// there is none. It also returns the file's path, for telling people where
// to find it.
func (s *Store) Token() (token, path string, err error) {
	path = s.path(tokenFile)
	for range 2 {
		res, err := s.jail.ReadFile(path, 4096)
		if err == nil {
			if t := strings.TrimSpace(string(res.Data)); t != "" {
				return t, path, nil
			}
		} else if shell.CodeOf(err) != shell.CodeNotFound {
			return "", path, err
		}
		var b [32]byte
		rand.Read(b[:])
		t := hex.EncodeToString(b[:])
		_, err = s.jail.WriteFile(path, []byte(t+"\n"), shell.WriteOptions{Perm: 0o600, Exclusive: true})
		if err == nil {
			return t, path, nil
		}
		if shell.CodeOf(err) != shell.CodeExists {
			return "", path, err
		}
	}
	return "", path, shell.Errorf(shell.CodeInternal, path, "could not read or create the token file %s", path)
}
