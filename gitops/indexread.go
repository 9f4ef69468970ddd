package gitops

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"fmt"
	"hash"
	"io"
	"unsafe"
)

// indexWindow is how much of an index file is held at once while it is
// decoded; a variable so that tests can make entries straddle its edge.
var indexWindow = 256 << 10

// indexStream reads an index file front to back through one window,
// hashing every byte it moves past: a 240,000-file index is 31 MB, and
// holding it whole beside its decoded entries was the largest single
// allocation of a server's start (find and status each read one).
type indexStream struct {
	r      io.Reader
	buf    []byte
	lo, hi int
	eof    bool
	err    error
	h      hash.Hash
}

// fill makes at least n bytes available past lo; false when the file
// ends (or fails) first.
func (s *indexStream) fill(n int) bool {
	for s.hi-s.lo < n {
		if s.eof {
			return false
		}
		if s.lo+n > len(s.buf) {
			if n > len(s.buf) {
				grown := make([]byte, max(n, 2*len(s.buf)))
				s.hi = copy(grown, s.buf[s.lo:s.hi])
				s.buf = grown
			} else {
				s.hi = copy(s.buf, s.buf[s.lo:s.hi])
			}
			s.lo = 0
		}
		k, err := s.r.Read(s.buf[s.hi:])
		s.hi += k
		if err == io.EOF {
			s.eof = true
		} else if err != nil {
			s.eof, s.err = true, err
		}
	}
	return true
}

func (s *indexStream) peek() []byte { return s.buf[s.lo:s.hi] }

// skip moves past n available bytes, hashing them.
func (s *indexStream) skip(n int) {
	s.h.Write(s.buf[s.lo : s.lo+n])
	s.lo += n
}

// skipBody moves past n bytes that must all lie before the 20-byte
// trailer.
func (s *indexStream) skipBody(n int) bool {
	for n > 0 {
		k := min(n, indexWindow)
		if !s.fill(k + 20) {
			return false
		}
		s.skip(k)
		n -= k
	}
	return true
}

// readIndexFile decodes an index file (versions 2 to 4) from r, verifying
// its checksum; size is the file's size as last seen, used only to size
// the entries (a file that turns out longer or shorter is read as it is).
// The paths of all entries share one allocation.
func readIndexFile(r io.Reader, size int64) (*Index, error) {
	s := &indexStream{r: r, buf: make([]byte, min(int64(indexWindow), max(size, 64))), h: sha1.New()}
	idx, err := decodeIndex(s, size)
	if s.err != nil {
		return nil, s.err
	}
	if err == nil {
		return idx, nil
	}
	// A damaged file is named as such before what the damage looked like:
	// drain what is left through the hash and compare the trailer.
	for {
		if s.hi-s.lo > 20 {
			s.skip(s.hi - s.lo - 20)
		}
		if !s.fill(21) {
			break
		}
	}
	if s.err == nil && s.hi-s.lo == 20 {
		if sum := s.peek(); !allZero(sum) && string(s.h.Sum(nil)) != string(sum) {
			return nil, fmt.Errorf("%w: checksum mismatch", errIndexCorrupt)
		}
	}
	return nil, err
}

