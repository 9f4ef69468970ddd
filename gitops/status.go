package gitops

import (
	"context"
	"io/fs"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/editord/editord/shell"
	"github.com/go-git/go-git/v5/plumbing"
)

// Status the way git computes it, because go-git's Worktree.Status hashes
// every file and takes seconds and hundreds of megabytes on a large tree:
//
//  1. Read the index (our own parser: one pass, one string for all paths).
//  2. Staged side: when git's cache-tree extension says the index hashes to
//     HEAD's tree, there is nothing staged and no tree is read. Otherwise
//     hash the index into trees (in memory) and walk them against HEAD's
//     trees, entering only subtrees whose hashes differ. Renames are
//     detected among the staged additions and deletions as git does.
//  3. Worktree side: one parallel walk of the worktree (shell.Scan) that
//     lstat's each tracked file by name in its already-open folder and
//     trusts it when its stat data (mtime, ctime, size, inode, mode, owner)
//     matches the index, hashing only files whose stat data changed, or that
//     were modified at or after the index was written (racy git). The same
//     walk finds untracked files, applying .gitignore as it descends and
//     never entering an ignored folder that holds no tracked file.
//  4. Upstream and ahead/behind from the commit graph, newest first,
//     stopping where both sides meet. Parsed commits are cached across
//     calls (they never change), so a status that has nothing staged reads
//     no object at all after the first call.
//
// Steps 2 and 4 run while step 3 walks the disk.

// Letters of git's porcelain status, one per side.
const (
	codeUnchanged  = '.'
	codeModified   = 'M'
	codeTypeChange = 'T'
	codeAdded      = 'A'
	codeDeleted    = 'D'
	codeRenamed    = 'R'
	codeCopied     = 'C'
	codeUnmerged   = 'U'
	codeUntracked  = '?'
	codeIgnored    = '!'
	defRenameLimit = 1000
)

// StatusEntry is one changed path: X is the index side (HEAD vs index), Y
// the worktree side (index vs worktree), both git porcelain letters.
type StatusEntry struct {
	Path string // repository-relative; a nested repository ends in "/"
	From string // the source of a staged rename
	X, Y byte
}

// Status is the state of a repository.
type Status struct {
	Branch   string // short name; "" when HEAD is detached
	Head     plumbing.Hash
	Upstream string // short name (origin/main); "" when none
	Ahead    int
	Behind   int
	Entries  []StatusEntry // changed tracked paths by path, then untracked by path
}

// Clean reports whether nothing but ignored files differ.
func (s *Status) Clean() bool { return len(s.Entries) == 0 }

// Word is the contract's name for a status letter.
func Word(c byte) string {
	switch c {
	case codeModified:
		return "modified"
	case codeTypeChange:
		return "typechange"
	case codeAdded:
		return "added"
	case codeDeleted:
		return "deleted"
	case codeRenamed:
		return "renamed"
	case codeCopied:
		return "copied"
	case codeUnmerged:
		return "conflicted"
	case codeUntracked:
		return "untracked"
	case codeIgnored:
		return "ignored"
	}
	return "unchanged"
}

// Status computes the repository's status.
func (r *Repo) Status(ctx context.Context) (*Status, error) {
	idx, err := r.sharedIndex()
	if err != nil {
		return nil, err
	}
	h, err := r.head()
	if err != nil {
		return nil, err
	}
	st := &Status{Branch: h.shortBranch(), Head: h.hash}
	headTree, err := r.headTree(h)
	if err != nil {
		return nil, err
	}

	var (
		wg     sync.WaitGroup
		wt     *worktreeState
		wtErr  error
		staged []stagedChange
	)
	wg.Add(1)
	go func() {
		defer wg.Done()
		wt, wtErr = r.scanWorktreeCtx(ctx, idx)
	}()
	staged, err = r.stagedChanges(idx, headTree)
	if err == nil && h.branch != "" {
		st.Upstream, st.Ahead, st.Behind, err = r.tracking(h)
	}
	wg.Wait()
	if err != nil {
		return nil, err
	}
	if wtErr != nil {
		return nil, wtErr
	}
	r.submoduleCodes(ctx, idx, wt)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	st.Entries = r.mergeStatus(idx, staged, wt)
	return st, nil
}

