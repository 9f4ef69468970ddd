// Package jsonscan finds the ends of JSON tokens in a byte slice without
// decoding them, for the fast paths that read a message once: editor's
// argument decoder and protocol's stdio loop. Strings are skipped from
// quote to quote (memchr speed). The functions do not validate: what a
// caller decodes, it checks.
package jsonscan

import "bytes"

// Space returns the index of the first byte at or after i that is not
// JSON white space.
func Space(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// StringEnd returns the end (past the closing quote) of the string
// starting at b[i] == '"'. A quote after an odd run of backslashes is
// escaped.
func StringEnd(b []byte, i int) (int, bool) {
	start := i + 1
	for j := start; ; {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return 0, false
		}
		q, n := j+k, 0
		for q-1-n >= start && b[q-1-n] == '\\' {
			n++
		}
		if n%2 == 0 {
			return q + 1, true
		}
		j = q + 1
	}
}

// ValueEnd returns the end of the value starting at b[i]: strings,
// objects and arrays are skipped whole (by depth), anything else up to a
// delimiter.
func ValueEnd(b []byte, i int) (int, bool) {
	if i >= len(b) {
		return 0, false
	}
	switch b[i] {
	case '"':
		return StringEnd(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				e, ok := StringEnd(b, i)
				if !ok {
					return 0, false
				}
				i = e
				continue
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1, true
				}
			}
			i++
		}
		return 0, false
	}
	j := i
	for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] != ' ' && b[j] != '\t' && b[j] != '\n' && b[j] != '\r' {
		j++
	}
	return j, j > i
}

// Members calls fn with each member of the object that b holds (white
// space around it allowed): the key as its quoted token and the value as
// a slice of b. It returns the end of the object (past its '}'), or false
// when b does not start with an object or fn says so.
func Members(b []byte, fn func(key, val []byte) bool) (end int, ok bool) {
	i := Space(b, 0)
	if i >= len(b) || b[i] != '{' {
		return 0, false
	}
	i = Space(b, i+1)
	if i < len(b) && b[i] == '}' {
		return i + 1, true
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return 0, false
		}
		ke, ok := StringEnd(b, i)
		if !ok {
			return 0, false
		}
		key := b[i:ke]
		i = Space(b, ke)
		if i >= len(b) || b[i] != ':' {
			return 0, false
		}
		vs := Space(b, i+1)
		ve, ok := ValueEnd(b, vs)
		if !ok || !fn(key, b[vs:ve]) {
			return 0, false
		}
		i = Space(b, ve)
		if i >= len(b) {
			return 0, false
		}
		if b[i] == '}' {
			return i + 1, true
		}
		if b[i] != ',' {
			return 0, false
		}
		i = Space(b, i+1)
	}
}
