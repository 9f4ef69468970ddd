package shell

import (
	"errors"
	"os"
	"path"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/fsnotify/fsnotify"
)

// WatchOp is what happened to a watched path; an event may carry several.
type WatchOp uint32

const (
	WatchCreate WatchOp = 1 << iota // a name appeared (created, or renamed here)
	WatchWrite                      // a file's content was written
	WatchRemove                     // a name was removed
	WatchRename                     // a name was renamed away (the old name)
	WatchChmod                      // attributes changed (touch, chmod; also a link count drop)
)

// Has reports whether o includes op.
func (o WatchOp) Has(op WatchOp) bool { return o&op != 0 }

func (o WatchOp) String() string {
	var parts []string
	for _, n := range []struct {
		op   WatchOp
		name string
	}{{WatchCreate, "create"}, {WatchWrite, "write"}, {WatchRemove, "remove"}, {WatchRename, "rename"}, {WatchChmod, "chmod"}} {
		if o.Has(n.op) {
			parts = append(parts, n.name)
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, "|")
}

// WatchEvent is one change seen in a watched folder.
type WatchEvent struct {
	Path string // absolute
	Op   WatchOp
	// From is, for a create made by a rename inside the watched folders,
	// the absolute path the name came from (the kernel pairs the two halves
	// of the rename); "" otherwise.
	From string
}

// ErrWatchOverflow is sent on Errors when the kernel dropped events (its
// queue overflowed): the caller must rescan what it watches.
var ErrWatchOverflow = errors.New("watch: the kernel's event queue overflowed; some changes were not reported")

// Watcher reports changes in folders inside the jail. It is the only user of
// fsnotify in editord. Watches are per folder (not recursive): the caller
// adds each folder it wants, within the inotify budget (see InotifyBudget).
type Watcher struct {
	j      *Jail
	w      *fsnotify.Watcher
	events chan WatchEvent
	errs   chan error
	done   chan struct{}
	once   sync.Once

	mu      sync.Mutex
	watched map[string]bool
}

// NewWatcher starts a watcher with no folders.
func (j *Jail) NewWatcher() (*Watcher, error) {
	fw, err := fsnotify.NewBufferedWatcher(4096)
	if err != nil {
		return nil, AsError(err, "")
	}
	w := &Watcher{
		j:       j,
		w:       fw,
		events:  make(chan WatchEvent, 4096),
		errs:    make(chan error, 16),
		done:    make(chan struct{}),
		watched: map[string]bool{},
	}
	go w.forward()
	return w, nil
}

// Events delivers changes in the watched folders. It is closed by Close.
// Paths are absolute; editord's own temp files are reported too (callers
// use them as a hint that the write is one of editord's), but deny-glob
// matches are not.
func (w *Watcher) Events() <-chan WatchEvent { return w.events }

// Errors delivers trouble the watcher met; ErrWatchOverflow means events
// were lost.
func (w *Watcher) Errors() <-chan error { return w.errs }

func (w *Watcher) forward() {
	defer close(w.events)
	for {
		select {
		case ev, ok := <-w.w.Events:
			if !ok {
				return
			}
			out, keep := w.convert(ev)
			if !keep {
				continue
			}
			select {
			case w.events <- out:
			case <-w.done:
				return
			}
		case err, ok := <-w.w.Errors:
			if !ok {
				return
			}
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				err = ErrWatchOverflow
			}
			if errors.Is(err, syscall.EINVAL) {
				// fsnotify dropping the watch of a folder that moved away,
				// which the kernel had dropped already (the folder was
				// removed too): the events tell all of it.
				continue
			}
			select {
			case w.errs <- err:
			default: // the caller is behind on errors already; one is enough to act on
			}
		case <-w.done:
			return
		}
	}
}

func (w *Watcher) convert(ev fsnotify.Event) (WatchEvent, bool) {
	var op WatchOp
	if ev.Has(fsnotify.Create) {
		op |= WatchCreate
	}
	if ev.Has(fsnotify.Write) {
		op |= WatchWrite
	}
	if ev.Has(fsnotify.Remove) {
		op |= WatchRemove
	}
	if ev.Has(fsnotify.Rename) {
		op |= WatchRename
	}
	if ev.Has(fsnotify.Chmod) {
		op |= WatchChmod
	}
	if op == 0 || ev.Name == "" || !path.IsAbs(ev.Name) {
		return WatchEvent{}, false
	}
	if w.j.Denied(ev.Name, false) {
		return WatchEvent{}, false
	}
	out := WatchEvent{Path: path.Clean(ev.Name), Op: op}
	if op.Has(WatchCreate) {
		if from := renamedFrom(ev); from != "" && w.j.Contains(from) && !w.j.Denied(from, false) {
			out.From = from
		}
	}
	return out, true
}

