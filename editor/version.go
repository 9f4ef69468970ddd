package editor

import (
	"hash/fnv"
	"strconv"
	"unicode/utf8"
)

// Version names exact bytes: hex length, '-', 16 hex digits of FNV-1a 64.
// The length prefix makes the common "file grew or shrank" case obvious to a
// person reading two versions; the hash catches same-length edits.
func Version(data []byte) string {
	h := fnv.New64a()
	h.Write(data)
	sum := strconv.FormatUint(h.Sum64(), 16)
	for len(sum) < 16 {
		sum = "0" + sum
	}
	return strconv.FormatInt(int64(len(data)), 16) + "-" + sum
}

// EOL classifies the line endings present.
func EOL(data []byte) string {
	lf, crlf := 0, 0
	for i, c := range data {
		if c == '\n' {
			if i > 0 && data[i-1] == '\r' {
				crlf++
			} else {
				lf++
			}
		}
	}
	switch {
	case lf == 0 && crlf == 0:
		return "none"
	case crlf == 0:
		return "lf"
	case lf == 0:
		return "crlf"
	}
	return "mixed"
}

// cutUTF8 shortens data to at most n bytes and drops a character left
// incomplete at the end, for content cut from a longer whole.
func cutUTF8(data []byte, n int) []byte {
	if len(data) > n {
		data = data[:n]
	}
	// Back up over at most 3 continuation bytes to the start of a rune, and
	// drop that rune if it is incomplete.
	for i := len(data) - 1; i >= 0 && i >= len(data)-4; i-- {
		if utf8.RuneStart(data[i]) {
			if !utf8.FullRune(data[i:]) {
				return data[:i]
			}
			break
		}
	}
	return data
}
