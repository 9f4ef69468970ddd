package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"time"

	"github.com/editord/editord/editor"
	"github.com/editord/editord/protocol"
	"github.com/editord/editord/shell"
)

// open loads the configuration and opens the service. Warnings go to
// stderr and, once set, to also (the MCP clients of a server).
func (c *common) open(stderr io.Writer) (svc *editor.Service, also *atomic.Pointer[func(string)], err error) {
	cfg, _, err := loadConfig(c.config)
	if err != nil {
		return nil, nil, err
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

func serve(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs, c := newFlags("serve", stderr)
	httpAddr := fs.String("http", "", "serve MCP Streamable HTTP at ADDR/mcp instead of stdio")
	token := fs.String("token", "", "bearer token for --http (default: generated into the state dir)")
	allowRemote := fs.Bool("allow-remote", false, "let --http listen on a non-loopback address")
	if _, err := parseInterleaved(fs, args); err != nil {
		return fail(stderr, err)
	}
	svc, warnClients, err := c.open(stderr)
	if err != nil {
		return fail(stderr, err)
	}
	defer svc.Close()
	ctx, stop := signalContext()
	defer stop()
	srv := protocol.NewServer(svc, version())
	warn := srv.Warn
	warnClients.Store(&warn)
	go srv.Deliver(ctx)
	// Every serving process stands for the watcher election; the one that
	// wins reports writes made by other programs. It must stop before the
	// service closes.
	watching := make(chan struct{})
	go func() { defer close(watching); svc.RunWatcher(ctx) }()
	defer func() { stop(); <-watching }()
	if *httpAddr == "" {
		if err := protocol.ServeStdio(ctx, srv, stdin, stdout); err != nil && ctx.Err() == nil {
			return fail(stderr, err)
		}
		return 0
	}
	tok, where := *token, "the --token given"
	if tok == "" {
		if tok, where, err = svc.Store().Token(); err != nil {
			return fail(stderr, err)
		}
	}
	err = protocol.ServeHTTP(ctx, srv, protocol.HTTPOptions{Addr: *httpAddr, Token: tok, AllowRemote: *allowRemote}, func(addr string) {
		fmt.Fprintf(stderr, "editord: serving MCP at http://%s/mcp (bearer token: %s)\n", addr, where)
	})
	if err != nil {
		return fail(stderr, err)
	}
	return 0
}

func callCmd(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs, c := newFlags("call", stderr)
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
	resp, err := callUntilSignal(ctx, func() (any, error) {
		return f.Call(editor.WithCaller(ctx, editor.NewCaller("cli")), svc, json.RawMessage(req))
	})
	if err != nil {
		e := protocol.AsError(err)
		printJSON(stdout, map[string]any{"error": e})
		fmt.Fprintf(stderr, "editord: %s: %s\n", e.Code, e.Message)
		return 1
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
			out = append(out, protocol.Tool(f))
		}
		printJSON(stdout, out)
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
