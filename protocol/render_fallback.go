package protocol

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// renderFallback renders a response without a renderer of its own as one
// "key: value" line per field, in declaration order: scalars as they are,
// one-line strings unquoted, everything else as compact JSON that escapes
// no HTML. A string of several lines follows its key on lines of its own.
// Absent optional fields (nil) are left out.
func renderFallback(r *rend, resp any) {
	renderFields(r, resp)
	if r.full {
		r.note("… the rest does not fit the %d KiB text budget; the structured content has all of it", textBudget>>10)
	}
}

// renderFields renders the fields of the struct resp (through pointers)
// except those named in skip. A value that is not a struct is rendered as
// compact JSON.
func renderFields(r *rend, resp any, skip ...string) {
	v := reflect.ValueOf(resp)
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			r.line("null")
			return
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		r.line(compactJSON(v.Interface()))
		return
	}
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if slices.Contains(skip, name) {
			continue
		}
		fv := v.Field(i)
		if (fv.Kind() == reflect.Pointer || fv.Kind() == reflect.Interface) && fv.IsNil() {
			continue
		}
		for fv.Kind() == reflect.Pointer {
			fv = fv.Elem()
		}
		if fv.Kind() == reflect.String && strings.Contains(fv.String(), "\n") {
			r.line(name + ":")
			for _, l := range strings.SplitAfter(strings.TrimSuffix(fv.String(), "\n"), "\n") {
				if !r.line(strings.TrimSuffix(l, "\n")) {
					return
				}
			}
			continue
		}
		if fv.Kind() == reflect.Slice && fv.Type().Elem().Kind() == reflect.String && fv.Len() > 1 {
			// A list of paths (conflicts, files): one per line, counted
			// when the budget cuts it.
			if !r.linef("%s (%d):", name, fv.Len()) {
				return
			}
			for k := range fv.Len() {
				if !r.line("  " + fv.Index(k).String()) {
					r.note("… %d more %s not shown (the %d KiB text budget)", fv.Len()-k, name, textBudget>>10)
					r.full = false
					r.limit = r.b.Len() // nothing more fits
					return
				}
			}
			continue
		}
		line := name + ": " + scalar(fv)
		if len(line) > maxFieldBytes {
			// A summary naming thousands of conflicts: its beginning.
			cut := cutString(line, maxFieldBytes)
			line = fmt.Sprintf("%s…(+%d bytes)", cut, len(line)-len(cut))
		}
		if !r.line(line) {
			return
		}
	}
}

// maxFieldBytes is the longest one-line field the fallback shows whole.
const maxFieldBytes = 4000

// scalar is one value on a line: strings unquoted, the rest compact JSON.
func scalar(v reflect.Value) string {
	switch v.Kind() {
	case reflect.String:
		return v.String()
	case reflect.Bool, reflect.Int, reflect.Int64, reflect.Int32, reflect.Uint64, reflect.Float64:
		return fmt.Sprint(v.Interface())
	}
	return compactJSON(v.Interface())
}

// compactJSON is v as JSON with no insignificant space and no HTML
// escaping ("<", ">" and "&" stay as they are).
func compactJSON(v any) string {
	b, err := marshalJSON(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	return string(b)
}
