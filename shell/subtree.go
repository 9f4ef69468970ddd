package shell

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"
	"syscall"
)

// Nobody destroys or exposes a file they may not see (docs/contract.md §2): a
// recursive delete, or a move, of a folder whose subtree holds an entry
// matching a deny glob is refused, naming one such entry, before anything
// is removed or moved. RemoveAll and rename would otherwise take
// blocked/nested/.env along with the folder, unseen.

// subtreeNames are the names one subtree goes by: its path relative to
// the jail root under each of them (the real one, the one the caller
// used, and for a move the destination), as segments.
type subtreeNames [][]string

// deniedBeneath walks the folder rel of r (not following symlinks) and
// returns the first entry beneath it, in name order, that matches a deny
// glob under any of names, as its path under names[0]; "" when none does.
// It holds one open folder per level, as the walks do, and allocates no
// path per entry: the segments of each name grow and shrink as it goes.
func (j *Jail) deniedBeneath(r *os.Root, rel string, names subtreeNames) (string, error) {
	if j.deny.Len() == 0 {
		return "", nil
	}
	d, err := openDirRoot(r, rel)
	if err != nil {
		if errors.Is(err, syscall.ENOTDIR) {
			return "", nil // a file: nothing beneath it
		}
		return "", err
	}
	defer d.Close()
	found, err := j.deniedIn(d, names)
	if found == nil || err != nil {
		return "", err
	}
	return strings.Join(found, "/"), nil
}

func (j *Jail) deniedIn(d *os.Root, names subtreeNames) ([]string, error) {
	f, err := d.OpenFile(".", os.O_RDONLY|syscall.O_DIRECTORY, 0)
	if err != nil {
		return nil, err
	}
	var kids []string
	for {
		batch, err := f.Readdirnames(1024)
		kids = append(kids, batch...)
		if err != nil {
			break
		}
	}
	f.Close()
	sort.Strings(kids)
	for _, name := range kids {
		fi, err := d.Lstat(name)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue // gone meanwhile
			}
			return nil, err
		}
		isDir := fi.IsDir()
		for i := range names {
			names[i] = append(names[i], name)
		}
		for _, segs := range names {
			if m, ex := j.deny.decideSegs(segs, isDir); m && ex {
				return append([]string(nil), names[0]...), nil
			}
		}
		if isDir {
			sub, err := openDirRoot(d, name)
			if err == nil {
				found, err := j.deniedIn(sub, names)
				sub.Close()
				if found != nil || err != nil {
					return found, err
				}
			}
		}
		for i := range names {
			names[i] = names[i][:len(names[i])-1]
		}
	}
	return nil, nil
}

// deniedBeneathError is the refusal of an operation on the folder abs
// whose subtree holds the denied entry rel (relative to the jail root r).
func deniedBeneathError(r *jroot, abs, rel, what string) error {
	entry := path.Join(r.path, rel)
	return Errorf(CodeDenied, abs, "%s holds %s, which matches a deny rule in the jail configuration; %s would take it along, and what may not be seen may not be destroyed or moved. Nothing was changed", abs, entry, what)
}

// segsOf splits a path relative to a jail root ("." for the root) into
// segments with room to grow.
func segsOf(rel string) []string {
	if rel == "." || rel == "" {
		return make([]string, 0, 16)
	}
	s := strings.Split(rel, "/")
	return append(make([]string, 0, len(s)+16), s...)
}
