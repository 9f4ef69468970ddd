package wire

// Fuzz targets: every fast path here against encoding/json on random
// input. go test runs their seeds as tests; make stress runs each with
// -fuzz for a while (WIREFUZZTIME).

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// argSeeds are arguments of the shapes requests meet, well and badly
// formed.
var argSeeds = []string{
	`{"path": "a.txt", "content": "x\n"}`,
	`{"path": "a.txt", "content": "\u00e9\ud83d\ude42 \u0041", "expected_version": "3-abc", "force": true}`,
	`{"path": "a.txt", "content": "lone \ud83d surrogate"}`,
	"{\"path\": \"a.txt\", \"content\": \"bad utf8 \xff\"}",
	`{"path": "a.txt", "content": "x", "path": "b.txt"}`,
	`{"path": 5, "content": null, "expected_mtime": 1e400}`,
	`{"pattern": "x", "include_glob": ["*.go", "a\"b"], "max_matches": 5, "literal": true}`,
	`{ "pattern" : "x" , "output" : "files" } trailing`,
	``, `null`, `[]`, `{}`, `{"a":tru}`,
}

// FuzzDecodeArgs: DecodeArgs with its fast path gives what its careful
// path alone gives, error for error; and what it accepts, encoding/json
// decodes to the same request.
func FuzzDecodeArgs(f *testing.F) {
	for _, s := range argSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, zero := range []any{saveArgs{}, searchArgs{}} {
			typ := reflect.TypeOf(zero)
			fast, careful := reflect.New(typ), reflect.New(typ)
			// Each gets its own copy: a huge string is decoded in place.
			errFast := decodeArgs(bytes.Clone(data), fast.Interface(), true)
			errCareful := decodeArgs(bytes.Clone(data), careful.Interface(), false)
			if (errFast == nil) != (errCareful == nil) || errFast != nil && errFast.Error() != errCareful.Error() {
				t.Fatalf("%T %q: fast %v, careful %v", zero, data, errFast, errCareful)
			}
			if !reflect.DeepEqual(fast.Interface(), careful.Interface()) {
				t.Fatalf("%T %q: fast %+v, careful %+v", zero, data, fast.Elem(), careful.Elem())
			}
			if errFast != nil {
				continue
			}
			plain := reflect.New(typ)
			in := bytes.TrimSpace(data)
			if len(in) == 0 || string(in) == "null" {
				in = []byte("{}")
			}
			if err := json.Unmarshal(in, plain.Interface()); err != nil || !reflect.DeepEqual(plain.Interface(), fast.Interface()) {
				t.Fatalf("%T %q: DecodeArgs %+v, encoding/json %+v (%v)", zero, data, fast.Elem(), plain.Elem(), err)
			}
		}
	})
}

