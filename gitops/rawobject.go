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

// readPackEntry reads the entry of h at off in p when it is not a delta
// (errNotWhole when it is).
func (r *Repo) readPackEntry(p *pack, h plumbing.Hash, off, limit int64) (rawObject, error) {
	f, err := r.packFile(p)
	if err != nil {
		return rawObject{}, errNotWhole
	}
	var hdr [16]byte
	n, err := f.ReadAt(hdr[:], off)
	if n == 0 {
		return rawObject{}, fmt.Errorf("pack %s: object %s at %d: %v", p.name, h, off, err)
	}
	b := hdr[0]
	kind := int(b>>4) & 7
	size := int64(b & 15)
	i, shift := 1, 4
	for b&0x80 != 0 {
		if i >= n || shift > 56 {
			return rawObject{}, fmt.Errorf("pack %s: object %s at %d: bad entry header", p.name, h, off)
		}
		b = hdr[i]
		size |= int64(b&0x7f) << shift
		i, shift = i+1, shift+7
	}
	if kind == packOfsDelta || kind == packRefDelta {
		return rawObject{}, errNotWhole
	}
	if kind >= len(packTypes) || packTypes[kind] == plumbing.InvalidObject {
		return rawObject{}, fmt.Errorf("pack %s: object %s at %d: unknown entry type %d", p.name, h, off, kind)
	}
	obj := rawObject{typ: packTypes[kind], size: size}
	if limit > 0 && size > limit {
		obj.skipped = true
		return obj, nil
	}
	// Compressed data is usually smaller than the content; read ahead in
	// large pieces either way.
	src := io.NewSectionReader(f, off+int64(i), 1<<62)
	zr, err := zlib.NewReader(bufio.NewReaderSize(src, 64<<10))
	if err != nil {
		return rawObject{}, fmt.Errorf("pack %s: object %s: %w", p.name, h, err)
	}
	defer zr.Close()
	if obj.data, err = inflateExactly(zr, size); err != nil {
		return rawObject{}, fmt.Errorf("pack %s: object %s: %w", p.name, h, err)
	}
	return obj, nil
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
