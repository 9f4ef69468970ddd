package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/editord/editord/editor"
	"github.com/editord/editord/protocol"
)

// TestDocsReference keeps docs/reference.md equal to what the catalog and
// the configuration's types say: every function's fields and every
// configuration key. Run `go test ./cmd/editord -run Docs -update` after
// changing a request, a response, a description or a config key.
func TestDocsReference(t *testing.T) {
	const path = "../../docs/reference.md"
	want := reference()
	data, err := os.ReadFile(path)
	if err == nil && string(data) == want {
		return
	}
	if !*updateReadme {
		t.Fatalf("docs/reference.md is out of date (%v); run go test ./cmd/editord -run Docs -update", err)
	}
	if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
		t.Fatal(err)
	}
}

// reference is docs/reference.md.
func reference() string {
	var b strings.Builder
	b.WriteString(`# editord reference

<!-- Generated from the catalog (editor/catalog.go and each function's request and response types) and
editor.Config by TestDocsReference; a test fails when it drifts. Run
go test ./cmd/editord -run Docs -update to refresh it; never edit it by hand. -->

Every function, its fields and the configuration keys, as the code declares them. The rules the
fields follow (names on the wire, error codes, paths, versions and the save guard, the shared
record and its events, replies for models) are in [contract.md](contract.md); the rooms of the
code are in [design.md](design.md).

A request field is required unless it has a default or says "optional"; a field of a response
that may be absent or null says "or null". Nested fields are written ` + "`parent.child`" + ` (an array's
elements ` + "`parent[].child`" + `).

`)
	b.WriteString("## Functions\n\n")
	for _, f := range editor.Catalog() {
		fmt.Fprintf(&b, "- [`%s`](#%s)\n", f.ID, anchor(f.ID))
	}
	for _, f := range editor.Catalog() {
		fmt.Fprintf(&b, "\n### %s\n\n", f.ID)
		fmt.Fprintf(&b, "MCP tool `%s`; %s.\n\n%s\n\n", protocol.ToolName(f.ID), annotationWords(f.Annotations), f.Description)
		b.WriteString("Request:\n\n")
		fieldTable(&b, f.Request, true)
		b.WriteString("\nResponse:\n\n")
		fieldTable(&b, f.Response, false)
	}
	b.WriteString(`
## Configuration

` + "`--config FILE`" + `, else ` + "`$XDG_CONFIG_HOME/editord/config.toml`" + ` if present, else these defaults. Unknown keys
are an error that names the key.

`)
	cfg := editor.DefaultConfig()
	v, t := reflect.ValueOf(cfg), reflect.TypeOf(cfg)
	table := func(name string, sv reflect.Value) {
		fmt.Fprintf(&b, "### [%s]\n\n| key | default | what it does |\n|---|---|---|\n", name)
		st := sv.Type()
		for j := range st.NumField() {
			k := st.Field(j)
			def, err := toml.Marshal(map[string]any{"v": sv.Field(j).Interface()})
			if sv.Field(j).Kind() == reflect.Map {
				// An inline table, written as TOML would inline it.
				def, err = json.Marshal(sv.Field(j).Interface())
				def = append([]byte("v = "), bytes.ReplaceAll(def, []byte(`":`), []byte(`" = `))...)
				if sv.Field(j).Len() == 0 {
					def = []byte("v = {}")
				}
			}
			if err != nil {
				panic(err)
			}
			val := strings.TrimSpace(strings.TrimPrefix(string(def), "v = "))
			fmt.Fprintf(&b, "| `%s` | `%s` | %s |\n", k.Tag.Get("toml"), val, cell(k.Tag.Get("desc")))
		}
		b.WriteString("\n")
	}
	for i := range t.NumField() {
		sec, sv := t.Field(i), v.Field(i)
		if sec.Type.Kind() != reflect.Map {
			table(sec.Tag.Get("toml"), sv)
			continue
		}
		// A table of tables ([lsp.NAME]): each default one.
		keys := sv.MapKeys()
		sort.Slice(keys, func(a, b int) bool { return keys[a].String() < keys[b].String() })
		for _, k := range keys {
			table(sec.Tag.Get("toml")+"."+k.String(), sv.MapIndex(k))
		}
	}
	return strings.TrimRight(b.String(), "\n") + "\n"
}