// FuzzUnquote: a string token (as StringEnd delimits it, which is how
// every caller gets one) decoded by the fast path, in place or not, is
// what encoding/json decodes it to.
func FuzzUnquote(f *testing.F) {
	for _, s := range []string{`"plain"`, `"a\"b\\c\/d\n\t\r\b\f"`, `"\u00e9\ud83d\ude42"`, `"\ud83d"`, "\"\x01\"", "\"\xff\"", `"\x"`, `"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 || data[0] != '"' {
			return
		}
		if end, ok := StringEnd(data, 0); !ok || end != len(data) {
			return
		}
		got, ok := unquoteFast(bytes.Clone(data), false)
		inPlace, okInPlace := unquoteFast(bytes.Clone(data), true)
		if ok != okInPlace || got != inPlace {
			t.Fatalf("%q: %q %v, in place %q %v", data, got, ok, inPlace, okInPlace)
		}
		if !ok {
			return
		}
		var want string
		if err := json.Unmarshal(data, &want); err != nil || want != got {
			t.Fatalf("%q: %q, encoding/json %q (%v)", data, got, want, err)
		}
	})
}

// FuzzAppendString: a string written by AppendString is byte for byte
// what encoding/json writes without HTML escaping.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "plain", "a\"b\\c\n\t\x01\x7f", "é 日 🙂 \u2028\u2029", "bad \xff\xfe", "<&>", strings.Repeat("x", 17) + "\""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		if got := AppendString(nil, s); string(got) != strings.TrimSuffix(want.String(), "\n") {
			t.Fatalf("%q: %s, encoding/json %s", s, got, want.String())
		}
	})
}

// FuzzMarshal: Marshal is encoding/json with "<", ">" and "&" kept, and
// decodes to the same value.
func FuzzMarshal(f *testing.F) {
	f.Add("a<b>&c", int64(3), true)
	f.Fuzz(func(t *testing.T, s string, n int64, b bool) {
		v := map[string]any{"s": s, "n": n, "b": b, "l": []string{s, ""}}
		got, err := Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		escaped, _ := json.Marshal(v)
		var unescaped bytes.Buffer
		UnescapeHTML(&unescaped).Write(escaped)
		if !bytes.Equal(got, unescaped.Bytes()) {
			t.Fatalf("%q: %s, encoding/json unescaped %s", s, got, unescaped.Bytes())
		}
	})
}

// FuzzUnescapeHTML: JSON that encoding/json escaped, written through
// UnescapeHTML in two pieces cut anywhere, is what it writes without HTML
// escaping.
func FuzzUnescapeHTML(f *testing.F) {
	f.Add(`a<b && c>d \u003c "q" \\u0026 é`, uint(7))
	f.Fuzz(func(t *testing.T, s string, cut uint) {
		escaped, err := json.Marshal(map[string]string{"s": s, "k<&>": s})
		if err != nil {
			t.Fatal(err)
		}
		want, _ := Marshal(map[string]string{"s": s, "k<&>": s})
		var out bytes.Buffer
		w := UnescapeHTML(&out)
		at := int(cut % uint(len(escaped)+1))
		w.Write(escaped[:at])
		w.Write(escaped[at:])
		if !bytes.Equal(out.Bytes(), want) {
			t.Fatalf("%q cut at %d: %s, want %s", s, at, out.Bytes(), want)
		}
	})
}

// FuzzValueEnd: in valid JSON, ValueEnd finds the end of the value, with
// only white space after it; it never reads past the input.
func FuzzValueEnd(f *testing.F) {
	for _, s := range []string{`"a\"b"`, `{"a": [1, "]}"], "b": {}}`, `[1, [2, 3]]`, `12.5e3`, `true`, ` null `, `"open`, `{"a": 1`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		i := Space(data, 0)
		end, ok := ValueEnd(data, i)
		if ok && (end <= i || end > len(data)) {
			t.Fatalf("%q: end %d", data, end)
		}
		if !json.Valid(data) {
			return
		}
		if !ok || Space(data, end) != len(data) {
			t.Fatalf("valid %q: end %d, %v", data, end, ok)
		}
	})
}

// FuzzObjectMembers: a valid JSON object's members, as ObjectMembers
// hands them out (the last of a repeated key winning), are encoding/json's;
// and what ObjectMembers takes for an object, with every value valid, is
// valid JSON.
func FuzzObjectMembers(f *testing.F) {
	for _, s := range argSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got := map[string]string{}
		valuesValid := true
		ok := ObjectMembers(data, func(key string, val []byte) bool {
			var c bytes.Buffer
			if json.Compact(&c, val) != nil {
				valuesValid = false
			}
			got[key] = c.String()
			return true
		})
		if ok && valuesValid && !json.Valid(data) {
			t.Fatalf("%q: taken for an object of valid values, but not JSON", data)
		}
		var want map[string]json.RawMessage
		if json.Unmarshal(data, &want) != nil || want == nil {
			return
		}
		if !ok {
			t.Fatalf("object %q refused", data)
		}
		if len(got) != len(want) {
			t.Fatalf("%q: %d members, encoding/json %d", data, len(got), len(want))
		}
		for k, v := range want {
			var c bytes.Buffer
			json.Compact(&c, v)
			if got[k] != c.String() {
				t.Fatalf("%q: member %q is %s, encoding/json %s", data, k, got[k], c.String())
			}
		}
	})
}

// FuzzNumbersFit: in valid JSON, NumbersFit says whether every number
// parses as a float64, as encoding/json's decoding into any requires.
func FuzzNumbersFit(f *testing.F) {
	for _, s := range []string{`{"a": 1, "b": -2.5e10, "c": "1e400"}`, `{"a": 1e400}`, `[1, 2, -1e309]`, `"a \\ \" 1e999"`, `0`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got := NumbersFit(data)
		if !json.Valid(data) {
			return
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
		if want := allFloat(v); got != want {
			t.Fatalf("%q: %v, encoding/json's numbers say %v", data, got, want)
		}
	})
}

// allFloat reports whether every number in v parses as a float64.
func allFloat(v any) bool {
	switch x := v.(type) {
	case json.Number:
		_, err := strconv.ParseFloat(string(x), 64)
		return err == nil
	case []any:
		for _, e := range x {
			if !allFloat(e) {
				return false
			}
		}
	case map[string]any:
		for _, e := range x {
			if !allFloat(e) {
				return false
			}
		}
	}
	return true
}
