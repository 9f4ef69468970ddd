package wire

// A fast path for DecodeArgs. A save or a diff carries megabytes of text
// in one or two string members, and encoding/json reads such arguments
// four times in decodeArgs (validate and decode into a map, validate and
// decode into the request) and unquotes a string with escapes a byte at a
// time. decodeFast reads a plain arguments object once: members are found
// by skipping values (strings a stretch at a time), string members are
// unquoted with bulk copies between escapes, and other members (small:
// numbers, booleans, lists) go to encoding/json one by one. Anything
// irregular (an unknown, repeated or missing member, a type mismatch, a
// \u escape that is not a whole character, invalid UTF-8, anything that
// is not JSON) makes it give up, and DecodeArgs' careful path runs and says
// what is wrong: the answers are the same, only the common case is fast.

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"reflect"
	"strconv"
	"sync"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// fastField is one member a request type takes.
type fastField struct {
	index    []int
	required bool
	bit      uint64
}

type fastType struct {
	byName   map[string]fastField
	required uint64 // bits of the required members
	ok       bool   // at most 64 members
}

var fastTypes sync.Map // reflect.Type → *fastType

func fastTypeOf(t reflect.Type) *fastType {
	if ft, ok := fastTypes.Load(t); ok {
		return ft.(*fastType)
	}
	ft := &fastType{byName: map[string]fastField{}, ok: true}
	for i, f := range visibleFields(t) {
		if i >= 64 {
			ft.ok = false
			break
		}
		name, opt := JSONName(f.StructField)
		ff := fastField{index: f.Index, required: !opt, bit: 1 << i}
		if ff.required {
			ft.required |= ff.bit
		}
		ft.byName[name] = ff
	}
	fastTypes.Store(t, ft)
	return ft
}

// visibleFields is Fields with each one's index path.
type indexedField struct {
	reflect.StructField
}

func visibleFields(t reflect.Type) []indexedField {
	var out []indexedField
	var walk func(t reflect.Type, prefix []int)
	walk = func(t reflect.Type, prefix []int) {
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() || f.Tag.Get("json") == "-" {
				continue
			}
			idx := append(append([]int{}, prefix...), i)
			if f.Anonymous && f.Type.Kind() == reflect.Struct && f.Tag.Get("json") == "" {
				walk(f.Type, idx)
				continue
			}
			f.Index = idx
			out = append(out, indexedField{f})
		}
	}
	walk(t, nil)
	return out
}

// decodeFast fills req (a pointer to a request struct) from args, or
// reports false having possibly filled part of it (the caller then starts
// again on a fresh request).
func decodeFast(args []byte, req any) bool {
	v := reflect.ValueOf(req).Elem()
	ft := fastTypeOf(v.Type())
	if !ft.ok {
		return false
	}
	var seen uint64
	var huge []hugeField
	end, ok := Members(args, func(k, val []byte) bool {
		key, ok := unquoteFast(k, false)
		if !ok {
			return false
		}
		f, known := ft.byName[key]
		if !known || seen&f.bit != 0 {
			return false
		}
		seen |= f.bit
		fv := v.FieldByIndex(f.index)
		switch {
		case string(val) == "null":
			if f.required {
				return false
			}
			fv.SetZero()
		case fv.Kind() == reflect.String && val[0] == '"':
			if len(val) >= hugeString && !bytes.Contains(val, []byte(`\u`)) {
				huge = append(huge, hugeField{fv, val})
				return true
			}
			s, ok := unquoteFast(val, false)
			if !ok {
				return false
			}
			fv.SetString(s)
		default:
			// Small members (numbers, lists): encoding/json would turn
			// text that is not UTF-8 in them into U+FFFD; the careful path
			// refuses it.
			if off, _ := badText(val); off >= 0 || json.Unmarshal(val, fv.Addr().Interface()) != nil {
				return false
			}
		}
		return true
	})
	if !ok || seen&ft.required != ft.required || Space(args, end) != len(args) {
		return false
	}
	// A huge string (a save's whole file) is decoded over its own bytes,
	// last, once the rest is known good: unescaping only shrinks, the
	// message is this call's, and a copy was the file's size once more.
	// Not one with \u escapes, whose failures (a lone surrogate) the
	// careful path must read from the message as it was; any other failure
	// here is a message that is not JSON, as it stays.
	for _, h := range huge {
		s, ok := unquoteFast(h.token, true)
		if !ok {
			return false
		}
		h.field.SetString(s)
	}
	return true
}

