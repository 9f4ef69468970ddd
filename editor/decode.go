package editor

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/editord/editord/shell"
)

// decodeArgs fills req from a JSON object, refusing what a careless client
// would otherwise get silently wrong: unknown fields (a typo such as
// "expected_verison" would drop the save guard), missing required fields,
// and wrong types. Every refusal names the field.
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
		return invalid("arguments must be a JSON object, e.g. {\"path\": \"README.md\"}")
	}
	t := reflect.TypeOf(req).Elem()
	known := map[string]bool{}
	var missing []string
	for _, f := range fields(t) {
		name, opt := jsonName(f)
		known[name] = true
		if raw, ok := obj[name]; !opt && (!ok || string(raw) == "null") {
			missing = append(missing, name)
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

func invalid(format string, args ...any) error {
	return &shell.Error{Code: shell.CodeInvalidArgument, Message: fmt.Sprintf(format, args...)}
}
