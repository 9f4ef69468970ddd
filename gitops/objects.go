package gitops

import (
	"bytes"
	"crypto/sha1"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-git/go-git/v5/plumbing"
)

// hashObject is git's object name: SHA-1 of "<type> <size>\0<content>".
func hashObject(typ string, data []byte) plumbing.Hash {
	h := sha1.New()
	h.Write([]byte(typ))
	h.Write([]byte{' '})
	h.Write(strconv.AppendInt(nil, int64(len(data)), 10))
	h.Write([]byte{0})
	h.Write(data)
	var out plumbing.Hash
	h.Sum(out[:0])
	return out
}

// hashBlobReader hashes size bytes from r as a blob. ok is false when r
// held a different number of bytes (the file changed while being read).
func hashBlobReader(r io.Reader, size int64) (plumbing.Hash, bool, error) {
	h := sha1.New()
	h.Write([]byte("blob "))
	h.Write(strconv.AppendInt(nil, size, 10))
	h.Write([]byte{0})
	n, err := io.Copy(h, io.LimitReader(r, size+1))
	if err != nil {
		return plumbing.ZeroHash, false, err
	}
	var out plumbing.Hash
	h.Sum(out[:0])
	return out, n == size, nil
}

var emptyTree = hashObject("tree", nil)

// treeEnt is one entry of a tree built from the index.
type treeEnt struct {
	name  string
	mode  uint32
	hash  plumbing.Hash
	sub   *treeNode // for a folder
	entry int       // position in the index for a file; -1 for a folder
}

// treeNode is a folder of the index as a tree object would hold it.
type treeNode struct {
	hash plumbing.Hash
	ents []treeEnt
	data []byte // the serialized tree, kept only when building for write
}

// treeBuilder turns sorted index entries into trees, hashing each folder
// the way git would (the index order is the tree order: a folder sorts as
// its name followed by "/").
type treeBuilder struct {
	entries []IndexEntry
	use     []int // positions taken into the tree
	keep    bool  // keep serialized trees (for writing them)
	buf     []byte
}

// buildIndexTree hashes the index's stage-0 entries (intent-to-add ones
// left out, as git's write-tree does) into a tree per folder.
func buildIndexTree(idx *Index, keep bool) *treeNode {
	b := &treeBuilder{entries: idx.Entries, keep: keep}
	for i := range idx.Entries {
		e := &idx.Entries[i]
		if e.Stage() == 0 && !e.intentToAdd() {
			b.use = append(b.use, i)
		}
	}
	return b.build(0, len(b.use), 0)
}

func (b *treeBuilder) build(lo, hi, plen int) *treeNode {
	n := &treeNode{}
	for i := lo; i < hi; {
		e := &b.entries[b.use[i]]
		rest := e.Path[plen:]
		slash := strings.IndexByte(rest, '/')
		if slash < 0 {
			n.ents = append(n.ents, treeEnt{name: rest, mode: normalMode(e.Mode), hash: e.Hash, entry: b.use[i]})
			i++
			continue
		}
		prefix := e.Path[:plen+slash+1]
		j := i + 1
		for j < hi && strings.HasPrefix(b.entries[b.use[j]].Path, prefix) {
			j++
		}
		sub := b.build(i, j, len(prefix))
		n.ents = append(n.ents, treeEnt{name: rest[:slash], mode: modeTree, hash: sub.hash, sub: sub, entry: -1})
		i = j
	}
	b.buf = b.buf[:0]
	for _, c := range n.ents {
		b.buf = strconv.AppendUint(b.buf, uint64(c.mode), 8)
		b.buf = append(b.buf, ' ')
		b.buf = append(b.buf, c.name...)
		b.buf = append(b.buf, 0)
		b.buf = append(b.buf, c.hash[:]...)
	}
	n.hash = hashObject("tree", b.buf)
	if b.keep {
		n.data = append([]byte(nil), b.buf...)
	}
	return n
}

