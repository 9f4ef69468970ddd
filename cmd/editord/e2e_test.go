package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// These tests drive the real binary: built once, started as `editord serve`
// and spoken to over stdio by mcp-go's client, as any MCP host would.

var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "editord-e2e-")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "editord")
	out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput()
	if err != nil {
		// -race needs cgo; fall back to a plain build.
		if out2, err2 := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err2 != nil {
			panic(fmt.Sprintf("building editord: %v\n%s\n%s", err2, out, out2))
		}
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

type session struct {
	t    *testing.T
	c    *client.Client
	text string // the text block of the last call, as a model reads it
}

// serveClient starts `editord serve` on root/stateDir and initializes an MCP session.
func serveClient(t *testing.T, root, stateDir string) *session {
	t.Helper()
	return startSession(t, []string{"HOME=" + t.TempDir()}, "editord-e2e", mcp.LATEST_PROTOCOL_VERSION, nil,
		"serve", "--root", root, "--state-dir", stateDir)
}

// startSession runs the binary with args over stdio, env added to this
// process's environment, and initializes an MCP session of client name at
// protocol version, its notifications routed to on (when not nil).
func startSession(t *testing.T, env []string, name, version string, on func(mcp.JSONRPCNotification), args ...string) *session {
	t.Helper()
	c, err := client.NewStdioMCPClient(binary, env, args...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	// NewStdioMCPClient starts the transport without the client's
	// notification routing; Start (idempotent) installs it.
	if err := c.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	if on != nil {
		c.OnNotification(on)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := c.Initialize(ctx, mcp.InitializeRequest{Params: mcp.InitializeParams{
		ProtocolVersion: version,
		ClientInfo:      mcp.Implementation{Name: name, Version: "1"},
	}}); err != nil {
		t.Fatal(err)
	}
	return &session{t: t, c: c}
}

// call invokes a tool and decodes its structured content; isError results
// come back as the error object.
func (s *session) call(tool string, args map[string]any) (map[string]any, bool) {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := s.c.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: tool, Arguments: args}})
	if err != nil {
		s.t.Fatalf("%s: %v", tool, err)
	}
	var out map[string]any
	raw, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(raw, &out); err != nil {
		s.t.Fatalf("%s: structured content: %v (%s)", tool, err, raw)
	}
	if len(res.Content) != 1 {
		s.t.Fatalf("%s: want one text block, got %d", tool, len(res.Content))
	}
	// The text block is written for a model (docs/contract.md §8): never empty,
	// never over the 32 KiB budget; a refusal's text is its message.
	text := res.Content[0].(mcp.TextContent).Text
	if text == "" || len(text) > 32<<10 {
		s.t.Fatalf("%s: text block of %d bytes", tool, len(text))
	}
	if res.IsError {
		if e, _ := out["error"].(map[string]any); e == nil || e["message"] != text {
			s.t.Fatalf("%s: an error's text block must be its message: %q vs %v", tool, text, out)
		}
	}
	s.text = text
	return out, res.IsError
}

func (s *session) mustCall(tool string, args map[string]any) map[string]any {
	s.t.Helper()
	out, isErr := s.call(tool, args)
	if isErr {
		s.t.Fatalf("%s(%v): unexpected error %v", tool, args, out)
	}
	return out
}

func workspaceDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestE2EToolsList(t *testing.T) {
	root := workspaceDir(t)
	s := serveClient(t, root, t.TempDir())
	res, err := s.c.ListTools(context.Background(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	name := regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9_-]{0,47}$`)
	found := map[string]bool{}
	for _, tool := range res.Tools {
		found[tool.Name] = true
		if !name.MatchString(tool.Name) {
			t.Errorf("tool name %q is not portable", tool.Name)
		}
		if !strings.HasPrefix(tool.Title, "editor::") {
			t.Errorf("%s: title %q is not the function id", tool.Name, tool.Title)
		}
		var in struct {
			Properties map[string]struct {
				Description string `json:"description"`
			} `json:"properties"`
		}
		raw, _ := json.Marshal(tool.InputSchema)
		if tool.RawInputSchema != nil {
			raw = tool.RawInputSchema
		}
		json.Unmarshal(raw, &in)
		for field, p := range in.Properties {
			if p.Description == "" {
				t.Errorf("%s: input field %s has no description", tool.Name, field)
			}
		}
	}
	for _, want := range []string{"editor_open", "editor_save", "editor_workspace_get", "editor_tree", "editor_move", "editor_tools"} {
		if !found[want] {
			t.Errorf("tool %s not served", want)
		}
	}
}

func TestE2EOpenSaveConflict(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	root := workspaceDir(t)
	state := t.TempDir()
	path := filepath.Join(root, "notes.txt")
	os.WriteFile(path, []byte("one\r\ntwo\r\nthree"), 0o644)
	s := serveClient(t, root, state)

	opened := s.mustCall("editor_open", map[string]any{"path": "notes.txt"})
	if opened["content"] != "one\r\ntwo\r\nthree" || opened["eol"] != "crlf" {
		t.Fatalf("open changed the bytes: %q (%v)", opened["content"], opened["eol"])
	}
	v1 := opened["version"].(string)
	saved := s.mustCall("editor_save", map[string]any{"path": "notes.txt", "content": "one\r\n2\r\nthree", "expected_version": v1})
	if saved["saved"] != true || saved["conflict"] != false {
		t.Fatalf("save with the opened version: %v", saved)
	}
	v2 := saved["version"].(string)
	saved = s.mustCall("editor_save", map[string]any{"path": "notes.txt", "content": "one\r\n2\r\n3", "expected_version": v2})
	if saved["saved"] != true {
		t.Fatalf("save with the returned version: %v", saved)
	}
	v3 := saved["version"].(string)

	// Another process writes in between: `editord call` on the same state dir.
	other := exec.Command(binary, "call", "editor::save", `{"path":"notes.txt","content":"ONE\r\n2\r\n3","force":true}`, "--root", root, "--state-dir", state)
	if out, err := other.CombinedOutput(); err != nil {
		t.Fatalf("other writer: %v\n%s", err, out)
	}
	disk, _ := os.ReadFile(path)

	mine := "one\r\n2\r\n3\r\nfour\r\n"
	res := s.mustCall("editor_save", map[string]any{"path": "notes.txt", "content": mine, "expected_version": v3, "strict": true})
	if res["conflict"] != true || res["saved"] != false {
		t.Fatalf("a stale version must conflict when strict: %v", res)
	}
	if after, _ := os.ReadFile(path); string(after) != string(disk) {
		t.Fatalf("a conflict wrote to disk: %q", after)
	}
	if res["disk_version"] == v3 || res["disk_version"] == nil {
		t.Fatalf("disk_version should be the other writer's: %v", res)
	}
	// The patch goes from the disk's content to ours: applying it to the
	// disk gives what we tried to write.
	patch := res["conflict_patch"].(string)
	work := t.TempDir()
	os.WriteFile(filepath.Join(work, "notes.txt"), disk, 0o644)
	os.WriteFile(filepath.Join(work, "p.diff"), []byte(patch), 0o644)
	cmd := exec.Command("git", "apply", "--unsafe-paths", "p.diff")
	cmd.Dir = work
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git apply refused the conflict patch: %v\n%s\n%s", err, out, patch)
	}
	if got, _ := os.ReadFile(filepath.Join(work, "notes.txt")); string(got) != mine {
		t.Fatalf("conflict patch applied gives %q, want %q", got, mine)
	}
	// Not strict: the other process's change (line 1) and ours (the end)
	// do not overlap, and the server still holds v3's content (this
	// process handed it out), so both are kept.
	res = s.mustCall("editor_save", map[string]any{"path": "notes.txt", "content": mine, "expected_version": v3})
	if res["saved"] != true || res["merged"] != true || res["base_version"] != v3 {
		t.Fatalf("a stale save that does not overlap must merge: %v", res)
	}
	if after, _ := os.ReadFile(path); string(after) != "ONE\r\n2\r\n3\r\nfour\r\n" {
		t.Fatalf("merged save wrote %q", after)
	}
	// Every event names its writer: this session (client name and 4 hex of
	// its session), then the CLI, then this session's merged save.
	var who []string
	for _, ev := range s.mustCall("editor_changes", map[string]any{})["changes"].([]any) {
		who = append(who, ev.(map[string]any)["by"].(string))
	}
	if len(who) != 4 || !regexp.MustCompile(`^editord-e2e#[0-9a-f]{4}$`).MatchString(who[0]) || who[1] != who[0] || who[2] != "cli" || who[3] != who[0] {
		t.Fatalf("events' by = %q, want this session twice, then cli, then this session", who)
	}
	// A refusal is an isError result with a stable code.
	out, isErr := s.call("editor_open", map[string]any{"path": "../outside.txt"})
	if !isErr || out["error"].(map[string]any)["code"] != "outside_jail" {
		t.Fatalf("path outside the jail: %v", out)
	}
}

// TestE2EManyProcesses: 8 servers on one state dir open 50 files each at the
// same time, and none of the 400 buffers is lost; then all 8 race to save
// one file from one version and exactly one wins.
func TestE2EManyProcesses(t *testing.T) {
	const procs, files = 8, 50
	root := workspaceDir(t)
	state := t.TempDir()
	for p := range procs {
		for f := range files {
			os.WriteFile(filepath.Join(root, fmt.Sprintf("p%d-f%02d.txt", p, f)), []byte("x\n"), 0o644)
		}
	}
	os.WriteFile(filepath.Join(root, "shared.txt"), []byte("base\n"), 0o644)
	sessions := make([]*session, procs)
	for p := range sessions {
		sessions[p] = serveClient(t, root, state)
	}
	var wg sync.WaitGroup
	for p, s := range sessions {
		wg.Go(func() {
			for f := range files {
				s.mustCall("editor_open", map[string]any{"path": fmt.Sprintf("p%d-f%02d.txt", p, f)})
			}
		})
	}
	wg.Wait()
	list := sessions[0].mustCall("editor_buffers_list", map[string]any{"limit": 10000})
	if n := len(list["buffers"].([]any)); n != procs*files {
		t.Fatalf("buffers after %d concurrent opens: %d", procs*files, n)
	}

	version := sessions[0].mustCall("editor_open", map[string]any{"path": "shared.txt"})["version"]
	results := make([]map[string]any, procs)
	start := make(chan struct{})
	for p, s := range sessions {
		wg.Go(func() {
			<-start
			results[p] = s.mustCall("editor_save", map[string]any{"path": "shared.txt", "content": fmt.Sprintf("writer %d\n", p), "expected_version": version})
		})
	}
	close(start)
	wg.Wait()
	winners := 0
	var winner string
	for p, r := range results {
		switch {
		case r["saved"] == true:
			winners++
			winner = fmt.Sprintf("writer %d\n", p)
		case r["conflict"] != true:
			t.Errorf("writer %d: neither saved nor conflict: %v", p, r)
		}
	}
	if winners != 1 {
		t.Fatalf("%d saves won the race, want exactly 1", winners)
	}
	if got, _ := os.ReadFile(filepath.Join(root, "shared.txt")); string(got) != winner {
		t.Fatalf("file holds %q, want the winner's %q", got, winner)
	}
}
