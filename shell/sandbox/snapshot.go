package sandbox

import (
	"path/filepath"
	"sort"

	"golang.org/x/sys/unix"

	"github.com/editord/editord/shell"
)

// Stamp identifies one state of a file. The change time is in it because
// a program can set a file's mtime back, but not its ctime: a rewrite of
// the same size with the mtime restored still shows.
type Stamp struct {
	Size  int64
	MTime int64 // Unix nanoseconds
	CTime int64
	Ino   uint64
	Mode  uint32
}

// Snapshot maps the root-relative paths of the files (and symlinks) under
// a folder to their stamps.
type Snapshot map[string]Stamp

// TakeSnapshot stamps every file under root that the watcher follows: not
// ignored by .gitignore, not in a noise folder, not denied, not in .git.
func TakeSnapshot(j *shell.Jail, root string) (Snapshot, error) {
	snap := Snapshot{}
	err := j.Walk(root, shell.WalkOptions{Gitignore: true, Noise: true}, func(e shell.WalkEntry) error {
		if e.Kind == shell.KindDir {
			if e.Name == ".git" {
				return shell.SkipDir
			}
			return nil
		}
		var st unix.Stat_t
		if err := unix.Lstat(filepath.Join(root, e.Rel), &st); err != nil {
			return nil // gone meanwhile
		}
		snap[e.Rel] = Stamp{Size: st.Size, MTime: unix.TimespecToNsec(st.Mtim), CTime: unix.TimespecToNsec(st.Ctim), Ino: uint64(st.Ino), Mode: uint32(st.Mode)}
		return nil
	})
	return snap, err
}

// Diff lists what changed from a to b, each list sorted.
func (a Snapshot) Diff(b Snapshot) (created, modified, deleted []string) {
	for p, sb := range b {
		sa, ok := a[p]
		switch {
		case !ok:
			created = append(created, p)
		case sa != sb:
			modified = append(modified, p)
		}
	}
	for p := range a {
		if _, ok := b[p]; !ok {
			deleted = append(deleted, p)
		}
	}
	sort.Strings(created)
	sort.Strings(modified)
	sort.Strings(deleted)
	return created, modified, deleted
}
