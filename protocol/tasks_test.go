package protocol

import (
	"context"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// A call run as a task outlives its request, and tasks/cancel ends it.
func TestTaskRunsDetachAndCancel(t *testing.T) {
	tr := newTaskRuns()
	hk := &server.Hooks{}
	tr.hooks(hk)
	req := &mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "editor_search", Task: &mcp.TaskParams{}}}
	reqCtx, endRequest := context.WithCancel(context.Background())
	for _, h := range hk.OnBeforeCallTool {
		h(reqCtx, 7, req)
	}
	ctx, done := tr.detach(reqCtx, *req)
	defer done()
	for _, h := range hk.OnAfterCallTool {
		h(reqCtx, 7, req, &mcp.CreateTaskResult{Task: mcp.Task{TaskId: "t1"}})
	}
	endRequest() // the request is answered with the task
	if ctx.Err() != nil {
		t.Fatal("the task's call ended with its request")
	}
	for _, h := range hk.OnBeforeCancelTask {
		h(context.Background(), 8, &mcp.CancelTaskRequest{Params: mcp.CancelTaskParams{TaskId: "t1"}})
	}
	if ctx.Err() == nil {
		t.Fatal("tasks/cancel did not end the task's call")
	}
	plain, _ := tr.detach(reqCtx, mcp.CallToolRequest{})
	if plain != reqCtx {
		t.Fatal("a call without task is detached")
	}
}
