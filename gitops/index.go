package gitops

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"sort"
	"strconv"
	"strings"

	"github.com/editord/editord/shell"
	"github.com/go-git/go-git/v5/plumbing"
)

// The index (.git/index) read and written by hand rather than with go-git's
// decoder: that one reads every field through reflection and costs more
// than the whole of git's status on a large tree. This parser walks the
// bytes once, and the writer produces what git writes (versions 2 to 4),
// so git and editord share one index.
//
// Extensions are dropped on write (the cache tree, the untracked cache, the
// fsmonitor token, resolve-undo): each is optional and git rebuilds it.
// Indexes with a mandatory extension we cannot honour (a split or sparse
// index) are refused instead of being damaged.

// Entry flags as stored.
const (
	flagAssumeValid = 0x8000
	flagExtended    = 0x4000
	flagStageMask   = 0x3000
	flagNameMask    = 0x0fff

	xflagSkipWorktree = 0x4000
	xflagIntentToAdd  = 0x2000
)

// Git modes of index and tree entries.
const (
	modeRegular    = 0o100644
	modeExecutable = 0o100755
	modeSymlink    = 0o120000
	modeGitlink    = 0o160000
	modeTree       = 0o040000
)

// IndexEntry is one row of the index: a path at a stage with the blob it
// holds and the stat data of the file when it was last checked.
type IndexEntry struct {
	CtimeSec, CtimeNsec uint32
	MtimeSec, MtimeNsec uint32
	Dev, Ino            uint32
	Mode                uint32
	UID, GID            uint32
	Size                uint32
	Hash                plumbing.Hash
	Flags               uint16 // assume-valid, stage; name length is recomputed on write
	XFlags              uint16 // skip-worktree, intent-to-add
	Path                string
}

// Stage is 0 for a normal entry, 1-3 for the sides of a conflict.
func (e *IndexEntry) Stage() int { return int(e.Flags&flagStageMask) >> 12 }

func (e *IndexEntry) skipWorktree() bool { return e.XFlags&xflagSkipWorktree != 0 }
func (e *IndexEntry) intentToAdd() bool  { return e.XFlags&xflagIntentToAdd != 0 }
func (e *IndexEntry) assumeValid() bool  { return e.Flags&flagAssumeValid != 0 }

// setStat records the stat data of the file the entry now matches.
func (e *IndexEntry) setStat(st shell.FileStat) {
	e.CtimeSec, e.CtimeNsec = uint32(st.CtimeSec), uint32(st.CtimeNsec)
	e.MtimeSec, e.MtimeNsec = uint32(st.MtimeSec), uint32(st.MtimeNsec)
	e.Dev, e.Ino = uint32(st.Dev), uint32(st.Ino)
	e.UID, e.GID = st.UID, st.GID
	e.Size = uint32(st.Size)
}

// Index is the parsed index file.
type Index struct {
	Version uint32
	Entries []IndexEntry // sorted by path, then stage
	// MtimeSec/MtimeNsec: the index file's own mtime, for the racy-git
	// check (an entry modified at or after it cannot be trusted by stat).
	MtimeSec, MtimeNsec int64
	// Exists is false when there was no index file (a fresh repository).
	Exists bool
	// rootTree is the tree the whole index hashes to, from git's cache-tree
	// extension when git left it valid (zero otherwise); rootTreeCount is
	// the number of entries it covers.
	rootTree      plumbing.Hash
	rootTreeCount int
}

// parseRootCacheTree reads the root entry of a TREE extension: "" NUL,
// the entry count, a space, the subtree count, LF, then the tree's hash
// when the count is not -1 (invalidated).
func parseRootCacheTree(b []byte) (plumbing.Hash, int) {
	if len(b) == 0 || b[0] != 0 {
		return plumbing.ZeroHash, 0
	}
	b = b[1:]
	nl := bytes.IndexByte(b, '\n')
	if nl < 0 {
		return plumbing.ZeroHash, 0
	}
	count, _, ok := bytes.Cut(b[:nl], []byte{' '})
	if !ok {
		return plumbing.ZeroHash, 0
	}
	n, err := strconv.Atoi(string(count))
	if err != nil || n < 0 || len(b) < nl+1+20 {
		return plumbing.ZeroHash, 0
	}
	var h plumbing.Hash
	copy(h[:], b[nl+1:nl+21])
	return h, n
}

