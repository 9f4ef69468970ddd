package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/editord/editord/editor"
	"github.com/editord/editord/editor/watch"
	"github.com/editord/editord/editor/wire"
	"github.com/editord/editord/protocol"
	"github.com/editord/editord/shell"
	"github.com/editord/editord/shell/sandbox"
)

// open loads the configuration and opens the service. Warnings go to
// stderr and, once set, to also (the MCP clients of a server).
func (c *common) open(stderr io.Writer) (svc *editor.Service, also *atomic.Pointer[func(string)], err error) {
	cfg, _, err := loadConfig(c.config)
	if err != nil {
		return nil, nil, err
	}
	if c.allowRun {
		cfg.Run.Enabled = true
	}
	also = &atomic.Pointer[func(string)]{}
	svc, err = editor.New(cfg, editor.Options{
		Root:     c.root,
		StateDir: c.stateDir,
		Warn: func(msg string) {
			fmt.Fprintln(stderr, "editord: warning:", msg)
			if f := also.Load(); f != nil {
				(*f)(msg)
			}
		},
	})
	return svc, also, err
}

// watchAfterWarm bounds how long the watcher waits for the warm-up.
const watchAfterWarm = 3 * time.Second

func serve(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs, c := newFlags("serve", stderr)
	httpAddr := fs.String("http", "", "serve MCP Streamable HTTP at ADDR/mcp instead of stdio")
	token := fs.String("token", "", "bearer token for --http (visible to every user in the process list: prefer "+tokenEnv+" or --token-file; default: generated into the state dir)")
	tokenFile := fs.String("token-file", "", "read the bearer token for --http from FILE (yours, mode 0600)")
	allowRemote := fs.Bool("allow-remote", false, "let --http listen on a non-loopback address")
	openPage := fs.Bool("open", false, "with --http, open the editor page in the system browser")
	if _, err := parseInterleaved(fs, args); err != nil {
		return fail(stderr, err)
	}
	svc, warnClients, err := c.open(stderr)
	if err != nil {
		return fail(stderr, err)
	}
	// A serving process runs command after command: each one's sandbox
	// init is started ahead (after the jobs' ends, so none is left).
	sandbox.KeepSpare(true)
	defer sandbox.KeepSpare(false)
	defer svc.Close()
	ctx, stop := signalContext()
	defer stop()
	srv := protocol.NewServer(svc, version())
	warn := srv.Warn
	warnClients.Store(&warn)
	go srv.Deliver(ctx)
	// Warm the caches of the first calls (find, search, git status) while
	// the client starts up. The watcher's own first walk of the tree waits
	// for that (at most watchAfterWarm): on 2 cores two walks of a large
	// tree at once would make both, and the first calls, twice as slow.
	warmed := make(chan struct{})
	go svc.Warm(ctx, func() { close(warmed) })
	// Every serving process stands for the watcher election; the one that
	// wins reports writes made by other programs. It must stop before the
	// service closes.
	watching := make(chan struct{})
	go func() {
		defer close(watching)
		select {
		case <-warmed:
		case <-time.After(watchAfterWarm):
		case <-ctx.Done():
		}
		watch.New().Run(ctx, svc.WatchHost())
	}()
	defer func() { stop(); <-watching }()
	if *httpAddr == "" {
		growPipes(stdin, stdout)
		if err := protocol.ServeStdio(ctx, srv, stdin, stdout); err != nil && ctx.Err() == nil {
			return fail(stderr, err)
		}
		return 0
	}
	tok, where, err := httpToken(svc, *token, *tokenFile, stderr)
	if err != nil {
		return fail(stderr, err)
	}
	opt := protocol.HTTPOptions{Addr: *httpAddr, Token: tok, AllowRemote: *allowRemote}
	if *openPage {
		opt.Launch = protocol.NewLauncher(tok)
		defer opt.Launch.Close()
	}
	err = protocol.ServeHTTP(ctx, srv, opt, func(addr string) {
		page := protocol.PageURL(addr, tok)
		fmt.Fprintf(stderr, "editor: %s\n", page)
		fmt.Fprintf(stderr, "editord: serving MCP at %s with header \"Authorization: Bearer %s\" (token: %s)\n", protocol.MCPURL(addr), tok, where)
		if *openPage {
			openLaunch(svc, opt.Launch, addr, stderr)
		}
	})
	if err != nil {
		return fail(stderr, err)
	}
	return 0
}

