package editor

import (
	"path"
	"sort"

	"github.com/editord/editord/shell"
	"github.com/editord/editord/workspace"
)

// A folder editor::delete removes goes with the files it held; their
// contents ride on the folder's change event to its turn (editor/turns),
// so that a revert brings them back, bytes and mode. Bounded: at most
// folderKeepFiles files and folderKeepBytes of contents are read, to
// folderKeepDepth levels (a folder past that is revertible only in part,
// and its turn says so), each file at most turns.keep_file_bytes.
const (
	folderKeepFiles = 500
	folderKeepBytes = 8 << 20
	folderKeepDepth = 32 // folders deeper than this are not looked into
)

// folderContents reads the files under the folder l, for its turn. It
// lists each folder only as far as it has room for (shell.Dir's
// ReadDirSome), so a folder of 200,000 files costs what it keeps, not a
// walk of them. When it could not keep them all, the last entry has no
// path: the folder's turn then says it was not kept whole.
func (s *Service) folderContents(l loc) []workspace.GoneFile {
	d, err := s.jail.OpenDir(l.abs)
	if err != nil {
		return nil
	}
	defer d.Close()
	var out []workspace.GoneFile
	total, full := 0, false
	var walk func(d *shell.Dir, rel string, depth int)
	walk = func(d *shell.Dir, rel string, depth int) {
		ents, err := d.ReadDirSome(folderKeepFiles - len(out) + 1)
		if err != nil {
			return
		}
		for _, en := range ents {
			if len(out) >= folderKeepFiles {
				full = true
				return
			}
			r := path.Join(rel, en.Name)
			switch en.Kind {
			case shell.KindDir:
				if depth == folderKeepDepth {
					full = true
					continue
				}
				if sub, err := d.Sub(en.Name); err == nil {
					walk(sub, r, depth+1)
					sub.Close()
				}
			case shell.KindFile:
				g := workspace.GoneFile{Path: path.Join(l.stored, r), Mode: modeString(en.Mode)}
				if en.Size <= s.cfg.Turns.KeepFileBytes && total+int(en.Size) <= folderKeepBytes {
					if res, err := s.jail.ReadFile(l.abs+"/"+r, s.cfg.Turns.KeepFileBytes); err == nil && !res.Truncated {
						g.Data, g.Version = res.Data, Version(res.Data)
						total += len(res.Data)
					}
				}
				out = append(out, g)
			}
		}
	}
	walk(d, "", 1)
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	if full {
		out = append(out, workspace.GoneFile{})
	}
	return out
}
