package editor

import (
	"reflect"
	"strconv"
	"strings"

	"github.com/editord/editord/editor/wire"
)

// schemaFor builds a JSON Schema from a struct type. Field names come from
// json tags, descriptions from desc tags, enums from enum tags ("a,b"),
// defaults from default tags. A request field is required unless its json
// tag says omitempty; request objects refuse unknown fields. Recursive types
// are emitted once under $defs.
func schemaFor(t reflect.Type, input bool) map[string]any {
	g := &schemaGen{input: input, defs: map[string]any{}, active: map[reflect.Type]bool{}}
	s := g.object(t)
	if len(g.defs) > 0 {
		s["$defs"] = g.defs
	}
	return s
}

type schemaGen struct {
	input  bool
	defs   map[string]any
	active map[reflect.Type]bool // types being expanded, to spot recursion
}

func (g *schemaGen) object(t reflect.Type) map[string]any {
	props := map[string]any{}
	var required []string
	was := g.active[t]
	g.active[t] = true
	defer func() { g.active[t] = was }()
	for _, f := range wire.Fields(t) {
		s := g.typ(f.Type)
		if d := f.Tag.Get("desc"); d != "" {
			s["description"] = d
		}
		if e := f.Tag.Get("enum"); e != "" {
			s["enum"] = strings.Split(e, ",")
		}
		if d, ok := f.Tag.Lookup("default"); ok {
			s["default"] = defaultValue(f.Type, d)
		}
		name, opt := wire.JSONName(f)
		props[name] = s
		if g.input && !opt {
			required = append(required, name)
		}
		if !g.input && f.Type.Kind() == reflect.Pointer {
			// Optional response fields: absent or null.
			s["type"] = []any{s["type"], "null"}
		}
	}
	s := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		s["required"] = required
	}
	if g.input {
		s["additionalProperties"] = false
	}
	return s
}

func (g *schemaGen) typ(t reflect.Type) map[string]any {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int64, reflect.Int32, reflect.Uint64, reflect.Uint32:
		return map[string]any{"type": "integer"}
	case reflect.Float64, reflect.Float32:
		return map[string]any{"type": "number"}
	case reflect.Slice, reflect.Array:
		return map[string]any{"type": "array", "items": g.typ(t.Elem())}
	case reflect.Map:
		return map[string]any{"type": "object", "additionalProperties": g.typ(t.Elem())}
	case reflect.Struct:
		if g.active[t] {
			if _, done := g.defs[t.Name()]; !done {
				g.defs[t.Name()] = nil // reserved: the expansion below refers to itself
				g.defs[t.Name()] = g.object(t)
			}
			return map[string]any{"$ref": "#/$defs/" + t.Name()}
		}
		return g.object(t)
	case reflect.Interface:
		return map[string]any{}
	}
	panic("editor: no schema for " + t.String())
}

func defaultValue(t reflect.Type, d string) any {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Bool:
		return d == "true"
	case reflect.Int, reflect.Int64, reflect.Int32:
		n, _ := strconv.ParseInt(d, 10, 64)
		return n
	}
	return d
}