func callCmd(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs, c := newFlags("call", stderr)
	expectedRoot := fs.String("expected-root", "", "refuse a write with a relative path unless the active root is DIR")
	asText := fs.Bool("text", false, "print the text an MCP client's model reads instead of the JSON response")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return fail(stderr, err)
	}
	if len(pos) < 1 || len(pos) > 2 {
		fmt.Fprint(stderr, "editord call: want FUNCTION [JSON], e.g. editord call editor::open '{\"path\":\"README.md\"}'\n")
		return 2
	}
	f, ok := editor.Lookup(pos[0])
	if !ok {
		f, ok = lookupTool(pos[0])
	}
	if !ok {
		fmt.Fprintf(stderr, "editord call: no function %q; `editord functions` lists them\n", pos[0])
		return 2
	}
	req := []byte("{}")
	if len(pos) == 2 {
		req = []byte(pos[1])
		if pos[1] == "-" {
			if req, err = io.ReadAll(stdin); err != nil {
				return fail(stderr, err)
			}
		}
	}
	svc, _, err := c.open(stderr)
	if err != nil {
		return fail(stderr, err)
	}
	defer svc.Close()
	ctx, stop := signalContext()
	defer stop()
	caller := editor.NewCaller("cli")
	if *expectedRoot != "" {
		// The call is then a writer that has seen this root: a relative
		// write is refused with root_changed when another is active.
		dir, err := filepath.Abs(*expectedRoot)
		if err != nil {
			return fail(stderr, err)
		}
		if canon, err := shell.Canonical(dir); err == nil {
			dir = canon
		}
		caller.SawRoot(dir)
	}
	resp, err := callUntilSignal(ctx, func() (any, error) {
		return f.Call(editor.WithCaller(ctx, caller), svc, json.RawMessage(req))
	})
	if err != nil {
		e := protocol.AsError(err)
		if *asText {
			fmt.Fprintln(stdout, protocol.CapMessage(e.Message))
		} else {
			printJSON(stdout, map[string]any{"error": e})
		}
		fmt.Fprintf(stderr, "editord: %s: %s\n", e.Code, e.Message)
		return 1
	}
	if *asText {
		fmt.Fprint(stdout, protocol.RenderText(f.ID, resp, protocol.FunctionIDs))
		return 0
	}
	printJSON(stdout, resp)
	return 0
}

// callUntilSignal runs call; on SIGINT or SIGTERM (ctx ends) the call's
// context is cancelled and it has protocol.ShutdownGrace to return, after
// which the command gives it up, so a call stuck where no context reaches
// cannot keep the process from ending.
func callUntilSignal(ctx context.Context, call func() (any, error)) (any, error) {
	type result struct {
		resp any
		err  error
	}
	done := make(chan result, 1)
	go func() {
		resp, err := call()
		done <- result{resp, err}
	}()
	select {
	case r := <-done:
		return r.resp, r.err
	case <-ctx.Done():
	}
	t := time.NewTimer(protocol.ShutdownGrace)
	defer t.Stop()
	select {
	case r := <-done:
		return r.resp, r.err
	case <-t.C:
		return nil, shell.Errorf(shell.CodeTimeout, "", "interrupted: the call did not end within %s of the signal and was abandoned", protocol.ShutdownGrace)
	}
}

// lookupTool accepts a wire name (editor_open) where a function id is wanted.
func lookupTool(name string) (*editor.Function, bool) {
	for _, f := range editor.Catalog() {
		if protocol.ToolName(f.ID) == name {
			return f, true
		}
	}
	return nil, false
}

func functionsCmd(args []string, stdout, stderr io.Writer) int {
	fs, _ := newFlags("functions", stderr)
	asJSON := fs.Bool("json", false, "print schemas as JSON")
	asMarkdown := fs.Bool("markdown", false, "print the README's function table")
	if err := fs.Parse(args); err != nil {
		return fail(stderr, err)
	}
	if *asMarkdown {
		fmt.Fprint(stdout, functionTable())
		return 0
	}
	if *asJSON {
		var out []any
		for _, f := range editor.Catalog() {
			out = append(out, protocol.DescribedTool(f))
		}
		printJSON(wire.UnescapeHTML(stdout), out)
		return 0
	}
	for _, f := range editor.Catalog() {
		fmt.Fprintf(stdout, "%-28s %-26s %s\n", f.ID, protocol.ToolName(f.ID), firstSentence(f.Description))
	}
	return 0
}

func firstSentence(s string) string {
	for i := 0; i+1 < len(s); i++ {
		if s[i] == '.' && s[i+1] == ' ' {
			return s[:i+1]
		}
	}
	return s
}

// functionTable is the README's function table, generated from the catalog.
func functionTable() string {
	var b strings.Builder
	b.WriteString("| function | MCP tool | what it does |\n|---|---|---|\n")
	for _, f := range editor.Catalog() {
		fmt.Fprintf(&b, "| `%s` | `%s` | %s |\n", f.ID, protocol.ToolName(f.ID), strings.ReplaceAll(firstSentence(f.Description), "|", "\\|"))
	}
	return b.String()
}