// anchor is the id GitHub gives a heading.
func anchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}

func annotationWords(a editor.Annotations) string {
	var w []string
	switch {
	case a.ReadOnly:
		w = append(w, "read-only")
	case a.Destructive:
		w = append(w, "destructive")
	default:
		w = append(w, "writes, not destructive")
	}
	if a.Idempotent {
		w = append(w, "idempotent")
	}
	if a.OpenWorld {
		w = append(w, "reaches outside the machine")
	}
	return strings.Join(w, ", ")
}

// fieldTable writes a struct's fields as a table, nested structs after
// their parent.
func fieldTable(b *strings.Builder, t reflect.Type, input bool) {
	var rows []string
	docFields(&rows, t, "", input, map[reflect.Type]string{})
	if len(rows) == 0 {
		b.WriteString("(none)\n")
		return
	}
	b.WriteString("| field | type | description |\n|---|---|---|\n")
	for _, r := range rows {
		b.WriteString(r)
	}
}

// docFields appends a row per field of t (embedded structs flattened, as
// the schemas do), recursing into struct-typed fields. seen maps the
// struct types being expanded to their field's name, so that a recursive
// type (a tree's children) points back instead of expanding forever.
func docFields(rows *[]string, t reflect.Type, prefix string, input bool, seen map[reflect.Type]string) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	seen[t] = strings.TrimSuffix(strings.TrimSuffix(prefix, "."), "[]")
	defer delete(seen, t)
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if !f.IsExported() || tag == "-" {
			continue
		}
		if f.Anonymous && f.Type.Kind() == reflect.Struct && tag == "" {
			docFields(rows, f.Type, prefix, input, seen)
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" {
			name = f.Name
		}
		optional := strings.Contains(opts, "omitempty") || strings.Contains(opts, "omitzero")
		typ, elem, list := typeWords(f.Type)
		var notes []string
		if e := f.Tag.Get("enum"); e != "" {
			notes = append(notes, "one of "+strings.ReplaceAll(e, ",", ", "))
		}
		if d, ok := f.Tag.Lookup("default"); ok {
			notes = append(notes, "default "+d)
		} else if input && optional {
			notes = append(notes, "optional")
		}
		if !input && f.Type.Kind() == reflect.Pointer {
			typ += " or null"
		}
		desc := f.Tag.Get("desc")
		if len(notes) > 0 {
			desc = "(" + strings.Join(notes, "; ") + ") " + desc
		}
		*rows = append(*rows, fmt.Sprintf("| `%s%s` | %s | %s |\n", prefix, name, typ, cell(desc)))
		if elem != nil {
			sub := prefix + name + "."
			if list {
				sub = prefix + name + "[]."
			}
			if back, ok := seen[elem]; ok {
				*rows = append(*rows, fmt.Sprintf("| `%s…` | | the fields of `%s`, nested |\n", sub, back))
				continue
			}
			docFields(rows, elem, sub, input, seen)
		}
	}
}

// typeWords names a field's JSON type, and the struct its elements are,
// when they are one (list: inside an array).
func typeWords(t reflect.Type) (words string, elem reflect.Type, list bool) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "string", nil, false
	case reflect.Bool:
		return "boolean", nil, false
	case reflect.Int, reflect.Int64, reflect.Int32, reflect.Uint64, reflect.Uint32:
		return "integer", nil, false
	case reflect.Float64, reflect.Float32:
		return "number", nil, false
	case reflect.Slice, reflect.Array:
		w, e, _ := typeWords(t.Elem())
		return "array of " + w, e, true
	case reflect.Map:
		w, e, _ := typeWords(t.Elem())
		return "object of " + w, e, false
	case reflect.Struct:
		return "object", t, false
	}
	return "any", nil, false
}

// cell makes text safe inside a Markdown table cell.
func cell(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "|", "\\|"), "\n", " ")
}
