package workspace

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/editord/editord/shell"
)

const tokenFile = "http.token"

// MinTokenLen is the shortest bearer token editord accepts: a generated
// one is 64 hex digits; a shorter one given or found is refused, not used
// (a planted "0000" was trusted).
const MinTokenLen = 32

// Token returns the HTTP bearer token kept in the state dir, creating it
// (mode 0600, exclusively, so two servers starting at once agree) when
// there is none. It also returns the file's path, for telling people where
// to find it. A token file another user could have planted or read (owned
// by another uid, readable by group or others) or holding a token shorter
// than MinTokenLen is refused, with the fix in the message.
func (s *Store) Token() (token, path string, err error) {
	path = s.path(tokenFile)
	fix := fmt.Sprintf("delete %s and a new token is generated", path)
	for range 2 {
		res, err := s.jail.ReadFile(path, 4096)
		if err == nil {
			if err := shell.Private(path, res.Info, "the token file", fix); err != nil {
				return "", path, err
			}
			if t := strings.TrimSpace(string(res.Data)); t != "" {
				if len(t) < MinTokenLen {
					return "", path, shell.Errorf(shell.CodeDenied, path, "the token in %s is %d characters; at least %d are needed: %s", path, len(t), MinTokenLen, fix)
				}
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
