package editor

import (
	"path"

	"github.com/editord/editord/shell"
	"github.com/editord/editord/workspace"
)

// A folder editor::delete removes goes with the files it held; their
// contents ride on the folder's change event to its turn (editor/turns),
// so that a revert brings them back, bytes and mode. Bounded: at most
// folderKeepFiles files and folderKeepBytes of contents are read (a
// folder past that is revertible only in part, and its turn says which
// files it lost), each file at most turns.keep_file_bytes.
const (
	folderKeepFiles = 1000
	folderKeepBytes = 8 << 20
)

// folderContents reads the files under the folder l, for its turn.
func (s *Service) folderContents(l loc) []workspace.GoneFile {
	var out []workspace.GoneFile
	total := 0
	s.jail.Walk(l.abs, shell.WalkOptions{}, func(we shell.WalkEntry) error {
		if len(out) >= folderKeepFiles {
			return errStopWalk
		}
		if we.Kind != shell.KindFile {
			return nil
		}
		g := workspace.GoneFile{Path: path.Join(l.stored, we.Rel)}
		abs := l.abs + "/" + we.Rel
		if in, err := s.jail.Lstat(abs); err == nil {
			g.Mode = modeString(in.Mode)
			if in.Size <= s.cfg.Turns.KeepFileBytes && total+int(in.Size) <= folderKeepBytes {
				if res, err := s.jail.ReadFile(abs, s.cfg.Turns.KeepFileBytes); err == nil && !res.Truncated {
					g.Data, g.Version = res.Data, Version(res.Data)
					total += len(res.Data)
				}
			}
		}
		out = append(out, g)
		return nil
	})
	return out
}

// errStopWalk ends a walk that has read enough.
var errStopWalk = shell.Errorf(shell.CodeTooLarge, "", "enough")