// treeEntry is a child of a tree read from the object store.
type treeEntry struct {
	name string
	mode uint32
	hash plumbing.Hash
}

func (e treeEntry) isDir() bool { return e.mode == modeTree }

// readTree reads a tree object's entries (in tree order).
func (r *Repo) readTree(h plumbing.Hash) ([]treeEntry, error) {
	if h == emptyTree || h.IsZero() {
		return nil, nil
	}
	if data, ok := r.memTrees[h]; ok {
		return parseTree(data)
	}
	if ents, ok := treeCache.get(h); ok {
		return ents, nil
	}
	obj, err := r.object(h, plumbing.TreeObject, 0)
	if err != nil {
		return nil, err
	}
	out, err := parseTree(obj.data)
	if err != nil {
		return nil, gitErr(r.top, "read tree "+h.String(), err)
	}
	treeCache.put(h, out)
	return out, nil
}

// treeCache keeps parsed trees across calls (a tree's name is its content,
// so an entry never goes stale): a history walk reads each commit's trees
// and its parent's, which the previous commit read. Callers must not
// modify what they get.
var treeCache = newLRU[plumbing.Hash](1<<14, one[[]treeEntry])

// parseTree decodes a tree object's entries.
func parseTree(data []byte) ([]treeEntry, error) {
	var out []treeEntry
	for len(data) > 0 {
		sp := bytes.IndexByte(data, ' ')
		nul := bytes.IndexByte(data, 0)
		if sp < 0 || nul < sp || nul+21 > len(data) {
			return nil, errors.New("malformed tree")
		}
		mode, err := strconv.ParseUint(string(data[:sp]), 8, 32)
		if err != nil {
			return nil, err
		}
		var e treeEntry
		e.mode = normalMode(uint32(mode))
		e.name = string(data[sp+1 : nul])
		copy(e.hash[:], data[nul+1:nul+21])
		out = append(out, e)
		data = data[nul+21:]
	}
	return out, nil
}

// normalMode maps the odd modes old trees may hold onto git's five.
func normalMode(m uint32) uint32 {
	switch m & 0o170000 {
	case 0o040000:
		return modeTree
	case 0o120000:
		return modeSymlink
	case 0o160000:
		return modeGitlink
	}
	if m&0o100 != 0 {
		return modeExecutable
	}
	return modeRegular
}

// flatTree lists every file under tree h with its repository path.
func (r *Repo) flatTree(h plumbing.Hash, prefix string, fn func(path string, e treeEntry) error) error {
	return r.flatTreeV(h, prefix, false, fn)
}

// flatTreeV is flatTree, verifying each tree object it reads
// (verifyTreeEntries) when verify is set: for a tree about to be checked
// out.
func (r *Repo) flatTreeV(h plumbing.Hash, prefix string, verify bool, fn func(path string, e treeEntry) error) error {
	ents, err := r.readTree(h)
	if err != nil {
		return err
	}
	if verify {
		if err := verifyTreeEntries(prefix, ents); err != nil {
			return err
		}
	}
	for _, e := range ents {
		p := joinPath(prefix, e.name)
		if e.isDir() {
			if err := r.flatTreeV(e.hash, p, verify, fn); err != nil {
				return err
			}
			continue
		}
		if err := fn(p, e); err != nil {
			return err
		}
	}
	return nil
}

// treeFiles maps every file path under tree h to its entry.
func (r *Repo) treeFiles(h plumbing.Hash) (map[string]treeEntry, error) {
	out := map[string]treeEntry{}
	err := r.flatTree(h, "", func(p string, e treeEntry) error {
		out[p] = e
		return nil
	})
	return out, err
}

// lookupPath finds the entry at path p under tree h.
func (r *Repo) lookupPath(h plumbing.Hash, p string) (treeEntry, bool, error) {
	parts := strings.Split(p, "/")
	cur := treeEntry{mode: modeTree, hash: h}
	for _, name := range parts {
		if !cur.isDir() {
			return treeEntry{}, false, nil
		}
		ents, err := r.readTree(cur.hash)
		if err != nil {
			return treeEntry{}, false, err
		}
		found := false
		for _, e := range ents {
			if e.name == name {
				cur, found = e, true
				break
			}
		}
		if !found {
			return treeEntry{}, false, nil
		}
	}
	return cur, true, nil
}