// mergeStatus joins both sides into git's rows.
func (r *Repo) mergeStatus(idx *Index, staged []stagedChange, wt *worktreeState) []StatusEntry {
	byPos := map[int]*stagedChange{}
	var out []StatusEntry
	for i := range staged {
		c := &staged[i]
		if c.pos >= 0 {
			byPos[c.pos] = c
			continue
		}
		// A deletion from the index; an intent-to-add entry at the same
		// path makes one row of both sides ("DA").
		if p := idx.pos(c.path); p >= 0 && idx.Entries[p].intentToAdd() {
			byPos[p] = c
			continue
		}
		out = append(out, StatusEntry{Path: c.path, X: c.x, Y: codeUnchanged})
	}
	for i := range idx.Entries {
		e := &idx.Entries[i]
		if i > 0 && idx.Entries[i-1].Path == e.Path {
			continue
		}
		if e.Stage() != 0 {
			out = append(out, StatusEntry{Path: e.Path, X: codeUnmerged, Y: codeUnmerged})
			continue
		}
		x, y := byte(codeUnchanged), wt.codes[i]
		var from string
		if c := byPos[i]; c != nil {
			x, from = c.x, c.from
		}
		if e.intentToAdd() && x != codeDeleted {
			x = codeUnchanged
		}
		if x != codeUnchanged || y != codeUnchanged {
			out = append(out, StatusEntry{Path: e.Path, From: from, X: x, Y: y})
		}
	}
	kept := out[:0]
	for _, e := range out {
		if !r.denied(e.Path) {
			kept = append(kept, e)
		}
	}
	out = kept
	sort.SliceStable(out, func(a, b int) bool { return out[a].Path < out[b].Path })
	sort.Strings(wt.untracked)
	for _, p := range wt.untracked {
		out = append(out, StatusEntry{Path: p, X: codeUntracked, Y: codeUntracked})
	}
	return out
}

// denied reports whether a repository path matches the jail's deny globs;
// such paths are left out of every answer.
func (r *Repo) denied(rel string) bool {
	return r.jail.Denied(r.Abs(strings.TrimSuffix(rel, "/")), strings.HasSuffix(rel, "/"))
}

// --- staged side -----------------------------------------------------------

// stagedChange is a difference between HEAD and the index.
type stagedChange struct {
	path     string
	x        byte
	from     string // rename source
	pos      int    // index position, -1 for a deletion
	headMode uint32
	headHash plumbing.Hash
}

// stagedChanges compares the index with HEAD's tree (zero: no commit yet).
func (r *Repo) stagedChanges(idx *Index, headTree plumbing.Hash) ([]stagedChange, error) {
	if t, ok := idx.cachedTree(); ok && t == headTree {
		return nil, nil // git's cache-tree says the index is HEAD's tree
	}
	root := buildIndexTree(idx, false)
	var out []stagedChange
	if err := r.diffTree(headTree, root, "", &out); err != nil {
		return nil, err
	}
	// Paths in conflict are reported as such, not as deletions.
	if conf := idx.conflicted(); len(conf) > 0 {
		set := map[string]bool{}
		for _, p := range conf {
			set[p] = true
		}
		kept := out[:0]
		for _, c := range out {
			if !set[c.path] {
				kept = append(kept, c)
			}
		}
		out = kept
	}
	if r.cfg.boolean("status", "", "renames", r.cfg.boolean("diff", "", "renames", true)) {
		out = r.findRenames(idx, out)
	}
	return out, nil
}

// diffTree walks HEAD tree hh against the index folder n, entering only
// subtrees that differ.
func (r *Repo) diffTree(hh plumbing.Hash, n *treeNode, prefix string, out *[]stagedChange) error {
	if n != nil && hh == n.hash {
		return nil
	}
	var hents []treeEntry
	if !hh.IsZero() {
		var err error
		if hents, err = r.readTree(hh); err != nil {
			return err
		}
	}
	var nents []treeEnt
	if n != nil {
		nents = n.ents
	}
	i, j := 0, 0
	for i < len(hents) || j < len(nents) {
		var c int
		switch {
		case i == len(hents):
			c = 1
		case j == len(nents):
			c = -1
		default:
			c = treeCompare(hents[i].name, hents[i].isDir(), nents[j].name, nents[j].mode == modeTree)
		}
		switch {
		case c < 0:
			if err := r.removedFromIndex(hents[i], joinPath(prefix, hents[i].name), out); err != nil {
				return err
			}
			i++
		case c > 0:
			addedToIndex(nents[j], joinPath(prefix, nents[j].name), out)
			j++
		default:
			he, ne := hents[i], nents[j]
			p := joinPath(prefix, he.name)
			if he.isDir() {
				if he.hash != ne.hash {
					if err := r.diffTree(he.hash, ne.sub, p, out); err != nil {
						return err
					}
				}
			} else if he.hash != ne.hash || he.mode != ne.mode {
				x := byte(codeModified)
				if kindOf(he.mode) != kindOf(ne.mode) {
					x = codeTypeChange
				}
				*out = append(*out, stagedChange{path: p, x: x, pos: ne.entry, headMode: he.mode, headHash: he.hash})
			}
			i++
			j++
		}
	}
	return nil
}

