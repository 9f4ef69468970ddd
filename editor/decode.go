package editor

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/editord/editord/shell"
)

// decodeArgs fills req from a JSON object, refusing what a careless client
// would otherwise get silently wrong: unknown fields (a typo such as
// "expected_verison" would drop the save guard), missing required fields,
// wrong types, and text that is not UTF-8 (which Go's decoder would turn
// into U+FFFD: a save would write bytes the caller never sent, and a path
// would name another file). Every refusal names the field. A plain object
// is read once by decodeFast (decode_fast.go), which gives up on anything
// this careful path would refuse or change.
// fastDecode turns decodeFast on; tests turn it off to compare.
var fastDecode = true

func decodeArgs(args json.RawMessage, req any) error {
	args = bytes.TrimSpace(args)
	if len(args) == 0 || string(args) == "null" {
		args = []byte("{}")
	}
	if fastDecode && decodeFast(args, req) {
		return nil
	}
	// The careful path, on a fresh request (decodeFast may have filled
	// part of this one).
	reflect.ValueOf(req).Elem().SetZero()
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(args, &obj); err != nil || obj == nil {
		e := &shell.Error{Code: shell.CodeInvalidArgument, Message: "arguments must be a JSON object, e.g. {\"path\": \"README.md\"}"}
		if !json.Valid(args) {
			e.Err = ErrArgsNotJSON
		}
		return e
	}
	// The raw bytes, before any decoding replaces what is not UTF-8.
	if off, why := badText(args); off >= 0 {
		field := "a field name"
		for _, k := range sortedKeys(obj) {
			if o, _ := badText(obj[k]); o >= 0 {
				field = fmt.Sprintf("field %q", k)
				break
			}
		}
		return invalid("%s holds %s (at byte %d of the arguments); send text as UTF-8: editord never stores a replacement character in place of bytes you sent", field, why, off)
	}
	t := reflect.TypeOf(req).Elem()
	known := map[string]bool{}
	var missing, choices []string
	for _, f := range fields(t) {
		name, opt := jsonName(f)
		known[name] = true
		if raw, ok := obj[name]; !opt && (!ok || string(raw) == "null") {
			missing = append(missing, name)
			if e := f.Tag.Get("enum"); e != "" {
				// The values, so a caller can fix the call without the schema.
				choices = append(choices, fmt.Sprintf("%s is one of %s", name, quoteList(strings.Split(e, ","))))
			}
		}
	}
	var unknown []string
	for k := range obj {
		if !known[k] {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		names := make([]string, 0, len(known))
		for k := range known {
			names = append(names, k)
		}
		sort.Strings(names)
		return invalid("unknown field %s; this function takes: %s", quoteList(unknown), strings.Join(names, ", "))
	}
	if len(missing) > 0 {
		if len(choices) > 0 {
			return invalid("missing required field %s (%s)", quoteList(missing), strings.Join(choices, "; "))
		}
		return invalid("missing required field %s", quoteList(missing))
	}
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.DisallowUnknownFields()
	if err := dec.Decode(req); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return invalid("field %q must be %s, not %s", te.Field, jsonKind(te.Type), te.Value)
		}
		return invalid("arguments: %v", err)
	}
	return nil
}

// badText finds the first string in the raw JSON v whose text is not
// valid UTF-8: a byte sequence that is not UTF-8, or a \u escape of a lone
// surrogate. It returns its byte offset and what is wrong, or -1.
func badText(v []byte) (int, string) {
	inStr := false
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !inStr {
			if c == '"' {
				inStr = true
			}
			continue
		}
		switch {
		case c == '"':
			inStr = false
		case c == '\\':
			if i+1 < len(v) && v[i+1] == 'u' {
				r, ok := hexRune(v[i+2:])
				if !ok {
					return i, "a malformed \\u escape"
				}
				switch {
				case r >= 0xD800 && r < 0xDC00:
					lo, ok := rune(0), false
					if i+7 < len(v) && v[i+6] == '\\' && v[i+7] == 'u' {
						lo, ok = hexRune(v[i+8:])
					}
					if !ok || lo < 0xDC00 || lo > 0xDFFF {
						return i, fmt.Sprintf("an unpaired surrogate escape (\\u%04x), which is no character", r)
					}
					i += 11
				case r >= 0xDC00 && r <= 0xDFFF:
					return i, fmt.Sprintf("an unpaired surrogate escape (\\u%04x), which is no character", r)
				default:
					i += 5
				}
			} else {
				i++
			}
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(v[i:])
			if r == utf8.RuneError && size <= 1 {
				return i, fmt.Sprintf("invalid UTF-8 (byte 0x%02x)", c)
			}
			i += size - 1
		}
	}
	return -1, ""
}

func sortedKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int64, reflect.Int32:
		return "an integer"
	case reflect.Slice:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return t.String()
}

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}

// countArg applies the rules every "how many" field shares: negative is
// invalid, 0 (absent) is the configured default, above cap is cap.
func countArg(field string, v, def, cap int) (int, error) {
	switch {
	case v < 0:
		return 0, invalid("%s must be 1 or more, not %d", field, v)
	case v == 0:
		return def, nil
	case v > cap:
		return cap, nil
	}
	return v, nil
}

// ErrArgsNotJSON is wrapped by the refusal of arguments that are not JSON
// at all (rather than JSON of the wrong shape): a caller that delimited
// them without parsing (the stdio fast path) answers those as a parse
// error, as for any line that is not JSON.
var ErrArgsNotJSON = errors.New("the arguments are not JSON")

func invalid(format string, args ...any) error {
	return &shell.Error{Code: shell.CodeInvalidArgument, Message: fmt.Sprintf(format, args...)}
}
