package workspace

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"
)

// The folders of the language servers (editor/lsp) in the state dir, the
// only ones a sandboxed server writes: lsp/NAME/home, kept across starts
// (gopls's and Go's caches are there), and lsp/NAME/tmp/ID, one server's
// temp folder, removed when it ends.

// LSPDirs makes server name's home and a temp folder for one server;
// release removes the temp folder.
func (s *Store) LSPDirs(name string) (home, tmp string, release func(), err error) {
	if name == "" || strings.ContainsAny(name, `/\`) || name == "." || name == ".." {
		return "", "", nil, fmt.Errorf("language server name %q", name)
	}
	var b [6]byte
	rand.Read(b[:])
	home, tmp = s.path("lsp/"+name+"/home"), s.path("lsp/"+name+"/tmp/"+hex.EncodeToString(b[:]))
	for _, d := range []string{home, tmp} {
		if _, err := s.jail.Mkdir(d, true); err != nil {
			return "", "", nil, err
		}
	}
	return home, tmp, func() { s.jail.Remove(tmp, true) }, nil
}

// LSPHidden lists what server name must not see of the state dir when it
// lies in the jail: every entry but lsp/NAME.
func (s *Store) LSPHidden(name string) []string {
	out := s.EntriesBut("lsp")
	ents, err := s.jail.ReadDir(s.path("lsp"))
	if err != nil {
		return out
	}
	for _, e := range ents {
		if e.Name != name {
			out = append(out, s.path("lsp/"+e.Name))
		}
	}
	return out
}
