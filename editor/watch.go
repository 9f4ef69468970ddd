package editor

// The filesystem watcher: writes made by other programs inside the active
// root become editor::changed events with cause "external" (CONTRACT.md §5).
//
// One process per state dir runs it, elected with a lock file in the state
// dir (workspace.Store.Elect); the others wait and take over when the
// holder exits, however it exits. The elected process watches the active
// root folder by folder (inotify is not recursive), within the kernel's
// watch budget, the folders of open buffers and expanded folders first.
//
// Raw events are coalesced into batches (a burst, an editor's
// write-temp-and-rename, a git checkout), then each path is classified by
// what was there before the batch and what is there now: created,
// modified, deleted, or moved when the kernel paired the two halves of a
// rename. Writes this service made itself are journaled by the function
// that made them (editor::save, ...); the watcher follows the journal and
// drops the filesystem echo of those, so no write is reported twice.

import (
	"context"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/editord/editord/shell"
	"github.com/editord/editord/workspace"
)

// Tunables of the watcher.
const (
	// watchQuiet: a batch is processed once no event came for this long...
	watchQuiet = 60 * time.Millisecond
	// watchMaxDelay: ...or at the latest this long after its first event,
	// so a file written without pause is still reported.
	watchMaxDelay = 400 * time.Millisecond
	// watchGrace is how long a change that looks external waits for a
	// journal event saying it was ours (editor::delete, editor::move, and
	// any write that does not hold the save lock journal just after their
	// filesystem call). It is most of the latency of an external event.
	watchGrace = 250 * time.Millisecond
	// watchGraceHinted is the wait when an editord temp file for the path
	// was seen in the batch: almost certainly one of our writes.
	watchGraceHinted = time.Second
	// ownKeep is how long a journal event of ours is kept for matching.
	ownKeep = 10 * time.Second
	// watchCacheBytes bounds the content kept for open buffers.
	watchCacheBytes = 64 << 20
	// watchRecordPoll is how often the record is checked for a new active
	// root, buffers or expanded folders.
	watchRecordPoll = 100 * time.Millisecond
	// watchTick drives batching and the grace deadlines.
	watchTick = 15 * time.Millisecond
	// defaultInotifyBudget is assumed when the kernel's limit is unknown.
	defaultInotifyBudget = 8192
	// recentCap bounds the versions remembered for changed paths.
	recentCap = 100_000
)

// WatcherStatus describes this process's part in watching the workspace.
type WatcherStatus struct {
	Elected   bool   `json:"elected" desc:"True when this process holds the watcher lock of the state dir and runs the watcher."`
	Root      string `json:"root" desc:"The root being watched (empty when not elected)."`
	Watched   int    `json:"watched" desc:"Folders watched."`
	Uncovered int    `json:"uncovered" desc:"Folders of the root (not ignored by .gitignore, not noise folders) left unwatched because the inotify budget is spent; external changes in them are not reported."`
	Limit     int    `json:"limit" desc:"Most folders this watcher will watch: the inotify budget minus headroom for other programs."`
}

// watchState is the watcher's shared view for WatcherStatus. It lives in a
// side table rather than in Service so that the watcher stays in this file.
type watchState struct {
	mu    sync.Mutex
	st    WatcherStatus
	limit int // when > 0, overrides the budget-derived folder limit (tests)
}

var watchStates sync.Map // *Service → *watchState

func (s *Service) watchState() *watchState {
	v, _ := watchStates.LoadOrStore(s, &watchState{})
	return v.(*watchState)
}

func (ws *watchState) set(st WatcherStatus) {
	ws.mu.Lock()
	ws.st = st
	ws.mu.Unlock()
}

// WatcherStatus reports whether this process runs the watcher and how much
// of the root it covers.
func (s *Service) WatcherStatus() WatcherStatus {
	v, ok := watchStates.Load(s)
	if !ok {
		return WatcherStatus{}
	}
	ws := v.(*watchState)
	ws.mu.Lock()
	defer ws.mu.Unlock()
	return ws.st
}

// setWatchLimit caps the folders the watcher adds (tests of the budget).
func (s *Service) setWatchLimit(n int) {
	ws := s.watchState()
	ws.mu.Lock()
	ws.limit = n
	ws.mu.Unlock()
}

// RunWatcher runs the filesystem watcher of the state dir until ctx ends:
// it waits to be elected (one process per state dir holds the lock; the
// others retry every workspace.ElectionRetry), then watches the active root
// and follows it when editor::workspace::open repoints it. Trouble is
// reported through Options.Warn; RunWatcher itself never fails. Call it
// once per Service, and end ctx (waiting for RunWatcher to return) before
// Close.
func (s *Service) RunWatcher(ctx context.Context) {
	ws := s.watchState()
	defer watchStates.Delete(s)
	for ctx.Err() == nil {
		release, err := s.store.Elect(ctx, workspace.WatcherElection, workspace.ElectionRetry)
		if err != nil {
			return
		}
		ws.set(WatcherStatus{Elected: true})
		s.watchElected(ctx, ws)
		ws.set(WatcherStatus{})
		release()
	}
}

// watchElected watches the active root, session after session, while this
// process holds the election.
func (s *Service) watchElected(ctx context.Context, ws *watchState) {
	fctx, stop := context.WithCancel(ctx)
	defer stop()
	own := newOwnTracker(s.store)
	go s.store.Follow(fctx, own.add)
	lastWarn := ""
	for ctx.Err() == nil {
		root, err := s.root()
		var ses *watchSession
		if err == nil {
			ses, err = s.newWatchSession(ws, own, root)
		}
		if err != nil {
			if msg := fmt.Sprintf("watcher: cannot watch %s: %v; retrying every second", root, err); msg != lastWarn {
				s.warn(msg)
				lastWarn = msg
			}
			s.sleep(ctx, time.Second)
			continue
		}
		lastWarn = ""
		ses.run(ctx)
		ses.close()
		ws.set(WatcherStatus{Elected: true})
	}
}

