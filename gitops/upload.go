package gitops

import (
	"bufio"
	"compress/zlib"
	"container/heap"
	"context"
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/plumbing/transport"
)

// The upload side of a file:// fetch, in process. go-git's own server
// lists every object reachable from what the client already has before it
// can subtract them, which on a large repository with a long history costs
// seconds for a fetch of three commits (and reopens the pack for each
// object). This one does what git's upload-pack does: walk the commits from
// the wanted tips, newest first, until every commit left is one the client
// has; then list, for each new commit, the trees and blobs that differ from
// its parents' (the client has every object of a commit it has).

// localUpload serves one upload-pack request from a local repository.
type localUpload struct {
	transport.UploadPackSession
	st  storer.EncodedObjectStorer
	cl  io.Closer
	raw *Repo // reads the remote's objects (nil: through go-git)
}

func (u *localUpload) Close() error {
	err := u.UploadPackSession.Close()
	if u.raw != nil {
		u.raw.Close()
	}
	if u.cl != nil {
		u.cl.Close()
	}
	return err
}

func (u *localUpload) UploadPack(ctx context.Context, req *packp.UploadPackRequest) (*packp.UploadPackResponse, error) {
	if req.IsEmpty() {
		return nil, transport.ErrEmptyUploadPackRequest
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	if len(req.Shallows) > 0 || req.Depth != nil && !req.Depth.IsZero() {
		// Shallow requests stay with go-git's server.
		return u.UploadPackSession.UploadPack(ctx, req)
	}
	var haves []plumbing.Hash
	for _, h := range req.Haves {
		if u.has(h) {
			haves = append(haves, h)
		}
	}
	objs, err := objectsToSend(ctx, u.st, u.raw, req.Wants, haves)
	if err != nil {
		return nil, err
	}
	pr, pw := io.Pipe()
	go func() {
		if u.raw != nil && len(objs) <= smallPack {
			pw.CloseWithError(writeWholePack(pw, u.raw, objs))
			return
		}
		_, err := packfile.NewEncoder(pw, u.st, false).Encode(objs, 10)
		pw.CloseWithError(err)
	}()
	return packp.NewUploadPackResponseWithPackfile(req, pr), nil
}

// has reports whether the remote holds object h.
func (u *localUpload) has(h plumbing.Hash) bool {
	if u.raw != nil {
		if _, _, ok := u.raw.findPacked(h); ok {
			return true
		}
		_, err := u.raw.readLoose(h, 1)
		return err == nil
	}
	return u.st.HasEncodedObject(h) == nil
}

// smallPack is the most objects a fetch sends as a pack of whole objects
// written here; more go through go-git's encoder, which finds deltas.
const smallPack = 5000

// writeWholePack writes objs as a pack of whole (undeltified) objects: the
// "PACK" header, each object's type and size and its zlib stream, and the
// SHA-1 of it all. For the few objects of an everyday fetch this skips
// go-git's delta search and its index of the remote's pack.
func writeWholePack(w io.Writer, r *Repo, objs []plumbing.Hash) error {
	h := sha1.New()
	bw := bufio.NewWriterSize(io.MultiWriter(w, h), 64<<10)
	var hdr [12]byte
	copy(hdr[:], "PACK")
	binary.BigEndian.PutUint32(hdr[4:], 2)
	binary.BigEndian.PutUint32(hdr[8:], uint32(len(objs)))
	bw.Write(hdr[:])
	zw, _ := zlib.NewWriterLevel(bw, zlib.BestSpeed)
	for _, oh := range objs {
		obj, err := r.object(oh, plumbing.AnyObject, 0)
		if err != nil {
			return err
		}
		var kind byte
		switch obj.typ {
		case plumbing.CommitObject:
			kind = packCommit
		case plumbing.TreeObject:
			kind = packTree
		case plumbing.BlobObject:
			kind = packBlob
		case plumbing.TagObject:
			kind = packTag
		default:
			return fmt.Errorf("object %s of type %s cannot be packed", oh, obj.typ)
		}
		size := uint64(len(obj.data))
		b := kind<<4 | byte(size&15)
		size >>= 4
		var eh []byte
		for size > 0 {
			eh = append(eh, b|0x80)
			b = byte(size & 0x7f)
			size >>= 7
		}
		eh = append(eh, b)
		bw.Write(eh)
		zw.Reset(bw)
		if _, err := zw.Write(obj.data); err != nil {
			return err
		}
		if err := zw.Close(); err != nil {
			return err
		}
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	_, err := w.Write(h.Sum(nil))
	return err
}

// objReader reads and parses objects of one store.
type objReader struct {
	st      storer.EncodedObjectStorer
	repo    *Repo
	commits map[plumbing.Hash]*commitInfo
}

func (o *objReader) raw(h plumbing.Hash) (plumbing.ObjectType, []byte, error) {
	if o.repo != nil {
		obj, err := o.repo.object(h, plumbing.AnyObject, 0)
		if err != nil {
			return 0, nil, err
		}
		return obj.typ, obj.data, nil
	}
	obj, err := o.st.EncodedObject(plumbing.AnyObject, h)
	if err != nil {
		return 0, nil, err
	}
	rd, err := obj.Reader()
	if err != nil {
		return 0, nil, err
	}
	defer rd.Close()
	data, err := readSized(rd, obj.Size(), 0)
	return obj.Type(), data, err
}

func (o *objReader) commit(h plumbing.Hash) (*commitInfo, error) {
	if c := o.commits[h]; c != nil {
		return c, nil
	}
	typ, data, err := o.raw(h)
	if err != nil {
		return nil, err
	}
	if typ != plumbing.CommitObject {
		return nil, errors.New(h.String() + " is a " + typ.String() + ", not a commit")
	}
	c := parseCommit(data)
	o.commits[h] = c
	return c, nil
}

func (o *objReader) tree(h plumbing.Hash) ([]treeEntry, error) {
	if h.IsZero() || h == emptyTree {
		return nil, nil
	}
	typ, data, err := o.raw(h)
	if err != nil {
		return nil, err
	}
	if typ != plumbing.TreeObject {
		return nil, errors.New(h.String() + " is a " + typ.String() + ", not a tree")
	}
	return parseTree(data)
}

type upNode struct {
	hash   plumbing.Hash
	time   int64
	have   bool // reachable from what the client has
	queued bool
}

func (n *upNode) order() (int64, int) { return n.time, 0 }

// objectsToSend lists the objects reachable from wants that are not
// reachable from haves.
func objectsToSend(ctx context.Context, st storer.EncodedObjectStorer, repo *Repo, wants, haves []plumbing.Hash) ([]plumbing.Hash, error) {
	o := &objReader{st: st, repo: repo, commits: map[plumbing.Hash]*commitInfo{}}
	seen := map[plumbing.Hash]bool{}
	var out []plumbing.Hash
	emit := func(h plumbing.Hash) {
		if !seen[h] {
			seen[h] = true
			out = append(out, h)
		}
	}
	// Tags are sent and peeled; a wanted tree or blob is sent whole.
	var tips []plumbing.Hash
	var loose []plumbing.Hash
	for _, w := range wants {
		h := w
		for range 10 {
			typ, data, err := o.raw(h)
			if err != nil {
				return nil, err
			}
			if typ == plumbing.TagObject {
				emit(h)
				target, ok := tagTarget(data)
				if !ok {
					return nil, errors.New("malformed tag " + h.String())
				}
				h = target
				continue
			}
			if typ == plumbing.CommitObject {
				tips = append(tips, h)
			} else {
				loose = append(loose, h)
			}
			break
		}
	}
	// The commit walk.
	nodes := map[plumbing.Hash]*upNode{}
	var q commitQueue[*upNode]
	pending := 0 // queued commits the client does not have
	var push func(h plumbing.Hash, have bool) error
	markHave := func(n *upNode) {
		// A commit the client has: so are its ancestors already seen.
		stack := []*upNode{n}
		for len(stack) > 0 {
			n := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if n.have {
				continue
			}
			n.have = true
			if n.queued {
				pending--
			}
			if c := o.commits[n.hash]; c != nil {
				for _, p := range c.parents {
					if pn := nodes[p]; pn != nil {
						stack = append(stack, pn)
					}
				}
			}
		}
	}
	push = func(h plumbing.Hash, have bool) error {
		if n := nodes[h]; n != nil {
			if have && !n.have {
				markHave(n)
			}
			return nil
		}
		c, err := o.commit(h)
		if err != nil {
			return err
		}
		n := &upNode{hash: h, time: c.time, have: have, queued: true}
		nodes[h] = n
		heap.Push(&q, n)
		if !have {
			pending++
		}
		return nil
	}
	for _, h := range haves {
		if _, err := o.commit(h); err != nil {
			continue // a have that is not a commit
		}
		if err := push(h, true); err != nil {
			return nil, err
		}
	}
	for _, h := range tips {
		if err := push(h, false); err != nil {
			return nil, err
		}
	}
	var fresh []*upNode
	for q.Len() > 0 && pending > 0 {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		n := heap.Pop(&q).(*upNode)
		n.queued = false
		if !n.have {
			pending--
		}
		c := o.commits[n.hash]
		for _, p := range c.parents {
			if err := push(p, n.have); err != nil {
				return nil, err
			}
		}
		if !n.have {
			fresh = append(fresh, n)
		}
	}
	// A commit still queued may have reached one popped earlier.
	for _, n := range q {
		if n.have {
			for _, p := range o.commits[n.hash].parents {
				if pn := nodes[p]; pn != nil && !pn.have {
					markHave(pn)
				}
			}
		}
	}
	// Objects: each new commit, and what its tree has that its parents'
	// trees do not.
	for _, n := range fresh {
		if n.have {
			continue
		}
		c := o.commits[n.hash]
		emit(n.hash)
		var bases []plumbing.Hash
		for _, p := range c.parents {
			if pc, err := o.commit(p); err == nil {
				bases = append(bases, pc.tree)
			}
		}
		if err := newTreeObjects(o, c.tree, bases, seen, &out); err != nil {
			return nil, err
		}
	}
	for _, h := range loose {
		typ, _, err := o.raw(h)
		if err != nil {
			return nil, err
		}
		if typ == plumbing.TreeObject {
			if err := newTreeObjects(o, h, nil, seen, &out); err != nil {
				return nil, err
			}
		} else {
			emit(h)
		}
	}
	return out, nil
}

// newTreeObjects lists tree t and what it holds, leaving out whatever
// stands at the same path in one of the base trees.
func newTreeObjects(o *objReader, t plumbing.Hash, bases []plumbing.Hash, seen map[plumbing.Hash]bool, out *[]plumbing.Hash) error {
	if seen[t] {
		return nil
	}
	for _, b := range bases {
		if b == t {
			return nil
		}
	}
	seen[t] = true
	*out = append(*out, t)
	ents, err := o.tree(t)
	if err != nil {
		return err
	}
	baseEnts := make([]map[string]treeEntry, 0, len(bases))
	for _, b := range bases {
		be, err := o.tree(b)
		if err != nil {
			return err
		}
		m := make(map[string]treeEntry, len(be))
		for _, e := range be {
			m[e.name] = e
		}
		baseEnts = append(baseEnts, m)
	}
	for _, e := range ents {
		if e.mode == modeGitlink || seen[e.hash] {
			continue
		}
		var sub []plumbing.Hash
		same := false
		for _, m := range baseEnts {
			if be, ok := m[e.name]; ok {
				if be.hash == e.hash {
					same = true
					break
				}
				if be.isDir() && e.isDir() {
					sub = append(sub, be.hash)
				}
			}
		}
		switch {
		case same:
		case e.isDir():
			if err := newTreeObjects(o, e.hash, sub, seen, out); err != nil {
				return err
			}
		default:
			seen[e.hash] = true
			*out = append(*out, e.hash)
		}
	}
	return nil
}