// readBlob reads a blob whole.
func (r *Repo) readBlob(h plumbing.Hash) ([]byte, error) {
	obj, err := r.object(h, plumbing.BlobObject, 0)
	return obj.data, err
}

// object reads h, which must be of type want (or any, for AnyObject). When
// limit > 0 and the object is larger, only its type and size are read
// (skipped).
func (r *Repo) object(h plumbing.Hash, want plumbing.ObjectType, limit int64) (rawObject, error) {
	doing := "read " + h.String()
	if want != plumbing.AnyObject {
		doing = "read " + want.String() + " " + h.String()
	}
	obj, err := r.readRaw(h, limit)
	if errors.Is(err, errNotWhole) {
		obj, err = r.objectFromGoGit(h, limit)
	}
	if err != nil {
		return rawObject{}, gitErr(r.top, doing, err)
	}
	if want != plumbing.AnyObject && obj.typ != want {
		return rawObject{}, gitErr(r.top, doing, fmt.Errorf("%s is a %s, not a %s", h, obj.typ, want))
	}
	return obj, nil
}

// objectFromGoGit reads what readRaw leaves: deltas and alternates.
func (r *Repo) objectFromGoGit(h plumbing.Hash, limit int64) (rawObject, error) {
	enc, err := r.st.EncodedObject(plumbing.AnyObject, h)
	if err != nil {
		return rawObject{}, err
	}
	obj := rawObject{typ: enc.Type(), size: enc.Size()}
	if limit > 0 && obj.size > limit {
		obj.skipped = true
		return obj, nil
	}
	rd, err := enc.Reader()
	if err != nil {
		return rawObject{}, err
	}
	defer rd.Close()
	if obj.data, err = readSized(rd, obj.size, 0); err != nil {
		return rawObject{}, err
	}
	return obj, nil
}

// writeObject stores an object (if it is not there yet) and returns its name.
func (r *Repo) writeObject(typ plumbing.ObjectType, data []byte) (plumbing.Hash, error) {
	h := hashObject(typ.String(), data)
	if r.st.HasEncodedObject(h) == nil {
		return h, nil
	}
	obj := r.st.NewEncodedObject()
	obj.SetType(typ)
	obj.SetSize(int64(len(data)))
	w, err := obj.Writer()
	if err != nil {
		return h, gitErr(r.top, "write an object", err)
	}
	if _, err := w.Write(data); err != nil {
		return h, gitErr(r.top, "write an object", err)
	}
	w.Close()
	got, err := r.st.SetEncodedObject(obj)
	if err != nil {
		return h, gitErr(r.top, "write an object", err)
	}
	if got != h {
		return h, gitErr(r.top, "write an object", fmt.Errorf("stored as %s, expected %s", got, h))
	}
	return h, nil
}

// holdTrees makes the trees of a built index tree readable (readTree)
// without storing them: an operation that may yet be refused writes no
// object.
func (r *Repo) holdTrees(n *treeNode) {
	if r.memTrees == nil {
		r.memTrees = map[plumbing.Hash][]byte{}
	}
	var walk func(n *treeNode)
	walk = func(n *treeNode) {
		if _, ok := r.memTrees[n.hash]; ok {
			return
		}
		r.memTrees[n.hash] = n.data
		for _, e := range n.ents {
			if e.sub != nil {
				walk(e.sub)
			}
		}
	}
	walk(n)
}

// writeTrees stores every tree of a built index tree that the object store
// lacks (a tree it has implies its subtrees).
func (r *Repo) writeTrees(n *treeNode) error {
	if r.st.HasEncodedObject(n.hash) == nil {
		return nil
	}
	for _, e := range n.ents {
		if e.sub != nil {
			if err := r.writeTrees(e.sub); err != nil {
				return err
			}
		}
	}
	_, err := r.writeObject(plumbing.TreeObject, n.data)
	return err
}

