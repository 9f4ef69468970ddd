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
	want, undescribed := reference()
	if len(undescribed) > 0 {
		t.Fatalf("configuration keys without a desc tag (what it does, its unit, when to change it, for a person configuring editord): %s", strings.Join(undescribed, ", "))
	}
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

// reference is docs/reference.md, and the configuration sections and keys
// that have no desc tag to say what they do.
func reference() (doc string, undescribed []string) {
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
	undescribed = configTables(&b, reflect.ValueOf(editor.DefaultConfig()))
	return strings.TrimRight(b.String(), "\n") + "\n", undescribed
}

// configTables writes a table per section of the configuration v (a
// struct of sections, each a struct or a map of them) and returns the
// sections and keys that have no desc tag.
func configTables(b *strings.Builder, v reflect.Value) (undescribed []string) {
	t := v.Type()
	// desc is a field's desc tag, noting the key when it has none.
	desc := func(key string, f reflect.StructField) string {
		d := f.Tag.Get("desc")
		if strings.TrimSpace(d) == "" {
			undescribed = append(undescribed, key)
		}
		return cell(d)
	}
	// defaultValue is v as the configuration file would write it.
	defaultValue := func(v reflect.Value) string {
		def, err := toml.Marshal(map[string]any{"v": v.Interface()})
		if v.Kind() == reflect.Map {
			// An inline table, written as TOML would inline it.
			def, err = json.Marshal(v.Interface())
			def = append([]byte("v = "), bytes.ReplaceAll(def, []byte(`":`), []byte(`" = `))...)
			if v.Len() == 0 {
				def = []byte("v = {}")
			}
		}
		if err != nil {
			panic(err)
		}
		return strings.TrimSpace(strings.TrimPrefix(string(def), "v = "))
	}
	for i := range t.NumField() {
		sec, sv := t.Field(i), v.Field(i)
		name := sec.Tag.Get("toml")
		if sec.Type.Kind() != reflect.Map {
			fmt.Fprintf(b, "### [%s]\n\n%s\n\n| key | default | what it does |\n|---|---|---|\n", name, desc("["+name+"]", sec))
			st := sv.Type()
			for j := range st.NumField() {
				k := st.Field(j)
				key := k.Tag.Get("toml")
				fmt.Fprintf(b, "| `%s` | `%s` | %s |\n", key, defaultValue(sv.Field(j)), desc(name+"."+key, k))
			}
			b.WriteString("\n")
			continue
		}
		// A table of tables ([lsp.NAME]): its keys once, then each
		// default table's values.
		fmt.Fprintf(b, "### [%s.NAME]\n\n%s\n\n| key | what it does |\n|---|---|\n", name, desc("["+name+".NAME]", sec))
		et := sec.Type.Elem()
		for j := range et.NumField() {
			k := et.Field(j)
			key := k.Tag.Get("toml")
			fmt.Fprintf(b, "| `%s` | %s |\n", key, desc(name+".NAME."+key, k))
		}
		b.WriteString("\n")
		keys := sv.MapKeys()
		sort.Slice(keys, func(a, b int) bool { return keys[a].String() < keys[b].String() })
		for _, mk := range keys {
			fmt.Fprintf(b, "#### [%s.%s], by default\n\n| key | default |\n|---|---|\n", name, mk.String())
			tv := sv.MapIndex(mk)
			for j := range et.NumField() {
				fmt.Fprintf(b, "| `%s` | `%s` |\n", et.Field(j).Tag.Get("toml"), defaultValue(tv.Field(j)))
			}
			b.WriteString("\n")
		}
	}
	return undescribed
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

// TestDocsReferenceNamesUndescribedKeys: a configuration key or section
// without a desc tag is named, which fails TestDocsReference, rather than
// leaving an empty "what it does" cell in docs/reference.md.
func TestDocsReferenceNamesUndescribedKeys(t *testing.T) {
	type server struct {
		Command []string `toml:"command" desc:"The program."`
		Idle    int      `toml:"idle"`
	}
	type section struct {
		Said   int `toml:"said" desc:"Described."`
		Unsaid int `toml:"unsaid"`
	}
	type config struct {
		A section           `toml:"a" desc:"A section."`
		B section           `toml:"b"`
		S map[string]server `toml:"s" desc:"Servers."`
	}
	var b strings.Builder
	got := configTables(&b, reflect.ValueOf(config{S: map[string]server{"x": {}}}))
	want := []string{"a.unsaid", "[b]", "b.unsaid", "s.NAME.idle"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("undescribed = %q, want %q", got, want)
	}
	if !strings.Contains(b.String(), "| `said` | `0` | Described. |") {
		t.Fatalf("the described key's row is missing:\n%s", b.String())
	}
}