// cachedTree is the index's whole tree from git's cache-tree, when it is
// valid and covers every entry (no conflicts, no intent-to-add entries).
func (idx *Index) cachedTree() (plumbing.Hash, bool) {
	if idx.rootTree.IsZero() || idx.rootTreeCount != len(idx.Entries) {
		return plumbing.ZeroHash, false
	}
	return idx.rootTree, true
}

var errIndexCorrupt = errors.New("the index file is corrupt")

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// sortEntries restores the index order: by path bytes, then stage.
func sortEntries(es []IndexEntry) {
	sort.SliceStable(es, func(a, b int) bool {
		if es[a].Path != es[b].Path {
			return es[a].Path < es[b].Path
		}
		return es[a].Stage() < es[b].Stage()
	})
}

// encode renders the index in its version (2 to 4). Entries must be
// sorted. racySec/racyNsec is the time the file is written: an entry whose
// mtime is not before it is "racily clean" and gets size 0 on disk, as git
// does, so that every reader re-checks its content instead of trusting stat
// data that a write in the same instant could share.
func (idx *Index) encode(racySec, racyNsec int64, ext []byte) []byte {
	version := idx.Version
	if version < 2 || version > 4 {
		version = 2
	}
	if version == 2 {
		for i := range idx.Entries {
			if idx.Entries[i].XFlags != 0 {
				version = 3
				break
			}
		}
	}
	size := 12 + 20
	for i := range idx.Entries {
		size += 72 + len(idx.Entries[i].Path)
	}
	w := bytes.NewBuffer(make([]byte, 0, size))
	var hdr [64]byte
	w.WriteString("DIRC")
	binary.BigEndian.PutUint32(hdr[:], version)
	binary.BigEndian.PutUint32(hdr[4:], uint32(len(idx.Entries)))
	w.Write(hdr[:8])
	var prev string
	var pad [8]byte
	for i := range idx.Entries {
		e := &idx.Entries[i]
		sz := e.Size
		if int64(e.MtimeSec) > racySec || (int64(e.MtimeSec) == racySec && int64(e.MtimeNsec) >= racyNsec) {
			sz = 0
		}
		binary.BigEndian.PutUint32(hdr[0:], e.CtimeSec)
		binary.BigEndian.PutUint32(hdr[4:], e.CtimeNsec)
		binary.BigEndian.PutUint32(hdr[8:], e.MtimeSec)
		binary.BigEndian.PutUint32(hdr[12:], e.MtimeNsec)
		binary.BigEndian.PutUint32(hdr[16:], e.Dev)
		binary.BigEndian.PutUint32(hdr[20:], e.Ino)
		binary.BigEndian.PutUint32(hdr[24:], e.Mode)
		binary.BigEndian.PutUint32(hdr[28:], e.UID)
		binary.BigEndian.PutUint32(hdr[32:], e.GID)
		binary.BigEndian.PutUint32(hdr[36:], sz)
		copy(hdr[40:60], e.Hash[:])
		flags := e.Flags &^ (flagExtended | flagNameMask)
		flags |= uint16(min(len(e.Path), flagNameMask))
		n := 62
		if e.XFlags != 0 {
			flags |= flagExtended
			binary.BigEndian.PutUint16(hdr[62:], e.XFlags)
			n = 64
		}
		binary.BigEndian.PutUint16(hdr[60:], flags)
		w.Write(hdr[:n])
		if version == 4 {
			common := commonPrefix(prev, e.Path)
			var vb [10]byte
			w.Write(appendOffsetVarint(vb[:0], uint64(len(prev)-common)))
			w.WriteString(e.Path[common:])
			w.WriteByte(0)
		} else {
			w.WriteString(e.Path)
			total := (n + len(e.Path) + 8) &^ 7
			w.Write(pad[:total-n-len(e.Path)])
		}
		prev = e.Path
	}
	w.Write(ext)
	sum := sha1.Sum(w.Bytes())
	w.Write(sum[:])
	return w.Bytes()
}

