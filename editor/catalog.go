package editor

import (
	"context"
	"encoding/json"
	"reflect"
	"runtime"
	"sort"

	"github.com/editord/editord/editor/wire"
)

// Function is one entry of the catalog: everything any surface (MCP tools,
// `editord call`, `editord functions`, the golden schemas) needs to know
// about a function, declared once.
type Function struct {
	ID          string // editor::save
	Description string // written for the model that reads it
	Annotations Annotations
	Request     reflect.Type
	Response    reflect.Type
	call        func(ctx context.Context, s *Service, args json.RawMessage) (any, error)
}

// Annotations are the behaviour hints clients show and act on.
type Annotations struct {
	ReadOnly    bool
	Destructive bool
	Idempotent  bool
	OpenWorld   bool
}

// Call decodes args strictly (unknown, missing or mistyped fields are
// invalid_argument naming the field) and runs the function.
func (f *Function) Call(ctx context.Context, s *Service, args json.RawMessage) (any, error) {
	s.calls.begin()
	defer s.calls.end()
	return f.call(ctx, s, args)
}

// InputSchema is the JSON Schema of the request.
func (f *Function) InputSchema() map[string]any { return schemaFor(f.Request, true) }

// OutputSchema is the JSON Schema of the response.
func (f *Function) OutputSchema() map[string]any { return schemaFor(f.Response, false) }

var catalog = map[string]*Function{}

// define adds a function to the catalog. Request and response types are
// structs whose json tags and desc tags are the contract.
func define[Req, Resp any](id, description string, ann Annotations, h func(*Service, context.Context, *Req) (*Resp, error)) {
	if _, dup := catalog[id]; dup {
		panic("editor: function defined twice: " + id)
	}
	rootAt := rootField(reflect.TypeFor[Resp]())
	catalog[id] = &Function{
		ID:          id,
		Description: description,
		Annotations: ann,
		Request:     reflect.TypeFor[Req](),
		Response:    reflect.TypeFor[Resp](),
		call: func(ctx context.Context, s *Service, args json.RawMessage) (any, error) {
			req := new(Req)
			if err := decodeArgs(args, req); err != nil {
				return nil, err
			}
			if len(args) >= hugeArgs {
				// The message (and the pieces it was read in) is garbage
				// now that it is decoded: collect it before the call reads
				// a file of the same size (a single-file call is to stay
				// within three times the file).
				args = nil
				runtime.GC()
			}
			resp, err := h(s, ctx, req)
			if err == nil && resp != nil && rootAt != nil {
				// The response names the root it used: a caller that had
				// seen none has now (paths.go's writeRoot).
				CallerFrom(ctx).meetRoot(reflect.ValueOf(resp).Elem().FieldByIndex(rootAt).String())
			}
			return resp, err
		},
	}
}

// hugeArgs is the size from which a call's arguments are collected once
// decoded: a collection is milliseconds, reading and decoding them tens.
const hugeArgs = 16 << 20

// rootField is the index of the response field json-tagged "root" (the
// workspace root a response names), or nil when it has none.
func rootField(t reflect.Type) []int {
	if t.Kind() != reflect.Struct {
		return nil
	}
	for _, f := range reflect.VisibleFields(t) {
		if name, _ := wire.JSONName(f); name == "root" && f.Type.Kind() == reflect.String && len(f.Index) == 1 {
			return f.Index
		}
	}
	return nil
}

// Catalog lists every function, sorted by id.
func Catalog() []*Function {
	out := make([]*Function, 0, len(catalog))
	for _, f := range catalog {
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Lookup finds a function by id.
func Lookup(id string) (*Function, bool) {
	f, ok := catalog[id]
	return f, ok
}

var (
	readOnly    = Annotations{ReadOnly: true, Idempotent: true}
	additive    = Annotations{}
	idempotent  = Annotations{Idempotent: true}
	destructive = Annotations{Destructive: true}
)
