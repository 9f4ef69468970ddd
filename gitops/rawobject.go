package gitops

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-git/v5/plumbing"
)

// Objects read straight from the object store when they are stored whole:
// a loose object, or a pack entry that is not a delta. go-git inflates into
// a growing buffer, copies it into a memory object and copies it out again,
// which on a 3 MB blob costs several times the inflate itself. Here the
// header comes first (so an object over a limit is refused before anything
// is inflated) and the content is inflated once into a buffer of its size.
// Deltas, alternates and anything unexpected fall back to go-git.

// Pack entry types (git's pack format).
const (
	packCommit   = 1
	packTree     = 2
	packBlob     = 3
	packTag      = 4
	packOfsDelta = 6
	packRefDelta = 7
)

var packTypes = [...]plumbing.ObjectType{
	packCommit: plumbing.CommitObject, packTree: plumbing.TreeObject,
	packBlob: plumbing.BlobObject, packTag: plumbing.TagObject,
}

// errNotWhole says the object is not stored whole where we look (a delta,
// another object store, or absent): ask go-git.
var errNotWhole = errors.New("object not stored whole")

// rawObject is an object's type and size, with its content once read.
type rawObject struct {
	typ     plumbing.ObjectType
	size    int64
	data    []byte
	skipped bool // over the limit it was read with: data not read
}

// readRaw reads h whole. When limit > 0 and the object is larger, only typ
// and size are set (skipped). errNotWhole means go-git must be asked.
func (r *Repo) readRaw(h plumbing.Hash, limit int64) (rawObject, error) {
	if p, off, ok := r.findPacked(h); ok {
		return r.readPackEntry(p, h, off, limit)
	}
	return r.readLoose(h, limit)
}

// readLoose reads objects/xx/yyyy: zlib of "<type> <size>\0<content>".
func (r *Repo) readLoose(h plumbing.Hash, limit int64) (rawObject, error) {
	hex := h.String()
	f, err := r.gfs.Open("objects/" + hex[:2] + "/" + hex[2:])
	if err != nil {
		return rawObject{}, errNotWhole
	}
	defer f.Close()
	zr, err := zlib.NewReader(bufio.NewReaderSize(f, 32<<10))
	if err != nil {
		return rawObject{}, fmt.Errorf("loose object %s: %w", h, err)
	}
	defer zr.Close()
	br := bufio.NewReaderSize(zr, 64)
	head, err := br.ReadString(0)
	if err != nil {
		return rawObject{}, fmt.Errorf("loose object %s: bad header: %w", h, err)
	}
	name, sizeText, ok := strings.Cut(strings.TrimSuffix(head, "\x00"), " ")
	typ, terr := plumbing.ParseObjectType(name)
	size, serr := strconv.ParseInt(sizeText, 10, 64)
	if !ok || terr != nil || serr != nil || size < 0 {
		return rawObject{}, fmt.Errorf("loose object %s: bad header %q", h, head)
	}
	obj := rawObject{typ: typ, size: size}
	if limit > 0 && size > limit {
		obj.skipped = true
		return obj, nil
	}
	obj.data, err = inflateExactly(br, size)
	if err != nil {
		return rawObject{}, fmt.Errorf("loose object %s: %w", h, err)
	}
	return obj, nil
}

// pack is one pack of the repository: its index, and the pack file once
// it has been opened (closed with the Repo).
type pack struct {
	name string // objects/pack/pack-<checksum>.pack
	idx  *packIdx
	file billy.File
}

// packList lists the repository's packs, once per Repo (a Repo lives for
// one call, and a status reads hundreds of trees).
func (r *Repo) packList() []*pack {
	r.packsOnce.Do(func() {
		names, err := r.gfs.ReadDir("objects/pack")
		if err != nil {
			return
		}
		for _, fi := range names {
			name, ok := strings.CutSuffix(fi.Name(), ".idx")
			if !ok || !strings.HasPrefix(name, "pack-") {
				continue
			}
			idx, err := r.packIndex(fi.Name(), fi.Size())
			if err != nil {
				continue // an idx being written, or one we cannot read: go-git decides
			}
			r.packs = append(r.packs, &pack{name: "objects/pack/" + name + ".pack", idx: idx})
		}
	})
	return r.packs
}

