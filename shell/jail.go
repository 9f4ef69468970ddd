package shell

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
)

// Config is the jail's part of the configuration.
type Config struct {
	Roots         []string // absolute folders; at least one
	Deny          []string // gitignore-syntax globs refused for every call
	MaxReadBytes  int64
	MaxWriteBytes int64
	Noise         []string // folder names skipped by walks that ask for it
}

// Jail resolves and serves paths inside its roots.
type Jail struct {
	roots    []*jroot
	deny     *Patterns
	maxRead  int64
	maxWrite int64
	noise    map[string]bool
	// listing names what decides a listing (the deny globs and noise
	// folders, as configured), for FileTree snapshots taken under
	// another configuration to be told apart.
	listing string
}

type jroot struct {
	path string // canonical absolute path, no trailing slash
	root *os.Root
}

const maxSymlinkHops = 40

// Open opens every root. Roots are canonicalized (symlinks in the root's own
// path are resolved once, here) so that later comparisons are lexical.
func Open(cfg Config) (*Jail, error) {
	if len(cfg.Roots) == 0 {
		return nil, fmt.Errorf("jail: no roots configured")
	}
	j := &Jail{
		listing:  fmt.Sprintf("%q %q", cfg.Deny, cfg.Noise),
		deny:     ParsePatterns(cfg.Deny),
		maxRead:  cfg.MaxReadBytes,
		maxWrite: cfg.MaxWriteBytes,
		noise:    map[string]bool{},
	}
	for _, n := range cfg.Noise {
		j.noise[n] = true
	}
	for _, r := range cfg.Roots {
		canon, err := Canonical(r)
		if err != nil {
			j.Close()
			return nil, fmt.Errorf("jail root %s: %w", r, err)
		}
		root, err := os.OpenRoot(canon)
		if err != nil {
			j.Close()
			return nil, fmt.Errorf("jail root %s: %w", r, err)
		}
		j.roots = append(j.roots, &jroot{path: canon, root: root})
	}
	return j, nil
}

// Canonical returns the absolute, symlink-free form of an existing folder.
func Canonical(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	canon, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(canon)
	if err != nil {
		return "", err
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("%s is not a folder", dir)
	}
	return canon, nil
}

