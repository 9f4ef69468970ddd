package search

// A file of a megabyte or more is scanned as two halves at once, split at a
// line break near its middle: a capped search whose first file is large
// (16,000 of 20,000 hits in one 3 MB file) otherwise waits on one worker
// for that file while the others, their window full, have nothing to do.

import (
	"bytes"
	"io"
	"runtime"
	"sync"
)

const splitMin = 1 << 20

// cut returns where to split data in two (just after a line break near its
// middle), or 0 when it is better scanned whole.
func cut(data []byte) int {
	if len(data) < splitMin || runtime.GOMAXPROCS(0) < 2 {
		return 0
	}
	k := bytes.IndexByte(data[len(data)/2:], '\n')
	if k < 0 {
		return 0
	}
	return len(data)/2 + k + 1
}

// scanHalves is scan(data, max, nil), the halves of a large data at once.
func (sc *scanner) scanHalves(data []byte, max int) []Hit {
	mid := cut(data)
	if mid == 0 || mid == len(data) {
		return sc.scan(data, max, nil)
	}
	var second []Hit
	var wg sync.WaitGroup
	wg.Go(func() {
		other := scanner{m: sc.m}
		second = other.scan(data[mid:], max, nil)
	})
	first := sc.scan(data[:mid], max, nil)
	wg.Wait()
	hits, _ := joinHalves(first, bytes.Count(data[:mid], []byte{'\n'}), "", second, "", max)
	return hits
}

// scanStreamHalves is scanStream over r, a file of about size bytes, the
// halves of a large one at once (the second into *buf2).
func (sc *scanner) scanStreamHalves(r io.ReaderAt, size int64, max int, buf, buf2 *[]byte) ([]Hit, string) {
	var mid int64
	if size >= 2*splitMin && runtime.GOMAXPROCS(0) >= 2 {
		// The first line break at or after the middle, from a small read
		// there.
		var probe [16 << 10]byte
		n, _ := r.ReadAt(probe[:], size/2)
		if k := bytes.IndexByte(probe[:n], '\n'); k >= 0 {
			mid = size/2 + int64(k) + 1
		}
	}
	if mid == 0 {
		hits, _, why := sc.scanStream(r, max, buf)
		return hits, why
	}
	var second []Hit
	var why2 string
	var wg sync.WaitGroup
	wg.Go(func() {
		other := scanner{m: sc.m}
		// To the file's end, whatever it has grown to.
		second, _, why2 = other.scanStream(io.NewSectionReader(r, mid, 1<<62), max, buf2)
	})
	first, lines, why := sc.scanStream(io.NewSectionReader(r, 0, mid), max, buf)
	wg.Wait()
	return joinHalves(first, lines, why, second, why2, max)
}

// joinHalves puts the hits of a second half after those of the first,
// whose lines it had: the first max in all, and why the file was not
// searched to its end, if it was not.
func joinHalves(first []Hit, lines int, why string, second []Hit, why2 string, max int) ([]Hit, string) {
	if why != "" || len(first) >= max {
		return first[:min(len(first), max)], why
	}
	second = second[:min(len(second), max-len(first))]
	for i := range second {
		second[i].Line += lines
	}
	return append(first, second...), why2
}