// findPacked finds h in the repository's packs.
func (r *Repo) findPacked(h plumbing.Hash) (*pack, int64, bool) {
	for _, p := range r.packList() {
		if off, ok := p.idx.find(h); ok {
			return p, off, true
		}
	}
	return nil, 0, false
}

// packFile opens p's pack file on first use.
func (r *Repo) packFile(p *pack) (billy.File, error) {
	r.packsMu.Lock()
	defer r.packsMu.Unlock()
	if p.file == nil {
		f, err := r.gfs.Open(p.name)
		if err != nil {
			return nil, err
		}
		p.file = f
		r.closers = append(r.closers, f)
	}
	return p.file, nil
}

// readPackEntry reads the entry of h at off in p, resolving deltas (an
// ofs-delta against an earlier entry of the same pack, a ref-delta against
// any object) with a cache of the bases this call has inflated: in a
// history walk consecutive versions of a file are deltas of each other.
func (r *Repo) readPackEntry(p *pack, h plumbing.Hash, off, limit int64) (rawObject, error) {
	f, err := r.packFile(p)
	if err != nil {
		return rawObject{}, errNotWhole
	}
	return r.packEntryAt(p, f, off, limit, 0)
}

// packChunk is how much of an entry is read at once: its header and, for
// most trees and small blobs, all of its compressed data.
const packChunk = 8 << 10

var chunkPool = sync.Pool{New: func() any { b := make([]byte, packChunk); return &b }}

type inflater struct {
	br *bufio.Reader
	zr io.ReadCloser
}

var inflaterPool = sync.Pool{New: func() any { return &inflater{br: bufio.NewReaderSize(nil, 16<<10)} }}

// inflateAt inflates size bytes whose zlib stream starts at pos of the
// pack, head being the bytes of the pack already read from pos.
func inflateAt(f io.ReaderAt, pos int64, head []byte, size int64) ([]byte, error) {
	inf := inflaterPool.Get().(*inflater)
	defer inflaterPool.Put(inf)
	var src io.Reader = bytes.NewReader(head)
	src = io.MultiReader(src, io.NewSectionReader(f, pos+int64(len(head)), 1<<62))
	inf.br.Reset(src)
	if inf.zr == nil {
		zr, err := zlib.NewReader(inf.br)
		if err != nil {
			return nil, err
		}
		inf.zr = zr
	} else if err := inf.zr.(zlib.Resetter).Reset(inf.br, nil); err != nil {
		return nil, err
	}
	return inflateExactly(inf.zr, size)
}

type baseKey struct {
	p   *pack
	off int64
}