// commitInfo is the part of a commit the walks need.
type commitInfo struct {
	tree      plumbing.Hash
	parents   []plumbing.Hash
	time      int64 // committer time
	message   string
	author    string
	committer string
}

// commitCache remembers parsed commits across calls. Objects are named by
// their content, so an entry can never go stale; the cache spares status
// (which needs HEAD's tree and the ahead/behind walk every call) go-git's
// cost of opening the pack index on each call.
var commitCache = newLRU[plumbing.Hash](1<<14, one[*commitInfo])

// readCommit parses a commit object (lighter than go-git's decoder, which
// the history walks would otherwise spend most of their time in). An
// annotated tag is followed to its commit.
func (r *Repo) readCommit(h plumbing.Hash) (*commitInfo, error) {
	if c, ok := commitCache.get(h); ok {
		return c, nil
	}
	c, err := r.decodeCommit(h)
	if err != nil {
		return nil, err
	}
	commitCache.put(h, c)
	return c, nil
}

// tagTarget is what an annotated tag points at: its first line names it.
func tagTarget(data []byte) (plumbing.Hash, bool) {
	t, ok := bytes.CutPrefix(data, []byte("object "))
	if !ok || len(t) < 40 {
		return plumbing.ZeroHash, false
	}
	return plumbing.NewHash(string(t[:40])), true
}

func (r *Repo) decodeCommit(h plumbing.Hash) (*commitInfo, error) {
	obj, err := r.object(h, plumbing.AnyObject, 0)
	if err != nil {
		return nil, err
	}
	data := obj.data
	if obj.typ == plumbing.TagObject {
		target, ok := tagTarget(data)
		if !ok {
			return nil, gitErr(r.top, "read tag "+h.String(), errors.New("malformed tag"))
		}
		return r.decodeCommit(target)
	}
	if obj.typ != plumbing.CommitObject {
		return nil, fmt.Errorf("%s is a %s, not a commit", h, obj.typ)
	}
	return parseCommit(data), nil
}

// parseCommit decodes a commit object.
func parseCommit(data []byte) *commitInfo {
	c := &commitInfo{}
	hdr, msg, _ := bytes.Cut(data, []byte("\n\n"))
	c.message = string(msg)
	for _, line := range strings.Split(string(hdr), "\n") {
		k, v, _ := strings.Cut(line, " ")
		switch k {
		case "tree":
			c.tree = plumbing.NewHash(v)
		case "parent":
			c.parents = append(c.parents, plumbing.NewHash(v))
		case "author":
			c.author = v
		case "committer":
			c.committer = v
			c.time = identTime(v)
		}
	}
	return c
}

// identTime reads the Unix time out of "Name <mail> 1700000000 +0100".
func identTime(v string) int64 {
	gt := strings.LastIndexByte(v, '>')
	if gt < 0 {
		return 0
	}
	f := strings.Fields(v[gt+1:])
	if len(f) == 0 {
		return 0
	}
	t, _ := strconv.ParseInt(f[0], 10, 64)
	return t
}

// subject is the first line of a commit message.
func subject(msg string) string {
	msg = strings.TrimLeft(msg, "\n")
	line, _, _ := strings.Cut(msg, "\n")
	return strings.TrimSpace(line)
}

// displayMax bounds a subject, author or email shown in a result (log,
// blame, branches, stash summaries): a hostile repository's commit with a
// 10 MB first line, repeated on every line blame returns, made the reply
// as large as the lines times the message.
const displayMax = 500

// shown is s cut to displayMax bytes on a UTF-8 boundary, marked with "…"
// when cut.
func shown(s string) string {
	if len(s) <= displayMax {
		return s
	}
	cut := displayMax
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// shownSubject is subject cut for display. (A reflog line keeps the whole
// subject, as git writes it.)
func shownSubject(msg string) string { return shown(subject(msg)) }