// RepoTop is the top-level folder of the git repository holding the
// canonical folder dir (the nearest folder at or above it with a .git
// folder or gitfile), or "" when dir is in none.
func RepoTop(dir string) string {
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if fi, err := os.Lstat(filepath.Join(d, ".git")); err == nil && (fi.IsDir() || fi.Mode().IsRegular()) {
			return d
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

// Close releases the root handles.
func (j *Jail) Close() error {
	for _, r := range j.roots {
		r.root.Close()
	}
	return nil
}

// Roots lists the canonical jail roots.
func (j *Jail) Roots() []string {
	out := make([]string, len(j.roots))
	for i, r := range j.roots {
		out[i] = r.path
	}
	return out
}

// Noise reports whether name is a configured noise folder.
func (j *Jail) Noise(name string) bool { return j.noise[name] }

// MaxReadBytes is the jail's read cap.
func (j *Jail) MaxReadBytes() int64 { return j.maxRead }

// Contains reports whether abs lies lexically inside a jail root.
func (j *Jail) Contains(abs string) bool {
	_, _, err := j.locate(abs)
	return err == nil
}

// CheckPath validates a path without touching the disk: NUL bytes, absolute
// form and jail membership.
func CheckPath(abs string) error {
	if strings.IndexByte(abs, 0) >= 0 {
		return Errorf(CodeInvalidArgument, strings.ReplaceAll(abs, "\x00", `\0`), "path contains a NUL byte; pass a plain path")
	}
	if !filepath.IsAbs(abs) {
		return Errorf(CodeInvalidArgument, abs, "%s is not absolute (shell takes absolute paths)", abs)
	}
	return nil
}

// locate finds the root holding abs lexically and the path relative to it
// ("." for the root itself).
func (j *Jail) locate(abs string) (*jroot, string, error) {
	if err := CheckPath(abs); err != nil {
		return nil, "", err
	}
	abs = filepath.Clean(abs)
	var best *jroot
	var rel string
	for _, r := range j.roots {
		if abs == r.path {
			return r, ".", nil
		}
		if strings.HasPrefix(abs, r.path+"/") || r.path == "/" {
			if best == nil || len(r.path) > len(best.path) {
				best, rel = r, strings.TrimPrefix(abs[len(r.path):], "/")
			}
		}
	}
	if best == nil {
		return nil, "", Errorf(CodeOutsideJail, abs, "%s is outside the jail (%s); use a path inside the workspace", abs, strings.Join(j.Roots(), ", "))
	}
	return best, rel, nil
}

// target is a resolved location: the root, the symlink-free path relative
// to it, and the path the caller named.
type target struct {
	r    *jroot
	rel  string // symlinks resolved (all of them, or all but the last)
	abs  string // the caller's absolute path, for messages
	link bool   // the caller's last component was a symlink that was followed
	// fi is rel's Lstat when resolve looked its last component up (a
	// file or folder, not a symlink), so prepare need not walk rel again.
	fi fs.FileInfo
}

func (t target) realAbs() string {
	if t.rel == "." {
		return t.r.path
	}
	return t.r.path + "/" + t.rel
}

// resolve follows symlinks inside the root, lexically, so that a link whose
// target leaves the jail is refused with outside_jail before any I/O on the
// target. The result is only advisory for safety: the operation itself runs
// through os.Root, which refuses an escape even if the tree changed since.
func (j *Jail) resolve(abs string, followLast bool) (target, error) {
	return j.resolveIn(abs, followLast, nil)
}

// resolveIn is resolve starting from the deepest of dirs' folders on the
// path, keeping in dirs the folders it opens (nil: none).
func (j *Jail) resolveIn(abs string, followLast bool, dirs *Folders) (target, error) {
	r, rel, err := j.locate(abs)
	if err != nil {
		return target{}, err
	}
	t := target{r: r, abs: filepath.Clean(abs)}
	pending := splitPath(relOrEmpty(rel))
	var done []string
	hops := 0
	// cur is the folder done names, held open so that each step looks up
	// one name: resolving a path of n components costs O(n) lookups, not
	// the O(n²) of looking up every prefix from the root (a 1,000-level
	// path took seconds per call that way).
	cur := r.root
	owned := false // cur is to be closed here (not the root, not dirs')
	reset := func() {
		if owned {
			cur.Close()
		}
		cur, owned = r.root, false
	}
	defer reset()
	for len(pending) > 0 {
		name := pending[0]
		pending = pending[1:]
		last := len(pending) == 0
		if last && !followLast {
			done = append(done, name)
			break
		}
		if !last && dirs != nil {
			if d, ok := dirs.get(r, path.Join(path.Join(done...), name)); ok {
				done = append(done, name)
				reset()
				cur = d
				continue
			}
		}
		fi, err := cur.Lstat(name)
		if err != nil {
			// The rest does not exist (yet): keep it as written and let the
			// operation report not_found or create it.
			done = append(done, name)
			done = append(done, pending...)
			break
		}
		if fi.Mode()&os.ModeSymlink == 0 {
			done = append(done, name)
			if last {
				t.fi = fi
				continue
			}
			if !fi.IsDir() {
				// A file: nothing exists beneath it.
				done = append(done, pending...)
				break
			}
			next, err := openDirRoot(cur, name)
			if err != nil {
				// Gone or swapped meanwhile: nothing exists beneath it.
				done = append(done, pending...)
				break
			}
			reset()
			cur, owned = next, true
			if dirs != nil && dirs.keep(r, path.Join(done...), next) {
				owned = false // dirs closes it
			}
			continue
		}
		hops++
		if hops > maxSymlinkHops {
			return target{}, Errorf(CodeInvalidArgument, abs, "%s goes through more than %d symbolic links (a loop?)", abs, maxSymlinkHops)
		}
		dest, err := cur.Readlink(name)
		switch {
		case errors.Is(err, syscall.EINVAL):
			// No longer a symlink: swapped meanwhile. Look at it again (the
			// hop count bounds the retries).
			pending = append([]string{name}, pending...)
			continue
		case errors.Is(err, fs.ErrNotExist):
			done = append(done, name)
			done = append(done, pending...)
			pending = nil
			continue
		case err != nil:
			return target{}, AsError(err, abs)
		}
		cand := path.Join(path.Join(done...), name)
		reset() // the link's target is resolved from the root again
		var destRel string
		if filepath.IsAbs(dest) {
			dest = filepath.Clean(dest)
			switch {
			case dest == r.path:
				destRel = ""
			case strings.HasPrefix(dest, r.path+"/"):
				destRel = dest[len(r.path)+1:]
			default:
				return target{}, Errorf(CodeOutsideJail, abs, "%s is a symlink to %s, which is outside the jail", abs, dest)
			}
		} else {
			destRel = path.Join(path.Dir(cand), dest)
			if destRel == ".." || strings.HasPrefix(destRel, "../") {
				return target{}, Errorf(CodeOutsideJail, abs, "%s is a symlink to %s, which leads outside the jail", abs, dest)
			}
			if destRel == "." {
				destRel = ""
			}
		}
		if last {
			t.link = true
		}
		done = nil
		pending = append(splitPath(destRel), pending...)
	}
	t.rel = path.Join(done...)
	if t.rel == "" {
		t.rel = "."
	}
	return t, nil
}

// openDirRoot opens the folder rel of r as a Root of its own. os.Root's
// OpenRoot opens its last component without O_DIRECTORY, so a FIFO there
// blocks the call until a writer comes (forever, usually). With "rel/."
// every named component is an intermediate one, which os.Root opens with
// O_DIRECTORY: anything but a folder fails at once with not a directory.
func openDirRoot(r *os.Root, rel string) (*os.Root, error) {
	return r.OpenRoot(rel + "/.")
}

func relOrEmpty(rel string) string {
	if rel == "." {
		return ""
	}
	return rel
}

// lexRel is abs relative to its jail root as the caller named it, with no
// symlink resolved ("" for the root, and for a path outside the jail).
func (j *Jail) lexRel(abs string) string {
	_, rel, err := j.locate(abs)
	if err != nil {
		return ""
	}
	return relOrEmpty(rel)
}

// denied reports whether rel (relative to its jail root) matches a deny glob.
func (j *Jail) denied(rel string, isDir bool) bool {
	if rel == "." {
		return false
	}
	return j.deny.Excludes(rel, isDir)
}

// Denied reports whether the absolute path matches a deny glob, for callers
// that list paths they got elsewhere (git's index, for example).
func (j *Jail) Denied(abs string, isDir bool) bool {
	_, rel, err := j.locate(abs)
	if err != nil {
		return true
	}
	return j.denied(rel, isDir)
}

// checkAccess refuses deny-glob matches, under the name the caller used and
// under the resolved one, and writes inside .git.
func (j *Jail) checkAccess(t target, lexRel string, isDir, write bool) error {
	if j.denied(lexRel, isDir) || (t.rel != lexRel && j.denied(t.rel, isDir)) {
		return Errorf(CodeDenied, t.abs, "%s matches a deny rule in the jail configuration; it cannot be read, listed or changed", t.abs)
	}
	// Every spelling git refuses as .git (any case, NTFS and HFS+
	// look-alikes: a case-insensitive file system reads .GIT as .git), as
	// git's verify_path does on every platform.
	if write && (HasDotGitSegment(lexRel) || HasDotGitSegment(t.rel)) {
		return Errorf(CodeDenied, t.abs, "%s is inside .git (or a name a file system may read as .git); git's own files are changed only through editor::git::* functions", t.abs)
	}
	return nil
}

// prepare resolves abs and applies the access rules: the shared first step
// of every operation.
func (j *Jail) prepare(abs string, followLast, write bool) (target, error) {
	return j.prepareIn(abs, followLast, write, nil)
}

// prepareIn is prepare resolving through dirs (resolveIn).
func (j *Jail) prepareIn(abs string, followLast, write bool, dirs *Folders) (target, error) {
	t, err := j.resolveIn(abs, followLast, dirs)
	if err != nil {
		return target{}, err
	}
	_, lexRel, _ := j.locate(abs)
	isDir := false
	if t.fi != nil {
		isDir = t.fi.IsDir()
	} else if fi, err := t.r.root.Lstat(t.rel); err == nil {
		isDir = fi.IsDir()
	}
	if err := j.checkAccess(t, lexRel, isDir, write); err != nil {
		return target{}, err
	}
	return t, nil
}