func (r *Repo) packEntryAt(p *pack, f io.ReaderAt, off, limit int64, depth int) (rawObject, error) {
	if depth > 64 {
		return rawObject{}, errNotWhole
	}
	if b, ok := r.baseCache().get(baseKey{p, off}); ok {
		if limit > 0 && int64(len(b.data)) > limit {
			return rawObject{typ: b.typ, size: int64(len(b.data)), skipped: true}, nil
		}
		return rawObject{typ: b.typ, size: int64(len(b.data)), data: b.data}, nil
	}
	bp := chunkPool.Get().(*[]byte)
	defer chunkPool.Put(bp)
	buf := *bp
	n, err := f.ReadAt(buf, off)
	if n == 0 {
		return rawObject{}, fmt.Errorf("pack %s: entry at %d: %v", p.name, off, err)
	}
	buf = buf[:n]
	b := buf[0]
	kind := int(b>>4) & 7
	size := int64(b & 15)
	i, shift := 1, 4
	for b&0x80 != 0 {
		if i >= n || shift > 56 {
			return rawObject{}, fmt.Errorf("pack %s: entry at %d: bad entry header", p.name, off)
		}
		b = buf[i]
		size |= int64(b&0x7f) << shift
		i, shift = i+1, shift+7
	}
	switch kind {
	case packOfsDelta, packRefDelta:
		var base rawObject
		if kind == packOfsDelta {
			if i >= n {
				return rawObject{}, errNotWhole
			}
			v, k := offsetVarint(buf[i:n])
			if k == 0 {
				return rawObject{}, errNotWhole
			}
			i += k
			rel := int64(v)
			if rel <= 0 || rel > off {
				return rawObject{}, fmt.Errorf("pack %s: entry at %d: bad delta base offset", p.name, off)
			}
			if base, err = r.packEntryAt(p, f, off-rel, 0, depth+1); err != nil {
				return rawObject{}, err
			}
		} else {
			if i+20 > n {
				return rawObject{}, errNotWhole
			}
			var bh plumbing.Hash
			copy(bh[:], buf[i:i+20])
			i += 20
			if base, err = r.readRaw(bh, 0); err != nil {
				return rawObject{}, err
			}
		}
		delta, err := inflateAt(f, off+int64(i), buf[i:], size)
		if err != nil {
			return rawObject{}, fmt.Errorf("pack %s: delta at %d: %w", p.name, off, err)
		}
		data, err := applyDelta(base.data, delta)
		if err != nil {
			return rawObject{}, fmt.Errorf("pack %s: delta at %d: %w", p.name, off, err)
		}
		obj := rawObject{typ: base.typ, size: int64(len(data)), data: data}
		r.keepBase(p, off, obj)
		if limit > 0 && obj.size > limit {
			return rawObject{typ: obj.typ, size: obj.size, skipped: true}, nil
		}
		return obj, nil
	}
	if kind >= len(packTypes) || packTypes[kind] == plumbing.InvalidObject {
		return rawObject{}, fmt.Errorf("pack %s: entry at %d: unknown entry type %d", p.name, off, kind)
	}
	obj := rawObject{typ: packTypes[kind], size: size}
	if limit > 0 && size > limit {
		obj.skipped = true
		return obj, nil
	}
	if obj.data, err = inflateAt(f, off+int64(i), buf[i:], size); err != nil {
		return rawObject{}, fmt.Errorf("pack %s: entry at %d: %w", p.name, off, err)
	}
	if depth > 0 {
		r.keepBase(p, off, obj)
	}
	return obj, nil
}

type baseObj struct {
	typ  plumbing.ObjectType
	data []byte
}

// keepBase remembers an inflated entry other deltas may build on (32 MiB
// per call).
func (r *Repo) keepBase(p *pack, off int64, obj rawObject) {
	r.baseCache().put(baseKey{p, off}, baseObj{typ: obj.typ, data: obj.data})
}

func (r *Repo) baseCache() *lru[baseKey, baseObj] {
	r.basesOnce.Do(func() {
		r.bases = newLRU[baseKey](32<<20, func(b baseObj) int { return len(b.data) + 64 })
	})
	return r.bases
}

// applyDelta rebuilds an object from its base and a git delta.
func applyDelta(base, delta []byte) ([]byte, error) {
	varint := func() (int, bool) {
		v, shift := 0, 0
		for len(delta) > 0 {
			c := delta[0]
			delta = delta[1:]
			v |= int(c&0x7f) << shift
			shift += 7
			if c&0x80 == 0 {
				return v, true
			}
		}
		return 0, false
	}
	srcSize, ok1 := varint()
	dstSize, ok2 := varint()
	if !ok1 || !ok2 || srcSize != len(base) {
		return nil, errors.New("delta does not fit its base")
	}
	out := make([]byte, 0, dstSize)
	for len(delta) > 0 {
		op := delta[0]
		delta = delta[1:]
		switch {
		case op&0x80 != 0:
			var cpOff, cpSize int
			var ok bool
			if cpOff, delta, ok = copyArg(delta, op, 4); !ok {
				return nil, errors.New("delta cut short")
			}
			if cpSize, delta, ok = copyArg(delta, op>>4, 3); !ok {
				return nil, errors.New("delta cut short")
			}
			if cpSize == 0 {
				cpSize = 0x10000
			}
			if cpOff+cpSize > len(base) || cpOff < 0 {
				return nil, errors.New("delta copies past its base")
			}
			out = append(out, base[cpOff:cpOff+cpSize]...)
		case op != 0:
			if int(op) > len(delta) {
				return nil, errors.New("delta cut short")
			}
			out = append(out, delta[:op]...)
			delta = delta[op:]
		default:
			return nil, errors.New("delta opcode 0")
		}
	}
	if len(out) != dstSize {
		return nil, errors.New("delta result has the wrong size")
	}
	return out, nil
}

