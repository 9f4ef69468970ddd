package gitops

// git's "offset" varint (varint.c), used by index version 4 for the bytes
// a name strips from the previous one and by packs for an ofs-delta's
// base: big-endian groups of 7 bits, each continuation adding one so that
// every value has a single encoding. It is not encoding/binary's Uvarint,
// which agrees with it only below 128.

// offsetVarint decodes one value from the front of b and the bytes it
// took; 0 bytes when b ends inside it or it overflows 63 bits.
func offsetVarint(b []byte) (uint64, int) {
	if len(b) == 0 {
		return 0, 0
	}
	c := b[0]
	v := uint64(c & 0x7f)
	k := 1
	for c&0x80 != 0 {
		if k >= len(b) || v+1 > 1<<56 {
			return 0, 0
		}
		c = b[k]
		k++
		v = (v+1)<<7 | uint64(c&0x7f)
	}
	return v, k
}

// appendOffsetVarint appends v's encoding to dst.
func appendOffsetVarint(dst []byte, v uint64) []byte {
	var buf [10]byte
	i := len(buf) - 1
	buf[i] = byte(v & 0x7f)
	for v >>= 7; v != 0; v >>= 7 {
		v--
		i--
		buf[i] = 0x80 | byte(v&0x7f)
	}
	return append(dst, buf[i:]...)
}