func decodeIndex(s *indexStream, size int64) (*Index, error) {
	if !s.fill(12+20) || string(s.peek()[:4]) != "DIRC" {
		return nil, fmt.Errorf("%w: bad signature", errIndexCorrupt)
	}
	hdr := s.peek()
	idx := &Index{Version: binary.BigEndian.Uint32(hdr[4:8]), Exists: true}
	if idx.Version < 2 || idx.Version > 4 {
		return nil, fmt.Errorf("index version %d is not supported", idx.Version)
	}
	n := int(binary.BigEndian.Uint32(hdr[8:12]))
	s.skip(12)
	// Every entry takes at least 62 bytes of the file: the file's size
	// bounds what is made before a byte of them is read, and the names
	// are what is left of it (an average of 256 bytes at most, for a size
	// gone stale).
	idx.Entries = make([]IndexEntry, 0, min(n, int(max(size, 0)/62)+1))
	names := make([]byte, 0, min(max(size-int64(n)*62, 0), int64(cap(idx.Entries))*256))
	ends := make([]int, 0, cap(idx.Entries))
	prev := 0 // where the previous name starts in names (version 4)
	for i := range n {
		if !s.fill(62 + 20) {
			return nil, fmt.Errorf("%w: entry %d is cut short", errIndexCorrupt, i)
		}
		b := s.peek()
		var e IndexEntry
		e.CtimeSec = binary.BigEndian.Uint32(b[0:])
		e.CtimeNsec = binary.BigEndian.Uint32(b[4:])
		e.MtimeSec = binary.BigEndian.Uint32(b[8:])
		e.MtimeNsec = binary.BigEndian.Uint32(b[12:])
		e.Dev = binary.BigEndian.Uint32(b[16:])
		e.Ino = binary.BigEndian.Uint32(b[20:])
		e.Mode = binary.BigEndian.Uint32(b[24:])
		e.UID = binary.BigEndian.Uint32(b[28:])
		e.GID = binary.BigEndian.Uint32(b[32:])
		e.Size = binary.BigEndian.Uint32(b[36:])
		copy(e.Hash[:], b[40:60])
		e.Flags = binary.BigEndian.Uint16(b[60:])
		head := 62
		if e.Flags&flagExtended != 0 {
			if idx.Version < 3 || !s.fill(64+20) {
				return nil, fmt.Errorf("%w: extended flags in entry %d", errIndexCorrupt, i)
			}
			e.XFlags = binary.BigEndian.Uint16(s.peek()[62:])
			head = 64
		}
		e.Flags &^= flagExtended | flagNameMask
		s.skip(head)
		strip := 0
		if idx.Version == 4 {
			s.fill(10 + 20)
			v, k := offsetVarint(s.peek())
			if k <= 0 || v > uint64(len(names)-prev) {
				return nil, fmt.Errorf("%w: name of entry %d", errIndexCorrupt, i)
			}
			strip = int(v)
			s.skip(k)
		}
		end := s.nul(i)
		if end < 0 {
			return nil, fmt.Errorf("%w: name of entry %d", errIndexCorrupt, i)
		}
		start := len(names)
		if idx.Version == 4 {
			names = append(names, names[prev:start-strip]...)
			prev = start
		}
		names = append(names, s.peek()[:end]...)
		if idx.Version == 4 {
			s.skip(end + 1)
		} else {
			// Entries are padded with 1 to 8 NULs to a multiple of 8.
			pad := (head+end+8)&^7 - head
			if !s.fill(pad + 20) {
				return nil, fmt.Errorf("%w: entry %d is cut short", errIndexCorrupt, i)
			}
			s.skip(pad)
		}
		idx.Entries = append(idx.Entries, e)
		ends = append(ends, len(names))
	}
	// One string over the bytes, which nothing writes again.
	all := unsafe.String(unsafe.SliceData(names), len(names))
	for i, start := 0, 0; i < n; i++ {
		idx.Entries[i].Path = all[start:ends[i]]
		start = ends[i]
	}
	// Extensions: only mandatory ones (lowercase first letter) matter.
	for s.fill(8 + 20) {
		b := s.peek()
		sig := string(b[:4])
		size := int(binary.BigEndian.Uint32(b[4:]))
		if sig[0] < 'A' || sig[0] > 'Z' {
			what := sig
			switch sig {
			case "link":
				what = "a split index (core.splitIndex)"
			case "sdir":
				what = "a sparse index (index.sparse)"
			}
			return nil, fmt.Errorf("the index uses %s, which editord cannot read; its git functions cannot work on this repository until that setting is off and the index is written whole again", what)
		}
		s.skip(8)
		if sig == "TREE" && s.fill(min(size, 256)+20) {
			idx.rootTree, idx.rootTreeCount = parseRootCacheTree(s.peek()[:min(size, 256)])
		}
		if !s.skipBody(size) {
			return nil, fmt.Errorf("%w: extension %s is cut short", errIndexCorrupt, sig)
		}
	}
	if s.hi-s.lo < 20 {
		return nil, fmt.Errorf("%w: the file is cut short", errIndexCorrupt)
	}
	s.skip(s.hi - s.lo - 20)            // fewer than 8 bytes: no room for an extension
	if sum := s.peek(); !allZero(sum) { // index.skipHash writes a zero checksum
		if string(s.h.Sum(nil)) != string(sum) {
			return nil, fmt.Errorf("%w: checksum mismatch", errIndexCorrupt)
		}
	}
	return idx, nil
}

// nul finds the NUL that ends entry i's name, filling the window as far
// as a name can reach; -1 when there is none before the trailer.
func (s *indexStream) nul(i int) int {
	for from := 0; ; {
		b := s.peek()
		if len(b) > 20 {
			if k := bytes.IndexByte(b[from:len(b)-20], 0); k >= 0 {
				return from + k
			}
			from = len(b) - 20
		}
		if !s.fill(len(b) + 1) {
			return -1
		}
	}
}