// copyArg reads a delta copy's offset (n 4 bytes) or size (n 3): the
// bytes that the low bits of present name follow, least significant first.
func copyArg(delta []byte, present byte, n int) (v int, rest []byte, ok bool) {
	for k := range n {
		if present&(1<<k) != 0 {
			if len(delta) == 0 {
				return 0, nil, false
			}
			v |= int(delta[0]) << (8 * k)
			delta = delta[1:]
		}
	}
	return v, delta, true
}

// inflateExactly reads size bytes and then the stream's end, which is
// where zlib checks its checksum: a short, long or damaged stream fails.
func inflateExactly(zr io.Reader, size int64) ([]byte, error) {
	data := make([]byte, size)
	if _, err := io.ReadFull(zr, data); err != nil {
		return nil, fmt.Errorf("content shorter than its header says: %w", err)
	}
	var one [1]byte
	n, err := zr.Read(one[:])
	for n == 0 && err == nil {
		n, err = zr.Read(one[:])
	}
	if n > 0 {
		return nil, errors.New("content longer than its header says")
	}
	if err != io.EOF {
		return nil, err
	}
	return data, nil
}

// packIdx is a version 2 pack index kept as the bytes of its file: a
// lookup is a binary search in place, with no parsing up front.
type packIdx struct {
	data  []byte
	count int
}

const (
	idxHeader  = 8
	idxFanout  = 256 * 4
	idxNameLen = 20
)

// find returns the pack offset of h.
func (x *packIdx) find(h plumbing.Hash) (int64, bool) {
	fan := x.data[idxHeader:]
	lo := 0
	if h[0] > 0 {
		lo = int(binary.BigEndian.Uint32(fan[(int(h[0])-1)*4:]))
	}
	hi := int(binary.BigEndian.Uint32(fan[int(h[0])*4:]))
	names := x.data[idxHeader+idxFanout:]
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		switch c := bytes.Compare(names[mid*idxNameLen:mid*idxNameLen+idxNameLen], h[:]); {
		case c == 0:
			return x.offset(mid)
		case c < 0:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return 0, false
}

func (x *packIdx) offset(i int) (int64, bool) {
	off32 := idxHeader + idxFanout + x.count*(idxNameLen+4)
	v := binary.BigEndian.Uint32(x.data[off32+i*4:])
	if v&0x80000000 == 0 {
		return int64(v), true
	}
	at := off32 + x.count*4 + int(v&0x7fffffff)*8
	if at+8 > len(x.data) {
		return 0, false
	}
	return int64(binary.BigEndian.Uint64(x.data[at:])), true
}

// parsePackIdx checks that data is a version 2 pack index whose tables fit.
func parsePackIdx(data []byte) (*packIdx, error) {
	if len(data) < idxHeader+idxFanout || !bytes.Equal(data[:8], []byte{0xff, 't', 'O', 'c', 0, 0, 0, 2}) {
		return nil, errors.New("not a version 2 pack index")
	}
	count := int(binary.BigEndian.Uint32(data[idxHeader+255*4:]))
	if idxHeader+idxFanout+count*(idxNameLen+4+4)+2*idxNameLen > len(data) {
		return nil, errors.New("pack index shorter than its object count")
	}
	return &packIdx{data: data, count: count}, nil
}

// packIdxCache keeps up to 128 MiB of pack indexes across calls. A pack's
// name is the checksum of its content, so a name (with its size) never
// means two different indexes.
var packIdxCache = newLRU[string](128<<20, func(x *packIdx) int { return len(x.data) })

func (r *Repo) packIndex(name string, size int64) (*packIdx, error) {
	key := name + "/" + strconv.FormatInt(size, 10)
	if x, ok := packIdxCache.get(key); ok {
		return x, nil
	}
	data, err := readAll(r.gfs, "objects/pack/"+name)
	if err != nil {
		return nil, err
	}
	x, err := parsePackIdx(data)
	if err != nil {
		return nil, err
	}
	packIdxCache.put(key, x)
	return x, nil
}
