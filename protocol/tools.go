package protocol

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/editord/editord/editor"
	"github.com/editord/editord/shell"
)

// Tool builds the MCP tool of one catalog function.
// Its description and the descriptions of its input fields name other
// functions by their tool names, which is all an MCP client knows.
func Tool(f *editor.Function) mcp.Tool { return tool(f, true) }

// DescribedTool is Tool with every output field's description, for
// editord functions --json.
func DescribedTool(f *editor.Function) mcp.Tool { return tool(f, false) }

func tool(f *editor.Function, lean bool) mcp.Tool {
	inSchema := f.InputSchema()
	renameDescriptions(inSchema)
	in, _ := marshalJSON(inSchema)
	// The output schema is lean: types, enums and required fields, no
	// descriptions. Clients that read it pay for every byte on every
	// list, and the model reads each result's text block, not the schema;
	// the field descriptions stay in editord functions --json and the
	// function reference.
	outSchema := f.OutputSchema()
	if lean {
		dropDescriptions(outSchema)
	} else {
		renameDescriptions(outSchema)
	}
	out, _ := marshalJSON(outSchema)
	a := f.Annotations
	return mcp.Tool{
		Name:            ToolName(f.ID),
		Title:           f.ID,
		Description:     ToolNames(f.Description),
		RawInputSchema:  in,
		RawOutputSchema: out,
		Annotations: mcp.ToolAnnotation{
			Title:           f.ID,
			ReadOnlyHint:    mcp.ToBoolPtr(a.ReadOnly),
			DestructiveHint: mcp.ToBoolPtr(a.Destructive),
			IdempotentHint:  mcp.ToBoolPtr(a.Idempotent),
			OpenWorldHint:   mcp.ToBoolPtr(a.OpenWorld),
		},
		Meta:      toolMeta(f.ID),  // function_id, and the view of an MCP App (apps.go)
		Execution: execution(f.ID), // tasks.go
	}
}

// handler adapts a catalog function to an MCP tool handler.
func handler(svc *editor.Service, f *editor.Function, cs *callers, tr *taskRuns) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		ctx, done := tr.detach(ctx, req) // tasks.go
		defer done()
		args := req.Params.RawArguments
		if args == nil && req.Params.Arguments != nil {
			args, _ = json.Marshal(req.Params.Arguments)
		}
		// Calls with _meta (a progressToken) come this way, not the stdio
		// fast path (stdio.go).
		ctx = withProgress(ctx, req)
		return toolResult(ctx, svc, f, cs, args), nil
	}
}

// toolResult runs f for the session of ctx and shapes its result: the one
// place a tool call's result is made, whichever loop read the call (mcp-go's
// or the stdio fast path, stdio.go).
func toolResult(ctx context.Context, svc *editor.Service, f *editor.Function, cs *callers, args json.RawMessage) *mcp.CallToolResult {
	res, _ := toolOutcome(ctx, svc, f, cs, args)
	return res
}

// toolOutcome is toolResult, and whether the arguments were not JSON at
// all (editor.ErrArgsNotJSON).
func toolOutcome(ctx context.Context, svc *editor.Service, f *editor.Function, cs *callers, args json.RawMessage) (*mcp.CallToolResult, bool) {
	ctx = editor.WithCaller(ctx, cs.of(ctx))
	resp, err := call(ctx, svc, f, args)
	if err != nil {
		return ErrorResult(err), errors.Is(err, editor.ErrArgsNotJSON)
	}
	renameProse(reflect.ValueOf(resp))
	body, err := encodeResponse(resp)
	if err != nil {
		return ErrorResult(err), false
	}
	return &mcp.CallToolResult{
		Content:           []mcp.Content{mcp.NewTextContent(RenderText(f.ID, resp, ToolName))},
		StructuredContent: json.RawMessage(body),
	}, false
}

// prose reports whether f is prose written for the caller (a git summary
// naming the next step, why a file was skipped; tagged prose:"true"): over
// MCP it names tools, as error messages do. Data is never renamed, whatever
// its name (a blame line's "summary" is a commit's subject).
func prose(f reflect.StructField) bool {
	return f.Type.Kind() == reflect.String && f.Tag.Get("prose") == "true"
}

// renameProse rewrites function ids to tool names in the prose fields of a
// response, at any depth.
func renameProse(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			renameProse(v.Elem())
		}
	case reflect.Slice, reflect.Array:
		if v.Len() > 0 && !hasProse(v.Type().Elem()) {
			return
		}
		for i := range v.Len() {
			renameProse(v.Index(i))
		}
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			fv := v.Field(i)
			if prose(f) {
				if fv.CanSet() {
					fv.SetString(ToolNames(fv.String()))
				}
				continue
			}
			renameProse(fv)
		}
	}
}