// cacheTreeExt renders git's TREE extension for a tree built from the
// index, so that git (and the next status) need not hash the index into
// trees again: each folder in pre-order as "name NUL entries SP subtrees
// LF hash", subtrees ordered by name length, then bytes, as git orders
// them.
func cacheTreeExt(root *treeNode) []byte {
	var body bytes.Buffer
	var write func(n *treeNode, name string) int
	count := func(n *treeNode) int {
		var c func(n *treeNode) int
		c = func(n *treeNode) int {
			k := 0
			for _, e := range n.ents {
				if e.sub != nil {
					k += c(e.sub)
				} else {
					k++
				}
			}
			return k
		}
		return c(n)
	}
	write = func(n *treeNode, name string) int {
		var subs []treeEnt
		for _, e := range n.ents {
			if e.sub != nil {
				subs = append(subs, e)
			}
		}
		sort.SliceStable(subs, func(a, b int) bool {
			if len(subs[a].name) != len(subs[b].name) {
				return len(subs[a].name) < len(subs[b].name)
			}
			return subs[a].name < subs[b].name
		})
		entries := count(n)
		body.WriteString(name)
		body.WriteByte(0)
		body.WriteString(strconv.Itoa(entries))
		body.WriteByte(' ')
		body.WriteString(strconv.Itoa(len(subs)))
		body.WriteByte('\n')
		body.Write(n.hash[:])
		for _, e := range subs {
			write(e.sub, e.name)
		}
		return entries
	}
	write(root, "")
	out := make([]byte, 8, 8+body.Len())
	copy(out, "TREE")
	binary.BigEndian.PutUint32(out[4:], uint32(body.Len()))
	return append(out, body.Bytes()...)
}

func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// pos returns the position of path's stage-0 entry, or -1.
func (idx *Index) pos(path string) int {
	i := sort.Search(len(idx.Entries), func(i int) bool { return idx.Entries[i].Path >= path })
	for ; i < len(idx.Entries) && idx.Entries[i].Path == path; i++ {
		if idx.Entries[i].Stage() == 0 {
			return i
		}
	}
	return -1
}

// entry returns the stage-0 entry for path, if any.
func (idx *Index) entry(path string) *IndexEntry {
	if i := idx.pos(path); i >= 0 {
		return &idx.Entries[i]
	}
	return nil
}

// stageEntry returns path's entry at stage (0 to 3), if any.
func (idx *Index) stageEntry(path string, stage int) *IndexEntry {
	i := sort.Search(len(idx.Entries), func(i int) bool { return idx.Entries[i].Path >= path })
	for ; i < len(idx.Entries) && idx.Entries[i].Path == path; i++ {
		if idx.Entries[i].Stage() == stage {
			return &idx.Entries[i]
		}
	}
	return nil
}

// conflicted reports whether any entry has a stage other than 0.
func (idx *Index) conflicted() []string {
	var out []string
	for i := range idx.Entries {
		if idx.Entries[i].Stage() != 0 && (len(out) == 0 || out[len(out)-1] != idx.Entries[i].Path) {
			out = append(out, idx.Entries[i].Path)
		}
	}
	return out
}

// hasPrefixDir reports whether dir (a folder path) holds any entry.
func (idx *Index) hasPrefixDir(dir string) bool {
	p := dir + "/"
	i := sort.Search(len(idx.Entries), func(i int) bool { return idx.Entries[i].Path >= p })
	return i < len(idx.Entries) && strings.HasPrefix(idx.Entries[i].Path, p)
}

// Gitlink reports whether the entry is a submodule (a commit, not a file).
func (e *IndexEntry) Gitlink() bool { return e.Mode == modeGitlink }

// Tree reports whether the entry is a folder (a sparse index's).
func (e *IndexEntry) Tree() bool { return e.Mode == modeTree }
