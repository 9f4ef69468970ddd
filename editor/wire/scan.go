package wire

// Scanning: the ends of JSON tokens in a byte slice, found without
// decoding them, for the fast paths that read a message once (the
// argument decoder, protocol's stdio loop). Strings are skipped from quote
// to quote (memchr speed). The functions do not validate: what a caller
// decodes, it checks.

import (
	"bytes"
	"encoding/json"
	"strconv"
)

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

// ObjectMembers calls fn with each member of the JSON object v, its key
// decoded and its value as a slice of v; false when v is not an object
// (nothing but white space may follow it) or fn says so. The values are
// delimited, not validated: fn checks those it reads.
func ObjectMembers(v []byte, fn func(key string, val []byte) bool) bool {
	end, ok := ObjectMembersEnd(v, fn)
	return ok && Space(v, end) == len(v)
}

// ObjectMembersEnd is ObjectMembers for an object at the start of v,
// returning the end past its closing brace.
func ObjectMembersEnd(v []byte, fn func(key string, val []byte) bool) (int, bool) {
	return Members(v, func(k, val []byte) bool {
		var key string
		return json.Unmarshal(k, &key) == nil && fn(key, val)
	})
}

// NumbersFit reports whether every number in the JSON value v fits a
// float64, as mcp-go's decoding of the arguments requires. Strings are
// skipped a stretch at a time, so content costs little.
func NumbersFit(v []byte) bool {
	for i := 0; i < len(v); {
		switch c := v[i]; {
		case c == '"':
			end, ok := StringEnd(v, i)
			if !ok {
				return true // not valid JSON: the decoder said otherwise already
			}
			i = end
		case c == '-' || (c >= '0' && c <= '9'):
			j := i + 1
			for j < len(v) && (v[j] == '.' || v[j] == 'e' || v[j] == 'E' || v[j] == '+' || v[j] == '-' || (v[j] >= '0' && v[j] <= '9')) {
				j++
			}
			if _, err := strconv.ParseFloat(string(v[i:j]), 64); err != nil {
				return false
			}
			i = j
		default:
			i++
		}
	}
	return true
}