func (s *Service) sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// ---- our own writes, from the journal ----

type ownEvent struct {
	at      time.Time
	seq     int64
	root    string
	path    string
	from    string
	kind    string
	version string
}

// ownTracker keeps the recent journal events not made by the watcher, so
// that the filesystem echo of our own writes can be recognized.
type ownTracker struct {
	store  *workspace.Store
	mu     sync.Mutex
	maxSeq int64
	cursor int64
	byKey  map[string][]ownEvent // by path, and by from for moves
	// forgotten: when an external change to a path was last reported. Our
	// events received before that are older than it, so they cannot be
	// the echo of a later change.
	forgotten map[string]time.Time
	gen       uint64 // bumped when events are added
	notify    chan struct{}
}

func newOwnTracker(store *workspace.Store) *ownTracker {
	t := &ownTracker{store: store, byKey: map[string][]ownEvent{}, forgotten: map[string]time.Time{}, gen: 1, notify: make(chan struct{}, 1)}
	_, t.cursor, _, _ = store.Since(1 << 62) // the current end
	t.maxSeq = t.cursor
	return t
}

func (t *ownTracker) add(evs []workspace.Event) {
	now := time.Now()
	t.mu.Lock()
	added := false
	for _, ev := range evs {
		if ev.Seq <= t.maxSeq {
			continue
		}
		t.maxSeq = ev.Seq
		if ev.Cause == "external" {
			continue
		}
		o := ownEvent{at: now, seq: ev.Seq, root: ev.Root, path: ev.Path, kind: ev.Kind}
		if ev.From != nil {
			o.from = *ev.From
		}
		if ev.Version != nil {
			o.version = *ev.Version
		}
		t.byKey[o.path] = append(t.byKey[o.path], o)
		if o.from != "" && o.from != o.path {
			t.byKey[o.from] = append(t.byKey[o.from], o)
		}
		added = true
	}
	if t.maxSeq > t.cursor {
		t.cursor = t.maxSeq
	}
	if added {
		t.gen++
	}
	t.pruneLocked(now)
	t.mu.Unlock()
	if added {
		select {
		case t.notify <- struct{}{}:
		default:
		}
	}
}

// sync reads the journal now, for a decision that cannot wait for Follow's
// next poll.
func (t *ownTracker) sync() {
	t.mu.Lock()
	cur := t.cursor
	t.mu.Unlock()
	evs, next, reset, err := t.store.Since(cur)
	if err != nil {
		return
	}
	if reset && next < cur {
		return // the journal restarted; Follow catches up with it
	}
	t.add(evs)
}

func (t *ownTracker) generation() uint64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.gen
}

func (t *ownTracker) pruneLocked(now time.Time) {
	for p, at := range t.forgotten {
		if now.Sub(at) > ownKeep {
			delete(t.forgotten, p)
		}
	}
	for k, list := range t.byKey {
		i := 0
		for i < len(list) && now.Sub(list[i].at) > ownKeep {
			i++
		}
		switch {
		case i == len(list):
			delete(t.byKey, k)
		case i > 0:
			t.byKey[k] = list[i:]
		}
	}
}

// forget marks p as reported external now: an older write of ours must
// not hide a later external change to it.
func (t *ownTracker) forget(p string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.forgotten[p] = time.Now()
}

// match reports whether the change c is the filesystem echo of a write
// this service journaled.
func (t *ownTracker) match(root string, c *candidate) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	since := t.forgotten[c.rel]
	find := func(key string, ok func(e ownEvent) bool) bool {
		for _, e := range t.byKey[key] {
			if e.root == root && e.at.After(since) && ok(e) {
				return true
			}
		}
		return false
	}
	// A folder move or delete of ours covers everything beneath it.
	for _, a := range ancestors(c.rel) {
		if c.kind == "deleted" || c.kind == "moved" {
			if find(a, func(e ownEvent) bool {
				return (e.kind == "deleted" && e.path == a) || (e.kind == "moved" && e.from == a)
			}) {
				return true
			}
		}
		if c.kind == "created" || c.kind == "moved" {
			if find(a, func(e ownEvent) bool { return e.kind == "moved" && e.path == a && a != c.rel }) {
				return true
			}
		}
	}
	switch c.kind {
	case "modified", "created":
		return find(c.rel, func(e ownEvent) bool {
			if e.path != c.rel || (e.kind != "modified" && e.kind != "created" && e.kind != "moved") {
				return false
			}
			return c.version == "" || e.version == "" || e.version == c.version
		})
	case "deleted":
		return find(c.rel, func(e ownEvent) bool {
			return (e.kind == "deleted" && e.path == c.rel) || (e.kind == "moved" && e.from == c.rel)
		})
	case "moved":
		return find(c.rel, func(e ownEvent) bool {
			return e.kind == "moved" && e.path == c.rel && e.from == c.from
		})
	}
	return false
}

// ancestors lists the folders above rel, nearest last ("a", "a/b" for
// "a/b/c"); the root itself is not listed.
func ancestors(rel string) []string {
	var out []string
	for i := 0; i < len(rel); i++ {
		if rel[i] == '/' {
			out = append(out, rel[:i])
		}
	}
	return out
}

// ---- one watched root ----

type pending struct {
	first shell.WatchOp // op of the first event of the batch
	ops   shell.WatchOp // union of the batch's ops
	from  string        // root-relative source of a rename onto this path
}

type hint struct{ dir, base string }