func (r *Repo) removedFromIndex(e treeEntry, p string, out *[]stagedChange) error {
	if !e.isDir() {
		*out = append(*out, stagedChange{path: p, x: codeDeleted, pos: -1, headMode: e.mode, headHash: e.hash})
		return nil
	}
	return r.flatTree(e.hash, p, func(fp string, fe treeEntry) error {
		*out = append(*out, stagedChange{path: fp, x: codeDeleted, pos: -1, headMode: fe.mode, headHash: fe.hash})
		return nil
	})
}

func addedToIndex(e treeEnt, p string, out *[]stagedChange) {
	if e.sub == nil {
		*out = append(*out, stagedChange{path: p, x: codeAdded, pos: e.entry})
		return
	}
	for _, c := range e.sub.ents {
		addedToIndex(c, joinPath(p, c.name), out)
	}
}

// kindOf is the type part of a git mode (file, symlink, gitlink, tree).
func kindOf(mode uint32) uint32 {
	if isRegular(mode) {
		return modeRegular
	}
	return mode
}

// treeCompare orders tree entries as git does: a folder sorts as its name
// followed by "/".
func treeCompare(a string, aDir bool, b string, bDir bool) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			if a[i] < b[i] {
				return -1
			}
			return 1
		}
	}
	ca, cb := byte(0), byte(0)
	if len(a) > n {
		ca = a[n]
	} else if aDir {
		ca = '/'
	}
	if len(b) > n {
		cb = b[n]
	} else if bDir {
		cb = '/'
	}
	switch {
	case ca < cb:
		return -1
	case ca > cb:
		return 1
	}
	return 0
}

// findRenames turns staged deletion/addition pairs into renames.
func (r *Repo) findRenames(idx *Index, changes []stagedChange) []stagedChange {
	var srcs, dsts []*renameSide
	var srcAt, dstAt []int
	for i := range changes {
		c := &changes[i]
		switch c.x {
		case codeDeleted:
			h := c.headHash
			srcs = append(srcs, &renameSide{path: c.path, mode: c.headMode, hash: h, load: func() ([]byte, error) { return r.readBlob(h) }})
			srcAt = append(srcAt, i)
		case codeAdded:
			e := &idx.Entries[c.pos]
			h := e.Hash
			dsts = append(dsts, &renameSide{path: c.path, mode: normalMode(e.Mode), hash: h, load: func() ([]byte, error) { return r.readBlob(h) }})
			dstAt = append(dstAt, i)
		}
	}
	if len(srcs) == 0 || len(dsts) == 0 {
		return changes
	}
	limit := r.cfg.integer("status", "", "renamelimit", r.cfg.integer("diff", "", "renamelimit", defRenameLimit))
	pairs := detectRenames(srcs, dsts, limit)
	if len(pairs) == 0 {
		return changes
	}
	drop := map[int]bool{}
	for _, p := range pairs {
		d := &changes[dstAt[p.dst]]
		d.x, d.from = codeRenamed, srcs[p.src].path
		drop[srcAt[p.src]] = true
	}
	kept := changes[:0]
	for i, c := range changes {
		if !drop[i] {
			kept = append(kept, c)
		}
	}
	return kept
}

// --- worktree side ---------------------------------------------------------

// worktreeState is the result of the worktree walk.
type worktreeState struct {
	codes     []byte // per index position: the Y letter (stage-0 entries)
	untracked []string
}

type wtScan struct {
	ctx       context.Context
	r         *Repo
	idx       *Index
	dirFiles  map[string][]int32 // folder -> index positions of its files
	trackDirs map[string]struct{}
	codes     []byte
	fileMode  bool
	symlinks  bool

	mu        sync.Mutex
	untracked []string
}

