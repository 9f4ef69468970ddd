package shell

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"
	"sync"
	"syscall"
	"time"
)

// WriteOptions tunes WriteFile.
type WriteOptions struct {
	// Perm is the mode of a file that did not exist; an existing file keeps
	// its own mode. Zero means 0644.
	Perm fs.FileMode
	// Parents creates missing parent folders.
	Parents bool
	// Exclusive refuses with exists when anything is already at the path.
	Exclusive bool
	// Before runs after the new content is durable in the temp file and just
	// before it replaces the old file. An error from it aborts the write and
	// nothing changes; this is where a caller re-checks the disk under its
	// own lock so that a writer slipping in between is caught.
	Before func() error
	// NoSync skips the fsyncs, for state that is cheap to lose on power
	// failure (the rename still makes a crash of the process harmless).
	NoSync bool
}

const tempMarker = ".editord-"

// IsTempName reports whether name is one of editord's in-flight temp files,
// which listings hide.
func IsTempName(name string) bool {
	return strings.HasPrefix(name, ".") && strings.Contains(name, tempMarker) && strings.HasSuffix(name, ".tmp")
}

// WriteFile replaces abs with data atomically: a temp file in the same
// folder is written, fsynced and given the old file's mode, renamed over the
// target, and the folder is fsynced. A crash at any point leaves either the
// old file or the new one, never a mix. A symlink is written through to its
// target (the link survives). Hard links to the old file keep the old
// content, as with any rename-based save (vim's default too).
func (j *Jail) WriteFile(abs string, data []byte, opt WriteOptions) (Info, error) {
	t, err := j.prepare(abs, true, true)
	if err != nil {
		return Info{}, err
	}
	if j.maxWrite > 0 && int64(len(data)) > j.maxWrite {
		return Info{}, Errorf(CodeTooLarge, t.abs, "%s: content is %d bytes, over the jail's max_write_bytes of %d", t.abs, len(data), j.maxWrite)
	}
	if t.rel == "." {
		return Info{}, Errorf(CodeIsADirectory, t.abs, "%s is a folder", t.abs)
	}
	if t.link {
		if _, err := t.r.root.Lstat(t.rel); err != nil {
			return Info{}, Errorf(CodeNotFound, t.abs, "%s is a symlink to a missing file; fix the link or write to another path", t.abs)
		}
	}
	dir, base := path.Dir(t.rel), path.Base(t.rel)
	if opt.Parents && dir != "." {
		if err := mkdirParents(t.r.root, dir, t.abs); err != nil {
			return Info{}, err
		}
	}
	d, err := openDirRoot(t.r.root, dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return Info{}, Errorf(CodeNotFound, t.abs, "the folder of %s does not exist; create it first (editor::create kind folder) or save without a guard", t.abs)
		}
		return Info{}, AsError(err, t.abs)
	}
	defer d.Close()

	perm := opt.Perm
	if perm == 0 {
		perm = 0o644
	}
	var uid, gid = -1, -1
	var src *os.File // the old file, whose extended attributes and ACL the new one gets
	old, statErr := d.Lstat(base)
	switch {
	case statErr == nil && opt.Exclusive:
		return Info{}, Errorf(CodeExists, t.abs, "%s already exists; editor::create never overwrites (use editor::save)", t.abs)
	case statErr == nil && old.IsDir():
		return Info{}, Errorf(CodeIsADirectory, t.abs, "%s is a folder; pass a file path", t.abs)
	case statErr == nil:
		perm = old.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
		if st, ok := old.Sys().(*syscall.Stat_t); ok {
			uid, gid = int(st.Uid), int(st.Gid)
		}
		if src, err = d.OpenFile(base, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0); err != nil {
			return Info{}, AsError(err, t.abs)
		}
		defer src.Close()
	case !errors.Is(statErr, fs.ErrNotExist):
		return Info{}, AsError(statErr, t.abs)
	}

	// A save writes a temp file beside the target and renames it over (or,
	// to create, links it and removes the temp name). A folder whose
	// entries can be added but never removed (chattr +a) lets the temp file
	// be made and then keeps it forever: refuse before making anything.
	if appendOnly, immutable := folderFlags(d); appendOnly || immutable {
		flag := "append-only (chattr +a): names can be added to it but never removed or replaced"
		if immutable {
			flag = "immutable (chattr +i): nothing in it can be added, removed or replaced"
		}
		return Info{}, Errorf(CodeDenied, t.abs, "%s cannot be saved: its folder %s is %s, and a save replaces the file through a temp file there. Nothing was written; clear the flag (chattr -a / -i) to save it", t.abs, path.Dir(t.abs), flag)
	}
	tmp, f, err := createTemp(d, base)
	if err != nil {
		return Info{}, writeError(err, t.abs)
	}
	committed := false
	defer func() {
		if !committed {
			d.Remove(tmp)
		}
	}()
	if err := writeAll(f, src, data, perm, uid, gid, !opt.NoSync); err != nil {
		var xe *xattrError
		if errors.As(err, &xe) && !errors.Is(err, syscall.ENOSPC) && !errors.Is(err, syscall.EDQUOT) {
			return Info{}, &Error{Code: CodeDenied, Path: t.abs, Err: err, Message: fmt.Sprintf(
				"%s: %s, so saving it would drop it; nothing was written and the file is as it was. "+
					"Save as a user allowed to set it, or remove it from the file first if it is not needed (setfattr -x, setfacl -b)", t.abs, xe)}
		}
		return Info{}, writeError(err, t.abs)
	}
	if opt.Before != nil {
		if err := opt.Before(); err != nil {
			return Info{}, err
		}
	}
	if opt.Exclusive {
		// link(2) fails if the name exists, which makes creation exclusive
		// even against another process racing us.
		if err := d.Link(tmp, base); err != nil {
			return Info{}, writeError(err, t.abs)
		}
		d.Remove(tmp)
	} else if err := d.Rename(tmp, base); err != nil {
		return Info{}, writeError(err, t.abs)
	}
	committed = true
	if !opt.NoSync {
		syncDir(d)
	}
	fi, err := d.Stat(base)
	if err != nil {
		return Info{}, AsError(err, t.abs)
	}
	sweepStaleTemps(d, t.r.path+"/"+dir)
	return infoOf(fi), nil
}