// renamedFrom recovers the old path fsnotify paired with a create made by a
// rename. fsnotify keeps it unexported and shows it only in Event.String,
// as `OP "new" ← "old"` with both paths Go-quoted; shell/watch_test.go
// pins this format, so an fsnotify upgrade that changes it fails a test
// rather than silently turning moves into delete+create.
func renamedFrom(ev fsnotify.Event) string {
	s := ev.String()
	i := strings.IndexByte(s, '"')
	if i < 0 {
		return ""
	}
	q, err := strconv.QuotedPrefix(s[i:])
	if err != nil {
		return ""
	}
	rest, ok := strings.CutPrefix(s[i+len(q):], " ← ")
	if !ok {
		return ""
	}
	q, err = strconv.QuotedPrefix(rest)
	if err != nil {
		return ""
	}
	from, err := strconv.Unquote(q)
	if err != nil || !path.IsAbs(from) {
		return ""
	}
	return path.Clean(from)
}

// Add watches the folder abs (not its subfolders). It must be a folder
// inside the jail, not a deny-glob match and not a symlink (a watch follows
// the folder the name meant when it was added, so the caller names real
// folders). Adding a watched folder again is a no-op. When the kernel's
// watch budget is spent the error satisfies IsWatchBudget.
func (w *Watcher) Add(abs string) error {
	t, err := w.j.prepare(abs, false, false)
	if err != nil {
		return err
	}
	fi, err := t.r.root.Lstat(t.rel)
	if err != nil {
		return AsError(err, t.abs)
	}
	if !fi.IsDir() {
		return Errorf(CodeNotADirectory, t.abs, "%s is not a folder; only folders are watched", t.abs)
	}
	real := t.realAbs()
	if err := w.w.Add(real); err != nil {
		if errors.Is(err, syscall.ENOSPC) {
			return &Error{Code: CodeTooLarge, Path: t.abs, Err: errWatchBudget,
				Message: "the inotify watch budget (fs.inotify.max_user_watches) is spent; " + t.abs + " is not watched"}
		}
		if errors.Is(err, fsnotify.ErrClosed) {
			return Errorf(CodeInvalidArgument, t.abs, "the watcher is closed")
		}
		return AsError(err, t.abs)
	}
	w.mu.Lock()
	w.watched[real] = true
	w.mu.Unlock()
	return nil
}

var errWatchBudget = errors.New("inotify watch budget spent")

// IsWatchBudget reports whether err is Add's "no watch left" refusal.
func IsWatchBudget(err error) bool { return errors.Is(err, errWatchBudget) }

// Remove stops watching abs. A folder that is not watched (or that the
// kernel already dropped because it was removed) is not an error.
func (w *Watcher) Remove(abs string) error {
	if err := CheckPath(abs); err != nil {
		return err
	}
	if !w.j.Contains(abs) {
		return Errorf(CodeOutsideJail, abs, "%s is outside the jail", abs)
	}
	abs = path.Clean(abs)
	w.mu.Lock()
	delete(w.watched, abs)
	w.mu.Unlock()
	if err := w.w.Remove(abs); err != nil && !errors.Is(err, fsnotify.ErrNonExistentWatch) && !errors.Is(err, fsnotify.ErrClosed) {
		// EINVAL: the kernel dropped the watch already (folder removed).
		if errors.Is(err, syscall.EINVAL) {
			return nil
		}
		return AsError(err, abs)
	}
	return nil
}

// Len is how many folders this watcher has added (and not removed).
func (w *Watcher) Len() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.watched)
}

// Close stops the watcher and releases its watches; Events is closed.
func (w *Watcher) Close() error {
	var err error
	w.once.Do(func() {
		close(w.done)
		err = w.w.Close()
	})
	return err
}

// InotifyBudget reads the kernel's per-user watch limit
// (/proc/sys/fs/inotify/max_user_watches). ok is false where it cannot be
// read (not Linux, or /proc hidden); callers then assume a conservative
// default.
func InotifyBudget() (n int, ok bool) {
	data, err := os.ReadFile("/proc/sys/fs/inotify/max_user_watches")
	if err != nil {
		return 0, false
	}
	n, err = strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil || n <= 0 {
		return 0, false
	}
	return n, true
}

// GitIgnored reports whether abs (a path inside base, both in the jail) is
// excluded by the .gitignore files from base down to abs's folder, or by
// base's .git/info/exclude: the rules a Walk of base with Gitignore set
// applies, for one path met later (a folder created after the walk).
func (j *Jail) GitIgnored(base, abs string, isDir bool) bool {
	bt, err := j.prepare(base, true, false)
	if err != nil {
		return false
	}
	bl := j.lexRel(base)
	al := j.lexRel(abs)
	if !j.Contains(abs) {
		return false
	}
	var rel string
	switch {
	case al == bl:
		return false
	case bl == "":
		rel = al
	case strings.HasPrefix(al, bl+"/"):
		rel = al[len(bl)+1:]
	default:
		return false
	}
	root := bt.r.root
	baseRel := bt.rel
	var levels IgnoreStack
	if data, ok := readIgnoreFile(root, path.Join(baseRel, ".git/info/exclude")); ok {
		levels = levels.With("", ParseIgnoreFile(data))
	}
	segs := strings.Split(rel, "/")
	dir := ""
	for i, seg := range segs {
		if data, ok := readIgnoreFile(root, path.Join(baseRel, dir, ".gitignore")); ok {
			levels = levels.With(dir, ParseIgnoreFile(data))
		}
		child := seg
		if dir != "" {
			child = dir + "/" + seg
		}
		last := i == len(segs)-1
		if levels.Ignored(child, !last || isDir) {
			return true
		}
		dir = child
	}
	return false
}