// hugeField is a string member left to decode in place.
type hugeField struct {
	field reflect.Value
	token []byte
}

// hugeString is the length from which a string argument is decoded in
// place.
const hugeString = 8 << 20

// unquoteFast decodes a JSON string token (quotes included) the way
// encoding/json does, copying the stretches between escapes whole. It
// gives up (false) where encoding/json would substitute U+FFFD (invalid
// UTF-8, a lone surrogate) or refuse the token (a control character, a bad
// escape).
func unquoteFast(s []byte, inPlace bool) (string, bool) {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return "", false
	}
	body := s[1 : len(s)-1]
	k := bytes.IndexByte(body, '\\')
	if k < 0 {
		if !plainRun(body) || !utf8.Valid(body) {
			return "", false
		}
		if inPlace {
			return stringView(body), true
		}
		return string(body), true
	}
	out := make([]byte, 0, len(body))
	if inPlace {
		out = s[:0] // written behind what is read
	}
	for {
		run := body[:k]
		if !plainRun(run) {
			return "", false
		}
		out = append(out, run...)
		body = body[k:]
		if len(body) < 2 {
			return "", false
		}
		switch c := body[1]; c {
		case '"', '\\', '/':
			out = append(out, c)
			body = body[2:]
		case 'n':
			out, body = append(out, '\n'), body[2:]
		case 't':
			out, body = append(out, '\t'), body[2:]
		case 'r':
			out, body = append(out, '\r'), body[2:]
		case 'b':
			out, body = append(out, '\b'), body[2:]
		case 'f':
			out, body = append(out, '\f'), body[2:]
		case 'u':
			r, ok := hexRune(body[2:])
			if !ok {
				return "", false
			}
			body = body[6:]
			if utf16.IsSurrogate(r) {
				if len(body) < 6 || body[0] != '\\' || body[1] != 'u' {
					return "", false
				}
				r2, ok := hexRune(body[2:])
				if !ok {
					return "", false
				}
				r = utf16.DecodeRune(r, r2)
				if r == utf8.RuneError {
					return "", false
				}
				body = body[6:]
			}
			out = utf8.AppendRune(out, r)
		default:
			return "", false
		}
		k = bytes.IndexByte(body, '\\')
		if k < 0 {
			if !plainRun(body) {
				return "", false
			}
			out = append(out, body...)
			break
		}
	}
	if !utf8.Valid(out) {
		return "", false
	}
	// out is this call's own and never written again: the string is made
	// over it, not copied (a 1 MiB save's content was copied twice).
	return stringView(out), true
}

// plainRun reports a stretch with no control character (which JSON
// strings must escape).
func plainRun(b []byte) bool {
	// Eight bytes at a time: a byte under 0x20 sets its top bit in
	// (x - 0x20…) &^ x (the classic "has a byte less than n" test, exact
	// for n ≤ 0x80).
	const lo, hi = 0x2020202020202020, 0x8080808080808080
	for len(b) >= 8 {
		x := binary.LittleEndian.Uint64(b)
		if (x-lo)&^x&hi != 0 {
			return false
		}
		b = b[8:]
	}
	for _, c := range b {
		if c < 0x20 {
			return false
		}
	}
	return true
}

func hexRune(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	n, err := strconv.ParseUint(string(b[:4]), 16, 32)
	return rune(n), err == nil
}

// stringView is b as a string without a copy; b is never written again.
func stringView(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }
