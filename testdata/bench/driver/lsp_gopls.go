package main

// gopls asked directly: the reference column of the workspace symbol row.
// editord answers Go symbol queries from its own index and no longer asks
// gopls, so the driver speaks LSP to a gopls of its own, with the
// environment editord gives its gopls (its caches, warm from the rows
// before) and the same settings, and times the same queries.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// lspConn is a bare JSON-RPC over stdio connection to a language server.
type lspConn struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
	id  int
}

func (c *lspConn) send(msg map[string]any) {
	msg["jsonrpc"] = "2.0"
	data, err := json.Marshal(msg)
	check(err)
	_, err = fmt.Fprintf(c.in, "Content-Length: %d\r\n\r\n%s", len(data), data)
	check(err)
}

func (c *lspConn) read() map[string]json.RawMessage {
	n := -1
	for {
		line, err := c.out.ReadString('\n')
		check(err)
		line = strings.TrimSpace(line)
		if line == "" {
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
			n, _ = strconv.Atoi(v)
		}
	}
	buf := make([]byte, n)
	_, err := io.ReadFull(c.out, buf)
	check(err)
	var m map[string]json.RawMessage
	check(json.Unmarshal(buf, &m))
	return m
}

// call sends a request and answers the server's own requests (settings,
// progress, registrations) until its response comes.
func (c *lspConn) call(method string, params any, settings map[string]any) json.RawMessage {
	c.id++
	c.send(map[string]any{"id": c.id, "method": method, "params": params})
	for {
		m := c.read()
		id, method := m["id"], m["method"]
		switch {
		case method != nil && id == nil: // a notification: nothing to answer
		case method != nil:
			var result any
			if string(method) == `"workspace/configuration"` {
				var p struct{ Items []any }
				json.Unmarshal(m["params"], &p)
				items := make([]any, len(p.Items))
				for i := range items {
					items[i] = settings
				}
				result = items
			}
			c.send(map[string]any{"id": json.RawMessage(id), "result": result})
		case id != nil && string(id) == strconv.Itoa(c.id):
			if e := m["error"]; e != nil {
				panic(fmt.Sprintf("gopls %s: %s", method, e))
			}
			return m["result"]
		}
	}
}

// goplsEnv is the environment editord gives its gopls (editor/lsp's
// guards, the module cache), with home, where its caches are (the state
// dir's lsp/go/home when it ran in the sandbox), as HOME.
func goplsEnv(home, modcache string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); k != "HOME" && k != "XDG_CACHE_HOME" && k != "GOFLAGS" {
			env = append(env, kv)
		}
	}
	return append(env, "HOME="+home, "GOMODCACHE="+modcache, "GOPROXY=off", "GOTOOLCHAIN=local",
		"GOFLAGS=-mod=readonly -buildvcs=false", "CGO_ENABLED=0", "GOPACKAGESDRIVER=off", "GOTELEMETRY=off")
}

// goplsDirectSymbols starts gopls on root with env, waits for the
// workspace loaded (probe answered) and settled, and times each query.
func goplsDirectSymbols(root string, env []string, probe string, queries []string) (load time.Duration, times durs) {
	cmd := exec.Command(*goplsBin)
	cmd.Dir, cmd.Env = root, env
	var stderr strings.Builder
	cmd.Stderr = &stderr
	defer func() {
		if e := recover(); e != nil {
			panic(fmt.Sprintf("gopls asked directly: %v; its stderr: %s", e, firstLine(stderr.String())))
		}
	}()
	in, err := cmd.StdinPipe()
	check(err)
	out, err := cmd.StdoutPipe()
	check(err)
	check(cmd.Start())
	defer func() {
		in.Close()
		cmd.Process.Kill()
		cmd.Wait()
	}()
	c := &lspConn{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20)}
	settings := map[string]any{"symbolScope": "workspace"}
	t0 := time.Now()
	c.call("initialize", map[string]any{
		"processId": os.Getpid(), "rootUri": "file://" + root,
		"capabilities":          map[string]any{"workspace": map[string]any{"configuration": true}},
		"initializationOptions": settings,
		"workspaceFolders":      []any{map[string]any{"uri": "file://" + root, "name": "root"}},
	}, settings)
	c.send(map[string]any{"method": "initialized", "params": map[string]any{}})
	for {
		var res []json.RawMessage
		json.Unmarshal(c.call("workspace/symbol", map[string]any{"query": probe}, settings), &res)
		if len(res) > 0 {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	load = time.Since(t0)
	settleProc(cmd.Process.Pid, 5*time.Minute)
	for _, q := range queries {
		t := time.Now()
		c.call("workspace/symbol", map[string]any{"query": q}, settings)
		times = append(times, time.Since(t))
	}
	return load, times
}
