package protocol

import (
	"context"
	"fmt"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Long calls run as tasks when the client asks (MCP 2025-11-25 tasks, as
// mcp-go v1.2.1 serves them): a tools/call with params.task is answered at
// once with a task, the call runs on, the client polls tasks/get, reads
// tasks/result and may tasks/cancel; progress it asked for with a
// progressToken keeps coming as notifications/progress. Any other call of
// the same tools runs as before. This table names the functions that can
// take long: a sync over the network, a search or replace over a large
// tree, and commands (editor::run, which may not be defined in this build).
var taskFunctions = map[string]bool{
	"editor::git::sync": true,
	"editor::search":    true,
	"editor::replace":   true,
	"editor::run":       true,
}

// execution is the execution hint of function id's tool.
func execution(id string) *mcp.ToolExecution {
	if !taskFunctions[id] {
		return nil
	}
	return &mcp.ToolExecution{TaskSupport: mcp.TaskSupportOptional}
}

// mcp-go runs a task with a context derived from its tools/call request's,
// which ends as soon as the request is answered with the task: every task
// would be cancelled at once. So a call run as a task is detached from its
// request (its values kept: the session, for progress) and cancelled only
// by tasks/cancel. The task's id is known only once the request is
// answered, so the call is tagged in _meta before it runs (callKey), the
// answer maps the task to the tag, and tasks/cancel cancels through it.
type taskRuns struct {
	mu     sync.Mutex
	cancel map[string]context.CancelFunc // by call key
	call   map[string]string             // call key by task id
}

// callKeyMeta carries a task call's key from the hook to the handler.
const callKeyMeta = "io.editord/call"

func newTaskRuns() *taskRuns {
	return &taskRuns{cancel: map[string]context.CancelFunc{}, call: map[string]string{}}
}

func (tr *taskRuns) hooks(hk *server.Hooks) {
	hk.AddBeforeCallTool(func(ctx context.Context, id any, req *mcp.CallToolRequest) {
		if req.Params.Task == nil {
			return
		}
		if req.Params.Meta == nil {
			req.Params.Meta = &mcp.Meta{}
		}
		if req.Params.Meta.AdditionalFields == nil {
			req.Params.Meta.AdditionalFields = map[string]any{}
		}
		req.Params.Meta.AdditionalFields[callKeyMeta] = callKey(ctx, id)
	})
	hk.AddAfterCallTool(func(ctx context.Context, id any, _ *mcp.CallToolRequest, result any) {
		if r, ok := result.(*mcp.CreateTaskResult); ok {
			tr.mu.Lock()
			tr.call[r.Task.TaskId] = callKey(ctx, id)
			tr.mu.Unlock()
		}
	})
	hk.AddBeforeCancelTask(func(_ context.Context, _ any, req *mcp.CancelTaskRequest) {
		tr.mu.Lock()
		cancel := tr.cancel[tr.call[req.Params.TaskId]]
		tr.mu.Unlock()
		if cancel != nil {
			cancel()
		}
	})
}

func callKey(ctx context.Context, id any) string {
	sid := ""
	if s := server.ClientSessionFromContext(ctx); s != nil {
		sid = s.SessionID()
	}
	return fmt.Sprintf("%s\x00%v", sid, id)
}

// detach returns the context a call runs in: ctx itself, or for a call
// run as a task one that only tasks/cancel ends; done forgets it.
func (tr *taskRuns) detach(ctx context.Context, req mcp.CallToolRequest) (context.Context, func()) {
	if req.Params.Task == nil || req.Params.Meta == nil {
		return ctx, func() {}
	}
	key, _ := req.Params.Meta.AdditionalFields[callKeyMeta].(string)
	if key == "" {
		return ctx, func() {}
	}
	ctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	tr.mu.Lock()
	tr.cancel[key] = cancel
	tr.mu.Unlock()
	return ctx, func() {
		cancel()
		tr.mu.Lock()
		delete(tr.cancel, key)
		for task, k := range tr.call {
			if k == key {
				delete(tr.call, task)
			}
		}
		tr.mu.Unlock()
	}
}
