package wire

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// Writing: JSON strings and arrays appended to a buffer without
// reflection, for the responses protocol assembles itself (a 50 MB file's
// content, a capped search's 20,000 hits), and encoding/json for the rest,
// without its HTML escaping.

// plainJSON8 reports whether the first 8 bytes of s are written as they
// are: ASCII, no control character, quote or backslash. Eight at a time,
// by the "has a byte less than n" and "has a zero byte" word tricks: a
// capped search writes two megabytes of lines.
func plainJSON8(s string) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	x := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
	ctl := (x - 0x20*ones) &^ x
	q := x ^ '"'*ones
	q = (q - ones) &^ q
	bs := x ^ '\\'*ones
	bs = (bs - ones) &^ bs
	return (x|ctl|q|bs)&highs == 0
}

// AppendString appends s as a JSON string, as encoding/json writes it
// without HTML escaping: invalid UTF-8 becomes U+FFFD, and U+2028 and
// U+2029 are escaped.
func AppendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if i+8 <= len(s) && plainJSON8(s[i:]) {
			i += 8
			continue
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, `\n`...)
			case '\r':
				b = append(b, `\r`...)
			case '\t':
				b = append(b, `\t`...)
			case '\b':
				b = append(b, `\b`...) // as encoding/json writes them since Go 1.22
			case '\f':
				b = append(b, `\f`...)
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// AppendArray appends xs as a JSON array, each element by one; a nil
// slice is null, as encoding/json writes it.
func AppendArray[T any](b []byte, xs []T, one func([]byte, T) []byte) []byte {
	if xs == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, x := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = one(b, x)
	}
	return append(b, ']')
}

// Marshal is json.Marshal without HTML escaping: every JSON editord
// writes keeps "<", ">" and "&" as they are.
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