type candidate struct {
	rel     string
	kind    string
	from    string
	isDir   bool
	data    []byte // the content now, when read whole
	version string // of data; "" when unknown (too large, unreadable)
	hinted  bool
	// dstExisted: for a move, whether something was at the destination
	// before (a rename over an existing file).
	dstExisted bool
	born       time.Time // when it was first held
	deadline   time.Time
	gone       bool   // merged away or dropped while held
	checked    uint64 // the ownTracker generation it was last matched against
}

type watchSession struct {
	s     *Service
	ws    *watchState
	own   *ownTracker
	root  string
	w     *shell.Watcher
	limit int
	// state is the state dir's root-relative path when it lies inside the
	// root ("" otherwise): its files change with every event, so watching
	// it would feed the journal to itself.
	state string

	watched   map[string]bool // folders watched (root-relative, "" the root)
	order     []string        // watched folders in the order added
	prio      map[string]bool // folders of buffers and expanded folders
	dirs      map[string]bool // folders of the root seen by walks (not ignored)
	unwatched map[string]bool // folders in dirs that the budget left out
	known     map[string]bool // files known to exist
	// ghosts are names that were created and gone again when their batch
	// was processed (temp files); the remove event may come in the next
	// batch, and must not read as the delete of a file that existed.
	ghosts   map[string]time.Time
	warnedAt int // unwatched count last warned about

	buffers    map[string]bool
	cache      map[string][]byte
	cacheBytes int
	recent     map[string]string // path → version last accounted for
	recTok     int64

	pend      map[string]*pending
	hints     map[hint]bool
	firstPend time.Time
	lastPend  time.Time
	held      []*candidate          // in arrival order; gone ones are skipped
	heldBy    map[string]*candidate // the live held change of each file
	rootGone  bool
	overflow  bool
}

func (s *Service) newWatchSession(ws *watchState, own *ownTracker, root string) (*watchSession, error) {
	w, err := s.jail.NewWatcher()
	if err != nil {
		return nil, err
	}
	ses := &watchSession{
		s: s, ws: ws, own: own, root: root, w: w,
		watched: map[string]bool{}, prio: map[string]bool{}, dirs: map[string]bool{},
		unwatched: map[string]bool{}, known: map[string]bool{}, ghosts: map[string]time.Time{},
		buffers: map[string]bool{}, cache: map[string][]byte{}, recent: map[string]string{},
		pend: map[string]*pending{}, hints: map[hint]bool{}, heldBy: map[string]*candidate{},
	}
	budget, ok := shell.InotifyBudget()
	if !ok {
		budget = defaultInotifyBudget
	}
	ses.limit = max(budget-max(budget/4, 512), 64)
	ws.mu.Lock()
	if ws.limit > 0 {
		ses.limit = ws.limit
	}
	ws.mu.Unlock()
	if r, ok := ses.rel(s.store.Dir()); ok {
		if r == "" {
			w.Close()
			return nil, fmt.Errorf("the state dir is the workspace root; put it elsewhere")
		}
		ses.state = r
	}
	if err := ses.start(); err != nil {
		w.Close()
		return nil, err
	}
	return ses, nil
}

func (ses *watchSession) abs(rel string) string {
	if rel == "" {
		return ses.root
	}
	return ses.root + "/" + rel
}

// rel is the root-relative form of an absolute path; ok is false outside
// the root.
func (ses *watchSession) rel(abs string) (string, bool) {
	r := stored(ses.root, abs)
	if strings.HasPrefix(r, "/") {
		return "", false
	}
	return r, true
}

func depth(rel string) int {
	if rel == "" {
		return 0
	}
	return strings.Count(rel, "/") + 1
}