// hasProse reports whether values of t can hold a prose field, so that
// long lists of hits or entries without one are not walked.
func hasProse(t reflect.Type) bool {
	seen := map[reflect.Type]bool{}
	var has func(t reflect.Type) bool
	has = func(t reflect.Type) bool {
		if seen[t] {
			return false
		}
		seen[t] = true
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array:
			return has(t.Elem())
		case reflect.Interface:
			return true
		case reflect.Struct:
			for i := range t.NumField() {
				f := t.Field(i)
				if f.IsExported() && (prose(f) || has(f.Type)) {
					return true
				}
			}
		}
		return false
	}
	return has(t)
}

// renameDescriptions rewrites function ids to tool names in every
// description of a JSON schema.
func renameDescriptions(schema any) {
	switch v := schema.(type) {
	case map[string]any:
		for k, x := range v {
			if s, ok := x.(string); ok && k == "description" {
				v[k] = ToolNames(s)
			} else {
				renameDescriptions(x)
			}
		}
	case []any:
		for _, x := range v {
			renameDescriptions(x)
		}
	}
}

// dropDescriptions removes every description of a JSON schema.
func dropDescriptions(schema any) {
	switch v := schema.(type) {
	case map[string]any:
		if _, ok := v["description"].(string); ok {
			delete(v, "description")
		}
		for _, x := range v {
			dropDescriptions(x)
		}
	case []any:
		for _, x := range v {
			dropDescriptions(x)
		}
	}
}

// call runs f, turning a panic into an internal error so one bad request
// never takes the server down.
func call(ctx context.Context, svc *editor.Service, f *editor.Function, args json.RawMessage) (resp any, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &shell.Error{Code: shell.CodeInternal, Message: fmt.Sprintf("%s failed unexpectedly: %v", f.ID, r)}
		}
	}()
	return f.Call(ctx, svc, args)
}

// ErrorResult is the isError result of a refused call: the message as text,
// and {"error": {code, message, path?}} as structured content. The message
// names tools, not function ids.
func ErrorResult(err error) *mcp.CallToolResult {
	e := *AsError(err)
	e.Message = CapMessage(ToolNames(e.Message))
	body, _ := marshalJSON(map[string]any{"error": &e})
	return &mcp.CallToolResult{
		IsError:           true,
		Content:           []mcp.Content{mcp.NewTextContent(e.Message)},
		StructuredContent: json.RawMessage(body),
	}
}

// maxMessageBytes bounds an error message: one that quotes what the caller
// sent (a 100 KB revision, cursor or pattern) must not flood the model.
const maxMessageBytes = 4 << 10

// CapMessage is an error message as a model reads it: cut past
// maxMessageBytes, saying how much it left out (editord call --text prints
// it so).
func CapMessage(m string) string {
	if len(m) <= maxMessageBytes {
		return m
	}
	cut := cutString(m, maxMessageBytes)
	return fmt.Sprintf("%s… (%d more bytes of this message not shown)", cut, len(m)-len(cut))
}

// AsError gives any error a stable code; an error without one is internal.
func AsError(err error) *shell.Error {
	var e *shell.Error
	if errors.As(err, &e) {
		return e
	}
	if errors.Is(err, context.Canceled) {
		return &shell.Error{Code: shell.CodeTimeout, Message: "the call was cancelled"}
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return &shell.Error{Code: shell.CodeTimeout, Message: "the call ran out of time"}
	}
	return &shell.Error{Code: shell.CodeInternal, Message: err.Error()}
}

// withProgress passes a reporter to the function when the caller asked for
// progress (a progressToken in _meta): each report becomes a
// notifications/progress for that caller, with progress increasing.
func withProgress(ctx context.Context, req mcp.CallToolRequest) context.Context {
	if req.Params.Meta == nil || req.Params.Meta.ProgressToken == nil {
		return ctx
	}
	srv := server.ServerFromContext(ctx)
	if srv == nil {
		return ctx
	}
	token := req.Params.Meta.ProgressToken
	var mu sync.Mutex
	last := -1.0
	return editor.WithProgress(ctx, func(done, total float64, message string) {
		mu.Lock()
		defer mu.Unlock()
		if done <= last {
			done = last + 0.001 // progress must increase
		}
		last = done
		params := map[string]any{"progressToken": token, "progress": done}
		if total > 0 {
			params["total"] = total
		}
		if message != "" {
			params["message"] = message
		}
		srv.SendNotificationToClient(ctx, "notifications/progress", params)
	})
}