// writeError classifies a failure of the write itself. A full disk gets
// the next step, and the assurance that matters: the temp file is removed
// (WriteFile's deferred cleanup) and the file is as it was.
func writeError(err error, abs string) error {
	if errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) {
		return &Error{Code: CodeNoSpace, Path: abs, Err: err, Message: fmt.Sprintf(
			"%s was not saved: %s. Nothing was written: the file is intact (or still absent). Free space on the file system holding %s (or raise the quota there), then save again",
			abs, noSpaceCause(err), path.Dir(abs))}
	}
	return AsError(err, abs)
}

// A writer killed between creating its temp file and renaming it (SIGKILL,
// a crash, power loss) leaves the temp file behind. Listings hide such
// files; the next successful write in the same folder removes those older
// than staleTempAge, which no live writer's temp file is (a save writes its
// temp file and renames it within moments). One process looks at a folder
// at most once every sweepEvery, so a save in a folder of 200,000 entries
// does not list it every time.
const (
	staleTempAge = time.Minute
	sweepEvery   = 10 * time.Minute
	sweepsKept   = 4096
)

var sweeps struct {
	sync.Mutex
	last map[string]time.Time // folder (real path) -> last sweep
}

// sweepStaleTemps removes editord's own stale temp files from the folder d
// (key names it). It reads the folder in batches, so memory stays small
// however many entries it has, and touches only regular files whose names
// have exactly the shape createTemp gives them.
func sweepStaleTemps(d *os.Root, key string) {
	now := time.Now()
	sweeps.Lock()
	if sweeps.last == nil || len(sweeps.last) >= sweepsKept {
		sweeps.last = map[string]time.Time{}
	}
	if at, ok := sweeps.last[key]; ok && now.Sub(at) < sweepEvery {
		sweeps.Unlock()
		return
	}
	sweeps.last[key] = now
	sweeps.Unlock()
	f, err := d.OpenFile(".", os.O_RDONLY|syscall.O_DIRECTORY, 0)
	if err != nil {
		return
	}
	defer f.Close()
	for {
		names, err := f.Readdirnames(1024)
		for _, name := range names {
			if !isOwnTempName(name) {
				continue
			}
			fi, err := d.Lstat(name)
			if err != nil || !fi.Mode().IsRegular() || now.Sub(fi.ModTime()) < staleTempAge {
				continue
			}
			d.Remove(name)
		}
		if err != nil {
			return
		}
	}
}

// isOwnTempName is IsTempName made strict for deleting: "." + a name +
// ".editord-" + 12 lowercase hex digits + ".tmp", as createTemp makes them.
func isOwnTempName(name string) bool {
	if !IsTempName(name) {
		return false
	}
	stem := strings.TrimSuffix(name, ".tmp")
	i := strings.LastIndex(stem, tempMarker)
	if i < 1 {
		return false
	}
	hexPart := stem[i+len(tempMarker):]
	if len(hexPart) != 12 {
		return false
	}
	for _, c := range hexPart {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

func createTemp(d *os.Root, base string) (string, *os.File, error) {
	for range 10 {
		var b [6]byte
		rand.Read(b[:])
		name := "." + truncateName(base) + tempMarker + hex.EncodeToString(b[:]) + ".tmp"
		f, err := d.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			return name, f, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return "", nil, err
		}
	}
	return "", nil, errors.New("could not create a temp file")
}

// truncateName keeps temp names within NAME_MAX for long base names.
func truncateName(base string) string {
	if len(base) > 200 {
		return base[:200]
	}
	return base
}

// writeAll fills the temp file f and gives it the old file's owner, mode
// and, from src when there was an old file, its extended attributes and
// ACL.
func writeAll(f, src *os.File, data []byte, perm fs.FileMode, uid, gid int, sync bool) error {
	_, err := f.Write(data)
	if err == nil && uid >= 0 {
		// Best effort: keeping the owner only works for a privileged process
		// or when the owner is already us.
		f.Chown(uid, gid)
	}
	if err == nil {
		// After chown: chown clears setuid/setgid bits.
		err = f.Chmod(perm)
	}
	if err == nil && src != nil {
		// After chown and chmod: chown clears file capabilities, chmod
		// rewrites an ACL's mask.
		err = copyXattrs(src, f)
	}
	if err == nil && sync {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func syncDir(d *os.Root) {
	if f, err := d.Open("."); err == nil {
		f.Sync()
		f.Close()
	}
}