// start walks the root and adds the watches: priority folders first, then
// the rest shallowest first, until the limit.
func (ses *watchSession) start() error {
	if in, err := ses.s.jail.Stat(ses.root); err != nil {
		return err
	} else if in.Kind != shell.KindDir {
		return fmt.Errorf("%s is not a folder", ses.root)
	}
	rec := ses.s.store.Load()
	ses.recTok = ses.s.store.RecordChanged()
	ses.loadSession(rec)
	var all []string
	ses.dirs[""] = true
	err := ses.s.jail.Walk(ses.root, shell.WalkOptions{Gitignore: true, Noise: true}, func(e shell.WalkEntry) error {
		if ses.skip(e.Rel) {
			return shell.SkipDir
		}
		switch e.Kind {
		case shell.KindDir:
			ses.dirs[e.Rel] = true
			all = append(all, e.Rel)
		default:
			ses.known[e.Rel] = true
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := ses.w.Add(ses.root); err != nil {
		return err
	}
	ses.noteWatched("")
	ses.ensurePrio()
	sort.SliceStable(all, func(a, b int) bool { return depth(all[a]) < depth(all[b]) })
	for _, d := range all {
		if !ses.watched[d] {
			ses.unwatched[d] = true
		}
	}
	ses.fill()
	if len(ses.unwatched) > 0 {
		// A tree too large to watch whole: files whose folder is not
		// watched raise no event, so they need not be remembered.
		for f := range ses.known {
			d := path.Dir(f)
			if d == "." {
				d = ""
			}
			if !ses.watched[d] {
				delete(ses.known, f)
			}
		}
	}
	ses.reportCoverage()
	ses.loadCache()
	ses.status()
	return nil
}

// loadSession reads the buffers and expanded folders of the root and
// computes the priority folders.
func (ses *watchSession) loadSession(rec *workspace.Record) {
	ses.buffers = map[string]bool{}
	ses.prio = map[string]bool{"": true}
	se := rec.Sessions[ses.root]
	if se == nil {
		return
	}
	addDir := func(d string) {
		if strings.HasPrefix(d, "/") || d == "." {
			return
		}
		ses.prio[d] = true
		for _, a := range ancestors(d) {
			ses.prio[a] = true
		}
	}
	for _, b := range se.Buffers {
		if strings.HasPrefix(b.Path, "/") || b.Path == "" {
			continue
		}
		ses.buffers[b.Path] = true
		if d := path.Dir(b.Path); d != "." {
			addDir(d)
		}
	}
	for _, e := range se.Expanded {
		if e != "" {
			addDir(e)
		}
	}
}

// ensurePrio watches every priority folder, making room by dropping the
// most recently added ordinary folder when the limit is reached.
func (ses *watchSession) ensurePrio() {
	ps := make([]string, 0, len(ses.prio))
	for p := range ses.prio {
		ps = append(ps, p)
	}
	sort.Slice(ps, func(a, b int) bool {
		if depth(ps[a]) != depth(ps[b]) {
			return depth(ps[a]) < depth(ps[b])
		}
		return ps[a] < ps[b]
	})
	for _, p := range ps {
		if ses.watched[p] || ses.skip(p) {
			continue
		}
		if in, err := ses.s.jail.Lstat(ses.abs(p)); err != nil || in.Kind != shell.KindDir {
			continue
		}
		if len(ses.watched) >= ses.limit && !ses.evict() {
			ses.unwatched[p] = true
			continue
		}
		if ses.add(p) && !ses.dirs[p] {
			// A priority folder the walk left out (ignored): learn its files
			// so that their changes are classified right.
			if ents, err := ses.s.jail.ReadDir(ses.abs(p)); err == nil {
				for _, e := range ents {
					if e.Kind != shell.KindDir {
						ses.known[path.Join(p, e.Name)] = true
					}
				}
			}
		}
	}
}

// evict unwatches the most recently added folder that is not a priority,
// to make room for one that is.
func (ses *watchSession) evict() bool {
	for i := len(ses.order) - 1; i >= 0; i-- {
		d := ses.order[i]
		if !ses.watched[d] || ses.prio[d] || d == "" {
			continue
		}
		ses.w.Remove(ses.abs(d))
		delete(ses.watched, d)
		ses.order = slices.Delete(ses.order, i, i+1)
		if ses.dirs[d] {
			ses.unwatched[d] = true
		}
		return true
	}
	return false
}

// add watches one folder; false when it could not be (budget, vanished).
func (ses *watchSession) add(d string) bool {
	if ses.watched[d] {
		return true
	}
	if err := ses.w.Add(ses.abs(d)); err != nil {
		if shell.IsWatchBudget(err) {
			// Other programs spent the kernel's budget: stay below what we
			// have now.
			ses.limit = max(len(ses.watched), 1)
			if ses.dirs[d] {
				ses.unwatched[d] = true
			}
		}
		return false
	}
	ses.noteWatched(d)
	return true
}

func (ses *watchSession) noteWatched(d string) {
	ses.watched[d] = true
	ses.order = append(ses.order, d)
	delete(ses.unwatched, d)
}

// fill watches unwatched folders, shallowest first, while the limit allows.
func (ses *watchSession) fill() {
	if len(ses.unwatched) == 0 || len(ses.watched) >= ses.limit {
		return
	}
	ds := make([]string, 0, len(ses.unwatched))
	for d := range ses.unwatched {
		ds = append(ds, d)
	}
	sort.Slice(ds, func(a, b int) bool {
		if depth(ds[a]) != depth(ds[b]) {
			return depth(ds[a]) < depth(ds[b])
		}
		return ds[a] < ds[b]
	})
	for _, d := range ds {
		if len(ses.watched) >= ses.limit {
			break
		}
		if !ses.add(d) && len(ses.watched) >= ses.limit {
			break
		}
		if !ses.watched[d] {
			// Vanished, or refused: it is not a folder to cover any more.
			if in, err := ses.s.jail.Lstat(ses.abs(d)); err != nil || in.Kind != shell.KindDir {
				delete(ses.unwatched, d)
				delete(ses.dirs, d)
			}
		}
	}
}

func (ses *watchSession) reportCoverage() {
	n := len(ses.unwatched)
	if n == 0 || n == ses.warnedAt {
		ses.warnedAt = n
		return
	}
	if ses.warnedAt == 0 || n > 2*ses.warnedAt || n < ses.warnedAt/2 {
		ses.s.warn(fmt.Sprintf("watcher: %d of %d folders under %s are not watched (limit %d folders: the inotify budget fs.inotify.max_user_watches minus headroom); "+
			"external changes in them are not reported; the folders of open buffers and expanded folders are always watched", n, len(ses.dirs), ses.root, ses.limit))
		ses.warnedAt = n
	}
}

func (ses *watchSession) status() {
	ses.ws.set(WatcherStatus{Elected: true, Root: ses.root, Watched: len(ses.watched), Uncovered: len(ses.unwatched), Limit: ses.limit})
}

// ---- the content of open buffers ----

func (ses *watchSession) loadCache() {
	for p := range ses.cache {
		if !ses.buffers[p] {
			ses.dropCache(p)
		}
	}
	for p := range ses.buffers {
		if _, ok := ses.cache[p]; ok {
			continue
		}
		res, err := ses.s.jail.ReadFile(ses.abs(p), ses.s.cfg.Limits.MaxFileBytes)
		if err != nil || res.Truncated {
			continue
		}
		ses.setCache(p, res.Data)
		ses.recent[p] = Version(res.Data)
	}
}

func (ses *watchSession) setCache(p string, data []byte) {
	if !ses.buffers[p] {
		return
	}
	ses.dropCache(p)
	if ses.cacheBytes+len(data) > watchCacheBytes {
		return
	}
	ses.cache[p] = data
	ses.cacheBytes += len(data)
}

func (ses *watchSession) dropCache(p string) {
	if old, ok := ses.cache[p]; ok {
		ses.cacheBytes -= len(old)
		delete(ses.cache, p)
	}
}

func (ses *watchSession) setRecent(p, v string) {
	if len(ses.recent) >= recentCap {
		clear(ses.recent)
	}
	if v == "" {
		delete(ses.recent, p)
		return
	}
	ses.recent[p] = v
}

// ---- the loop ----

// run processes events until ctx ends, the active root changes or the root
// goes away.
func (ses *watchSession) run(ctx context.Context) {
	tick := time.NewTicker(watchTick)
	defer tick.Stop()
	lastRec := time.Now()
	events := ses.w.Events()
	for {
		select {
		case <-ctx.Done():
			ses.finish()
			return
		case ev, ok := <-events:
			if !ok {
				ses.finish()
				return
			}
			ses.onEvent(ev)
			continue
		case err := <-ses.w.Errors():
			if err == shell.ErrWatchOverflow {
				ses.overflow = true
			} else {
				ses.s.warn(fmt.Sprintf("watcher: %v", err))
			}
		case <-ses.own.notify:
			ses.settleHeld(false)
		case <-tick.C:
		}
		now := time.Now()
		if ses.overflow {
			ses.overflow = false
			ses.s.warn(fmt.Sprintf("watcher: the kernel dropped events under %s; rescanning", ses.root))
			ses.rescan()
			ses.flush()
		} else if len(ses.pend) > 0 && (now.Sub(ses.lastPend) >= watchQuiet || now.Sub(ses.firstPend) >= watchMaxDelay) {
			ses.flush()
		}
		ses.settleHeld(false)
		if ses.rootGone {
			ses.finish()
			return
		}
		if now.Sub(lastRec) >= watchRecordPoll {
			lastRec = now
			if !ses.pollRecord() {
				ses.finish()
				return
			}
		}
	}
}

// finish reports what is still waiting before the session ends: those are
// real changes, and the next watcher will not see them.
func (ses *watchSession) finish() {
	if len(ses.pend) > 0 {
		ses.flush()
	}
	ses.settleHeld(true)
}

func (ses *watchSession) close() { ses.w.Close() }

// pollRecord follows the record: false when the active root moved away.
func (ses *watchSession) pollRecord() bool {
	tok := ses.s.store.RecordChanged()
	if tok == ses.recTok {
		return true
	}
	ses.recTok = tok
	rec := ses.s.store.Load()
	if rec.ActiveRoot != "" && rec.ActiveRoot != ses.root {
		return false
	}
	ses.loadSession(rec)
	ses.ensurePrio()
	ses.loadCache()
	ses.status()
	return true
}

// skip reports paths the watcher never looks at: .git (git's own files)
// and the state dir.
func (ses *watchSession) skip(rel string) bool {
	return hasDotGit(rel) || (ses.state != "" && workspace.Within(rel, ses.state))
}

func hasDotGit(rel string) bool {
	for _, s := range strings.Split(rel, "/") {
		if s == ".git" {
			return true
		}
	}
	return false
}

func (ses *watchSession) onEvent(ev shell.WatchEvent) {
	rel, ok := ses.rel(ev.Path)
	if !ok {
		return
	}
	if rel == "" {
		if ev.Op.Has(shell.WatchRemove) || ev.Op.Has(shell.WatchRename) {
			ses.rootGone = true
		}
		return
	}
	if ses.skip(rel) {
		return
	}
	dir, name := path.Split(rel)
	dir = strings.TrimSuffix(dir, "/")
	if shell.IsTempName(name) {
		// editord's own temp file: the write it belongs to is ours.
		base := strings.TrimPrefix(name, ".")
		if i := strings.LastIndex(base, ".editord-"); i >= 0 {
			ses.hints[hint{dir: dir, base: base[:i]}] = true
		}
		return
	}
	p := ses.pend[rel]
	if p == nil {
		p = &pending{first: ev.Op}
		ses.pend[rel] = p
	}
	p.ops |= ev.Op
	if ev.From != "" {
		if from, ok := ses.rel(ev.From); ok && from != "" {
			p.from = from
		}
	}
	now := time.Now()
	if ses.firstPend.IsZero() {
		ses.firstPend = now
	}
	ses.lastPend = now
}

func (ses *watchSession) hinted(rel string) bool {
	dir, name := path.Split(rel)
	dir = strings.TrimSuffix(dir, "/")
	for h := range ses.hints {
		if h.dir == dir && (h.base == name || (len(h.base) >= 200 && strings.HasPrefix(name, h.base))) {
			return true
		}
	}
	return false
}

type pathState struct {
	exists bool
	isDir  bool
}

// flush classifies the batch and turns it into candidates.
func (ses *watchSession) flush() {
	batch := ses.pend
	ses.pend = map[string]*pending{}
	ses.firstPend, ses.lastPend = time.Time{}, time.Time{}
	defer clear(ses.hints)

	now := map[string]pathState{}
	stat := func(rel string) pathState {
		if st, ok := now[rel]; ok {
			return st
		}
		var st pathState
		if in, err := ses.s.jail.Lstat(ses.abs(rel)); err == nil {
			st = pathState{exists: true, isDir: in.Kind == shell.KindDir}
		}
		now[rel] = st
		return st
	}
	existed := func(rel string) bool {
		if ses.known[rel] || ses.dirs[rel] || ses.watched[rel] {
			return true
		}
		if p := batch[rel]; p != nil {
			if _, ghost := ses.ghosts[rel]; ghost {
				return false
			}
			return !p.first.Has(shell.WatchCreate)
		}
		return false
	}
	for g, at := range ses.ghosts {
		if time.Since(at) > 5*time.Second {
			delete(ses.ghosts, g)
		}
	}

	rels := make([]string, 0, len(batch))
	for r := range batch {
		rels = append(rels, r)
	}
	sort.Strings(rels)

	var cands []*candidate
	movedSrc := map[string]bool{} // sources of moves reported by their destination
	covered := map[string]bool{}  // folders moved or deleted whole: their contents need no events

	// Destinations of renames first: a move is reported once, by its
	// destination, when the source was there before and is gone now.
	for _, r := range rels {
		p := batch[r]
		if p.from == "" || p.from == r {
			continue
		}
		dst, src := stat(r), stat(p.from)
		if !dst.exists || src.exists || !existed(p.from) {
			continue
		}
		if dst.isDir != (ses.dirs[p.from] || ses.watched[p.from]) {
			continue // a file cannot become a folder by a rename, nor an unknown folder a known one
		}
		movedSrc[p.from] = true
		if dst.isDir {
			covered[p.from] = true
			covered[r] = true
			ses.moveTree(p.from, r)
			cands = append(cands, &candidate{rel: r, kind: "moved", from: p.from, isDir: true})
			continue
		}
		c := &candidate{rel: r, kind: "moved", from: p.from, dstExisted: existed(r)}
		delete(ses.known, p.from)
		ses.known[r] = true
		ses.read(c)
		cands = append(cands, c)
	}

	isCovered := func(r string) bool {
		for _, a := range ancestors(r) {
			if covered[a] {
				return true
			}
		}
		return false
	}

	for _, r := range rels {
		p := batch[r]
		if movedSrc[r] || isCovered(r) {
			continue
		}
		if p.from != "" && movedSrc[p.from] && !covered[r] {
			continue // reported as a move above
		}
		if covered[r] {
			continue
		}
		st := stat(r)
		wasDir := ses.dirs[r] || ses.watched[r]
		wasFile := ses.known[r]
		before := existed(r)
		switch {
		case st.exists && st.isDir:
			if wasFile {
				delete(ses.known, r)
				cands = append(cands, &candidate{rel: r, kind: "deleted"})
			}
			if wasDir && !p.ops.Has(shell.WatchRemove|shell.WatchRename|shell.WatchCreate) {
				continue // attributes of a folder
			}
			// A new folder (or one replaced): watch it and report the files
			// already in it, which were created before its watch existed.
			if wasDir {
				ses.dropTree(r, false)
			}
			cands = append(cands, ses.addTree(r)...)
		case st.exists:
			if wasDir {
				ses.dropTree(r, true)
			}
			ses.known[r] = true
			delete(ses.ghosts, r)
			kind := "created"
			if before {
				kind = "modified"
				if p.ops&^shell.WatchChmod == 0 {
					continue // touch or chmod: the content did not change
				}
			}
			c := &candidate{rel: r, kind: kind}
			ses.read(c)
			cands = append(cands, c)
		default:
			switch {
			case wasDir:
				covered[r] = true
				ses.dropTree(r, true)
				cands = append(cands, &candidate{rel: r, kind: "deleted", isDir: true})
			case before:
				delete(ses.known, r)
				cands = append(cands, &candidate{rel: r, kind: "deleted"})
			default:
				// Neither: a temp file that came and went inside the batch.
				ses.ghosts[r] = time.Now()
			}
		}
	}

	// Drop what a whole-folder event covers, and changes that change
	// nothing we can see.
	var out []*candidate
	for _, c := range cands {
		if isCovered(c.rel) {
			continue
		}
		if c.kind == "modified" && c.version != "" && ses.recent[c.rel] == c.version {
			continue
		}
		c.hinted = ses.hinted(c.rel)
		out = append(out, c)
	}
	ses.fill()
	ses.reportCoverage()
	ses.status()
	ses.decide(out)
}

// read fills c's content and version from disk.
func (ses *watchSession) read(c *candidate) {
	res, err := ses.s.jail.ReadFile(ses.abs(c.rel), ses.s.cfg.Limits.MaxFileBytes)
	if err != nil || res.Truncated {
		return
	}
	c.data = res.Data
	c.version = Version(res.Data)
}

// addTree watches a folder that appeared and everything beneath it that
// is not ignored, and returns created candidates for the files found.
func (ses *watchSession) addTree(r string) []*candidate {
	if ses.skip(r) || ses.s.jail.Noise(path.Base(r)) || ses.s.jail.Denied(ses.abs(r), true) || ses.s.jail.GitIgnored(ses.root, ses.abs(r), true) {
		return nil
	}
	var out []*candidate
	ses.dirs[r] = true
	// Watch first, then list: a file created after the listing raises an
	// event; one created before is found by the listing.
	if len(ses.watched) < ses.limit || ses.prio[r] {
		ses.add(r)
	}
	if !ses.watched[r] {
		ses.unwatched[r] = true
	}
	ses.s.jail.Walk(ses.abs(r), shell.WalkOptions{Gitignore: true, Noise: true}, func(e shell.WalkEntry) error {
		rel := r + "/" + e.Rel
		if ses.skip(rel) {
			return shell.SkipDir
		}
		if e.Kind == shell.KindDir {
			ses.dirs[rel] = true
			if len(ses.watched) < ses.limit {
				ses.add(rel)
			}
			if !ses.watched[rel] {
				ses.unwatched[rel] = true
			}
			return nil
		}
		if ses.known[rel] {
			return nil
		}
		ses.known[rel] = true
		c := &candidate{rel: rel, kind: "created"}
		ses.read(c)
		out = append(out, c)
		return nil
	})
	return out
}

// dropTree forgets a folder that went away (or became a file): its
// watches, and the files known beneath it.
func (ses *watchSession) dropTree(r string, self bool) {
	for d := range ses.watched {
		if workspace.Within(d, r) && (self || d != r) {
			ses.w.Remove(ses.abs(d))
			delete(ses.watched, d)
		}
	}
	ses.order = slices.DeleteFunc(ses.order, func(d string) bool { return !ses.watched[d] })
	for d := range ses.dirs {
		if workspace.Within(d, r) && (self || d != r) {
			delete(ses.dirs, d)
			delete(ses.unwatched, d)
		}
	}
	for f := range ses.known {
		if workspace.Within(f, r) {
			delete(ses.known, f)
		}
	}
}

// moveTree follows a folder renamed inside the root: what was known under
// from is now under to. The kernel keeps the watches, but under the old
// names, so they are replaced.
func (ses *watchSession) moveTree(from, to string) {
	var files []string
	for f := range ses.known {
		if workspace.Within(f, from) {
			files = append(files, f)
		}
	}
	for _, f := range files {
		delete(ses.known, f)
		n, _ := workspace.Remap(f, from, to)
		ses.known[n] = true
	}
	wasWatched := map[string]bool{}
	for d := range ses.watched {
		if workspace.Within(d, from) {
			wasWatched[d] = true
		}
	}
	ses.dropTree(from, true)
	ses.dirs[to] = true
	ses.add(to)
	if !ses.watched[to] {
		ses.unwatched[to] = true
	}
	ses.s.jail.Walk(ses.abs(to), shell.WalkOptions{Gitignore: true, Noise: true}, func(e shell.WalkEntry) error {
		rel := to + "/" + e.Rel
		if ses.skip(rel) {
			return shell.SkipDir
		}
		if e.Kind == shell.KindDir {
			ses.dirs[rel] = true
			old, _ := workspace.Remap(rel, to, from)
			if wasWatched[old] || len(ses.watched) < ses.limit {
				ses.add(rel)
			}
			if !ses.watched[rel] {
				ses.unwatched[rel] = true
			}
			return nil
		}
		ses.known[rel] = true
		return nil
	})
}

// rescan recovers from lost events: the tree is walked again and compared
// with what was known; open buffers are compared by content.
func (ses *watchSession) rescan() {
	files := map[string]bool{}
	dirs := map[string]bool{}
	ses.s.jail.Walk(ses.root, shell.WalkOptions{Gitignore: true, Noise: true}, func(e shell.WalkEntry) error {
		if ses.skip(e.Rel) {
			return shell.SkipDir
		}
		if e.Kind == shell.KindDir {
			dirs[e.Rel] = true
		} else {
			files[e.Rel] = true
		}
		return nil
	})
	mark := func(r string, op shell.WatchOp) {
		if p := ses.pend[r]; p != nil {
			p.ops |= op
			return
		}
		ses.pend[r] = &pending{first: op, ops: op}
	}
	for f := range ses.known {
		if !files[f] {
			if _, err := ses.s.jail.Lstat(ses.abs(f)); err != nil {
				mark(f, shell.WatchRemove)
			}
		}
	}
	for f := range files {
		if !ses.known[f] {
			mark(f, shell.WatchCreate)
		}
	}
	for d := range dirs {
		if !ses.dirs[d] {
			mark(d, shell.WatchCreate)
		}
	}
	for d := range ses.dirs {
		if d != "" && !dirs[d] {
			if _, err := ses.s.jail.Lstat(ses.abs(d)); err != nil {
				mark(d, shell.WatchRemove)
			}
		}
	}
	for b := range ses.buffers {
		if files[b] {
			mark(b, shell.WatchWrite)
		}
	}
}

// ---- deciding: ours, or external ----

// decide drops the echo of our own writes and holds the rest for the grace
// period, in which a journal event saying the write was ours may still
// arrive.
func (ses *watchSession) decide(cands []*candidate) {
	if len(cands) == 0 {
		return
	}
	var rest []*candidate
	for _, c := range cands {
		if !ses.isOwn(c) {
			rest = append(rest, c)
		}
	}
	if len(rest) == 0 {
		return
	}
	// A save holds its save lock from before its write until its event is
	// in the journal: once we have held that lock, the journal is
	// conclusive for every save that wrote what we saw.
	for _, c := range rest {
		if !c.hinted || c.isDir {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		if unlock, err := ses.s.store.Lock(ctx, ses.s.saveLock(loc{abs: ses.abs(c.rel), stored: c.rel})); err == nil {
			unlock()
		}
		cancel()
	}
	ses.own.sync()
	gen := ses.own.generation() // before matching: an event added meanwhile gets a recheck
	t := time.Now()
	for _, c := range rest {
		if ses.isOwn(c) {
			continue
		}
		c.born = t
		c.deadline = t.Add(watchGrace)
		if c.hinted {
			c.deadline = t.Add(watchGraceHinted)
		}
		if ses.merge(c) {
			continue
		}
		ses.hold(c, gen)
	}
	ses.settleHeld(false)
}

// hold keeps c for its grace; gen is the journal generation it was last
// matched against (0: match it again).
func (ses *watchSession) hold(c *candidate, gen uint64) {
	c.checked = gen
	ses.held = append(ses.held, c)
	if !c.isDir {
		ses.heldBy[c.rel] = c
	}
}

func (ses *watchSession) unhold(h *candidate) {
	h.gone = true
	if ses.heldBy[h.rel] == h {
		delete(ses.heldBy, h.rel)
	}
}

// merge folds c into a change of the same file that is still held, so
// that one change split over two batches (a slow burst of writes, a temp
// file written in one batch and renamed in the next) is reported once. It
// reports whether c was absorbed; when it was not, a held change of the
// same path is reported first.
func (ses *watchSession) merge(c *candidate) bool {
	if c.isDir {
		if c.kind == "deleted" {
			// A folder removed whole covers what was held beneath it (rm -r
			// split over two batches).
			for _, h := range ses.held {
				if h.gone || h.rel == c.rel || !workspace.Within(h.rel, c.rel) {
					continue
				}
				if h.kind == "moved" && !workspace.Within(h.from, c.rel) {
					// Moved in, then removed with the folder: the source is
					// what is gone.
					ses.unhold(h)
					ses.hold(&candidate{rel: h.from, kind: "deleted", isDir: h.isDir, born: h.born, deadline: h.deadline}, 0)
					continue
				}
				ses.unhold(h)
			}
		}
		return false
	}
	if c.kind == "moved" {
		h := ses.heldBy[c.from]
		if h == nil {
			return false
		}
		switch h.kind {
		case "created":
			// Made and renamed within the grace: a temp-and-rename save.
			ses.unhold(h)
			c.kind, c.from = "created", ""
			if c.dstExisted {
				c.kind = "modified"
			}
			return ses.merge(c)
		case "moved":
			ses.unhold(h)
			c.from = h.from
			c.born = h.born
		}
		return false
	}
	h := ses.heldBy[c.rel]
	if h == nil {
		return false
	}
	absorb := func(kind string) bool {
		h.kind, h.data, h.version = kind, c.data, c.version
		h.hinted = h.hinted || c.hinted
		// A fresh grace, but a file written without pause is still
		// reported about once a second.
		if c.deadline.After(h.deadline) {
			h.deadline = c.deadline
		}
		if limit := h.born.Add(time.Second); h.deadline.After(limit) {
			h.deadline = limit
		}
		h.checked = 0
		return true
	}
	switch {
	case h.kind == "created" && c.kind == "deleted":
		ses.unhold(h)
		return true
	case h.kind == "created" && c.kind == "modified":
		return absorb("created")
	case h.kind == "modified" && (c.kind == "modified" || c.kind == "deleted"):
		return absorb(c.kind)
	case h.kind == "deleted" && c.kind == "created":
		return absorb("modified")
	}
	h.deadline = time.Now()
	return false
}

// isOwn reports (and accounts for) a change that is the echo of our write.
func (ses *watchSession) isOwn(c *candidate) bool {
	if !ses.own.match(ses.root, c) {
		return false
	}
	ses.account(c)
	return true
}

// account updates what the watcher knows of a path after a change to it
// was reported, by us or by the function that made it.
func (ses *watchSession) account(c *candidate) {
	switch c.kind {
	case "deleted":
		ses.dropCache(c.rel)
		ses.setRecent(c.rel, "")
	case "moved":
		if !c.isDir {
			ses.setRecent(c.from, "")
			ses.setRecent(c.rel, c.version)
			if old, ok := ses.cache[c.from]; ok {
				ses.dropCache(c.from)
				ses.setCache(c.rel, old)
			}
		}
	default:
		ses.setRecent(c.rel, c.version)
		if c.data != nil {
			ses.setCache(c.rel, c.data)
		} else {
			ses.dropCache(c.rel)
		}
	}
}

// settleHeld drops held changes that turned out to be ours and reports the
// ones whose grace is over (all of them when final).
func (ses *watchSession) settleHeld(final bool) {
	if len(ses.held) == 0 {
		return
	}
	now := time.Now()
	gen := ses.own.generation()
	var due []*candidate
	keep := ses.held[:0]
	for _, c := range ses.held {
		if c.gone {
			continue
		}
		// Matched again only when the journal brought something new.
		if c.checked != gen {
			c.checked = gen
			if ses.isOwn(c) {
				ses.unhold(c)
				continue
			}
		}
		if final || !now.Before(c.deadline) {
			ses.unhold(c)
			due = append(due, c)
			continue
		}
		keep = append(keep, c)
	}
	clear(ses.held[len(keep):])
	ses.held = keep
	if len(due) > 0 {
		ses.report(due)
	}
}

// report emits external events for changes nobody in this state dir made.
func (ses *watchSession) report(cands []*candidate) {
	evs := make([]workspace.Event, 0, len(cands))
	for _, c := range cands {
		if c.kind == "modified" && c.version != "" && ses.recent[c.rel] == c.version {
			continue // what an earlier event of this batch already reported
		}
		evs = append(evs, ses.event(c))
		ses.account(c)
		ses.own.forget(c.rel)
		if c.from != "" {
			ses.own.forget(c.from)
		}
	}
	ses.s.emit(context.Background(), evs...)
}

func isTextData(b []byte) bool { return !shell.IsBinary(b) && utf8.Valid(b) }

// event builds the editor::changed event of an external change: with a
// real patch when the content before is known (an open buffer, or nothing
// for a new file), with the version and no counts otherwise.
func (ses *watchSession) event(c *candidate) workspace.Event {
	l := loc{abs: ses.abs(c.rel), stored: c.rel}
	ev := workspace.Event{Root: ses.root, Path: c.rel, Kind: c.kind}
	before, haveBefore := ses.cache[c.rel]
	switch c.kind {
	case "moved":
		from := c.from
		ev.From = &from
		if c.version != "" {
			v := c.version
			ev.Version = &v
		}
	case "deleted":
		if haveBefore && !c.isDir && isTextData(before) {
			ev = ses.s.changeEvent(ses.root, l, "external", "deleted", before, nil)
		}
	case "created":
		if c.data != nil && isTextData(c.data) {
			ev = ses.s.changeEvent(ses.root, l, "external", "created", nil, c.data)
		} else if c.version != "" {
			v := c.version
			ev.Version = &v
		}
	case "modified":
		if haveBefore && c.data != nil && isTextData(before) && isTextData(c.data) {
			ev = ses.s.changeEvent(ses.root, l, "external", "modified", before, c.data)
		} else if c.version != "" {
			v := c.version
			ev.Version = &v
		}
	}
	ev.Cause = "external"
	return ev
}
