package protocol

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// TestPageWireTypes keeps protocol/web/src/wire.ts, the TypeScript types
// of every tool's request and result, equal to the golden schemas in
// testdata/schemas (make schemas rewrites both). The page's modules take
// their wire types from it, a leaf that imports nothing.
func TestPageWireTypes(t *testing.T) {
	path := filepath.Join("web", "src", "wire.ts")
	want, err := pageWireTypes(filepath.Join("..", "testdata", "schemas"))
	if err != nil {
		t.Fatal(err)
	}
	old, err := os.ReadFile(path)
	if err == nil && string(old) == want {
		return
	}
	if !*update {
		t.Fatalf("%s differs from the golden schemas (%v); run make schemas, then make web", path, err)
	}
	if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
		t.Fatal(err)
	}
}

// pageWireTypes renders wire.ts from the schema files in dir.
func pageWireTypes(dir string) (string, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return "", err
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString(`// The request and result of every tool, as the server sends them.
// Generated from the golden schemas (testdata/schemas) by
// TestPageWireTypes in protocol; never edit it: make schemas rewrites it.
// A leaf: it imports nothing, so any module may take its types from here.
//
// A request field the schema does not require is optional; a result
// field the schema lets be null is optional and may be null.
`)
	defs := map[string]string{}
	var body strings.Builder
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			return "", err
		}
		var tool struct {
			Name         string         `json:"name"`
			Title        string         `json:"title"`
			Description  string         `json:"description"`
			InputSchema  map[string]any `json:"inputSchema"`
			OutputSchema map[string]any `json:"outputSchema"`
		}
		if err := json.Unmarshal(data, &tool); err != nil {
			return "", fmt.Errorf("%s: %w", name, err)
		}
		base := typeName(strings.TrimPrefix(tool.Name, "editor_"))
		for _, s := range []map[string]any{tool.InputSchema, tool.OutputSchema} {
			d, _ := s["$defs"].(map[string]any)
			for k, v := range d {
				text := "export interface " + k + " " + tsObject(v.(map[string]any), "", false) + "\n"
				if prev, ok := defs[k]; ok && prev != text {
					return "", fmt.Errorf("%s: $defs %s differs from another tool's", name, k)
				}
				defs[k] = text
			}
		}
		fmt.Fprintf(&body, "\n/** %s: its arguments. */\nexport interface %sRequest %s\n", tool.Title, base, tsObject(tool.InputSchema, "", true))
		fmt.Fprintf(&body, "\n/** %s: its structured result. */\nexport interface %sResult %s\n", tool.Title, base, tsObject(tool.OutputSchema, "", false))
	}
	keys := make([]string, 0, len(defs))
	for k := range defs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		b.WriteString("\n" + defs[k])
	}
	b.WriteString(body.String())
	return b.String(), nil
}

// typeName is git_undo_commit as GitUndoCommit.
func typeName(s string) string {
	var b strings.Builder
	for _, part := range strings.Split(s, "_") {
		if part != "" {
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return b.String()
}

var tsIdent = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*$`)

// tsObject renders an object schema as a TypeScript object type, its
// properties in name order; request says which of them are required.
func tsObject(s map[string]any, indent string, request bool) string {
	props, _ := s["properties"].(map[string]any)
	if len(props) == 0 {
		if ap, ok := s["additionalProperties"].(map[string]any); ok {
			return "Record<string, " + tsType(ap, indent, request) + ">"
		}
		return "{}"
	}
	required := map[string]bool{}
	if r, ok := s["required"].([]any); ok {
		for _, n := range r {
			required[n.(string)] = true
		}
	}
	names := make([]string, 0, len(props))
	for n := range props {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("{\n")
	in := indent + "  "
	for _, n := range names {
		p := props[n].(map[string]any)
		if d, ok := p["description"].(string); ok {
			fmt.Fprintf(&b, "%s/** %s */\n", in, strings.ReplaceAll(d, "*/", "*\\/"))
		}
		key := n
		if !tsIdent.MatchString(n) {
			key = fmt.Sprintf("%q", n)
		}
		optional := request && !required[n] || !request && nullable(p)
		q := ""
		if optional {
			q = "?"
		}
		fmt.Fprintf(&b, "%s%s%s: %s;\n", in, key, q, tsType(p, in, request))
	}
	b.WriteString(indent + "}")
	return b.String()
}

func nullable(s map[string]any) bool {
	types, _ := s["type"].([]any)
	for _, t := range types {
		if t == "null" {
			return true
		}
	}
	return false
}

// tsType renders a schema as a TypeScript type.
func tsType(s map[string]any, indent string, request bool) string {
	if ref, ok := s["$ref"].(string); ok {
		return strings.TrimPrefix(ref, "#/$defs/")
	}
	var types []string
	switch t := s["type"].(type) {
	case string:
		types = []string{t}
	case []any:
		for _, x := range t {
			types = append(types, x.(string))
		}
	}
	var out []string
	for _, t := range types {
		switch t {
		case "string":
			if e, ok := s["enum"].([]any); ok {
				for _, v := range e {
					out = append(out, fmt.Sprintf("%q", v))
				}
				continue
			}
			out = append(out, "string")
		case "integer", "number":
			out = append(out, "number")
		case "boolean":
			out = append(out, "boolean")
		case "null":
			out = append(out, "null")
		case "array":
			el := tsType(s["items"].(map[string]any), indent, request)
			if strings.Contains(el, " | ") && !strings.HasPrefix(el, "{") {
				el = "(" + el + ")"
			}
			out = append(out, el+"[]")
		case "object":
			out = append(out, tsObject(s, indent, request))
		}
	}
	if len(out) == 0 {
		return "unknown"
	}
	return strings.Join(out, " | ")
}

// TestPageImportsNoCycle: the page's modules import each other without a
// cycle, type-only imports included: wire.ts (the wire types) is a leaf,
// and app.ts's App is assembled from modules that do not import it back.
func TestPageImportsNoCycle(t *testing.T) {
	src := filepath.Join("web", "src")
	files, _ := filepath.Glob(filepath.Join(src, "*.ts"))
	more, _ := filepath.Glob(filepath.Join(src, "*", "*.ts"))
	files = append(files, more...)
	if len(files) < 10 {
		t.Fatalf("only %d modules found under %s", len(files), src)
	}
	imports := regexp.MustCompile(`(?m)^import\s[^;]*?from\s+"(\.[^"]+)"`)
	deps := map[string][]string{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range imports.FindAllSubmatch(data, -1) {
			deps[f] = append(deps[f], filepath.Join(filepath.Dir(f), string(m[1]))+".ts")
		}
	}
	if len(deps[filepath.Join(src, "wire.ts")]) != 0 {
		t.Errorf("wire.ts imports %v; it must stay a leaf", deps[filepath.Join(src, "wire.ts")])
	}
	// Depth-first search; a module met again while on the path closes a
	// cycle.
	const (
		unseen = iota
		onPath
		done
	)
	state := map[string]int{}
	var path []string
	var visit func(f string)
	visit = func(f string) {
		state[f] = onPath
		path = append(path, f)
		for _, d := range deps[f] {
			switch state[d] {
			case onPath:
				i := 0
				for path[i] != d {
					i++
				}
				t.Errorf("import cycle: %s -> %s", strings.Join(path[i:], " -> "), d)
			case unseen:
				visit(d)
			}
		}
		path = path[:len(path)-1]
		state[f] = done
	}
	sort.Strings(files)
	for _, f := range files {
		if state[f] == unseen {
			visit(f)
		}
	}
}