// scanWorktree compares every tracked file with the index and lists the
// untracked ones.
func (r *Repo) scanWorktree(idx *Index) (*worktreeState, error) {
	return r.scanWorktreeCtx(context.Background(), idx)
}

// scanWorktreeCtx is scanWorktree, which stops early (with ctx's error)
// when ctx ends: a status warmed in the background gives way to a call.
func (r *Repo) scanWorktreeCtx(ctx context.Context, idx *Index) (*worktreeState, error) {
	s := &wtScan{
		ctx:       ctx,
		r:         r,
		idx:       idx,
		dirFiles:  map[string][]int32{},
		trackDirs: map[string]struct{}{},
		codes:     make([]byte, len(idx.Entries)),
		fileMode:  r.cfg.boolean("core", "", "filemode", true),
		symlinks:  r.cfg.boolean("core", "", "symlinks", true),
	}
	// Entries of one folder are mostly adjacent in the index, so the last
	// folder's list is kept at hand instead of looked up per entry.
	lastDir, last := "\x00", []int32(nil)
	for i := range idx.Entries {
		p := idx.Entries[i].Path
		if i > 0 && idx.Entries[i-1].Path == p {
			continue
		}
		dir, _ := splitPath(p)
		if dir != lastDir {
			if lastDir != "\x00" {
				s.dirFiles[lastDir] = last
			}
			lastDir, last = dir, s.dirFiles[dir]
			for d := dir; d != ""; d, _ = splitPath(d) {
				if _, ok := s.trackDirs[d]; ok {
					break
				}
				s.trackDirs[d] = struct{}{}
			}
		}
		last = append(last, int32(i))
	}
	if lastDir != "\x00" {
		s.dirFiles[lastDir] = last
	}
	base, err := r.baseIgnore()
	if err != nil {
		return nil, err
	}
	if err := shell.Scan(r.jail, r.top, scanWorkers, base, s.visit); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for i := range idx.Entries {
		e := &idx.Entries[i]
		if s.codes[i] != 0 {
			continue
		}
		switch {
		case e.Stage() != 0:
			s.codes[i] = codeUnmerged
		case e.skipWorktree(), e.assumeValid():
			s.codes[i] = codeUnchanged
		default:
			s.codes[i] = codeDeleted
		}
	}
	return &worktreeState{codes: s.codes, untracked: s.untracked}, nil
}

// visit handles one folder: tracked files are checked, untracked ones
// collected, subfolders chosen.
func (s *wtScan) visit(d *shell.ScanDir, ic *ignoreCtx) []shell.ScanNext[*ignoreCtx] {
	if s.ctx.Err() != nil {
		return nil // ended: no folder more
	}
	ents := d.Entries
	slices.SortFunc(ents, func(a, b shell.ScanEntry) int { return strings.Compare(a.Name, b.Name) })
	if !ic.excluded {
		for _, e := range ents {
			if e.Name == ".gitignore" && e.Type == 0 {
				if rc, err := d.Open(".gitignore"); err == nil {
					data, _ := readSized(rc, 0, 1<<20)
					rc.Close()
					ic = ic.child(d.Rel, data)
				}
				break
			}
		}
	}
	files := s.dirFiles[d.Rel]
	plen := 0
	if d.Rel != "" {
		plen = len(d.Rel) + 1
	}
	var next []shell.ScanNext[*ignoreCtx]
	var untracked []string
	k := 0
	for ei, e := range ents {
		name := e.Name
		if name == ".git" {
			continue
		}
		for k < len(files) && s.idx.Entries[files[k]].Path[plen:] < name {
			k++
		}
		if k < len(files) && s.idx.Entries[files[k]].Path[plen:] == name {
			pos := files[k]
			k++
			ie := &s.idx.Entries[pos]
			if ie.Stage() != 0 {
				s.codes[pos] = codeUnmerged
				continue
			}
			s.codes[pos] = s.compare(d, ei, ie)
			if e.Type != fs.ModeDir || ie.Mode == modeGitlink {
				continue
			}
			// A tracked file became a folder: its content is untracked.
		}
		rel := joinPath(d.Rel, name)
		switch e.Type {
		case fs.ModeDir:
			_, tracked := s.trackDirs[rel]
			excluded := ic.excluded || ic.match(rel, true)
			switch {
			case tracked:
				child := ic
				if excluded && !ic.excluded {
					child = &ignoreCtx{levels: ic.levels, excluded: true}
				}
				next = append(next, shell.ScanNext[*ignoreCtx]{Name: name, Data: child})
			case excluded:
			case d.HasChild(name, ".git"):
				untracked = append(untracked, rel+"/") // a nested repository
			default:
				next = append(next, shell.ScanNext[*ignoreCtx]{Name: name, Data: ic})
			}
		case 0, fs.ModeSymlink:
			if !ic.excluded && !ic.match(rel, false) && !d.Denied(ei) {
				untracked = append(untracked, rel)
			}
		}
	}
	if len(untracked) > 0 {
		s.mu.Lock()
		s.untracked = append(s.untracked, untracked...)
		s.mu.Unlock()
	}
	return next
}

// compare decides the worktree letter of one tracked file.
func (s *wtScan) compare(d *shell.ScanDir, i int, e *IndexEntry) byte {
	if e.skipWorktree() || e.assumeValid() {
		return codeUnchanged
	}
	name := d.Entries[i].Name
	st, err := d.EntryStat(i)
	if err != nil {
		return codeDeleted
	}
	if e.intentToAdd() {
		if st.Mode.IsDir() {
			return codeDeleted
		}
		return codeAdded
	}
	return s.r.compareStat(e, st, s.fileMode, s.symlinks, s.idx, func() (plumbing.Hash, bool) {
		return hashWorktreeFile(d, name, st)
	})
}

// compareStat decides whether the file described by st still holds what
// the index entry records: stat data first, content only when stat data
// cannot tell.
func (r *Repo) compareStat(e *IndexEntry, st shell.FileStat, fileMode, symlinks bool, idx *Index, hash func() (plumbing.Hash, bool)) byte {
	m := st.Mode
	if e.Mode == modeGitlink {
		if m.IsDir() {
			return codeUnchanged
		}
		return codeTypeChange
	}
	var wtMode uint32
	switch {
	case m.IsDir():
		return codeDeleted
	case m&fs.ModeSymlink != 0:
		wtMode = modeSymlink
	case m.IsRegular():
		wtMode = modeRegular
		if m&0o100 != 0 {
			wtMode = modeExecutable
		}
	default:
		return codeTypeChange
	}
	em := normalMode(e.Mode)
	if !symlinks && em == modeSymlink && wtMode != modeSymlink {
		wtMode = modeSymlink
	}
	if !fileMode && isRegular(wtMode) && isRegular(em) {
		wtMode = em
	}
	if kindOf(wtMode) != kindOf(em) {
		return codeTypeChange
	}
	if wtMode != em {
		return codeModified
	}
	if statMatches(e, st) && !racy(e, idx) {
		return codeUnchanged
	}
	if e.Size != 0 && e.Size != uint32(st.Size) {
		return codeModified
	}
	h, ok := hash()
	if ok && h == e.Hash {
		return codeUnchanged
	}
	return codeModified
}

// statMatches compares what git's match_stat_data compares.
func statMatches(e *IndexEntry, st shell.FileStat) bool {
	return e.MtimeSec == uint32(st.MtimeSec) && e.MtimeNsec == uint32(st.MtimeNsec) &&
		e.CtimeSec == uint32(st.CtimeSec) && e.CtimeNsec == uint32(st.CtimeNsec) &&
		e.Ino == uint32(st.Ino) && e.UID == st.UID && e.GID == st.GID &&
		e.Size == uint32(st.Size)
}

// racy reports an entry modified at or after the index file was written:
// its stat data cannot prove the content unchanged.
func racy(e *IndexEntry, idx *Index) bool {
	if !idx.Exists {
		return true
	}
	s, n := int64(e.MtimeSec), int64(e.MtimeNsec)
	return idx.MtimeSec < s || (idx.MtimeSec == s && idx.MtimeNsec <= n)
}

// hashWorktreeFile hashes a file (or a symlink's target) as a blob.
func hashWorktreeFile(d *shell.ScanDir, name string, st shell.FileStat) (plumbing.Hash, bool) {
	if st.Mode&fs.ModeSymlink != 0 {
		target, err := d.Readlink(name)
		if err != nil {
			return plumbing.ZeroHash, false
		}
		return hashObject("blob", []byte(target)), true
	}
	f, err := d.Open(name)
	if err != nil {
		return plumbing.ZeroHash, false
	}
	defer f.Close()
	h, ok, err := hashBlobReader(f, st.Size)
	return h, ok && err == nil
}

// scanWorkers is the worktree walk's parallelism (0: shell's default).
const scanWorkers = 0
